package journeytest

import (
	"testing"
	"time"

	"github.com/foldagent/foldagent/journey"
)

// WaitFor waits until cond holds, checking it again on each of the
// session's own notifications (a transition, a state change or an ask)
// rather than on a timer, and fails t naming what after five seconds.
func WaitFor(t testing.TB, s *journey.Session, what string, cond func() bool) {
	t.Helper()
	moved := make(chan struct{}, 1)
	poke := func() {
		select {
		case moved <- struct{}{}:
		default:
		}
	}
	defer s.OnTransition(func(journey.Transition) { poke() })()
	defer s.OnState(func(journey.StateChange) { poke() })()
	defer s.OnAsk(func(journey.AskEvent) { poke() })()
	timeout := time.After(5 * time.Second)
	for !cond() {
		select {
		case <-moved:
		case <-timeout:
			t.Fatalf("%s: not within 5 s", what)
		}
	}
}
