package loopwait_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
)

func count(n int, msg int) (int, loop.Cmd[int]) { return n + msg, nil }

// Until wakes on the Program's notifications: the Model it returns is the
// first that holds, applied after the wait began.
func TestUntilReturnsThePublishedModel(t *testing.T) {
	p := loop.New(loop.Funcs(func() (int, loop.Cmd[int]) { return 0, nil }, count), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = p.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	go func() {
		for range 3 {
			_ = p.Dispatch(ctx, 1)
		}
	}()
	if got := loopwait.Until(t, p, "three", func(n int) bool { return n >= 3 }); got != 3 {
		t.Fatalf("Until returned %d, want 3", got)
	}
}

// A condition that never holds fails the test, naming what it waited for.
func TestUntilFailsNamingWhat(t *testing.T) {
	p := loop.New(loop.Funcs(func() (int, loop.Cmd[int]) { return 0, nil }, count), nil)
	ft := &fakeT{TB: t}
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		loopwait.Until(ft, p, "never", func(int) bool { return false })
	}()
	<-finished
	if ft.msg == "" || ft.msg[:5] != "never" {
		t.Fatalf("failure message %q, want it to name what", ft.msg)
	}
}

type fakeT struct {
	testing.TB
	msg string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
}
