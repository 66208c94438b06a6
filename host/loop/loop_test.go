package loop_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
)

// The test application: a counter whose Messages say what to do.
type model struct {
	N    int    // sum of all Add Messages applied
	Last string // name of the last Message applied
}

type msg interface{ name() string }

type add struct{ N int }                   // N += n
type chain struct{ Next []msg }            // emits Next as a follow-up Cmd
type boom struct{}                         // update panics
type block struct{ release chan struct{} } // update waits for release
type run struct{ cmd loop.Cmd[msg] }       // update returns cmd
type failed struct{ Err *loop.PanicError } // made by Options.PanicMsg
type seq struct{ ID, I int }               // per-sender sequence numbers

func (add) name() string    { return "add" }
func (chain) name() string  { return "chain" }
func (boom) name() string   { return "boom" }
func (block) name() string  { return "block" }
func (run) name() string    { return "run" }
func (failed) name() string { return "failed" }
func (seq) name() string    { return "seq" }

type counter struct{ initCmd loop.Cmd[msg] }

func (c counter) Init() (model, loop.Cmd[msg]) { return model{Last: "init"}, c.initCmd }

func (counter) Update(m model, ms msg) (model, loop.Cmd[msg]) {
	m.Last = ms.name()
	switch ms := ms.(type) {
	case add:
		m.N += ms.N
	case chain:
		return m, loop.Emit(ms.Next...)
	case boom:
		panic("update exploded")
	case block:
		<-ms.release
	case run:
		return m, ms.cmd
	}
	return m, nil
}

// start runs a Program for app and stops it (abandoning) when the test ends.
func start(t *testing.T, app loop.App[model, msg], opts *loop.Options[msg]) *loop.Program[model, msg] {
	t.Helper()
	p := loop.New(app, opts)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- p.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-errc:
		case <-time.After(5 * time.Second):
			t.Error("Run did not return after its context was cancelled")
		}
	})
	return p
}

// recorder collects observed Messages and lets a test wait for a count.
type recorder struct {
	mu   sync.Mutex
	msgs []msg
	ch   chan struct{}
}

func newRecorder() *recorder { return &recorder{ch: make(chan struct{}, 1)} }

func (r *recorder) observe(m msg) {
	r.mu.Lock()
	r.msgs = append(r.msgs, m)
	r.mu.Unlock()
	select {
	case r.ch <- struct{}{}:
	default:
	}
}

func (r *recorder) snapshot() []msg {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]msg(nil), r.msgs...)
}

func (r *recorder) waitFor(t *testing.T, n int) []msg {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		if got := r.snapshot(); len(got) >= n {
			return got
		}
		select {
		case <-r.ch:
		case <-deadline:
			t.Fatalf("observed %d Messages, want %d: %v", len(r.snapshot()), n, r.snapshot())
		}
	}
}

func dispatch(t *testing.T, p *loop.Program[model, msg], m msg) {
	t.Helper()
	if err := p.Dispatch(context.Background(), m); err != nil {
		t.Fatalf("Dispatch(%T): %v", m, err)
	}
}

func TestInitialModelBeforeRun(t *testing.T) {
	p := loop.New[model, msg](counter{}, nil)
	if got := p.Model(); got.Last != "init" {
		t.Fatalf("Model() before Run = %+v, want the Model Init returned", got)
	}
}

func TestOrdering(t *testing.T) {
	p := start(t, counter{}, nil)
	rec := newRecorder()
	p.Observe(rec.observe)
	const n = 500
	for i := 1; i <= n; i++ {
		dispatch(t, p, add{N: i})
	}
	got := rec.waitFor(t, n)
	for i, m := range got {
		if a, ok := m.(add); !ok || a.N != i+1 {
			t.Fatalf("message %d observed = %#v, want add{%d}", i, m, i+1)
		}
	}
	if want := n * (n + 1) / 2; p.Model().N != want {
		t.Fatalf("final N = %d, want %d", p.Model().N, want)
	}
}

