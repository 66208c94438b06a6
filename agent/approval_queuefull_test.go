package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
)

// cardRefusingHost is a loop whose queue is full exactly when the card
// asking the person is handed over: every other Message goes through.
type cardRefusingHost struct {
	*loop.Program[till, any]
	refuse error
}

func (h cardRefusingHost) Dispatch(ctx context.Context, msg any) error {
	if _, card := msg.(agent.ApprovalAsked); card {
		return h.refuse
	}
	return h.Program.Dispatch(ctx, msg)
}

// A card that could not reach the person because the queue was full (the
// program still runs, the person is still there) leaves the caller told
// that nothing happened and a retry is safe, never that the person left:
// only a stopped program says that.
func TestACardRefusedByAFullQueueIsRetrySafe(t *testing.T) {
	pay := agent.ExposeMapped(agent.Mapped[agent.NoInput, PayNow, till, agent.NoPrincipal]{
		Name: "pay", Description: "Pay for the order under review.",
		Available: func(m till) bool { return m.Order != "" },
		ToMessage: func(_ agent.NoInput, c agent.Call[till, agent.NoPrincipal]) PayNow {
			return PayNow{Order: c.Model.Order}
		},
		Approval: &agent.Approval[agent.NoInput, till, agent.NoPrincipal]{Summary: "Pay for the order under review."},
	})
	c := agent.Make(agent.Definition[till, agent.NoPrincipal]{Capabilities: []agent.Capability[till, agent.NoPrincipal]{pay}})
	for _, refuse := range []error{loop.ErrQueueFull, loop.ErrStopped} {
		prog := loop.New(loop.Funcs(func() (till, loop.Cmd[any]) { return till{}, nil }, tillUpdate), nil)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); _ = prog.Run(ctx) }()
		rt := agent.MustBind(c, cardRefusingHost{prog, refuse}, &agent.BindOptions[agent.NoPrincipal]{ApprovalTimeout: time.Minute})
		if err := prog.Dispatch(context.Background(), Review{Order: "order-1", Total: 120}); err != nil {
			t.Fatal(err)
		}
		loopwait.UntilWithin(t, prog, 10*time.Second, "the order under review", func(m till) bool { return m.Order != "" })
		_, err := rt.DispatchUnknown(context.Background(), "pay", json.RawMessage(`{}`), agent.Invocation{Transport: agent.MCP})
		cancel()
		<-done
		var nd *agent.NotDeliveredError
		var left *agent.PersonLeftError
		switch {
		case refuse == loop.ErrQueueFull && (!errors.As(err, &nd) || !nd.RetrySafe):
			t.Fatalf("a card refused by a full queue: the caller was told %T %v, not that nothing happened and a retry is safe", err, err)
		case refuse == loop.ErrStopped && !errors.As(err, &left):
			t.Fatalf("a card refused by a stopped program: the caller was told %T %v, not that the person left", err, err)
		}
	}
}
