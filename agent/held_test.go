package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/bound"
)

// heldTill binds the till's tip (held above 10) with a HeldBound shared
// by two runtimes, as an application binding a runtime per session does.
func heldTill(t *testing.T, held *agent.HeldBound[string]) (*tillFixture, *agent.Runtime[till, any, string]) {
	t.Helper()
	tip := agent.Expose(agent.Variant[Tip, till, string]{
		Name: "tip", Description: "Leave a tip.",
		Approval: &agent.Approval[Tip, till, string]{Summary: "Leave a tip.",
			When: func(in Tip, _ agent.Call[till, string]) bool { return in.Amount > 10 }},
	})
	c := agent.Make(agent.Definition[till, string]{Capabilities: []agent.Capability[till, string]{tip}})
	prog := loop.New(loop.Funcs(func() (till, loop.Cmd[any]) { return till{}, nil }, tillUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	bind := func() *agent.Runtime[till, any, string] {
		return agent.MustBind(c, prog, &agent.BindOptions[string]{
			HeldBound: held,
			Principal: func(ctx context.Context, _ agent.Invocation) (string, error) { return agent.CallerFrom(ctx), nil },
		})
	}
	return &tillFixture{t: t, prog: prog}, bind()
}

func TestHeldApprovalsAreBoundedPerIdentityAndInAll(t *testing.T) {
	held := agent.NewHeldBound(2, 3, func(_ context.Context, who string) string { return strings.TrimSuffix(who, "#2") })
	f, rt := heldTill(t, held)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type answer struct{ err error }
	hold := func(caller string) <-chan answer {
		out := make(chan answer, 1)
		go func() {
			_, err := rt.DispatchUnknown(agent.WithCaller(ctx, caller), "tip", json.RawMessage(`{"Amount":50}`), agent.Invocation{Transport: agent.MCP})
			out <- answer{err}
		}()
		return out
	}
	a1 := hold("alice")
	a2 := hold("alice#2") // the same identity, another session
	f.asked(2)
	// alice's third is refused at once, held nowhere, naming her bound.
	_, err := rt.DispatchUnknown(agent.WithCaller(ctx, "alice"), "tip", json.RawMessage(`{"Amount":50}`), agent.Invocation{Transport: agent.MCP})
	var busy *agent.RetryLaterError
	if !errors.As(err, &busy) || !errors.Is(err, bound.ErrRetryLater) || busy.Bound != "MaxHeldPerIdentity" || busy.Limit != 2 || !busy.PerIdentity || busy.RetryAfter <= 0 {
		t.Fatalf("alice's third held call: %v (%+v), want a per-identity RetryLaterError", err, busy)
	}
	b, _ := json.Marshal(busy)
	var wire map[string]any
	_ = json.Unmarshal(b, &wire)
	if wire["_tag"] != agent.TagRetryLater || wire["bound"] != "MaxHeldPerIdentity" || wire["retryAfterSeconds"] != 1.0 || wire["retrySafe"] != true {
		t.Fatalf("wire form %s", b)
	}
	if strings.Contains(busy.Error(), "alice") || strings.Contains(busy.Error(), "2") {
		t.Fatalf("runtime values in the sentence: %q", busy.Error())
	}
	// bob is not affected by alice's bound...
	b1 := hold("bob")
	f.asked(3)
	// ...but the overall bound (3) now refuses everyone, bob included.
	_, err = rt.DispatchUnknown(agent.WithCaller(ctx, "carol"), "tip", json.RawMessage(`{"Amount":50}`), agent.Invocation{Transport: agent.MCP})
	if !errors.As(err, &busy) || busy.Bound != "MaxHeld" || busy.PerIdentity || busy.Limit != 3 {
		t.Fatalf("past the overall bound: %v", err)
	}
	if held.Held() != 3 || len(rt.PendingApprovals()) != 3 {
		t.Fatalf("held %d, pending %d; want 3 and 3", held.Held(), len(rt.PendingApprovals()))
	}
	// A call under the approval threshold is not held and not bounded.
	if _, err := rt.DispatchUnknown(agent.WithCaller(ctx, "alice"), "tip", json.RawMessage(`{"Amount":5}`), agent.Invocation{Transport: agent.MCP}); err != nil {
		t.Fatalf("an unheld call: %v", err)
	}
	// Ending the held calls gives every place back.
	cancel()
	for _, ch := range []<-chan answer{a1, a2, b1} {
		if r := <-ch; r.err == nil {
			t.Fatal("a cancelled held call succeeded")
		}
	}
	if held.Held() != 0 {
		t.Fatalf("held after every call ended: %d", held.Held())
	}
	if _, err := rt.DispatchUnknown(agent.WithCaller(context.Background(), "alice"), "tip", json.RawMessage(`{"Amount":5}`), agent.Invocation{Transport: agent.MCP}); err != nil {
		t.Fatal(err)
	}
}

// By default each runtime counts by caller: one caller flooding held
// calls is refused past DefaultMaxHeldPerIdentity, another is held.
func TestHeldApprovalsDefaultBound(t *testing.T) {
	f, rt := heldTill(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i := range agent.DefaultMaxHeldPerIdentity {
		go func() {
			_, _ = rt.DispatchUnknown(agent.WithCaller(ctx, "flood"), "tip", json.RawMessage(fmt.Sprintf(`{"Amount":%d}`, 11+i)), agent.Invocation{Transport: agent.MCP})
		}()
	}
	f.asked(agent.DefaultMaxHeldPerIdentity)
	_, err := rt.DispatchUnknown(agent.WithCaller(ctx, "flood"), "tip", json.RawMessage(`{"Amount":99}`), agent.Invocation{Transport: agent.MCP})
	var busy *agent.RetryLaterError
	if !errors.As(err, &busy) || busy.Bound != "MaxHeldPerIdentity" {
		t.Fatalf("the flood's next call: %v", err)
	}
	go func() {
		_, _ = rt.DispatchUnknown(agent.WithCaller(ctx, "other"), "tip", json.RawMessage(`{"Amount":99}`), agent.Invocation{Transport: agent.MCP})
	}()
	f.asked(agent.DefaultMaxHeldPerIdentity + 1)
}
