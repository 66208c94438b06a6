package loop_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/host/loop"
)

// These fault tests pin what Dispatch's result promises: every refusal
// says the Message was not delivered, and every Message DispatchTracked
// accepted is reported exactly once, delivered only if update took it.

type notDelivered interface{ NotDelivered() bool }

func reportsNotDelivered(err error) bool {
	var nd notDelivered
	return errors.As(err, &nd) && nd.NotDelivered()
}

// verdicts records the reports DispatchTracked's delivered callbacks get.
type verdicts struct {
	mu  sync.Mutex
	got map[int][]error
	ch  chan struct{}
}

func newVerdicts() *verdicts { return &verdicts{got: map[int][]error{}, ch: make(chan struct{}, 1000)} }

func (v *verdicts) reporter(i int) func(error) {
	return func(err error) {
		v.mu.Lock()
		v.got[i] = append(v.got[i], err)
		v.mu.Unlock()
		v.ch <- struct{}{}
	}
}

// wait waits for n reports in all, bounded.
func (v *verdicts) wait(t *testing.T, n int) map[int][]error {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		v.mu.Lock()
		total := 0
		for _, errs := range v.got {
			total += len(errs)
		}
		out := map[int][]error{}
		for k, errs := range v.got {
			out[k] = append([]error(nil), errs...)
		}
		v.mu.Unlock()
		if total >= n {
			return out
		}
		select {
		case <-v.ch:
		case <-deadline:
			t.Fatalf("%d of %d delivery reports after 5s", total, n)
		}
	}
}

// gated is an app whose update blocks on a Message of 0 until released,
// and records every Message it sees.
type gated struct {
	entered chan struct{}
	release chan struct{}
	mu      sync.Mutex
	seen    []int
}

func newGated() *gated {
	return &gated{entered: make(chan struct{}, 1), release: make(chan struct{})}
}

func (g *gated) program(opts *loop.Options[int]) *loop.Program[int, int] {
	return loop.New(loop.Funcs(
		func() (int, loop.Cmd[int]) { return 0, nil },
		func(m, msg int) (int, loop.Cmd[int]) {
			g.mu.Lock()
			g.seen = append(g.seen, msg)
			g.mu.Unlock()
			if msg == 0 {
				g.entered <- struct{}{}
				<-g.release
			}
			return m + 1, nil
		},
	), opts)
}

func (g *gated) saw(msg int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, s := range g.seen {
		if s == msg {
			return true
		}
	}
	return false
}