func TestObserveSeesModelItProduced(t *testing.T) {
	p := start(t, counter{}, nil)
	var bad atomic.Int32
	var sumSeen atomic.Int64
	sum := 0
	p.Observe(func(m msg) {
		sum += m.(add).N // listeners run on the update goroutine, one at a time
		if p.Model().N != sum {
			bad.Add(1)
		}
	})
	p.Subscribe(func() { sumSeen.Store(int64(p.Model().N)) })
	rec := newRecorder()
	p.Observe(rec.observe)
	for i := 1; i <= 100; i++ {
		dispatch(t, p, add{N: i})
	}
	rec.waitFor(t, 100)
	if bad.Load() != 0 {
		t.Fatalf("%d Observe calls saw a Model that did not include their Message", bad.Load())
	}
	if sumSeen.Load() != 5050 {
		t.Fatalf("last Subscribe call saw N = %d, want 5050", sumSeen.Load())
	}
}

func TestModelDoesNotBlockOnUpdate(t *testing.T) {
	p := start(t, counter{}, nil)
	rec := newRecorder()
	p.Observe(rec.observe)
	dispatch(t, p, add{N: 7})
	rec.waitFor(t, 1)

	release := make(chan struct{})
	dispatch(t, p, block{release: release})
	dispatch(t, p, add{N: 1})
	// update is now blocked (or about to be); Model must answer with the
	// last published snapshot, which cannot include the blocked Messages.
	got := make(chan model, 1)
	go func() { got <- p.Model() }()
	select {
	case m := <-got:
		if m.N != 7 {
			t.Fatalf("Model() during a blocked update = %+v, want N=7", m)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Model() blocked while update was running")
	}
	close(release)
	rec.waitFor(t, 3)
	if p.Model().N != 8 {
		t.Fatalf("after release N = %d, want 8", p.Model().N)
	}
}

func TestSynchronousChainSeenByEarlierListener(t *testing.T) {
	p := start(t, counter{}, nil)
	rec := newRecorder()
	p.Observe(rec.observe) // registered before Dispatch
	dispatch(t, p, chain{Next: []msg{add{N: 1}, chain{Next: []msg{add{N: 2}}}}})
	got := rec.waitFor(t, 4)
	want := []string{"chain", "add", "chain", "add"}
	for i, w := range want {
		if got[i].name() != w {
			t.Fatalf("observed %v, want names %v", got, want)
		}
	}
	if p.Model().N != 3 {
		t.Fatalf("N = %d, want 3", p.Model().N)
	}
}

func TestListenerMayDispatchReadAndUnsubscribe(t *testing.T) {
	p := start(t, counter{}, nil)
	rec := newRecorder()
	p.Observe(rec.observe)

	var calls atomic.Int32
	var unsub func()
	unsub = p.Observe(func(m msg) {
		if _, ok := m.(block); ok {
			return
		}
		calls.Add(1)
		unsub() // removing itself from inside a notification
		if err := p.Dispatch(context.Background(), add{N: p.Model().N * 10}); err != nil {
			t.Errorf("Dispatch from a listener: %v", err)
		}
	})
	// The block holds update until both adds are queued, so that the
	// listener's Message can only land behind add{1000}.
	release := make(chan struct{})
	dispatch(t, p, block{release: release})
	dispatch(t, p, add{N: 1})
	dispatch(t, p, add{N: 1000})
	close(release)
	got := rec.waitFor(t, 4)
	if calls.Load() != 1 {
		t.Fatalf("self-unsubscribed listener called %d times, want 1", calls.Load())
	}
	// add{1} → listener dispatches add{10} behind add{1000}.
	if a, ok := got[3].(add); !ok || a.N != 10 {
		t.Fatalf("fourth Message = %#v, want the listener's add{10}", got[3])
	}
	if p.Model().N != 1011 {
		t.Fatalf("N = %d, want 1011", p.Model().N)
	}
}

func TestUnsubscribeOtherListenerDuringNotification(t *testing.T) {
	p := start(t, counter{}, nil)
	var secondCalls atomic.Int32
	var unsubSecond func()
	p.Observe(func(msg) { unsubSecond() })
	unsubSecond = p.Observe(func(msg) { secondCalls.Add(1) })
	rec := newRecorder()
	p.Observe(rec.observe)
	dispatch(t, p, add{N: 1})
	dispatch(t, p, add{N: 1})
	rec.waitFor(t, 2)
	if secondCalls.Load() != 0 {
		t.Fatalf("listener removed earlier in the same round was called %d times", secondCalls.Load())
	}
}

func TestUpdatePanicContained(t *testing.T) {
	var reported []*loop.PanicError
	var mu sync.Mutex
	p := loop.New[model, msg](counter{}, &loop.Options[msg]{
		OnPanic: func(e *loop.PanicError) {
			mu.Lock()
			reported = append(reported, e)
			mu.Unlock()
		},
		PanicMsg: func(e *loop.PanicError) msg { return failed{Err: e} },
	})
	rec := newRecorder()
	p.Observe(rec.observe)
	// Queue all three before the loop runs, so add{1} is already waiting
	// when boom panics and the failed Message it causes is queued after it.
	dispatch(t, p, add{N: 5})
	dispatch(t, p, boom{})
	dispatch(t, p, add{N: 1})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- p.Run(ctx) }()
	defer func() { cancel(); <-errc }()
	got := rec.waitFor(t, 3)
	// boom is not observed (it was not applied); failed is, after add{1}.
	names := fmt.Sprint(names(got))
	if names != "[add add failed]" {
		t.Fatalf("observed %s, want [add add failed]", names)
	}
	f := got[2].(failed)
	if f.Err.Source != "update" || f.Err.Value != "update exploded" || len(f.Err.Stack) == 0 {
		t.Fatalf("PanicError = %+v, want source update, the panic value and a stack", f.Err)
	}
	if p.Model().N != 6 || p.Model().Last != "failed" {
		t.Fatalf("Model = %+v, want N=6 Last=failed", p.Model())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 1 || reported[0] != f.Err {
		t.Fatalf("OnPanic got %v, want the same single PanicError", reported)
	}
}

func TestPanicMsgThatPanicsDoesNotLoop(t *testing.T) {
	var count atomic.Int32
	p := start(t, counter{}, &loop.Options[msg]{
		OnPanic:  func(*loop.PanicError) { count.Add(1) },
		PanicMsg: func(*loop.PanicError) msg { return boom{} }, // panics again in update
	})
	rec := newRecorder()
	p.Observe(rec.observe)
	dispatch(t, p, boom{})
	dispatch(t, p, chain{Next: []msg{add{N: 1}}})
	rec.waitFor(t, 2) // chain and add: the loop is still alive
	if p.Model().N != 1 {
		t.Fatalf("N = %d, want 1", p.Model().N)
	}
	// boom, then the PanicMsg boom: two reports, and no third.
	if count.Load() != 2 {
		t.Fatalf("OnPanic called %d times, want 2", count.Load())
	}
}

func TestCmdAndListenerPanicsContained(t *testing.T) {
	reports := make(chan *loop.PanicError, 10)
	p := start(t, counter{}, &loop.Options[msg]{OnPanic: func(e *loop.PanicError) { reports <- e }})
	p.Observe(func(m msg) {
		if a, ok := m.(add); ok && a.N == 13 {
			panic("listener exploded")
		}
	})
	rec := newRecorder()
	p.Observe(rec.observe) // registered after the panicking one: must still be called

	dispatch(t, p, run{cmd: loop.Batch(
		func(_ context.Context, send func(msg)) { send(add{N: 1}); panic("cmd exploded") },
		func(_ context.Context, send func(msg)) { send(add{N: 2}) },
	)})
	dispatch(t, p, add{N: 13})
	got := rec.waitFor(t, 4)
	if len(got) != 4 || p.Model().N != 16 {
		t.Fatalf("observed %v with N=%d, want 4 Messages and N=16", names(got), p.Model().N)
	}
	sources := map[string]any{}
	for range 2 {
		select {
		case e := <-reports:
			sources[e.Source] = e.Value
		case <-time.After(5 * time.Second):
			t.Fatalf("only %d panics reported, want 2", len(sources))
		}
	}
	if sources["cmd"] != "cmd exploded" || sources["listener"] != "listener exploded" {
		t.Fatalf("reported %v, want a cmd and a listener panic", sources)
	}
}

func TestConcurrentDispatch(t *testing.T) {
	p := start(t, counter{}, nil)
	const senders, each = 8, 500
	next := make([]int, senders) // per-sender order check, on the update goroutine
	var outOfOrder atomic.Int32
	rec := newRecorder()
	p.Observe(func(m msg) {
		s := m.(seq)
		if s.I != next[s.ID] {
			outOfOrder.Add(1)
		}
		next[s.ID] = s.I + 1
		rec.observe(m)
	})
	var wg sync.WaitGroup
	for id := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := p.Dispatch(context.Background(), seq{ID: id, I: i}); err != nil {
					t.Errorf("Dispatch: %v", err)
					return
				}
				_ = p.Model()
				if i%64 == 0 {
					// Let the loop run dry now and then, so that idle
					// and busy queue swaps interleave.
					time.Sleep(50 * time.Microsecond)
				}
			}
		}()
	}
	wg.Wait()
	rec.waitFor(t, senders*each)
	if outOfOrder.Load() != 0 {
		t.Fatalf("%d Messages applied out of their sender's order", outOfOrder.Load())
	}
}

