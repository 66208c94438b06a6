package journey

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestConcurrentFiresReportsAndSyncs hammers one session from several
// goroutines (fires, state reports, syncs, reads, registrations and
// settlement waits) under -race, then checks the ledgers are coherent:
// every fire came to rest exactly once and versions only grew.
func TestConcurrentFiresReportsAndSyncs(t *testing.T) {
	g := armsGraph()
	s := g.MustNewSession(Options{State: map[string]any{}})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"write": ok, "write2": ok, "plain": ok, "nav": ok}})
	s.RegisterActions("q", Registration{Handlers: map[string]Handler{"back": ok}})
	var settledCount atomic.Int64
	counted := make(chan struct{}, 1)
	s.OnTransition(func(tr Transition) {
		if tr.Kind == KindFired && tr.Settled {
			settledCount.Add(1)
			select {
			case counted <- struct{}{}:
			default:
			}
		}
	})
	const workers, rounds = 6, 60
	var wg sync.WaitGroup
	var mu sync.Mutex
	var fired []string
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				switch (w + i) % 6 {
				case 0:
					if r := s.Fire(context.Background(), "p.write", FireOptions{}); r.OK {
						mu.Lock()
						fired = append(fired, r.TransitionID)
						mu.Unlock()
						s.UpdateState(map[string]any{"k": i}, r.TransitionID)
					}
				case 1:
					if r := s.Fire(context.Background(), "p.plain", FireOptions{}); r.OK {
						mu.Lock()
						fired = append(fired, r.TransitionID)
						mu.Unlock()
					}
				case 2:
					s.UpdateState(map[string]any{"a": i, "b": w}, "")
				case 3:
					s.Sync([]string{"p", "q", "/x"}[i%3])
				case 4:
					_ = s.View().Here()
					_ = s.View().GroundTruth(int64(i), 5)
					_ = s.View().Why("k")
					_, _ = s.View().Plan("nope")
				case 5:
					if r := s.Fire(context.Background(), "p.write2", FireOptions{}); r.OK {
						mu.Lock()
						fired = append(fired, r.TransitionID)
						mu.Unlock()
						go s.UpdateState(map[string]any{"a": 1, "b": 2}, r.TransitionID)
					}
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // mounts and unmounts while everything else runs
		defer wg.Done()
		for i := range rounds {
			h, _ := s.RegisterActions("p", Registration{Busy: map[string]string{"plain": fmt.Sprint(i)}})
			h.SetEnabled("plain", i%2 == 0)
			h.Unregister()
		}
	}()
	wg.Wait()
	if len(fired) == 0 {
		t.Fatal("no fire was recorded; the test exercised nothing")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, id := range fired {
		if _, err := s.SettlementOf(ctx, id); err != nil {
			t.Fatalf("%s never came to rest: %v", id, err)
		}
	}
	// Observers are called after the lock is released, so a waiter can
	// wake before the event is delivered; every event must still arrive.
	timeout := time.After(5 * time.Second)
	for settledCount.Load() < int64(len(fired)) {
		select {
		case <-counted:
		case <-timeout:
			t.Fatalf("%d settlement events for %d fires", settledCount.Load(), len(fired))
		}
	}
	var last int64 = -1
	seen := map[string]bool{}
	for _, tr := range s.View().Transitions() {
		if seen[tr.ID] {
			t.Fatalf("duplicate transition id %s", tr.ID)
		}
		seen[tr.ID] = true
		if tr.Version < last && tr.Kind != KindFired {
			t.Fatalf("versions went backwards at %s", tr.ID)
		}
		if tr.Version > last {
			last = tr.Version
		}
	}
}

func TestPanickingObserversAndCallbacksDoNotBreakTheSession(t *testing.T) {
	g := MustNewGraph("g", GraphDef{Pages: []Page{{ID: "p", Containers: []Container{{Name: "rows", Repeats: true,
		Instances: func(StateView) []string { panic("instances exploded") },
		Actions:   []Action{{Name: "r", Does: "Row"}}}},
		Actions: []Action{{Name: "a", Does: "A", Writes: []string{"k"}, VerifyFunc: func(StateView) bool { panic("verify exploded") }},
			{Name: "b", Does: "B"}}}}})
	s := g.MustNewSession(Options{State: map[string]any{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	s.OnTransition(func(Transition) { panic("transition observer") })
	s.OnState(func(StateChange) { panic("state observer") })
	s.OnGap(func(GapRecord) { panic("gap observer") })
	s.OnAsk(func(AskEvent) { panic("ask observer") })
	var after atomic.Int64
	s.OnTransition(func(Transition) { after.Add(1) })
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{
		"a": ok,
		"b": func(context.Context, any) (any, error) { panic("handler exploded") },
	}, Holds: map[string]func() any{"b": func() any { panic("holds exploded") }}})
	r := mustFire(t, s, "p.a", FireOptions{})
	s.UpdateState(map[string]any{"k": 1}, r.TransitionID)
	st := settle(t, s, r.TransitionID)
	if st.VerifyHeld != VerifyUnevaluable {
		t.Fatalf("a panicking verify is unevaluable, not a verdict: %+v", st)
	}
	rb := mustFire(t, s, "p.b", FireOptions{})
	if st := settle(t, s, rb.TransitionID); st.EffectStatus != EffectRefused || st.Error == nil || st.Error.Reason != ReasonHandlerFailed {
		t.Fatalf("a panicking handler is a failed fire: %+v", st)
	}
	s.Fire(context.Background(), "p.zzz", FireOptions{})
	rows := s.View().Available()
	if len(rows) != 3 || rows[1].Holds != nil {
		t.Fatalf("rows %+v", rows)
	}
	if r := s.Fire(context.Background(), "p.rows.r", FireOptions{Instance: "x"}); r.Reason != ReasonInstanceUnknown {
		t.Fatalf("%+v", r)
	}
	if after.Load() == 0 {
		t.Fatal("a later observer was starved by a panicking one")
	}
	where := map[string]bool{}
	for _, d := range s.Defects() {
		where[d.Where] = true
	}
	for _, w := range []string{"transition observer", "state observer", "gap observer", "handler of p.b", "verify of p.a", "holds reader of p.b", "instances of p.rows"} {
		if !where[w] {
			t.Errorf("no defect recorded for %s (have %v)", w, where)
		}
	}
	// The session still works.
	if r := s.Fire(context.Background(), "p.a", FireOptions{}); !r.OK {
		t.Fatalf("%+v", r)
	}
}

func TestObserversMayCallBackIntoTheSession(t *testing.T) {
	s := armsGraph().MustNewSession(Options{State: map[string]any{}})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"write": ok, "plain": ok}})
	var reports atomic.Int64
	s.OnTransition(func(tr Transition) {
		_ = s.View().Here()
		if tr.Kind == KindFired && !tr.Settled && tr.Action == "p.write" {
			s.UpdateState(map[string]any{"k": 1}, tr.ID) // report from inside the observer
		}
	})
	s.OnState(func(StateChange) { reports.Add(1); _ = s.View().GroundTruth(0, 0) })
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := mustFire(t, s, "p.write", FireOptions{})
		settle(t, s, r.TransitionID)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("an observer calling back into the session deadlocked it")
	}
	if reports.Load() != 1 {
		t.Fatalf("%d state reports", reports.Load())
	}
}
