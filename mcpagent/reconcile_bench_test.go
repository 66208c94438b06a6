package mcpagent

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// flipRuntime has n capabilities; capability 0 is available when on is
// true, the others always. Available does what *agent.Runtime.Available
// does: one predicate per capability and a fresh slice of descriptors.
type flipRuntime struct {
	list []agent.Descriptor
	on   bool
}

func newFlipRuntime(n int) *flipRuntime {
	f := &flipRuntime{on: true}
	for i := range n {
		f.list = append(f.list, agent.Descriptor{
			Name:        fmt.Sprintf("capability_%04d", i),
			Description: "A capability.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
		})
	}
	return f
}

func (f *flipRuntime) available(i int) bool { return i != 0 || f.on }

func (f *flipRuntime) Describe() agent.Description { return agent.Description{Capabilities: f.list} }
func (f *flipRuntime) Available() ([]agent.Descriptor, error) {
	out := make([]agent.Descriptor, 0, len(f.list))
	for i, d := range f.list {
		if f.available(i) {
			out = append(out, d)
		}
	}
	return out, nil
}
func (f *flipRuntime) DispatchUnknown(context.Context, string, json.RawMessage, agent.Invocation) (agent.Result, error) {
	return agent.Result{}, nil
}
func (f *flipRuntime) AvailableSet(dst []bool) ([]bool, error) {
	if cap(dst) < len(f.list) {
		dst = make([]bool, len(f.list))
	}
	dst = dst[:len(f.list)]
	for i := range f.list {
		dst[i] = f.available(i)
	}
	return dst, nil
}
func (f *flipRuntime) Offered(context.Context) (agent.Offer, error) {
	avail, err := f.Available()
	return agent.Offer{Capabilities: avail}, err
}
func (f *flipRuntime) Subscribe(func()) func()                         { return func() {} }
func (f *flipRuntime) TrackOffer() agent.OfferTracker                  { return agent.TrackSet(f.AvailableSet) }
func (f *flipRuntime) CanSubscribe() bool                              { return false }
func (f *flipRuntime) CatchUp(context.Context) error                   { return nil }
func (f *flipRuntime) ContextRead(context.Context) (agent.Read, error) { return agent.Read{}, nil }
func (f *flipRuntime) ResourceRead(_ context.Context, name string) (agent.Read, error) {
	return agent.Read{}, &agent.ResourceError{Resource: name}
}

// BenchmarkReconcile measures one reconciliation after a Model change, at
// 10, 100 and 1,000 capabilities: "flip" when one capability changes
// availability (one tool removed or added), "same" when the advertised set
// is unchanged, and "available" the runtime's Available call alone, which
// is the floor (one availability check per capability). The difference
// between flip and same is the cost of changing one tool, and should not
// grow with the number of unchanged tools.
//
//	go test -run '^$' -bench 'Reconcile' -benchmem ./mcpagent/
func BenchmarkReconcile(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("n=%d/flip", n), func(b *testing.B) {
			rt := newFlipRuntime(n)
			s, err := NewServer(rt, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ReportAllocs()
			for b.Loop() {
				rt.on = !rt.on
				s.syncTools()
			}
			if got, want := len(s.tools.advertised), n-1; !rt.on && got != want {
				b.Fatalf("advertised %d, want %d", got, want)
			}
		})
		b.Run(fmt.Sprintf("n=%d/same", n), func(b *testing.B) {
			rt := newFlipRuntime(n)
			s, err := NewServer(rt, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ReportAllocs()
			for b.Loop() {
				s.syncTools()
			}
		})
		b.Run(fmt.Sprintf("n=%d/available", n), func(b *testing.B) {
			rt := newFlipRuntime(n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := rt.Available(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