func TestDispatchRefusals(t *testing.T) {
	p := loop.New[model, msg](counter{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.Dispatch(ctx, add{N: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Dispatch with a cancelled context = %v, want context.Canceled", err)
	}
	// Dispatched before Run: waits for Run.
	dispatch(t, p, add{N: 2})
	rec := newRecorder()
	p.Observe(rec.observe)
	runCtx, stop := context.WithCancel(context.Background())
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- p.Run(runCtx) }()
	got := rec.waitFor(t, 1)
	if got[0].(add).N != 2 || p.Model().N != 2 {
		t.Fatalf("observed %v, N=%d: want only the add{2} dispatched before Run", got, p.Model().N)
	}
	if err := p.Run(runCtx); !errors.Is(err, loop.ErrAlreadyRunning) {
		t.Fatalf("second Run = %v, want ErrAlreadyRunning", err)
	}
	if err := p.Stop(context.Background()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := <-errc; err != nil {
		t.Fatalf("Run after Stop = %v, want nil", err)
	}
	if err := p.Dispatch(context.Background(), add{N: 1}); !errors.Is(err, loop.ErrStopped) {
		t.Fatalf("Dispatch after Stop = %v, want ErrStopped", err)
	}
	if err := p.Run(runCtx); !errors.Is(err, loop.ErrStopped) {
		t.Fatalf("Run after Stop = %v, want ErrStopped", err)
	}
}

func TestStopDrainsPendingCmds(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	p := loop.New[model, msg](counter{}, nil)
	go p.Run(context.Background())
	dispatch(t, p, run{cmd: func(ctx context.Context, send func(msg)) {
		close(started)
		<-release
		send(chain{Next: []msg{add{N: 40}}}) // its follow-up Cmd must be drained too
		send(add{N: 2})
	}})
	<-started
	stopped := make(chan error, 1)
	go func() { stopped <- p.Stop(context.Background()) }()
	// Stop is draining: new Dispatches are refused, the Cmd is waited for.
	deadline := time.After(5 * time.Second)
	for p.Dispatch(context.Background(), add{N: 1000}) == nil {
		select {
		case <-deadline:
			t.Fatal("Dispatch still accepted after Stop")
		case <-time.After(time.Millisecond):
		}
	}
	select {
	case err := <-stopped:
		t.Fatalf("Stop returned %v before the pending Cmd finished", err)
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Fatalf("Stop = %v, want nil", err)
	}
	// Whatever Dispatch accepted before Stop was applied, and the Cmd's
	// Messages and their follow-up were applied.
	n := p.Model().N
	if n%1000 != 42 {
		t.Fatalf("N = %d after drain, want 42 plus any accepted add{1000}", n)
	}
}

func TestStopDeadlineAbandons(t *testing.T) {
	cancelled := make(chan struct{})
	p := loop.New[model, msg](counter{}, nil)
	errc := make(chan error, 1)
	go func() { errc <- p.Run(context.Background()) }()
	started := make(chan struct{})
	dispatch(t, p, run{cmd: func(ctx context.Context, send func(msg)) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		send(add{N: 1}) // discarded: the Program has been abandoned
	}})
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if err := p.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Stop = %v, want DeadlineExceeded", err)
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the pending Cmd's context was not cancelled")
	}
	if err := <-errc; err != nil {
		t.Fatalf("Run = %v, want nil after Stop", err)
	}
	<-p.Done()
	if p.Model().N != 0 {
		t.Fatalf("N = %d, want 0: a Message sent after abandon was applied", p.Model().N)
	}
}

func TestCancelRunAbandonsQueue(t *testing.T) {
	cause := errors.New("shutting down")
	ctx, cancel := context.WithCancelCause(context.Background())
	p := loop.New[model, msg](counter{}, nil)
	errc := make(chan error, 1)
	go func() { errc <- p.Run(ctx) }()
	release := make(chan struct{})
	entered := make(chan struct{})
	p.Observe(func(m msg) {
		if m.name() == "chain" {
			close(entered)
			<-release
		}
	})
	dispatch(t, p, chain{})
	<-entered
	for range 10 {
		dispatch(t, p, add{N: 1})
	}
	cancel(cause)
	close(release)
	if err := <-errc; !errors.Is(err, cause) {
		t.Fatalf("Run = %v, want the context's cause", err)
	}
	if p.Model().N != 0 {
		t.Fatalf("N = %d, want 0: queued Messages applied after cancel", p.Model().N)
	}
	if err := p.Dispatch(context.Background(), add{N: 1}); !errors.Is(err, loop.ErrStopped) {
		t.Fatalf("Dispatch after Run returned = %v, want ErrStopped", err)
	}
}

func TestInitCmdRunsOnRun(t *testing.T) {
	p := start(t, counter{initCmd: loop.Emit[msg](add{N: 3})}, nil)
	rec := newRecorder()
	p.Observe(rec.observe)
	// Init's Cmd may already have delivered before Observe; wait on the Model.
	loopwait.Until(t, p, "N = 3 from Init's Cmd", func(m model) bool { return m.N == 3 })
}

func TestSequenceOrder(t *testing.T) {
	p := start(t, counter{}, nil)
	rec := newRecorder()
	p.Observe(rec.observe)
	slow := func(n int) loop.Cmd[msg] {
		return func(_ context.Context, send func(msg)) {
			// Not a wait: the earlier Cmds take longer, so that they
			// finish out of order and the sequence must restore it.
			time.Sleep(time.Duration(5-n) * time.Millisecond)
			send(add{N: n})
		}
	}
	dispatch(t, p, run{cmd: loop.Sequence(slow(1), nil, slow(2), slow(3))})
	got := rec.waitFor(t, 4)
	for i := 1; i <= 3; i++ {
		if a := got[i].(add); a.N != i {
			t.Fatalf("observed %v, want add 1,2,3 in order", got)
		}
	}
}

func TestConstructionMistakesPanic(t *testing.T) {
	mustPanic(t, "nil App", func() { loop.New[model, msg](nil, nil) })
	mustPanic(t, "Init", func() {
		loop.New(loop.Funcs(func() (model, loop.Cmd[msg]) { panic("no config") },
			func(m model, _ msg) (model, loop.Cmd[msg]) { return m, nil }), nil)
	})
	mustPanic(t, "Funcs", func() { loop.Funcs[model, msg](nil, nil) })
	if loop.Batch[msg]() != nil || loop.Sequence[msg](nil) != nil || loop.Emit[msg]() != nil {
		t.Fatal("empty Batch/Sequence/Emit should be nil")
	}
}

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatalf("no panic, want one mentioning %q", want)
		}
		if s := fmt.Sprint(r); !contains(s, want) {
			t.Fatalf("panic %q does not mention %q", s, want)
		}
	}()
	f()
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func names(ms []msg) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.name()
	}
	return out
}

