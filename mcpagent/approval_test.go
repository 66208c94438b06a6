package mcpagent_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
)

// A register the person keeps open: an agent's refund waits for them.
type register struct {
	Refunded []string
	Asked    []agent.ApprovalRequest
}

type Refund struct {
	Order string `json:"order"`
}

func registerRuntime(t *testing.T) (*loop.Program[register, any], *agent.Runtime[register, any, agent.NoPrincipal]) {
	t.Helper()
	refund := agent.Expose(agent.Variant[Refund, register, agent.NoPrincipal]{
		Name: "refund", Description: "Refund an order.",
		Approval: &agent.Approval[Refund, register, agent.NoPrincipal]{Summary: "Refund this order."},
	})
	c := agent.Make(agent.Definition[register, agent.NoPrincipal]{Capabilities: []agent.Capability[register, agent.NoPrincipal]{refund}})
	prog := loop.New(loop.Funcs(func() (register, loop.Cmd[any]) { return register{}, nil },
		func(m register, msg any) (register, loop.Cmd[any]) {
			switch msg := msg.(type) {
			case Refund:
				m.Refunded = append(slices.Clone(m.Refunded), msg.Order)
			case agent.ApprovalAsked:
				m.Asked = append(slices.Clone(m.Asked), msg.Request)
			case agent.ApprovalWithdrawn:
				m.Asked = slices.DeleteFunc(slices.Clone(m.Asked), func(q agent.ApprovalRequest) bool { return q.ID == msg.ID })
			}
			return m, nil
		}), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return prog, agent.MustBind(c, prog, nil)
}

// An agent's call that needs the person's approval waits, and the client
// that asked for progress is told it waits for the person; the person's
// answer in the app ends it: approved, it runs; declined, it is a tool
// error tagged AgentDeclinedError and nothing ran.
func TestCallWaitsForThePersonWithProgress(t *testing.T) {
	prog, rt := registerRuntime(t)
	ev := newEvents()
	_, cs := connect(t, rt, nil, ev)
	call := func(order string, token any) <-chan *mcp.CallToolResult {
		out := make(chan *mcp.CallToolResult, 1)
		go func() {
			p := &mcp.CallToolParams{Name: "refund", Arguments: map[string]any{"order": order}}
			p.SetProgressToken(token)
			res, err := cs.CallTool(context.Background(), p)
			if err != nil {
				t.Error(err)
			}
			out <- res
		}()
		return out
	}
	asked := func() agent.ApprovalRequest {
		t.Helper()
		m := loopwait.Until(t, prog, "the request to reach the app", func(m register) bool { return len(m.Asked) == 1 })
		return m.Asked[0]
	}

	res := call("order-7", "tok-1")
	req := asked()
	ev.waitFor(t, "the waiting progress", func() bool {
		p := ev.progressed()
		return len(p) == 1 && p[0].ProgressToken == "tok-1" && p[0].Message == "Waiting for the person to approve this in the app."
	})
	if string(req.Input) != `{"order":"order-7"}` {
		t.Fatalf("request input = %s", req.Input)
	}
	if err := prog.Dispatch(context.Background(), req.Approve("")); err != nil {
		t.Fatal(err)
	}
	if r := <-res; r == nil || r.IsError {
		t.Fatalf("approved call = %+v", r)
	}
	if m := loopwait.Until(t, prog, "the refund", func(m register) bool { return len(m.Refunded) > 0 }); !slices.Equal(m.Refunded, []string{"order-7"}) {
		t.Fatalf("refunded = %v", m.Refunded)
	}

	res = call("order-8", "tok-2")
	req = asked()
	if err := prog.Dispatch(context.Background(), agent.ApprovalAnswer{ID: req.ID, Reason: "already refunded by phone"}); err != nil {
		t.Fatal(err)
	}
	r := <-res
	if r == nil || !r.IsError {
		t.Fatalf("declined call = %+v", r)
	}
	var data map[string]any
	b, _ := json.Marshal(r.StructuredContent)
	_ = json.Unmarshal(b, &data)
	if data["_tag"] != agent.TagDeclined || data["reason"] != "already refunded by phone" {
		t.Fatalf("declined data = %s", b)
	}
	if got := prog.Model().Refunded; !slices.Equal(got, []string{"order-7"}) {
		t.Fatalf("a declined refund ran: %v", got)
	}
}
