package loopwait

import (
	"testing"
	"time"

	"github.com/foldagent/foldagent/host/loop"
)

// Bound is how long Until waits before it fails the test.
const Bound = 5 * time.Second

// Until returns the first Model p publishes for which cond holds, checking
// the current one and then each one published after it, and fails t naming
// what if none does within Bound.
func Until[Model, Msg any](t testing.TB, p *loop.Program[Model, Msg], what string, cond func(Model) bool) Model {
	t.Helper()
	return UntilWithin(t, p, Bound, what, cond)
}

// UntilWithin is Until with a bound of the caller's, for a wait known to
// take longer (thousands of calls under the race detector).
func UntilWithin[Model, Msg any](t testing.TB, p *loop.Program[Model, Msg], bound time.Duration, what string, cond func(Model) bool) Model {
	t.Helper()
	moved := make(chan struct{}, 1)
	defer p.Subscribe(func() {
		select {
		case moved <- struct{}{}:
		default:
		}
	})()
	timeout := time.After(bound)
	for {
		if m := p.Model(); cond(m) {
			return m
		}
		select {
		case <-moved:
		case <-timeout:
			t.Fatalf("%s: not within %v; the Model is %+v", what, bound, p.Model())
			return p.Model()
		}
	}
}
