package webmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// manyAgent offers n capabilities; the one at index flip is available
// only while on is set. Its Available costs a slice filter, so the
// benchmark measures this package's reconciliation, not a contract.
type manyAgent struct {
	descs []agent.Descriptor
	on    atomic.Bool
}

func newManyAgent(n int) *manyAgent {
	a := &manyAgent{}
	for i := range n {
		a.descs = append(a.descs, agent.Descriptor{
			Name:        fmt.Sprintf("capability_%03d", i),
			Description: "A capability.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
		})
	}
	return a
}

func (a *manyAgent) Available() ([]agent.Descriptor, error) {
	if a.on.Load() {
		return a.descs, nil
	}
	return a.descs[:len(a.descs)-1], nil
}

func (a *manyAgent) Offered(context.Context) (agent.Offer, error) {
	avail, err := a.Available()
	return agent.Offer{Capabilities: avail}, err
}

func (a *manyAgent) Describe() agent.Description { return agent.Description{Capabilities: a.descs} }

func (a *manyAgent) AvailableSet(dst []bool) ([]bool, error) {
	dst = dst[:0]
	for i := range a.descs {
		dst = append(dst, i < len(a.descs)-1 || a.on.Load())
	}
	return dst, nil
}

func (a *manyAgent) ContextRead(context.Context) (agent.Read, error) { return agent.Read{}, nil }

func (a *manyAgent) ResourceRead(_ context.Context, name string) (agent.Read, error) {
	return agent.Read{}, &agent.ResourceError{Resource: name}
}

func (a *manyAgent) CatchUp(context.Context) error { return nil }

func (a *manyAgent) Subscribe(func()) func() { return func() {} }

func (a *manyAgent) TrackOffer() agent.OfferTracker { return agent.TrackSet(a.AvailableSet) }
func (a *manyAgent) CanSubscribe() bool             { return false }

func (a *manyAgent) DispatchUnknown(context.Context, string, json.RawMessage, agent.Invocation) (agent.Result, error) {
	return agent.Result{}, nil
}

// nullContext accepts every registration at once and keeps nothing.
type nullContext struct{}

func (nullContext) RegisterTool(context.Context, Tool) (func(), error) { return func() {}, nil }

func benchRegistration(b *testing.B) (*Registration, *manyAgent) {
	a := newManyAgent(200)
	r, err := Register(context.Background(), Options{Runtime: a, ModelContext: nullContext{}, WithoutFollowingModel: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(r.Unregister)
	if err := r.Refresh(context.Background()); err != nil {
		b.Fatal(err)
	}
	return r, a
}

// BenchmarkReconcile/steady is the baseline: 200 capabilities, nothing
// changed. flip is one of the 200 appearing or disappearing on every
// pass (one registration or one abort). refresh is a whole Refresh
// round trip through the worker with one flip.
func BenchmarkReconcile(b *testing.B) {
	b.Run("steady", func(b *testing.B) {
		r, _ := benchRegistration(b)
		b.ReportAllocs()
		for b.Loop() {
			if err := r.reconcile(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("flip", func(b *testing.B) {
		r, a := benchRegistration(b)
		b.ReportAllocs()
		for b.Loop() {
			a.on.Store(!a.on.Load())
			if err := r.reconcile(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("refresh_flip", func(b *testing.B) {
		r, a := benchRegistration(b)
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			a.on.Store(!a.on.Load())
			if err := r.Refresh(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}
