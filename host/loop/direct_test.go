package loop_test

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/host/loop"
)

// These tests pin DispatchTracked applying its own Message when the
// Program is idle: the guarantees are those of Run's goroutine (order, one
// Message at a time, panic containment, listeners, stopping), only the
// goroutine differs.

// goid returns the id of the calling goroutine, read from its stack header.
func goid() int64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	b := bytes.TrimPrefix(buf[:n], []byte("goroutine "))
	b = b[:bytes.IndexByte(b, ' ')]
	id, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		panic(err)
	}
	return id
}

// onGoroutine wraps counter: it records, for every Message, the goroutine
// its update ran on, and checks that no two updates overlap.
type onGoroutine struct {
	counter
	mu      sync.Mutex
	ran     map[msg]int64
	inside  atomic.Bool
	overlap atomic.Bool
	entered chan msg // if not nil, receives every Message as update starts
}

func newOnGoroutine() *onGoroutine { return &onGoroutine{ran: map[msg]int64{}} }

func (a *onGoroutine) Update(m model, ms msg) (model, loop.Cmd[msg]) {
	if !a.inside.CompareAndSwap(false, true) {
		a.overlap.Store(true)
	}
	defer a.inside.Store(false)
	a.mu.Lock()
	a.ran[ms] = goid()
	a.mu.Unlock()
	if a.entered != nil {
		a.entered <- ms
	}
	return a.counter.Update(m, ms)
}

func (a *onGoroutine) ranOn(ms msg) (int64, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	id, ok := a.ran[ms]
	return id, ok
}

// tracked is one DispatchTracked call and what became of it.
type tracked struct {
	err      error      // DispatchTracked's result
	verdict  chan error // the delivered report
	reported bool       // delivered was called before DispatchTracked returned
	caller   int64      // the dispatching goroutine
}

func dispatchTracked(p *loop.Program[model, msg], m msg) tracked {
	tr := tracked{verdict: make(chan error, 1), caller: goid()}
	tr.err = p.DispatchTracked(context.Background(), m, func(err error) { tr.verdict <- err })
	tr.reported = len(tr.verdict) == 1
	return tr
}

// dispatchOnCaller dispatches next(i) with DispatchTracked for i = 0, 1, …
// until one is applied on the calling goroutine, which happens once the
// Program is idle, and returns that Message. Each call waits for its
// Message to be taken before the next.
func dispatchOnCaller(t *testing.T, p *loop.Program[model, msg], app *onGoroutine, next func(i int) msg) (msg, tracked) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		m := next(i)
		tr := dispatchTracked(p, m)
		if tr.err != nil {
			t.Fatalf("DispatchTracked: %v", tr.err)
		}
		select {
		case err := <-tr.verdict:
			if err != nil {
				t.Fatalf("a Message of a running Program was reported %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no delivery report after 5s")
		}
		if id, ok := app.ranOn(m); ok && id == tr.caller {
			return m, tr
		}
	}
	t.Fatal("DispatchTracked never applied its Message on the caller's goroutine in 5s, though the Program was idle between calls")
	return nil, tracked{}
}

func TestDispatchTrackedAppliesOnCallerWhenIdle(t *testing.T) {
	app := newOnGoroutine()
	p := start(t, app, nil)
	rec := newRecorder()
	p.Observe(rec.observe)
	var subscribed atomic.Int64
	p.Subscribe(func() { subscribed.Add(1) })

	m, tr := dispatchOnCaller(t, p, app, func(i int) msg { return seq{ID: 1, I: i} })
	// Applied on the caller: by the time DispatchTracked returned, delivery
	// was reported, the Model was published and the listeners had run.
	if !tr.reported {
		t.Fatal("delivery was not reported before DispatchTracked returned, though update ran on the caller")
	}
	if got := p.Model().Last; got != "seq" {
		t.Fatalf("Model().Last = %q right after DispatchTracked returned, want the Message's effect", got)
	}
	n := m.(seq).I + 1
	if got := rec.snapshot(); len(got) != n || got[n-1] != m {
		t.Fatalf("observed %v right after DispatchTracked returned, want %d Messages ending with %v", got, n, m)
	}
	if got := subscribed.Load(); got != int64(n) {
		t.Fatalf("Subscribe listener called %d times, want %d", got, n)
	}
	// A plain Dispatch never applies on the caller: it only queues.
	dispatch(t, p, add{N: 7})
	rec.waitFor(t, n+1)
	if id, _ := app.ranOn(add{N: 7}); id == goid() {
		t.Fatal("Dispatch applied its Message on the caller's goroutine; it must only queue")
	}
}

