package agent_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/foldagent/foldagent/agent"
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
