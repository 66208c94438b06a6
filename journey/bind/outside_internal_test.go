package bind

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/journey"
)

type tally struct{ N int }

type bump struct{}

// free reports whether mu can be taken. Another goroutine may hold it for
// a moment (the listener finishing a change the test has already been
// told of): it lets go within a few yields. The callback's own caller,
// holding it, never does.
func free(mu *sync.Mutex) bool {
	for range 1000 {
		if mu.TryLock() {
			mu.Unlock()
			return true
		}
		runtime.Gosched()
	}
	return false
}

// TestCallbacksRunOutsideTheBindingsLocks: the application code a bound
// journey runs while it follows the Model (the contract's availability
// hooks, the session's observers, a container's Instances source, what a
// control holds) never runs while a lock of the binding is held, so it
// may call back into the binding (a Model change it causes is followed,
// not a deadlock). Each callback tries the binding's locks: one held by
// its own caller is never free.
func TestCallbacksRunOutsideTheBindingsLocks(t *testing.T) {
	var jp atomic.Pointer[Journey]
	var ran, held [4]atomic.Int32 // available, observer, instances, holds
	check := func(k int) {
		ran[k].Add(1)
		j := jp.Load()
		if j == nil {
			return
		}
		for _, mu := range []*sync.Mutex{&j.changes.mu, &j.working.mu, &j.peers.mu, &j.seen.mu} {
			if !free(mu) {
				held[k].Add(1)
			}
		}
	}
	inc := agent.Expose(agent.Variant[bump, tally, agent.NoPrincipal]{Name: "bump", Description: "Add one.",
		Available: func(tally) bool { check(0); return true }})
	c := agent.Make(agent.Definition[tally, agent.NoPrincipal]{Capabilities: []agent.Capability[tally, agent.NoPrincipal]{inc}})
	p := loop.New(loop.Funcs(func() (tally, loop.Cmd[any]) { return tally{}, nil },
		func(m tally, msg any) (tally, loop.Cmd[any]) {
			if _, ok := msg.(bump); ok {
				m.N++
			}
			return m, nil
		}), nil)
	rt, err := agent.Bind(c, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = p.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	def := Def[tally, agent.NoPrincipal]{
		Page:  func(tally) string { return "home" },
		State: func(m tally) map[string]any { return map[string]any{"n": m.N} },
		Pages: []Page[tally, agent.NoPrincipal]{{ID: "home",
			Actions: []Action[tally, agent.NoPrincipal]{{Name: "bump", Does: "Add one.", Capability: inc, Writes: []string{"n"},
				Holds: func(tally) any { check(3); return nil }}},
			Containers: []Container[tally, agent.NoPrincipal]{{Name: "rows", Does: "The rows.", Repeats: true,
				Instances: func(journey.StateView) []string { check(2); return []string{"r1"} },
				Actions: []Action[tally, agent.NoPrincipal]{{Name: "look", Does: "Look at a row.",
					Policy: journey.PrincipalPolicy{MayInvoke: []journey.Actor{journey.ActorUser}}}}}},
		}},
	}
	j, err := New("tally", rt, p.Model, def, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	jp.Store(j)
	states := make(chan journey.StateChange, 16)
	// The first observer call also follows the Model again, as a host
	// that tells its listeners synchronously would when the observer
	// sends a Message: it is queued behind the change being applied, and
	// the call returns.
	var reentered atomic.Bool
	j.Session().OnState(func(c journey.StateChange) {
		check(1)
		if reentered.CompareAndSwap(false, true) {
			j.follow(true)
		}
		states <- c
	})
	next := func(what string) {
		t.Helper()
		select {
		case <-states:
		case <-time.After(5 * time.Second):
			t.Fatalf("no state report after %s", what)
		}
	}

	r := j.Session().Fire(context.Background(), "home.bump", journey.FireOptions{})
	if !r.OK {
		t.Fatalf("fire refused: %+v", r)
	}
	next("the fire")
	if err := p.Dispatch(context.Background(), bump{}); err != nil { // the person's own change
		t.Fatal(err)
	}
	next("the person's change")
	_ = j.Session().View().Here()

	if !reentered.Load() {
		t.Error("the observer never followed the Model again")
	}
	for k, name := range []string{"availability hook", "observer", "Instances", "holds reader"} {
		if ran[k].Load() == 0 {
			t.Errorf("the %s never ran", name)
		}
		if n := held[k].Load(); n > 0 {
			t.Errorf("the %s ran %d time(s) with a lock of the binding held", name, n)
		}
	}
}
