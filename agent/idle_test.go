package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// queuedSignal is a host/loop Program that says when it has queued a
// Message, so a test can act exactly then.
type queuedSignal struct {
	*loop.Program[cmpModel, cmpMsg]
	once   sync.Once
	queued chan struct{}
}

func (q *queuedSignal) DispatchTracked(ctx context.Context, msg cmpMsg, delivered func(error)) error {
	err := q.Program.DispatchTracked(ctx, msg, delivered)
	q.once.Do(func() { close(q.queued) })
	return err
}

// A Program whose Run was never called: it queues every Message, and
// update never takes one.
func idleProgram() *queuedSignal {
	p := loop.New(loop.Funcs(
		func() (cmpModel, loop.Cmd[cmpMsg]) { return cmpModel{}, nil },
		func(m cmpModel, _ cmpMsg) (cmpModel, loop.Cmd[cmpMsg]) { return m, nil },
	), nil)
	return &queuedSignal{Program: p, queued: make(chan struct{})}
}

// Forgetting to run the host: the agent is told only that delivery is
// unknown, and the error's cause tells the developer that the host
// accepted the Message and update never took it (agent.ErrHostIdle), on a
// completion deadline, on a cancelled completion wait and on a cancelled
// plain call alike.
func TestHostNeverRunIsNamedInTheCause(t *testing.T) {
	deadline := agent.ExposeMapped(agent.Mapped[cmpCreateInput, cmpCreate, cmpModel, cmpUser]{
		Name: "create_todo", Description: "Create.",
		ToMessage: func(in cmpCreateInput, c cmpCall) cmpCreate {
			return cmpCreate{Title: in.Title, RequestID: c.Invocation.ID}
		},
		// However short the deadline, the host's answer is waited for:
		// a Program's DispatchTracked never blocks.
		Completion: agent.CompleteOn(agent.On(func(_ cmpCreateInput, got cmpCreated, inv agent.Invocation) bool {
			return got.RequestID == inv.ID
		})).Within(time.Nanosecond),
	})
	waiting := agent.ExposeMapped(agent.Mapped[cmpCreateInput, cmpCreate, cmpModel, cmpUser]{
		Name: "create_slowly", Description: "Create.",
		ToMessage: func(in cmpCreateInput, c cmpCall) cmpCreate {
			return cmpCreate{Title: in.Title, RequestID: c.Invocation.ID}
		},
		Completion: agent.CompleteOn(agent.On(func(_ cmpCreateInput, got cmpCreated, inv agent.Invocation) bool {
			return got.RequestID == inv.ID
		})).Within(time.Hour),
	})
	plain := agent.Expose(agent.Variant[cmpPing, cmpModel, cmpUser]{Name: "ping", Description: "Ping."})
	// One Message type is exposed once per contract.
	contract := agent.Make(agent.Definition[cmpModel, cmpUser]{Capabilities: []agent.Capability[cmpModel, cmpUser]{deadline, plain}})
	slow := agent.Make(agent.Definition[cmpModel, cmpUser]{Capabilities: []agent.Capability[cmpModel, cmpUser]{waiting}})

	t.Run("completion deadline", func(t *testing.T) {
		rt := agent.MustBind(contract, idleProgram(), nil)
		_, err := rt.DispatchUnknown(context.Background(), "create_todo", json.RawMessage(`{"title":"Milk"}`), agent.Invocation{})
		var te *agent.CompletionTimeoutError
		if !errors.As(err, &te) || !te.DeliveryUnknown || !errors.Is(err, agent.ErrHostIdle) {
			t.Fatalf("err = %#v, want a completion timeout, delivery unknown, caused by ErrHostIdle", err)
		}
	})
	for _, name := range []string{"create_slowly", "ping"} {
		t.Run("cancelled "+name, func(t *testing.T) {
			host := idleProgram()
			c := contract
			if name == "create_slowly" {
				c = slow
			}
			rt := agent.MustBind(c, host, nil)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				<-host.queued
				cancel()
			}()
			payload := `{"title":"Milk"}`
			if name == "ping" {
				payload = `{}`
			}
			_, err := rt.DispatchUnknown(ctx, name, json.RawMessage(payload), agent.Invocation{})
			var ce *agent.CancelledError
			if !errors.As(err, &ce) || !ce.DeliveryUnknown || !errors.Is(err, agent.ErrHostIdle) || !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %#v, want cancelled, delivery unknown, caused by the context and ErrHostIdle", err)
			}
		})
	}

	// A host that has not accepted the Message (its Dispatch still
	// blocked) is not called idle.
	t.Run("blocked host", func(t *testing.T) {
		h := newCmpHost()
		block := make(chan struct{})
		defer close(block)
		called := make(chan struct{})
		h.dispatchFn = func(context.Context, cmpMsg) error { close(called); <-block; return nil }
		rt := agent.MustBind(contract, h, nil)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			<-called
			cancel()
		}()
		_, err := rt.DispatchUnknown(ctx, "ping", json.RawMessage(`{}`), agent.Invocation{})
		var ce *agent.CancelledError
		if !errors.As(err, &ce) || !ce.DeliveryUnknown || errors.Is(err, agent.ErrHostIdle) {
			t.Fatalf("err = %#v, want cancelled, delivery unknown, not ErrHostIdle", err)
		}
	})
}
