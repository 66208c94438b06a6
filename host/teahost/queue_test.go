package teahost_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/host/teahost"
)

// With MaxQueue, Messages dispatched while the program cannot take them
// are bounded: the one past the bound is refused with ErrQueueFull and
// changes nothing, Quit is never refused, and once the program drains the
// queue every accepted Message has been applied exactly once.
func TestMaxQueueBoundsWaitingMessages(t *testing.T) {
	h := teahost.New[board, agentMsg](board{}, &teahost.Options{MaxQueue: 3})
	ctx := context.Background()
	for i := range 3 {
		if err := h.Dispatch(ctx, bump{N: 1}); err != nil {
			t.Fatalf("dispatch %d: %v", i, err)
		}
	}
	if err := h.Dispatch(ctx, bump{N: 100}); !errors.Is(err, teahost.ErrQueueFull) {
		t.Fatalf("fourth dispatch: %v, want ErrQueueFull", err)
	}
	applied := make(chan int, 8)
	h.Observe(func(m agentMsg) {
		if _, ok := m.(bump); ok {
			applied <- h.Model().Count
		}
	})
	done := make(chan board, 1)
	go func() {
		final, _ := h.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignals())
		done <- final
	}()
	for range 3 {
		select {
		case <-applied:
		case <-time.After(5 * time.Second):
			t.Fatal("queued Messages were not applied")
		}
	}
	if err := h.Dispatch(ctx, bump{N: 1}); err != nil {
		t.Fatalf("after draining, dispatch: %v", err)
	}
	<-applied
	if err := h.Quit(); err != nil {
		t.Fatalf("Quit: %v", err)
	}
	if final := <-done; final.Count != 4 {
		t.Fatalf("count = %d, want 4 (the refused bump of 100 must change nothing)", final.Count)
	}
}
