package agent

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// Internal fixtures: a host that only counts Observe registrations.

type iwModel struct{ N int }
type iwMsg interface{ iwMsg() }
type iwReq struct{ N int }
type iwFact struct{ ID string }
type iwOther struct{}

func (iwReq) iwMsg()   {}
func (iwFact) iwMsg()  {}
func (iwOther) iwMsg() {}

type iwHost struct {
	listeners []func(iwMsg)
	observes  int
}

func (h *iwHost) Model() iwModel                        { return iwModel{} }
func (h *iwHost) Dispatch(context.Context, iwMsg) error { return nil }
func (h *iwHost) Observe(l func(iwMsg)) func() {
	h.observes++
	h.listeners = append(h.listeners, l)
	return func() { h.listeners = nil }
}

func iwRuntime(t testing.TB) *Runtime[iwModel, iwMsg, NoPrincipal] {
	t.Helper()
	c := Make(Definition[iwModel, NoPrincipal]{Capabilities: []Capability[iwModel, NoPrincipal]{
		Expose(Variant[iwReq, iwModel, NoPrincipal]{
			Description: "Wait.",
			Completion: CompleteOn(
				On(func(_ iwReq, got iwFact, inv Invocation) bool { return got.ID == inv.ID }),
			).FailOn(
				OnType[iwReq, iwOther](),
			).Within(time.Hour),
		}),
	}})
	r, err := Bind(c, Host[iwModel, iwMsg](&iwHost{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The index registers one Observe listener for any number of waiters,
// and removes it with the last.
func TestWaitIndexSharesOneListener(t *testing.T) {
	r := iwRuntime(t)
	h := r.seam.host.(*iwHost)
	capab := r.contract.caps[0]
	var releases []func()
	var waiters []*waiter[iwModel, NoPrincipal]
	for i := range 5 {
		w, release, err := r.arm(capab, iwReq{}, Call[iwModel, NoPrincipal]{Invocation: Invocation{ID: fmt.Sprint(i)}})
		if err != nil {
			t.Fatal(err)
		}
		waiters = append(waiters, w)
		releases = append(releases, release)
	}
	if h.observes != 1 || len(h.listeners) != 1 {
		t.Fatalf("observes = %d, listeners = %d", h.observes, len(h.listeners))
	}
	slot := r.waits.slots[capab.completion.matches[0].typ]
	if slot.n.Load() != 5 {
		t.Fatalf("slot holds %d", slot.n.Load())
	}
	h.listeners[0](iwFact{ID: "3"})
	for i, w := range waiters {
		if w.pending() == (i == 3) {
			t.Fatalf("waiter %d pending = %v", i, w.pending())
		}
	}
	h.listeners[0](iwOther{}) // every uncorrelated waiter fails on it
	for i, w := range waiters {
		if w.pending() || (i != 3) != (w.completion.Status == Failed) {
			t.Fatalf("waiter %d = %+v", i, w.completion)
		}
	}
	for _, release := range releases {
		release()
	}
	if slot.n.Load() != 0 || r.waits.refs != 0 || len(h.listeners) != 0 {
		t.Fatalf("after release: slot %d, refs %d, listeners %d", slot.n.Load(), r.waits.refs, len(h.listeners))
	}
}

// BenchmarkWaiterFootprint measures what the runtime itself holds for one
// waiting invocation: the waiter, its index entries and its channel (the
// deadline timer adds one runtime timer on top).
func BenchmarkWaiterFootprint(b *testing.B) {
	const n = 10000
	r := iwRuntime(b)
	capab := r.contract.caps[0]
	calls := make([]Call[iwModel, NoPrincipal], n)
	for i := range calls {
		calls[i].Invocation.ID = fmt.Sprint(i)
	}
	var perWaiter float64
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		releases := make([]func(), n)
		b.StartTimer()
		for i := range n {
			_, release, _ := r.arm(capab, iwReq{}, calls[i])
			releases[i] = release
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		perWaiter = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)-int64(n*8)) / n // minus the releases slice
		for _, release := range releases {
			release()
		}
		b.StartTimer()
	}
	b.ReportMetric(perWaiter, "B/waiter")
}
