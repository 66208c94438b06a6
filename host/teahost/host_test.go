package teahost_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/teahosttest"
)

// board is an ordinary Bubble Tea value model: a title an agent can set and
// a log of keys a person typed.
type board struct {
	Title string
	Keys  string
	Count int
}

// Messages an agent may send.
type agentMsg interface{ agent() }

type setTitle struct{ Title string }
type bump struct{ N int }
type explode struct{}
type becomeOther struct{}

func (setTitle) agent()    {}
func (bump) agent()        {}
func (explode) agent()     {}
func (becomeOther) agent() {}

func (b board) Init() tea.Cmd { return nil }

func (b board) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case setTitle:
		b.Title = msg.Title
	case bump:
		b.Count += msg.N
	case explode:
		panic("update exploded")
	case becomeOther:
		return other{}, nil
	case tea.KeyPressMsg:
		if msg.String() == "q" {
			return b, tea.Quit
		}
		b.Keys += msg.String()
	}
	return b, nil
}

func (b board) View() tea.View {
	return tea.NewView(fmt.Sprintf("title: %s\nkeys: %s\ncount: %d", b.Title, b.Keys, b.Count))
}

type other struct{}

func (other) Init() tea.Cmd                         { return nil }
func (o other) Update(tea.Msg) (tea.Model, tea.Cmd) { return o, nil }
func (other) View() tea.View                        { return tea.NewView("other") }

type running[M tea.Model] struct {
	out    *teahosttest.Screen
	result chan result[M]
	cancel context.CancelFunc
}

type result[M tea.Model] struct {
	model M
	err   error
}

// runHeadless runs h as a real tea.Program writing to a buffer, with input
// from in (nil for none), and kills it when the test ends.
func runHeadless[M tea.Model, Msg any](t *testing.T, h *teahost.Host[M, Msg], in io.Reader) *running[M] {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running[M]{out: teahosttest.NewScreen(60, 10), result: make(chan result[M], 1), cancel: cancel}
	opts := r.out.ProgramOptions()
	if in != nil {
		opts = append(opts, tea.WithInput(in))
	}
	go func() {
		m, err := h.Run(ctx, opts...)
		r.result <- result[M]{m, err}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-h.Done():
		case <-time.After(5 * time.Second):
			t.Error("Run did not return after its context was cancelled")
		}
	})
	return r
}

func (r *running[M]) waitScreen(t *testing.T, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.out.WaitFor(ctx, want); err != nil {
		t.Fatal(err)
	}
}

// waitObserved registers an Observe listener (before any Dispatch the test
// makes) and returns a function that waits for the n-th observed Message.
func waitObserved[M tea.Model, Msg any](t *testing.T, h *teahost.Host[M, Msg]) func(n int) []Msg {
	var mu sync.Mutex
	var seen []Msg
	ch := make(chan struct{}, 1)
	h.Observe(func(m Msg) {
		mu.Lock()
		seen = append(seen, m)
		mu.Unlock()
		select {
		case ch <- struct{}{}:
		default:
		}
	})
	return func(n int) []Msg {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			mu.Lock()
			got := append([]Msg(nil), seen...)
			mu.Unlock()
			if len(got) >= n {
				return got
			}
			select {
			case <-ch:
			case <-deadline:
				t.Fatalf("observed %d Messages, want %d", len(got), n)
			}
		}
	}
}

func TestAgentDispatchChangesScreen(t *testing.T) {
	h := teahost.New[board, agentMsg](board{Title: "waiting"}, nil)
	wait := waitObserved(t, h)
	r := runHeadless(t, h, nil)
	r.waitScreen(t, "title: waiting")

	if err := h.Dispatch(context.Background(), setTitle{Title: "hello from the agent"}); err != nil {
		t.Fatal(err)
	}
	wait(1)
	if got := h.Model().Title; got != "hello from the agent" {
		t.Fatalf("Model().Title after Observe = %q, want the agent's title", got)
	}
	if v := h.Model().View().Content; !strings.Contains(v, "title: hello from the agent") {
		t.Fatalf("View after the agent's Message = %q", v)
	}
	r.waitScreen(t, "title: hello from the agent\nkeys:\ncount: 0")

	if err := h.Quit(); err != nil {
		t.Fatal(err)
	}
	res := <-r.result
	if res.err != nil || res.model.Title != "hello from the agent" {
		t.Fatalf("Run = (%+v, %v), want the final model and no error", res.model, res.err)
	}
	if err := h.Dispatch(context.Background(), bump{N: 1}); !errors.Is(err, teahost.ErrStopped) {
		t.Fatalf("Dispatch after Run returned = %v, want ErrStopped", err)
	}
	if _, err := h.Run(context.Background()); !errors.Is(err, teahost.ErrStopped) {
		t.Fatalf("second Run = %v, want ErrStopped", err)
	}
}

