package teahost_test

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/host/teahost"
)

// These fault tests pin what Dispatch's result promises on teahost: a
// stopping or stopped program refuses at once, every refusal says the
// Message was not delivered, and every Message DispatchTracked accepted is
// reported exactly once, delivered exactly when Update received it.

type notDelivered interface{ NotDelivered() bool }

func reportsNotDelivered(err error) bool {
	var nd notDelivered
	return errors.As(err, &nd) && nd.NotDelivered()
}

// gate is a Message whose Update blocks until the test releases it.
type gate struct{}

// counter records which numbered Messages its Update received.
type counter struct {
	rec *record
}

type record struct {
	entered chan struct{}
	release chan struct{}
	mu      sync.Mutex
	seen    map[int]bool
}

func newRecord() *record {
	return &record{entered: make(chan struct{}, 1), release: make(chan struct{}), seen: map[int]bool{}}
}

func (r *record) saw(i int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen[i]
}

func (c counter) Init() tea.Cmd { return nil }
func (c counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case gate:
		c.rec.entered <- struct{}{}
		<-c.rec.release
	case int:
		c.rec.mu.Lock()
		c.rec.seen[msg] = true
		c.rec.mu.Unlock()
	}
	return c, nil
}
func (c counter) View() tea.View { return tea.NewView("") }

func runCounter(t *testing.T, h *teahost.Host[counter, tea.Msg], ctx context.Context) <-chan error {
	t.Helper()
	ran := make(chan error, 1)
	go func() {
		_, err := h.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignals())
		ran <- err
	}()
	return ran
}

func TestDispatchAfterQuitIsRefusedAtOnce(t *testing.T) {
	rec := newRecord()
	h := teahost.New[counter, tea.Msg](counter{rec}, nil)
	ran := runCounter(t, h, context.Background())
	if err := h.Dispatch(context.Background(), gate{}); err != nil {
		t.Fatal(err)
	}
	<-rec.entered // the program is busy: Quit cannot have been processed yet
	if err := h.Quit(); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		h.Dispatch(context.Background(), 1),
		h.DispatchTracked(context.Background(), 2, func(error) { t.Error("a refused Message was reported") }),
	} {
		if !errors.Is(err, teahost.ErrStopped) || !reportsNotDelivered(err) {
			t.Fatalf("Dispatch after Quit = %v, want ErrStopped reporting not delivered", err)
		}
	}
	close(rec.release)
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("the program did not quit")
	}
	if rec.saw(1) || rec.saw(2) {
		t.Fatal("a Message dispatched after Quit reached Update")
	}
	if err := h.Dispatch(context.Background(), 3); !errors.Is(err, teahost.ErrStopped) {
		t.Fatalf("Dispatch after Run returned = %v", err)
	}
}

func TestDispatchRefusalsReportNotDelivered(t *testing.T) {
	h := teahost.New[counter, tea.Msg](counter{newRecord()}, &teahost.Options{MaxQueue: 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.Dispatch(ctx, 1); !errors.Is(err, context.Canceled) || !reportsNotDelivered(err) {
		t.Fatalf("Dispatch with a cancelled context = %v", err)
	}
	if err := h.Dispatch(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if err := h.DispatchTracked(context.Background(), 2, func(error) { t.Error("a refused Message was reported") }); !errors.Is(err, teahost.ErrQueueFull) || !reportsNotDelivered(err) {
		t.Fatalf("DispatchTracked beyond MaxQueue = %v", err)
	}
}

func TestDispatchRefusedOnceRunContextIsDone(t *testing.T) {
	rec := newRecord()
	h := teahost.New[counter, tea.Msg](counter{rec}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	ran := runCounter(t, h, ctx)
	if err := h.Dispatch(context.Background(), gate{}); err != nil {
		t.Fatal(err)
	}
	<-rec.entered // Run has not returned and cannot while Update is held
	cancel()
	deadline := time.After(5 * time.Second)
	for {
		err := h.Dispatch(context.Background(), 1)
		if errors.Is(err, teahost.ErrStopped) {
			break
		}
		select {
		case <-deadline:
			t.Fatalf("Dispatch still %v 5s after Run's context ended", err)
		case <-time.After(time.Millisecond):
		}
	}
	close(rec.release)
	<-ran
}

// TestTrackedMessagesOnExitReportedTruthfully abandons a program (Run's
// context cancelled) with tracked Messages queued and in flight. Which of
// them Bubble Tea still takes is up to its event loop; what is pinned is
// that each is reported exactly once, and delivered exactly when Update
// received it.
func TestTrackedMessagesOnExitReportedTruthfully(t *testing.T) {
	dropped := 0
	for round := 0; round < 20; round++ {
		rec := newRecord()
		h := teahost.New[counter, tea.Msg](counter{rec}, nil)
		ctx, cancel := context.WithCancel(context.Background())
		ran := runCounter(t, h, ctx)
		if err := h.Dispatch(context.Background(), gate{}); err != nil {
			t.Fatal(err)
		}
		<-rec.entered
		const n = 5
		var mu sync.Mutex
		reports := map[int][]error{}
		all := make(chan struct{}, 2*n)
		for i := 1; i <= n; i++ {
			err := h.DispatchTracked(context.Background(), i, func(err error) {
				mu.Lock()
				reports[i] = append(reports[i], err)
				mu.Unlock()
				all <- struct{}{}
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		cancel()
		close(rec.release)
		<-ran
		for range n {
			select {
			case <-all:
			case <-time.After(5 * time.Second):
				t.Fatal("a tracked Message was never reported")
			}
		}
		mu.Lock()
		for i := 1; i <= n; i++ {
			if len(reports[i]) != 1 {
				t.Fatalf("Message %d reported %d times", i, len(reports[i]))
			}
			err := reports[i][0]
			switch {
			case err == nil && !rec.saw(i):
				t.Fatalf("Message %d reported delivered, but Update never received it", i)
			case err != nil && rec.saw(i):
				t.Fatalf("Message %d reached Update but was reported %v", i, err)
			case err != nil && (!errors.Is(err, teahost.ErrStopped) || !reportsNotDelivered(err)):
				t.Fatalf("Message %d reported %v, want ErrStopped", i, err)
			case err != nil:
				dropped++
			}
		}
		mu.Unlock()
	}
	if dropped == 0 {
		t.Fatal("no round dropped a Message: the test exercised nothing")
	}
}

func TestTrackedMessageFilteredAwayIsReportedOnExit(t *testing.T) {
	rec := newRecord()
	h := teahost.New[counter, tea.Msg](counter{rec}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() {
		// A filter that knows only its own Messages drops the tracked one.
		_, err := h.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignals(),
			tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
				switch msg.(type) {
				case gate, tea.QuitMsg:
					return msg
				}
				return nil
			}))
		ran <- err
	}()
	got := make(chan error, 2)
	if err := h.DispatchTracked(context.Background(), 1, func(err error) { got <- err }); err != nil {
		t.Fatal(err)
	}
	if err := h.Dispatch(context.Background(), gate{}); err != nil {
		t.Fatal(err)
	}
	<-rec.entered // the tracked Message went before the gate and was filtered away
	select {
	case err := <-got:
		t.Fatalf("a filtered Message was reported %v before the program exited", err)
	default:
	}
	close(rec.release)
	cancel()
	<-ran
	if err := <-got; !errors.Is(err, teahost.ErrStopped) {
		t.Fatalf("a filtered Message was reported %v on exit, want ErrStopped", err)
	}
	if rec.saw(1) {
		t.Fatal("the filtered Message reached Update")
	}
}