func TestMaxQueue(t *testing.T) {
	sent := make(chan struct{})
	initCmd := func(_ context.Context, send func(msg)) {
		for range 5 { // more than MaxQueue, while update is blocked
			send(add{N: 1})
		}
		close(sent)
	}
	p := loop.New[model, msg](counter{initCmd: initCmd}, &loop.Options[msg]{MaxQueue: 2})
	release := make(chan struct{})
	// Before Run nothing is applied, so the queue only fills.
	dispatch(t, p, block{release: release})
	dispatch(t, p, add{N: 10})
	if err := p.Dispatch(context.Background(), add{N: 100}); !errors.Is(err, loop.ErrQueueFull) {
		t.Fatalf("third Dispatch = %v, want ErrQueueFull", err)
	}
	rec := newRecorder()
	p.Observe(rec.observe)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx)
	<-sent
	close(release)
	rec.waitFor(t, 7)
	if p.Model().N != 15 {
		t.Fatalf("N = %d, want 15: every Cmd Message applied, the refused add{100} not", p.Model().N)
	}
	dispatch(t, p, add{N: 1000}) // room again once the queue has drained
	rec.waitFor(t, 8)
}

// Panics in update and in listeners, several in one batch and across
// chunks of the queue, each skip only the step that panicked: the batch
// resumes in order, every other listener is called once per applied
// Message, and each panic is reported once, from where it happened.
func TestPanicsMidBatchResumeInOrder(t *testing.T) {
	const n = 300 // more than one queue chunk
	var reports []*loop.PanicError
	p := loop.New[model, msg](counter{}, &loop.Options[msg]{
		OnPanic: func(e *loop.PanicError) { reports = append(reports, e) }, // update goroutine only
	})
	var subCalls, obsCalls []int
	p.Subscribe(func() {
		if n := p.Model().N; n%7 == 0 {
			panic(fmt.Sprintf("subscriber at %d", n))
		}
	})
	p.Subscribe(func() { subCalls = append(subCalls, p.Model().N) })
	p.Observe(func(m msg) {
		if a, ok := m.(add); ok && a.N == 1 && p.Model().N%11 == 0 {
			panic("observer")
		}
	})
	rec := newRecorder()
	p.Observe(func(m msg) { obsCalls = append(obsCalls, p.Model().N); rec.observe(m) })
	want := 0
	var wantSub []int
	updatePanics, subPanics, obsPanics := 0, 0, 0
	for i := range n {
		if i%13 == 5 {
			dispatch(t, p, boom{})
			updatePanics++
			continue
		}
		dispatch(t, p, add{N: 1})
		want++
		wantSub = append(wantSub, want)
		if want%7 == 0 {
			subPanics++
		}
		if want%11 == 0 {
			obsPanics++
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- p.Run(ctx) }()
	rec.waitFor(t, want)
	cancel()
	<-errc
	if p.Model().N != want {
		t.Fatalf("N = %d, want %d", p.Model().N, want)
	}
	if fmt.Sprint(subCalls) != fmt.Sprint(wantSub) || fmt.Sprint(obsCalls) != fmt.Sprint(wantSub) {
		t.Fatalf("listeners saw\n %v\n %v\nwant each applied Model once, in order: %v", subCalls, obsCalls, wantSub)
	}
	bySource := map[string]int{}
	for _, e := range reports {
		bySource[e.Source]++
		if !strings.Contains(string(e.Stack), "loop_test") {
			t.Fatalf("panic %v reported with a stack that does not reach the test's code:\n%s", e.Value, e.Stack)
		}
	}
	if bySource["update"] != updatePanics || bySource["listener"] != subPanics+obsPanics {
		t.Fatalf("reported %v, want %d update and %d listener panics", bySource, updatePanics, subPanics+obsPanics)
	}
}

// fakeLogger records what a Program reports to its Logger.
type fakeLogger struct {
	mu    sync.Mutex
	lines []string
}

func (l *fakeLogger) Error(msg string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprint(append([]any{msg}, args...)...))
}

// Without OnPanic or PanicMsg, a contained panic goes to the Logger, with
// where it happened and its value; a *slog.Logger is one (see
// TestSlogLoggerIsALogger).
func TestPanicWithoutHandlersGoesToLogger(t *testing.T) {
	logger := &fakeLogger{}
	p := start(t, counter{}, &loop.Options[msg]{Logger: logger})
	rec := newRecorder()
	p.Observe(rec.observe)
	dispatch(t, p, boom{})
	dispatch(t, p, add{N: 1})
	rec.waitFor(t, 1) // add runs after boom was contained and reported
	logger.mu.Lock()
	defer logger.mu.Unlock()
	if len(logger.lines) != 1 || !strings.Contains(logger.lines[0], "loop: contained a panic") ||
		!strings.Contains(logger.lines[0], "update exploded") || !strings.Contains(logger.lines[0], "source") {
		t.Fatalf("logged %q, want one report of the update panic", logger.lines)
	}
}