func TestPersonAndAgentTogether(t *testing.T) {
	h := teahost.New[board, agentMsg](board{}, nil)
	var changes atomic.Int32
	h.Subscribe(func() { changes.Add(1) })
	wait := waitObserved(t, h)
	keys, typing := io.Pipe()
	defer typing.Close()
	r := runHeadless(t, h, keys)

	io.WriteString(typing, "ab")
	if err := h.Dispatch(context.Background(), setTitle{Title: "agent"}); err != nil {
		t.Fatal(err)
	}
	got := wait(1)
	if len(got) != 1 {
		t.Fatalf("Observe saw %v: key presses are not agent Messages and must not be observed", got)
	}
	r.waitScreen(t, "keys: ab")
	r.waitScreen(t, "title: agent")
	if changes.Load() < 3 { // two keys and the agent's Message, at least
		t.Fatalf("Subscribe called %d times, want at least 3", changes.Load())
	}
	io.WriteString(typing, "q") // the person quits
	select {
	case res := <-r.result:
		if res.err != nil || res.model.Keys != "ab" || res.model.Title != "agent" {
			t.Fatalf("Run = (%+v, %v)", res.model, res.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("program did not quit on q")
	}
}

func TestOrderingAndListenerReentry(t *testing.T) {
	h := teahost.New[board, agentMsg](board{}, nil)
	wait := waitObserved(t, h)
	var bad atomic.Int32
	sum := 0
	var unsub func()
	unsub = h.Observe(func(m agentMsg) {
		b := m.(bump)
		sum += b.N
		if h.Model().Count != sum {
			bad.Add(1) // the Model must already include this Message
		}
		if b.N == 100 {
			unsub() // from inside its own call
			// Dispatch from the event loop must queue, not deadlock.
			if err := h.Dispatch(context.Background(), bump{N: 1000}); err != nil {
				t.Errorf("Dispatch from a listener: %v", err)
			}
		}
	})
	runHeadless(t, h, nil)
	for i := 1; i <= 100; i++ {
		if err := h.Dispatch(context.Background(), bump{N: i}); err != nil {
			t.Fatal(err)
		}
	}
	got := wait(101)
	for i, m := range got[:100] {
		if m.(bump).N != i+1 {
			t.Fatalf("message %d = %#v, want bump{%d}", i, m, i+1)
		}
	}
	if got[100].(bump).N != 1000 || h.Model().Count != 5050+1000 {
		t.Fatalf("last = %#v, Count = %d", got[100], h.Model().Count)
	}
	if bad.Load() != 0 {
		t.Fatalf("%d Observe calls saw a Model without their Message", bad.Load())
	}
}

func TestUpdateAndListenerPanicsContained(t *testing.T) {
	panics := make(chan *teahost.PanicError, 100)
	h := teahost.New[board, agentMsg](board{Count: 1}, &teahost.Options{
		OnPanic: func(e *teahost.PanicError) {
			select {
			case panics <- e:
			default:
				t.Error("more panics reported than happened")
			}
		},
	})
	var once atomic.Bool
	h.Subscribe(func() {
		if h.Model().Count == 2 && once.CompareAndSwap(false, true) {
			panic("listener exploded")
		}
	})
	wait := waitObserved(t, h)
	runHeadless(t, h, nil)
	for _, m := range []agentMsg{explode{}, bump{N: 1}, bump{N: 1}} {
		if err := h.Dispatch(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	got := wait(2)
	if _, ok := got[0].(bump); !ok || h.Model().Count != 3 {
		t.Fatalf("observed %v with Count %d: want the two bumps, explode dropped, Count 3", got, h.Model().Count)
	}
	e1, e2 := <-panics, <-panics
	if e1.Source != "update" || e1.Value != "update exploded" || len(e1.Stack) == 0 {
		t.Fatalf("first panic = %+v", e1)
	}
	if _, ok := e1.Msg.(explode); !ok {
		t.Fatalf("panic Msg = %T, want explode", e1.Msg)
	}
	if e2.Source != "listener" || e2.Value != "listener exploded" {
		t.Fatalf("second panic = %+v", e2)
	}
}

func TestCancelKillsProgram(t *testing.T) {
	h := teahost.New[board, agentMsg](board{}, nil)
	r := runHeadless(t, h, nil)
	r.waitScreen(t, "count: 0")
	r.cancel()
	res := <-r.result
	if !errors.Is(res.err, tea.ErrProgramKilled) || !errors.Is(res.err, context.Canceled) {
		t.Fatalf("Run after cancel = %v, want ErrProgramKilled wrapping context.Canceled", res.err)
	}
	if err := h.Dispatch(context.Background(), bump{}); !errors.Is(err, teahost.ErrStopped) {
		t.Fatalf("Dispatch = %v, want ErrStopped", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h2 := teahost.New[board, agentMsg](board{}, nil)
	if err := h2.Dispatch(ctx, bump{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Dispatch with a done context = %v, want context.Canceled", err)
	}
}

func TestModelTypeChangeReported(t *testing.T) {
	violations := make(chan *teahost.Violation, 1)
	h := teahost.New[board, agentMsg](board{Title: "kept"}, &teahost.Options{
		OnViolation: func(v *teahost.Violation) {
			select { // every later Update reports again; keep the first
			case violations <- v:
			default:
			}
		},
	})
	r := runHeadless(t, h, nil)
	if err := h.Dispatch(context.Background(), becomeOther{}); err != nil {
		t.Fatal(err)
	}
	v := <-violations
	if v.Kind != teahost.TypeChanged || v.Model != "teahost_test.other" {
		t.Fatalf("violation = %+v (%v)", v, v)
	}
	if h.Model().Title != "kept" {
		t.Fatalf("Model = %+v, want the last board", h.Model())
	}
	r.waitScreen(t, "other") // Bubble Tea itself carries on with the new model
}

func TestUnwrap(t *testing.T) {
	var filtered atomic.Value
	h := teahost.New[board, agentMsg](board{Title: "x"}, nil)
	wait := waitObserved(t, h)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(),
		tea.WithFilter(func(m tea.Model, msg tea.Msg) tea.Msg {
			if _, ok := msg.(bump); ok {
				filtered.Store(teahost.Unwrap(m))
			}
			return msg
		}))
	h.Dispatch(context.Background(), bump{N: 1})
	wait(1)
	if b, ok := filtered.Load().(board); !ok || b.Title != "x" {
		t.Fatalf("Unwrap in a filter gave %#v, want the application's board", filtered.Load())
	}
	if teahost.Unwrap(board{}) != (board{}) {
		t.Fatal("Unwrap of an unwrapped model should return it unchanged")
	}
}

func TestNewNilModelPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "nil model") {
			t.Fatalf("recovered %v, want a panic naming the nil model", r)
		}
	}()
	teahost.New[tea.Model, tea.Msg](nil, nil)
}

type seqMsg struct{ ID, I int }

func (seqMsg) agent() {}

func TestConcurrentDispatch(t *testing.T) {
	h := teahost.New[board, agentMsg](board{}, nil)
	const senders, each = 4, 200
	next := make([]int, senders) // touched only on the event loop goroutine
	var outOfOrder atomic.Int32
	wait := waitObserved(t, h)
	h.Observe(func(m agentMsg) {
		s := m.(seqMsg)
		if s.I != next[s.ID] {
			outOfOrder.Add(1)
		}
		next[s.ID] = s.I + 1
	})
	runHeadless(t, h, nil)
	var wg sync.WaitGroup
	for id := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := h.Dispatch(context.Background(), seqMsg{ID: id, I: i}); err != nil {
					t.Errorf("Dispatch: %v", err)
					return
				}
				_ = h.Model()
			}
		}()
	}
	wg.Wait()
	if got := wait(senders * each); len(got) != senders*each {
		t.Fatalf("observed %d Messages, want %d", len(got), senders*each)
	}
	if outOfOrder.Load() != 0 {
		t.Fatalf("%d Messages applied out of their sender's order", outOfOrder.Load())
	}
}
