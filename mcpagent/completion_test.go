package mcpagent_test

import (
	"context"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A job application whose work finishes later, through a Cmd: the tool
// call waits for the completion contract.

type jobMsg interface{ isJob() }

type StartJob struct {
	Fail    bool `json:"fail"`
	DelayMS int  `json:"delay_ms"`
}
type JobFinished struct{}
type JobBroke struct{}

func (StartJob) isJob()    {}
func (JobFinished) isJob() {}
func (JobBroke) isJob()    {}

func jobUpdate(m int, msg jobMsg) (int, loop.Cmd[jobMsg]) {
	start, ok := msg.(StartJob)
	if !ok {
		return m + 1, nil
	}
	return m, func(ctx context.Context, send func(jobMsg)) {
		select {
		case <-time.After(time.Duration(start.DelayMS) * time.Millisecond):
		case <-ctx.Done():
			return
		}
		if start.Fail {
			send(JobBroke{})
		} else {
			send(JobFinished{})
		}
	}
}

func jobRuntime(t *testing.T) *agent.Runtime[int, jobMsg, agent.NoPrincipal] {
	t.Helper()
	prog := loop.New[int, jobMsg](loop.Funcs(func() (int, loop.Cmd[jobMsg]) { return 0, nil }, jobUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	c := agent.Make(agent.Definition[int, agent.NoPrincipal]{
		Capabilities: []agent.Capability[int, agent.NoPrincipal]{
			agent.Expose(agent.Variant[StartJob, int, agent.NoPrincipal]{
				Description: "Start a job and wait for it to finish.",
				Completion: agent.CompleteOn(
					agent.OnType[StartJob, JobFinished](),
				).FailOn(
					agent.OnType[StartJob, JobBroke](),
				).Within(300 * time.Millisecond),
			}),
		},
	})
	return agent.MustBind[int, jobMsg, agent.NoPrincipal](c, prog, nil)
}

func TestCompletionIsReported(t *testing.T) {
	_, cs := connect(t, jobRuntime(t), nil, nil)

	res := call(t, cs, "start_job", map[string]any{"fail": false, "delay_ms": 5})
	if res.IsError || text(res) != "Completed: JobFinished" {
		t.Fatalf("success: isError %v, text %q", res.IsError, text(res))
	}
	completion, _ := structured(t, res)["completion"].(map[string]any)
	if completion["status"] != "completed" || completion["tag"] != "JobFinished" {
		t.Fatalf("completion = %v", completion)
	}

	res = call(t, cs, "start_job", map[string]any{"fail": true, "delay_ms": 5})
	if !res.IsError || text(res) != "Failed: JobBroke" {
		t.Fatalf("failure: isError %v, text %q", res.IsError, text(res))
	}
	completion, _ = structured(t, res)["completion"].(map[string]any)
	if completion["status"] != "failed" || completion["tag"] != "JobBroke" {
		t.Fatalf("completion = %v", completion)
	}

	res = call(t, cs, "start_job", map[string]any{"fail": false, "delay_ms": 2000})
	if !res.IsError || structured(t, res)["_tag"] != agent.TagCompletionTimeout {
		t.Fatalf("timeout: isError %v, %v", res.IsError, structured(t, res))
	}
}

func TestProgressWhileWaitingForCompletion(t *testing.T) {
	// The job finishes only once the client has seen three progress
	// notifications, so the test waits for the state it checks rather
	// than racing a fixed delay against the machine's load.
	release := make(chan struct{})
	prog := loop.New[int, jobMsg](loop.Funcs(func() (int, loop.Cmd[jobMsg]) { return 0, nil },
		func(m int, msg jobMsg) (int, loop.Cmd[jobMsg]) {
			if _, ok := msg.(StartJob); !ok {
				return m + 1, nil
			}
			return m, func(ctx context.Context, send func(jobMsg)) {
				select {
				case <-release:
					send(JobFinished{})
				case <-ctx.Done():
				}
			}
		}), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	c := agent.Make(agent.Definition[int, agent.NoPrincipal]{
		Capabilities: []agent.Capability[int, agent.NoPrincipal]{
			agent.Expose(agent.Variant[StartJob, int, agent.NoPrincipal]{
				Description: "Start a job and wait for it to finish.",
				Completion:  agent.CompleteOn(agent.OnType[StartJob, JobFinished]()).Within(time.Minute),
			}),
		},
	})
	rt := agent.MustBind[int, jobMsg, agent.NoPrincipal](c, prog, nil)

	ev := newEvents()
	_, cs := connect(t, rt, &mcpagent.Options{ProgressInterval: 10 * time.Millisecond}, ev)
	p := &mcp.CallToolParams{Name: "start_job", Arguments: map[string]any{"fail": false, "delay_ms": 0}}
	p.SetProgressToken(42)
	type outcome struct {
		res *mcp.CallToolResult
		err error
	}
	called := make(chan outcome, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), p)
		called <- outcome{res, err}
	}()
	ev.waitFor(t, "three progress notifications", func() bool { return len(ev.progressed()) >= 3 })
	close(release)
	out := <-called
	if out.err != nil || out.res.IsError {
		t.Fatalf("call: %v %v", out.err, out.res)
	}
	got := ev.progressed()
	for i, n := range got {
		if n.Message == "" || (i > 0 && n.Progress <= got[i-1].Progress) {
			t.Fatalf("notification %d: %+v", i, n)
		}
	}
}