func TestDispatchRefusalsReportNotDelivered(t *testing.T) {
	t.Run("context already done", func(t *testing.T) {
		p := newGated().program(nil)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := p.Dispatch(ctx, 1)
		if !errors.Is(err, context.Canceled) || !reportsNotDelivered(err) {
			t.Fatalf("Dispatch with a cancelled context = %v, want context.Canceled reporting not delivered", err)
		}
	})
	t.Run("queue full", func(t *testing.T) {
		p := newGated().program(&loop.Options[int]{MaxQueue: 1})
		if err := p.Dispatch(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
		err := p.Dispatch(context.Background(), 2)
		if !errors.Is(err, loop.ErrQueueFull) || !reportsNotDelivered(err) {
			t.Fatalf("Dispatch beyond MaxQueue = %v, want ErrQueueFull reporting not delivered", err)
		}
		err = p.DispatchTracked(context.Background(), 3, func(error) { t.Error("a refused Message was reported") })
		if !errors.Is(err, loop.ErrQueueFull) {
			t.Fatalf("DispatchTracked beyond MaxQueue = %v", err)
		}
	})
	t.Run("after Run's context is cancelled", func(t *testing.T) {
		p := newGated().program(nil)
		ctx, cancel := context.WithCancel(context.Background())
		ran := make(chan error, 1)
		go func() { ran <- p.Run(ctx) }()
		cancel()
		<-p.Done()
		<-ran
		for _, err := range []error{
			p.Dispatch(context.Background(), 1),
			p.DispatchTracked(context.Background(), 1, func(error) { t.Error("a refused Message was reported") }),
		} {
			if !errors.Is(err, loop.ErrStopped) || !reportsNotDelivered(err) {
				t.Fatalf("Dispatch after Run's context was cancelled = %v, want ErrStopped reporting not delivered", err)
			}
		}
	})
	t.Run("while Stop drains", func(t *testing.T) {
		g := newGated()
		p := g.program(nil)
		go p.Run(context.Background())
		if err := p.Dispatch(context.Background(), 0); err != nil {
			t.Fatal(err)
		}
		<-g.entered
		stopped := make(chan error, 1)
		go func() { stopped <- p.Stop(context.Background()) }()
		deadline := time.After(5 * time.Second)
		for p.Dispatch(context.Background(), 1) == nil { // refused once Stop has begun
			select {
			case <-deadline:
				t.Fatal("Dispatch still accepted 5s after Stop was called")
			default:
			}
		}
		close(g.release)
		if err := <-stopped; err != nil {
			t.Fatal(err)
		}
	})
}

func TestTrackedMessagesDroppedOnAbandonAreReported(t *testing.T) {
	g := newGated()
	p := g.program(nil)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- p.Run(ctx) }()
	v := newVerdicts()
	// Message 0 blocks update, and DispatchTracked on an idle Program may
	// apply it on the caller: hand it over from a goroutine of its own.
	first := make(chan error, 1)
	go func() { first <- p.DispatchTracked(context.Background(), 0, v.reporter(0)) }()
	<-g.entered // update holds Message 0; 1..5 wait in the queue
	const n = 5
	for i := 1; i <= n; i++ {
		if err := p.DispatchTracked(context.Background(), i, v.reporter(i)); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	close(g.release) // update returns; Run sees the cancelled context before the next Message
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	if err := <-ran; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v", err)
	}
	got := v.wait(t, n+1)
	if len(got[0]) != 1 || got[0][0] != nil {
		t.Fatalf("Message 0, taken by update, was reported %v", got[0])
	}
	for i := 1; i <= n; i++ {
		if len(got[i]) != 1 || !errors.Is(got[i][0], loop.ErrStopped) || !reportsNotDelivered(got[i][0]) {
			t.Fatalf("queued Message %d was reported %v, want ErrStopped once", i, got[i])
		}
		if g.saw(i) {
			t.Fatalf("Message %d reached update after Run was abandoned", i)
		}
	}
}

func TestTrackedMessagesDroppedByStopBeforeRunAreReported(t *testing.T) {
	p := newGated().program(nil)
	v := newVerdicts()
	for i := 1; i <= 3; i++ {
		if err := p.DispatchTracked(context.Background(), i, v.reporter(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := v.wait(t, 3)
	for i := 1; i <= 3; i++ {
		if len(got[i]) != 1 || !errors.Is(got[i][0], loop.ErrStopped) {
			t.Fatalf("Message %d was reported %v, want ErrStopped once", i, got[i])
		}
	}
}

func TestTrackedMessageReportedDeliveredBeforeUpdate(t *testing.T) {
	var order []string
	var mu sync.Mutex
	note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
	p := loop.New(loop.Funcs(
		func() (int, loop.Cmd[int]) { return 0, nil },
		func(m, msg int) (int, loop.Cmd[int]) { note("update"); panic("update fell over") },
	), &loop.Options[int]{OnPanic: func(*loop.PanicError) {}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx)
	delivered := make(chan error, 1)
	if err := p.DispatchTracked(context.Background(), 1, func(err error) { note("delivered"); delivered <- err }); err != nil {
		t.Fatal(err)
	}
	if err := <-delivered; err != nil {
		t.Fatalf("a Message update took was reported %v", err)
	}
	if err := p.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(order) != 2 || order[0] != "delivered" || order[1] != "update" {
		t.Fatalf("order = %v, want delivered reported before update runs (a panicking update still received it)", order)
	}
}