func TestDispatchTrackedOnCallerKeepsOrderAndExclusion(t *testing.T) {
	app := newOnGoroutine()
	p := start(t, app, nil)
	const senders, each = 4, 300
	next := make([]int, senders)
	outOfOrder := make(chan string, 1)
	done := make(chan struct{})
	var applied atomic.Int64
	var listening atomic.Bool
	p.Observe(func(m msg) {
		if !listening.CompareAndSwap(false, true) {
			select {
			case outOfOrder <- "two listeners ran at once":
			default:
			}
		}
		defer listening.Store(false)
		if s, ok := m.(seq); ok {
			if s.I != next[s.ID] {
				select {
				case outOfOrder <- "sender " + strconv.Itoa(s.ID) + ": got " + strconv.Itoa(s.I) + ", want " + strconv.Itoa(next[s.ID]):
				default:
				}
			}
			next[s.ID] = s.I + 1
			if applied.Add(1) == senders*each {
				close(done)
			}
		}
	})
	var wg sync.WaitGroup
	for id := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				m := seq{ID: id, I: i}
				if i%3 == 0 { // plain Dispatch: queued, not waited for
					if err := p.Dispatch(context.Background(), m); err != nil {
						t.Error(err)
						return
					}
					continue
				}
				tr := dispatchTracked(p, m)
				if tr.err != nil {
					t.Error(tr.err)
					return
				}
				if err := <-tr.verdict; err != nil {
					t.Errorf("Message %v reported %v", m, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%d of %d Messages applied after 5s", applied.Load(), senders*each)
	}
	select {
	case why := <-outOfOrder:
		t.Fatal(why)
	default:
	}
	if app.overlap.Load() {
		t.Fatal("two updates ran at once")
	}
}

func TestDispatchTrackedOnCallerContainsPanics(t *testing.T) {
	app := newOnGoroutine()
	var mu sync.Mutex
	var reports []*loop.PanicError
	p := start(t, app, &loop.Options[msg]{OnPanic: func(e *loop.PanicError) {
		mu.Lock()
		reports = append(reports, e)
		mu.Unlock()
	}})
	var after atomic.Int64
	p.Subscribe(func() {
		if p.Model().Last == "seq" {
			panic("listener fell over")
		}
	})
	p.Subscribe(func() { after.Add(1) })

	// A panicking update: delivered, contained, the Model unchanged.
	before := p.Model()
	dispatchOnCaller(t, p, app, func(int) msg { return boom{} })
	if got := p.Model(); got != before {
		t.Fatalf("a panicking update changed the Model: %+v, want %+v", got, before)
	}
	mu.Lock()
	last := reports[len(reports)-1]
	mu.Unlock()
	if last.Source != "update" {
		t.Fatalf("panic reported from %q, want update", last.Source)
	}

	// A panicking listener: the next listener still runs, before
	// DispatchTracked returns.
	m, _ := dispatchOnCaller(t, p, app, func(i int) msg { return seq{I: i} })
	calls := after.Load()
	if p.Model().Last != "seq" || calls == 0 {
		t.Fatalf("after %v: Model %+v, later listener called %d times", m, p.Model(), calls)
	}
	mu.Lock()
	last = reports[len(reports)-1]
	mu.Unlock()
	if last.Source != "listener" {
		t.Fatalf("panic reported from %q, want listener", last.Source)
	}
	// And the Program goes on.
	rec := newRecorder()
	p.Observe(rec.observe)
	dispatch(t, p, add{N: 2})
	dispatch(t, p, add{N: 3})
	rec.waitFor(t, 2)
	if got := p.Model().N; got != 5 {
		t.Fatalf("Model().N = %d after two adds, want 5", got)
	}
}

func TestMessagesQueuedDuringCallerApplyAreApplied(t *testing.T) {
	app := newOnGoroutine()
	var p *loop.Program[model, msg]
	// The first seq Message applied on the caller queues three adds from
	// update itself: no Cmd finishing or later sender wakes Run's goroutine
	// for them, so the caller must, once it is done.
	var spawned atomic.Bool
	testGoroutine := goid()
	spawner := loop.Funcs(
		app.Init,
		func(m model, ms msg) (model, loop.Cmd[msg]) {
			next, cmd := app.Update(m, ms)
			if s, ok := ms.(seq); ok && s.ID == 9 {
				if goid() == testGoroutine && spawned.CompareAndSwap(false, true) {
					for range 3 {
						if err := p.Dispatch(context.Background(), add{N: 1}); err != nil {
							panic(err)
						}
					}
				}
			}
			return next, cmd
		},
	)
	p = start(t, spawner, nil)
	rec := newRecorder()
	p.Observe(rec.observe)
	deadline := time.Now().Add(5 * time.Second)
	for i := 0; !spawned.Load(); i++ {
		if time.Now().After(deadline) {
			t.Fatal("no tracked Message was applied on its caller in 5s")
		}
		tr := dispatchTracked(p, seq{ID: 9, I: i})
		if tr.err != nil {
			t.Fatal(tr.err)
		}
		if err := <-tr.verdict; err != nil {
			t.Fatal(err)
		}
	}
	deadline = time.Now().Add(5 * time.Second)
	for p.Model().N != 3 {
		if time.Now().After(deadline) {
			t.Fatalf("Model().N = %d 5s after the Messages were queued, want 3: a Message queued while the caller applied was stranded", p.Model().N)
		}
		select {
		case <-rec.ch:
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// blockOnCaller dispatches block Messages with DispatchTracked, each from
// a goroutine of its own, until one runs its update on that goroutine. It
// returns with that update waiting for release, and a channel that
// receives what DispatchTracked returned once it has.
func blockOnCaller(t *testing.T, p *loop.Program[model, msg], app *onGoroutine) (release chan struct{}, returned chan tracked) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		b := block{release: make(chan struct{})}
		returned = make(chan tracked, 1)
		caller := make(chan int64, 1)
		go func() {
			caller <- goid()
			returned <- dispatchTracked(p, b)
		}()
		var entered msg
		select {
		case entered = <-app.entered:
		case <-deadline:
			t.Fatal("no block Message was applied on its caller in 5s")
		}
		if entered != msg(b) {
			t.Fatalf("update entered %v, want the block Message", entered)
		}
		if id, _ := app.ranOn(b); id == <-caller {
			return b.release, returned
		}
		close(b.release) // applied by Run's goroutine: let it finish, try again
		<-returned
	}
}

func TestRunReturnsOnlyAfterUpdateOnCallerReturns(t *testing.T) {
	for _, how := range []string{"abandon", "stop"} {
		t.Run(how, func(t *testing.T) {
			app := newOnGoroutine()
			app.entered = make(chan msg, 1)
			p := loop.New[model, msg](app, nil)
			var finished atomic.Bool
			p.Subscribe(func() {
				if p.Model().Last == "block" {
					finished.Store(true)
				}
			})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type exit struct {
				err      error
				finished bool // the block Message's listeners had run
			}
			exited := make(chan exit, 1)
			go func() {
				err := p.Run(ctx)
				exited <- exit{err, finished.Load()}
			}()
			release, returned := blockOnCaller(t, p, app)
			finished.Store(false)

			// Queued behind the update the caller runs.
			behind := dispatchTracked(p, add{N: 1})
			if behind.err != nil || behind.reported {
				t.Fatalf("a Message dispatched while another was applied: err %v, reported at once %v; want queued", behind.err, behind.reported)
			}
			stopped := make(chan error, 1)
			if how == "abandon" {
				cancel()
			} else {
				go func() { stopped <- p.Stop(context.Background()) }()
			}
			select {
			case e := <-exited:
				t.Fatalf("Run returned (%v) while an update it let a caller run was still running", e.err)
			case err := <-stopped:
				t.Fatalf("Stop returned (%v) while an update was still running", err)
			case <-time.After(100 * time.Millisecond):
			}
			close(release)
			tr := <-returned
			if tr.err != nil || !tr.reported {
				t.Fatalf("DispatchTracked applying on its caller: err %v, reported before return %v", tr.err, tr.reported)
			}
			var e exit
			select {
			case e = <-exited:
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not return 5s after the update was released")
			}
			if !e.finished {
				t.Fatal("Run returned before the update on the caller and its listeners had")
			}
			verdict := <-behind.verdict
			if how == "abandon" {
				if !errors.Is(e.err, context.Canceled) {
					t.Fatalf("Run returned %v, want context.Canceled", e.err)
				}
				if !errors.Is(verdict, loop.ErrStopped) || p.Model().N != 0 {
					t.Fatalf("the Message queued behind was reported %v with Model.N %d, want ErrStopped and unapplied", verdict, p.Model().N)
				}
			} else {
				if err := <-stopped; err != nil || e.err != nil {
					t.Fatalf("Stop returned %v and Run %v, want nil and nil", err, e.err)
				}
				if verdict != nil || p.Model().N != 1 {
					t.Fatalf("the Message queued behind was reported %v with Model.N %d, want delivered and applied by the drain", verdict, p.Model().N)
				}
			}
			if err := p.Dispatch(context.Background(), add{N: 1}); !errors.Is(err, loop.ErrStopped) {
				t.Fatalf("Dispatch after Run returned: %v, want ErrStopped", err)
			}
		})
	}
}

// A listener of a Message applied on its dispatcher's goroutine that
// calls DispatchTracked finds that Message still being applied (by its
// own goroutine): the looks for it to be done are bounded, so the call
// returns, queues its Message, and it is applied after, by Run's
// goroutine.
func TestDispatchTrackedFromListenerOnCallerQueues(t *testing.T) {
	app := newOnGoroutine()
	p := start(t, app, nil)
	testGoroutine := goid()
	var once atomic.Bool
	inner := make(chan tracked, 1)
	p.Observe(func(m msg) {
		if s, ok := m.(seq); ok && s.ID == 5 && goid() == testGoroutine && once.CompareAndSwap(false, true) {
			inner <- dispatchTracked(p, add{N: 7})
		}
	})
	dispatchOnCaller(t, p, app, func(i int) msg { return seq{ID: 5, I: i} })
	var tr tracked
	select {
	case tr = <-inner:
	default:
		t.Fatal("the listener's DispatchTracked had not returned when the outer one did")
	}
	if tr.err != nil {
		t.Fatalf("DispatchTracked from a listener: %v", tr.err)
	}
	if tr.reported {
		t.Fatal("the listener's Message was reported delivered before its DispatchTracked returned: it was applied re-entrantly")
	}
	select {
	case err := <-tr.verdict:
		if err != nil {
			t.Fatalf("the listener's Message was reported %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the listener's Message was not taken in 5s")
	}
	if id, ok := app.ranOn(add{N: 7}); !ok || id == testGoroutine {
		t.Fatalf("the listener's Message ran on goroutine %d (applied: %v), want Run's, not the dispatcher's (%d)", id, ok, testGoroutine)
	}
}
