package agent_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// Each cancellation point, with its Dispatched flag and its audit decision.

func cmpAudited(t *testing.T, h *cmpHost, caps ...agent.Capability[cmpModel, cmpUser]) (*agent.Runtime[cmpModel, cmpMsg, cmpUser], *agent.AuditLog[cmpUser]) {
	t.Helper()
	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{Principal: func(u cmpUser) string { return u.ID }})
	rt := cmpBind(cmpContract(caps...), h, &agent.BindOptions[cmpUser]{Audit: audit, Principal: cmpPrincipal})
	return rt, audit
}

func onlyEntry(t *testing.T, audit *agent.AuditLog[cmpUser]) agent.AuditEntry {
	t.Helper()
	e := audit.Entries()
	if len(e) != 1 {
		t.Fatalf("audit holds %d entries, want 1: %+v", len(e), e)
	}
	return e[0]
}

func TestCancelledBeforeDispatchIsRefusedBeforeTheModelIsRead(t *testing.T) {
	h := newCmpHost()
	rt, audit := cmpAudited(t, h)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := cmpDispatch(t, rt, ctx, "create_todo", `{"title":"Milk"}`, agent.Invocation{})
	var ce *agent.CancelledError
	if !errors.As(err, &ce) || ce.Dispatched || ce.DeliveryUnknown || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %#v", err)
	}
	if h.modelReads.Load() != 0 || h.observeCalls.Load() != 0 || len(h.sentMessages()) != 0 {
		t.Fatal("an already-cancelled invocation touched the host")
	}
	if e := onlyEntry(t, audit); e.Decision != agent.DecisionRefused || e.Outcome != agent.TagCancelled || e.Principal != "" {
		t.Fatalf("audit = %+v", e)
	}
}

func TestCancelledDuringAuthorizeBuildsNothing(t *testing.T) {
	h := newCmpHost()
	ctx, cancel := context.WithCancel(context.Background())
	built := false
	create := agent.ExposeMapped(agent.Mapped[cmpCreateInput, cmpCreate, cmpModel, cmpUser]{
		Name:        "create_todo",
		Description: "Create.",
		Authorize: func(context.Context, cmpCreateInput, agent.Call[cmpModel, cmpUser]) (agent.Decision, error) {
			cancel() // the caller gives up while authorize is pending
			return agent.Allow, nil
		},
		ToMessage: func(in cmpCreateInput, _ cmpCall) cmpCreate {
			built = true
			return cmpCreate{Title: in.Title}
		},
		Completion: agent.CompleteOn(
			agent.OnType[cmpCreateInput, cmpCreated](),
		),
	})
	rt, audit := cmpAudited(t, h, create)
	_, err := cmpDispatch(t, rt, ctx, "create_todo", `{"title":"Milk"}`, agent.Invocation{})
	var ce *agent.CancelledError
	if !errors.As(err, &ce) || ce.Dispatched || ce.DeliveryUnknown {
		t.Fatalf("err = %#v", err)
	}
	if !strings.Contains(err.Error(), "nothing happened") {
		t.Fatalf("message = %q", err)
	}
	if built || len(h.sentMessages()) != 0 || h.observeCalls.Load() != 0 {
		t.Fatalf("built=%v sent=%d observe=%d", built, len(h.sentMessages()), h.observeCalls.Load())
	}
	// The principal was resolved before authorize, so the entry keeps it.
	if e := onlyEntry(t, audit); e.Decision != agent.DecisionRefused || e.Outcome != agent.TagCancelled || e.Principal != "u-7" {
		t.Fatalf("audit = %+v", e)
	}
}

func TestCancelledWhileWaitingForCompletion(t *testing.T) {
	h := newCmpHost()
	h.manual = true // the fact never comes
	// A host that declares its Dispatch never blocks: once the host has
	// the Message, a cancellation is judged on what its Dispatch returned
	// (it returns at once), however the goroutines are scheduled.
	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{Principal: func(u cmpUser) string { return u.ID }})
	rt := agent.MustBind(cmpContract(), plainNB{h}, &agent.BindOptions[cmpUser]{Audit: audit, Principal: cmpPrincipal})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// The Message is recorded inside the host's Dispatch: it is
		// delivered, and the cancellation lands while waiting.
		cmpUntil(func() bool { return len(h.sentMessages()) == 1 })
		cancel()
	}()
	_, err := cmpDispatch(t, rt, ctx, "create_todo", `{"title":"Milk"}`, agent.Invocation{})
	var ce *agent.CancelledError
	if !errors.As(err, &ce) || !ce.Dispatched || ce.DeliveryUnknown {
		t.Fatalf("err = %#v", err)
	}
	if !strings.Contains(err.Error(), "reached update") {
		t.Fatalf("the message must say the Message reached update: %q", err)
	}
	if e := onlyEntry(t, audit); e.Decision != agent.DecisionDispatched || e.Outcome != agent.TagCancelled {
		t.Fatalf("audit = %+v", e)
	}
	if _, obs := h.listeners(); obs != 0 {
		t.Fatal("the waiter was not released")
	}
}

// A cancellation that lands while the host's Dispatch has not returned
// settles the call with delivery unknown, with or without a completion
// contract.
func TestCancelledWhileHostDispatchPending(t *testing.T) {
	for _, name := range []string{"create_todo", "noise"} {
		t.Run(name, func(t *testing.T) {
			h := newCmpHost()
			block := make(chan struct{})
			defer close(block)
			// Cancelled once the host has the Message: not before it, which
			// would be a refusal before dispatch.
			called := make(chan struct{})
			h.dispatchFn = func(context.Context, cmpMsg) error { close(called); <-block; return nil }
			rt, audit := cmpAudited(t, h)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				<-called
				cancel()
			}()
			payload := `{}`
			if name == "create_todo" {
				payload = `{"title":"Milk"}`
			}
			_, err := cmpDispatch(t, rt, ctx, name, payload, agent.Invocation{})
			var ce *agent.CancelledError
			if !errors.As(err, &ce) || ce.Dispatched || !ce.DeliveryUnknown {
				t.Fatalf("err = %#v", err)
			}
			if !strings.Contains(err.Error(), "unknown") {
				t.Fatalf("message = %q", err)
			}
			if e := onlyEntry(t, audit); e.Decision != agent.DecisionUnknown || e.Outcome != agent.TagCancelled {
				t.Fatalf("audit = %+v", e)
			}
			if _, obs := h.listeners(); obs != 0 {
				t.Fatal("the waiter was not released")
			}
		})
	}
}

// A dispatching goroutine torn down by runtime.Goexit inside application
// code (t.FailNow in a hook, say) still leaves exactly one entry.
func TestInterruptedInvocationIsAudited(t *testing.T) {
	h := newCmpHost()
	create := agent.ExposeMapped(agent.Mapped[cmpCreateInput, cmpCreate, cmpModel, cmpUser]{
		Name:        "create_todo",
		Description: "Create.",
		Authorize: func(context.Context, cmpCreateInput, agent.Call[cmpModel, cmpUser]) (agent.Decision, error) {
			runtime.Goexit()
			return agent.Allow, nil
		},
		ToMessage: func(in cmpCreateInput, _ cmpCall) cmpCreate { return cmpCreate{Title: in.Title} },
	})
	rt, audit := cmpAudited(t, h, create)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"Milk"}`, agent.Invocation{ID: "inv-x"})
	}()
	<-done
	if e := onlyEntry(t, audit); e.Decision != agent.DecisionRefused || e.Outcome != agent.OutcomeInterrupted || e.Invocation != "inv-x" {
		t.Fatalf("audit = %+v", e)
	}
}
