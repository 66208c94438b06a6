package agent_test

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// A realistic capability: available + authorize + a 3-field input.
type PlaceOrder struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
	Note     string `json:"note"`
}

func (PlaceOrder) isMsg() {}

// benchHost applies nothing: it stores the last Message, so both sides of
// the comparison pay the same host cost.
type benchHost struct {
	model Model
	last  atomic.Value
	n     atomic.Int64
}

func (h *benchHost) Model() Model { return h.model }
func (h *benchHost) Dispatch(_ context.Context, msg Msg) error {
	h.last.Store(msg)
	h.n.Add(1)
	return nil
}

var orderPayload = json.RawMessage(`{"sku":"SKU-1234","quantity":3,"note":"leave at the door"}`)

func benchRuntime() (*agent.Runtime[Model, Msg, User], *benchHost) {
	h := &benchHost{model: selectedModel()}
	c := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[PlaceOrder]{
			Description: "Place an order.",
			Available:   func(m Model) bool { return len(m.Todos) > 0 },
			Authorize: func(_ context.Context, _ PlaceOrder, call agent.Call[Model, User]) (agent.Decision, error) {
				if call.Principal.Role != "owner" {
					return agent.Refuse, nil
				}
				return agent.Allow, nil
			},
		}),
	}})
	rt := agent.MustBind(c, h, owner())
	return rt, h
}

// BenchmarkDispatchUnknown measures the contract's whole path for a
// realistic capability. Compare with BenchmarkDispatchBaseline: the target
// is at most 2x.
func BenchmarkDispatchUnknown(b *testing.B) {
	rt, h := benchRuntime()
	ctx := context.Background()
	inv := agent.Invocation{ID: "bench", Transport: agent.MCP}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rt.DispatchUnknown(ctx, "place_order", orderPayload, inv); err != nil {
			b.Fatal(err)
		}
	}
	if h.n.Load() == 0 {
		b.Fatal("nothing dispatched")
	}
}

// BenchmarkDispatchBaseline is what a hand-written handler does: decode
// the same JSON with encoding/json into the same struct and hand it to the
// same host.
func BenchmarkDispatchBaseline(b *testing.B) {
	h := &benchHost{model: selectedModel()}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		var in PlaceOrder
		if err := json.Unmarshal(orderPayload, &in); err != nil {
			b.Fatal(err)
		}
		if err := h.Dispatch(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}

// loopBenchApp is a real application on host/loop whose update takes the
// Message and keeps the Model as it is, so the loop's own cost (queue,
// update goroutine, listeners) is what the adapter path pays beside the
// contract's.
type loopBenchApp struct{ model Model }

func (a loopBenchApp) Init() (Model, loop.Cmd[Msg])               { return a.model, nil }
func (loopBenchApp) Update(m Model, _ Msg) (Model, loop.Cmd[Msg]) { return m, nil }

// queueHost is shaped like host/loop and host/teahost as the issue that
// set the target knew them: Dispatch appends to a queue under a lock and
// returns, never blocking (agent.NonBlocking), without tracking delivery.
type queueHost struct {
	model Model
	mu    sync.Mutex
	queue []Msg
	n     int
}

func (h *queueHost) Model() Model { return h.model }
func (h *queueHost) Dispatch(ctx context.Context, msg Msg) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	h.mu.Lock()
	if len(h.queue) == 256 { // an update goroutine would have taken them
		clear(h.queue)
		h.queue = h.queue[:0]
	}
	h.queue = append(h.queue, msg)
	h.n++
	h.mu.Unlock()
	return nil
}
func (*queueHost) DispatchNeverBlocks() bool { return true }

// BenchmarkDispatchAdapterPath is DispatchUnknown as every adapter calls
// it: no invocation id (the runtime mints one) and the request's
// cancellable context. Compare with BenchmarkDispatchBaseline from the
// same run: the target is at most 1.5x.
//
//   - loop: the host is host/loop itself, which tracks delivery
//     (agent.DeliveryTracker), so each call also learns that update took
//     the Message, which the baseline never does. The loop is idle
//     between calls, so DispatchTracked applies the Message on the
//     caller's goroutine (host/loop's BenchmarkDispatchTrackedRoundTrip):
//     update and the listeners run within the call, with no goroutine
//     switch.
//   - queue: a host that only enqueues, as the target was set against.
func BenchmarkDispatchAdapterPath(b *testing.B) {
	contract := adapterPathContract
	run := func(b *testing.B, rt *agent.Runtime[Model, Msg, User]) {
		// The request's context: cancellable, as net/http and the MCP SDK
		// hand it to a handler.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := rt.DispatchUnknown(ctx, "place_order", orderPayload, agent.Invocation{Transport: agent.MCP}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("loop", func(b *testing.B) {
		p := loop.New[Model, Msg](loopBenchApp{model: selectedModel()}, nil)
		var applied atomic.Int64
		p.Subscribe(func() { applied.Add(1) })
		runCtx, stop := context.WithCancel(context.Background())
		defer stop()
		go p.Run(runCtx)
		run(b, agent.MustBind(contract(), p, owner()))
		if applied.Load() == 0 {
			b.Fatal("nothing applied")
		}
	})
	b.Run("queue", func(b *testing.B) {
		h := &queueHost{model: selectedModel()}
		run(b, agent.MustBind(contract(), h, owner()))
		if h.n == 0 {
			b.Fatal("nothing dispatched")
		}
	})
}

// adapterPathContract is BenchmarkDispatchAdapterPath's contract: one
// capability with an availability predicate, an authorization hook and a
// 3-field input.
func adapterPathContract() *agent.Contract[Model, User] {
	return agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[PlaceOrder]{
			Description: "Place an order.",
			Available:   func(m Model) bool { return len(m.Todos) > 0 },
			Authorize: func(_ context.Context, _ PlaceOrder, call agent.Call[Model, User]) (agent.Decision, error) {
				if call.Principal.Role != "owner" {
					return agent.Refuse, nil
				}
				return agent.Allow, nil
			},
		}),
	}})
}
