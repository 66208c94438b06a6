package loop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/foldagent/foldagent/host/internal/listeners"
	"github.com/foldagent/foldagent/host/internal/undelivered"
)

// App is an Elm-architecture application: a Model, the Messages that change
// it, and the function that applies them.
//
// Init returns the first Model and a Cmd to start with (nil for none). It is
// called exactly once, by [New].
//
// Update returns the Model that results from applying msg to m, and a Cmd for
// any effect that should follow (nil for none). It runs one Message at a
// time, never alongside itself or a listener, so it needs no locking
// (usually on the goroutine that calls Run; see [Program.DispatchTracked]
// for the exception); it must not block, because nothing else is applied
// while it runs. Update must treat m as immutable and return a new value
// rather than changing m in place: the Program hands m out as a snapshot
// that other goroutines may be reading.
type App[Model, Msg any] interface {
	Init() (Model, Cmd[Msg])
	Update(m Model, msg Msg) (Model, Cmd[Msg])
}

// Funcs returns an App made of two functions, for applications that are not
// a named type. Both must be non-nil.
func Funcs[Model, Msg any](init func() (Model, Cmd[Msg]), update func(Model, Msg) (Model, Cmd[Msg])) App[Model, Msg] {
	if init == nil || update == nil {
		panic("loop: Funcs needs both an init and an update function")
	}
	return funcs[Model, Msg]{init, update}
}

type funcs[Model, Msg any] struct {
	init   func() (Model, Cmd[Msg])
	update func(Model, Msg) (Model, Cmd[Msg])
}

func (f funcs[Model, Msg]) Init() (Model, Cmd[Msg])                   { return f.init() }
func (f funcs[Model, Msg]) Update(m Model, msg Msg) (Model, Cmd[Msg]) { return f.update(m, msg) }

// Options configures a Program. The zero value, and a nil *Options, are
// valid: contained panics are then written to standard error.
type Options[Msg any] struct {
	// OnPanic, if set, is called with every panic the Program contains: in
	// update, in a Cmd, or in a listener. It is called on the goroutine that
	// recovered the panic (the one applying the Message for update and
	// listener panics, the Cmd's goroutine for Cmd panics) and must not
	// block. A panic inside OnPanic is itself logged and dropped.
	OnPanic func(*PanicError)

	// PanicMsg, if set, turns a contained panic into a Message that is
	// queued like any other, so the application can show or record the
	// failure through its own update. A Message produced this way that makes
	// update or a listener panic again is not turned into another Message
	// (the panic is still passed to OnPanic or logged), so a broken handler
	// cannot loop forever.
	PanicMsg func(*PanicError) Msg

	// MaxQueue, if positive, bounds how many Messages may wait in the queue
	// the update goroutine has not yet taken up. That goroutine takes the
	// whole queue at once, so up to about twice MaxQueue Messages can be
	// pending in all. Dispatch refuses a Message that would exceed it with
	// ErrQueueFull instead of waiting, because a Dispatch made from a
	// listener runs while a Message is being applied and could never see
	// the queue shrink. Messages sent by Cmds and by PanicMsg are not
	// refused: the work that produced them has already happened. Zero means
	// no bound.
	MaxQueue int

	// Logger receives contained panics when neither OnPanic nor PanicMsg is
	// set, and panics raised by OnPanic or PanicMsg themselves. Nil means
	// slog.Default(); in a js/wasm build, where linking log/slog would
	// grow the download for a few reports, nil means one line per report
	// on standard error (the browser's console).
	Logger Logger
}

// Logger is what a Program reports to: a message and alternating keys
// and values, as *slog.Logger's Error takes them. It is an interface
// rather than *slog.Logger so that a program that does not log through
// log/slog (a browser build) does not link it.
type Logger interface {
	Error(msg string, args ...any)
}

// lineLogger is the Logger of a Program without one (on standard
// error): each report is a line, the message followed by key="value"
// pairs.
type lineLogger struct{ w io.Writer }

func (l lineLogger) Error(msg string, args ...any) {
	line := msg
	for i := 0; i+1 < len(args); i += 2 {
		line += fmt.Sprintf(" %v=%q", args[i], fmt.Sprint(args[i+1]))
	}
	_, _ = fmt.Fprintln(l.w, line)
}

// PanicError describes a panic the Program contained. It is a defect in the
// application, reported rather than allowed to crash the process.
type PanicError struct {
	// Source says where the panic happened: "update", "cmd" or "listener".
	Source string
	// Value is the value passed to panic.
	Value any
	// Stack is the stack of the panicking goroutine, as debug.Stack prints it.
	Stack []byte
}

// Error reports where the panic happened and its value.
func (e *PanicError) Error() string {
	return fmt.Sprintf("loop: panic in %s: %v", e.Source, e.Value)
}

// Unwrap returns the panic value if it is an error, so errors.Is and
// errors.As see through a panic(err).
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

var (
	// ErrStopped is returned by Dispatch once Stop has been called, Run's
	// context has been cancelled or Run has returned, and by Run once the
	// Program has stopped. It is also what DispatchTracked reports for a
	// Message the Program dropped unapplied. It reports non-delivery (see
	// NotDeliveredError): update never saw the Message.
	ErrStopped error = &undelivered.Error{Text: "loop: program stopped", Halted: true}
	// ErrAlreadyRunning is returned by a second call to Run.
	ErrAlreadyRunning = errors.New("loop: Run called more than once")
	// ErrQueueFull is returned by Dispatch when Options.MaxQueue Messages
	// are already waiting. It reports non-delivery (see
	// NotDeliveredError).
	ErrQueueFull error = &undelivered.Error{Text: "loop: too many Messages waiting to be applied"}
)

type state int

const (
	stateIdle     state = iota // built, Run not called yet
	stateRunning               // applying Messages
	stateDraining              // Stop called: finishing queued Messages and running Cmds
	stateStopped               // loop exited; nothing more is applied
)

// item is one queued Message. fromPanic marks a Message made by
// Options.PanicMsg, whose own panics are not turned into Messages again.
type item[Msg any] struct {
	msg       Msg
	fromPanic bool
	// delivered, set by DispatchTracked, is told nil when update takes
	// msg, or ErrStopped when the Program drops it.
	delivered func(error)
	origin    origin // kept while a recorder is attached (observe.go)
}

// chunkBytes is about how much memory one queue chunk takes; it holds
// between minChunk and maxChunk Messages.
const (
	chunkBytes = 4096
	minChunk   = 16
	maxChunk   = 256
)

// chunkLen is how many Messages of type Msg one chunk holds.
func chunkLen[Msg any]() int {
	n := chunkBytes / max(int(reflect.TypeFor[Msg]().Size()), 1)
	return min(max(n, minChunk), maxChunk)
}

// maxFreeChunks bounds the chunks kept for reuse once applied, so that a
// burst does not pin its memory after it has passed.
const maxFreeChunks = 8

// chunk is one block of the queue. The queue is a list of chunks that
// senders fill at its tail and the update goroutine takes whole: a sender
// never copies what is already queued (as appending to one growing slice
// does each time it outgrows its array), and applied chunks are reused.
type chunk[Msg any] struct {
	// msgs has the chunk's capacity as its length. The rare marks of a
	// queued Message live beside it, allocated on first use, so that a
	// chunk of Messages without pointers is memory the garbage collector
	// need not scan.
	msgs      []Msg
	delivered []func(error) // set by DispatchTracked (see item)
	fromPanic []bool
	origins   []origin // allocated on first use, while a recorder is attached
	n         int
	next      *chunk[Msg]
}

// put stores it at c.n.
func (c *chunk[Msg]) put(it item[Msg]) {
	c.msgs[c.n] = it.msg
	if it.delivered != nil {
		if c.delivered == nil {
			c.delivered = make([]func(error), len(c.msgs))
		}
		c.delivered[c.n] = it.delivered
	}
	if it.fromPanic {
		if c.fromPanic == nil {
			c.fromPanic = make([]bool, len(c.msgs))
		}
		c.fromPanic[c.n] = true
	}
	c.putOrigin(it.origin)
	c.n++
}

// takeDelivered returns the report of the Message at i, if it has one,
// and forgets it, so that it is made once.
func (c *chunk[Msg]) takeDelivered(i int) func(error) {
	if c.delivered == nil {
		return nil
	}
	d := c.delivered[i]
	c.delivered[i] = nil
	return d
}

func (c *chunk[Msg]) isFromPanic(i int) bool { return c.fromPanic != nil && c.fromPanic[i] }

// reset clears the chunk for reuse and releases its references.
func (c *chunk[Msg]) reset() {
	clear(c.msgs[:c.n])
	if c.delivered != nil {
		clear(c.delivered[:c.n])
	}
	if c.fromPanic != nil {
		clear(c.fromPanic[:c.n])
	}
	c.clearOrigins(c.n)
	c.n, c.next = 0, nil
}

// dropFrom reports every tracked Message from c.msgs[i] to the end of the
// list as not delivered, and releases the references.
func dropFrom[Msg any](c *chunk[Msg], i int) {
	for c != nil {
		for j := i; j < c.n; j++ {
			if d := c.takeDelivered(j); d != nil {
				d(ErrStopped)
			}
		}
		next := c.next
		c.reset()
		c, i = next, 0
	}
}

// Program runs an [App]: it owns the current Model, applies Messages to it
// one at a time, runs the Cmds update returns, and tells listeners about
// each change.
//
// Its methods Model, Dispatch, Subscribe and Observe are safe to call from
// any goroutine, including from inside update, a Cmd or a listener.
type Program[Model, Msg any] struct {
	app     App[Model, Msg]
	opts    Options[Msg]
	logger  Logger
	initCmd Cmd[Msg]

	// hist publishes each Model with its version and keeps the recent
	// ones for ModelAt; only the goroutine applying Messages (or New)
	// writes it. It has cache lines of its own: sharing one with fields
	// every sender reads (opts, abandoned) made each publication wait for
	// the senders' copies of that line to be invalidated.
	_    [64]byte
	hist history[Model]
	_    [64]byte

	subs listeners.Registry[func()]
	obs  listeners.Registry[func(Msg)]
	rec  atomic.Pointer[recording[Model, Msg]] // see Record (observe.go)
	// told is what the recorder is told (the applying goroutine's; see
	// tell, in observe.go). It holds the last Message recorded, and its
	// context, until the next: clearing it cost each Message more than
	// keeping one Message alive does.
	told Applied[Model, Msg]

	abandoned atomic.Bool // set, and wake signalled, to make the loop exit without draining
	abandonMu sync.Once
	done      chan struct{} // closed when the loop has exited

	// The fields senders write on every Dispatch live on their own cache
	// lines, so that a busy sender does not slow the update goroutine's
	// reads of the fields above.
	_        [64]byte
	mu       sync.Mutex
	state    state
	head     *chunk[Msg] // the queue: Messages not yet taken up, oldest first
	tail     *chunk[Msg]
	queued   int // Messages in the queue
	chunkLen int
	idle     bool            // Run's goroutine found nothing to apply and waits on wake
	borrowed bool            // a DispatchTracked caller is applying its Message (see applyDirect)
	running  int             // Cmds started and not yet returned
	wake     chan struct{}   // capacity 1: "something changed, look again"
	runCtx   context.Context // Run's ctx, set when Run starts
	direct   *chunk[Msg]     // the batch of one applyDirect applies; its holder's alone
	_        [64]byte
	pool     chunkPool[Msg] // applied chunks kept for reuse
	_        [64]byte

	cmdCtx context.Context // cancelled when the loop exits
}

// New returns a Program for app, configured by opts (nil for defaults).
//
// New calls app.Init at once, so Model returns the initial Model as soon as
// New returns, before Run. Init's Cmd waits for Run. A nil app, or an Init
// that panics, is a programming error and panics here, at construction, with
// a message saying so.
func New[Model, Msg any](app App[Model, Msg], opts *Options[Msg]) *Program[Model, Msg] {
	if app == nil {
		panic("loop: New called with a nil App")
	}
	p := &Program[Model, Msg]{
		app:      app,
		chunkLen: chunkLen[Msg](),
		direct:   &chunk[Msg]{msgs: make([]Msg, 1)},
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
	}
	if opts != nil {
		p.opts = *opts
	}
	p.logger = p.opts.Logger
	if p.logger == nil {
		p.logger = defaultLogger()
	}
	m, cmd := p.initApp()
	p.hist.init()
	p.hist.publish(m)
	p.initCmd = cmd
	return p
}

func (p *Program[Model, Msg]) initApp() (m Model, cmd Cmd[Msg]) {
	defer func() {
		if r := recover(); r != nil {
			panic(fmt.Sprintf("loop: New: the App's Init panicked: %v", r))
		}
	}()
	return p.app.Init()
}

// Model returns the latest Model: the one produced by the most recently
// applied Message, or by Init before any. It never waits for update.
// The value is shared, not copied: treat it as immutable.
func (p *Program[Model, Msg]) Model() Model {
	m, _ := p.hist.latest()
	return m
}

// VersionedModel returns the latest Model with its version: 1 for the
// Model Init produced, and one more for each Message update has applied
// since, so that two reads that return the same version saw the same
// Model. Model and version are published together, so the pair is always
// consistent, and a listener called after a Message is applied reads that
// Message's version (agent.Versioned relies on both).
func (p *Program[Model, Msg]) VersionedModel() (Model, uint64) {
	return p.hist.latest()
}

// ModelAt returns the Model of an earlier version, while the Program
// still keeps it: the last 128 versions are kept. It never waits for
// update.
func (p *Program[Model, Msg]) ModelAt(version uint64) (Model, bool) {
	return p.hist.at(version)
}

// Dispatch queues msg to be applied after every Message queued before it. It
// never waits for update: it returns as soon as msg is queued, so it is safe
// to call from a listener or from update itself. A nil error means msg was
// accepted; it is then applied unless the Program is abandoned first (Run's
// context cancelled, or Stop's deadline passed) — see Run and Stop. A
// dispatcher that must know which is the case uses DispatchTracked.
//
// Dispatch fails without queuing anything when ctx is already done (an error
// wrapping the context's error), when the Program is stopping or stopped
// ([ErrStopped]), or when Options.MaxQueue Messages are already waiting
// ([ErrQueueFull]). Each of these errors has a method NotDelivered() bool
// that returns true. Messages may be dispatched before Run; they wait for
// it. A sender that has got far ahead of update (about a thousand Messages
// waiting, fewer for large Messages) yields its processor now and then
// (runtime.Gosched), so that senders flooding the queue leave the update
// goroutine the processor time it needs to catch up.
func (p *Program[Model, Msg]) Dispatch(ctx context.Context, msg Msg) error {
	return p.dispatch(ctx, item[Msg]{msg: msg, origin: p.dispatchOrigin(ctx)})
}

// DispatchTracked is Dispatch for a dispatcher that must know whether update
// received msg (agent.Runtime uses it; see agent.DeliveryTracker). It fails
// exactly as Dispatch does, and then never calls delivered. Once it returns
// nil, delivered is called exactly once: with nil just before update is
// called with msg, or with [ErrStopped] when the Program drops msg
// unapplied (Run's context cancelled, Stop's deadline passed, or Stop
// called before Run). delivered must not block.
//
// A tracking dispatcher waits for that report anyway, so when Run is
// waiting with nothing queued and nothing being applied, DispatchTracked
// applies msg itself, on the caller's goroutine, while Run's goroutine
// stays parked: it calls delivered, update, then the listeners, with the
// same panic containment, and returns nil once they have returned. The
// caller learns of delivery without waiting for another goroutine to be
// scheduled, at the price of waiting as long as update and the listeners
// take, which App and Observe require to be short. Messages queued
// meanwhile (by update, a listener, a Cmd or another sender) are applied
// after msg, by Run's goroutine. When another DispatchTracked caller is
// applying its own Message that way and nothing is queued, DispatchTracked
// yields its processor (runtime.Gosched) a few times, looking again after
// each, to apply msg itself next: concurrent callers then hand update to
// one another instead of waking Run's goroutine and each waiting for it
// (agent's BenchmarkDispatchCallers measures it). Otherwise (Messages are
// waiting, one is being applied by Run's goroutine, the looks are spent,
// or Run has not started) DispatchTracked only queues msg, so calling it
// from update or a listener is safe: there the looks never find the
// Message being applied done, and it is queued after them. The caller must not
// hold a lock that update or a listener takes.
func (p *Program[Model, Msg]) DispatchTracked(ctx context.Context, msg Msg, delivered func(err error)) error {
	return p.dispatch(ctx, item[Msg]{msg: msg, delivered: delivered, origin: p.dispatchOrigin(ctx)})
}

// DispatchNeverBlocks reports true: Dispatch and DispatchTracked never wait
// for the queue or for another goroutine. They queue the Message or refuse
// it and return at once, except that DispatchTracked on an idle Program
// applies the Message itself, which lasts as long as an update and its
// listeners, which must not block (and, while another caller applies
// its own, first yields its processor a bounded number of times). A dispatcher such as
// agent.Runtime (see agent.NonBlocking) then calls them on its own
// goroutine rather than guarding each call with another.
func (p *Program[Model, Msg]) DispatchNeverBlocks() bool { return true }

func (p *Program[Model, Msg]) dispatch(ctx context.Context, it item[Msg]) error {
	if err := ctx.Err(); err != nil {
		return &undelivered.Error{Cause: err}
	}
	var fresh *chunk[Msg]
	waited := 0
	for {
		p.mu.Lock()
		if fresh != nil {
			p.pool.put(fresh)
			fresh = nil
		}
		if p.state >= stateDraining || p.abandoned.Load() {
			p.mu.Unlock()
			return ErrStopped
		}
		if p.opts.MaxQueue > 0 && p.queued >= p.opts.MaxQueue {
			p.mu.Unlock()
			return ErrQueueFull
		}
		if it.delivered != nil && p.idle && p.borrowed && p.head == nil && waited < maxDirectWaits && p.runCtx.Err() == nil {
			// Another dispatcher is applying its Message on its own
			// goroutine, and nothing else waits: it will be done within one
			// update and its listeners. This dispatcher yields its processor
			// and looks again, so that it applies its own Message next
			// rather than wake Run's goroutine and wait for it. The looks are
			// bounded: a dispatcher called from that update or a listener
			// (on the applying goroutine itself) would never see it done,
			// and queues once they are spent.
			p.mu.Unlock()
			waited++
			runtime.Gosched()
			continue
		}
		if (p.tail == nil || p.tail.n == len(p.tail.msgs)) && p.pool.empty() {
			// The Message needs a new chunk: it is allocated (and its
			// memory cleared) without holding the lock, which the other
			// senders and Run's goroutine wait for meanwhile.
			p.mu.Unlock()
			fresh = &chunk[Msg]{msgs: make([]Msg, p.chunkLen)}
			continue
		}
		break
	}
	if it.delivered != nil && p.idle && !p.borrowed && p.head == nil && p.runCtx.Err() == nil {
		// Nothing is queued or being applied, and this dispatcher waits
		// for update to take its Message anyway: it applies the Message
		// itself rather than wake Run's goroutine and wait for it.
		p.borrowed = true
		p.mu.Unlock()
		p.applyDirect(it)
		p.giveBack()
		return nil
	}
	wake := p.push(it)
	// A sender that has just started a chunk with farBehind others
	// waiting yields its processor: Dispatch never waits for update, so
	// senders that outrun it would otherwise keep the processors the
	// update goroutine needs to catch up (busy senders outnumbering the
	// processors left it one share among many, and the queue grew).
	far := p.tail.n == 1 && p.queued > farBehind*p.chunkLen
	p.mu.Unlock()
	if wake {
		p.signal()
	}
	if far {
		runtime.Gosched()
	}
	return nil
}

// maxDirectWaits is how many times a tracking dispatcher that finds
// another applying its Message on its own goroutine yields and looks
// again before it queues (see dispatch).
const maxDirectWaits = 4

// farBehind is how many full chunks may wait before a sender starting
// another yields its processor (see dispatch).
const farBehind = 4

// push appends it to the queue; p.mu must be held. It reports whether the
// update goroutine waits for a signal: while it is busy it looks at the
// queue again by itself, so a sender need not touch the wake channel.
func (p *Program[Model, Msg]) push(it item[Msg]) (wake bool) {
	t := p.tail
	if t == nil || t.n == len(t.msgs) {
		c := p.pool.get()
		if c == nil {
			c = &chunk[Msg]{msgs: make([]Msg, p.chunkLen)}
		}
		if t == nil {
			p.head = c
		} else {
			t.next = c
		}
		p.tail, t = c, c
	}
	t.put(it)
	p.queued++
	if p.borrowed {
		return false // giveBack looks at the queue
	}
	wake, p.idle = p.idle, false
	return wake
}

// applyDirect applies it on the calling goroutine, which holds the right
// to apply Messages (p.borrowed) while Run's goroutine waits. It goes
// through applyBatch, as a batch of one in the chunk kept for this, so
// the checks, steps, panic containment and reports are Run's own: a
// Program abandoned meanwhile reports it dropped rather than apply it.
func (p *Program[Model, Msg]) applyDirect(it item[Msg]) {
	c := p.direct
	c.put(it)
	cur := cursor[Msg]{c: c}
	for {
		abandon, panicked := p.applyBatch(&cur, p.runCtx)
		if abandon {
			dropFrom(cur.c, cur.i)
			return
		}
		if !panicked {
			return
		}
	}
}

// giveBack ends applyDirect's hold on update. Whatever was queued
// meanwhile, and a Stop or an abandon that came meanwhile, is Run's
// goroutine's to handle: it is woken if it waits.
func (p *Program[Model, Msg]) giveBack() {
	p.mu.Lock()
	p.borrowed = false
	wake := p.idle && (p.head != nil || p.state != stateRunning || p.abandoned.Load())
	if wake {
		p.idle = false
	}
	p.mu.Unlock()
	if wake {
		p.signal()
	}
}

// takeQueue empties the queue and returns its chunks; p.mu must be held.
func (p *Program[Model, Msg]) takeQueue() *chunk[Msg] {
	c := p.head
	p.head, p.tail, p.queued = nil, nil, 0
	return c
}

// chunkPool keeps applied chunks for reuse, at most maxFreeChunks. It
// has a lock of its own, so that the goroutine applying Messages hands a
// chunk back without taking the Program's lock, which every sender takes
// for every Message (on a busy machine, a sender preempted while holding
// it holds up whoever waits for it next). Senders take this one only
// when they need a chunk, once per chunk.
type chunkPool[Msg any] struct {
	mu   sync.Mutex
	free *chunk[Msg]
	n    int
}

// put keeps c, applied and cleared, unless maxFreeChunks are kept
// already.
func (q *chunkPool[Msg]) put(c *chunk[Msg]) {
	q.mu.Lock()
	if q.n < maxFreeChunks {
		c.next = q.free
		q.free = c
		q.n++
	}
	q.mu.Unlock()
}

// get returns a kept chunk, or nil.
func (q *chunkPool[Msg]) get() *chunk[Msg] {
	q.mu.Lock()
	c := q.free
	if c != nil {
		q.free, c.next = c.next, nil
		q.n--
	}
	q.mu.Unlock()
	return c
}

func (q *chunkPool[Msg]) empty() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.free == nil
}

// drop lets the kept chunks go.
func (q *chunkPool[Msg]) drop() {
	q.mu.Lock()
	q.free, q.n = nil, 0
	q.mu.Unlock()
}

// send is the function handed to Cmds: like Dispatch, but still accepted
// while the Program drains, so the Cmds Stop waits for can deliver.
func (p *Program[Model, Msg]) send(msg Msg) {
	p.enqueue(item[Msg]{msg: msg})
}

func (p *Program[Model, Msg]) enqueue(it item[Msg]) {
	p.mu.Lock()
	if p.state == stateStopped {
		p.mu.Unlock()
		return
	}
	wake := p.push(it)
	p.mu.Unlock()
	if wake {
		p.signal()
	}
}

func (p *Program[Model, Msg]) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Subscribe registers listener to be called after each Message is applied,
// once the Model it produced is what Model returns. It is called for every
// applied Message, whether or not the new Model differs from the old one;
// compare snapshots if that matters. It returns a function that removes the
// listener; calling it more than once is harmless.
//
// See Observe for the guarantees listeners get.
func (p *Program[Model, Msg]) Subscribe(listener func()) (unsubscribe func()) {
	if listener == nil {
		return func() {}
	}
	return p.subs.Add(listener)
}

// Observe registers listener to be called with each Message after it has
// been applied and the Model it produced is what Model returns. For each
// Message, Subscribe listeners run first, then Observe listeners, each group
// in registration order. It returns a function that removes the listener;
// calling it more than once is harmless. A nil listener is ignored.
//
// A listener registered before a call to Dispatch sees the Message that call
// queued, and every Message that follows it, including those sent by the
// Cmds its update returned. Messages update rejected by panicking are not
// observed.
//
// Listeners run in line, on the goroutine applying the Message, after
// update: a slow listener delays every later Message (and a DispatchTracked
// caller applying its own), so hand long work to another goroutine. From a
// listener it is safe to call Model (it returns the Model the Message
// produced, or a later one), Dispatch (the Message is queued behind the
// current one, never applied re-entrantly), Subscribe, Observe, and any
// unsubscribe function, including the listener's own: a listener removed
// during a notification is not called again, even later in the same round. A
// listener must not call Stop, which waits for the Message being applied
// to finish and so would wait for itself; call it from another goroutine
// or from a Cmd. A panicking listener is contained and reported, and the
// other listeners are still called.
func (p *Program[Model, Msg]) Observe(listener func(Msg)) (unsubscribe func()) {
	if listener == nil {
		return func() {}
	}
	return p.obs.Add(listener)
}

// Done returns a channel that is closed once the Program has stopped: Run has
// returned, or Stop was called before Run.
func (p *Program[Model, Msg]) Done() <-chan struct{} {
	return p.done
}

// Run applies Messages until the Program stops, and reports why. It starts
// Init's Cmd, then applies queued Messages one at a time, in order, on the
// calling goroutine (DispatchTracked may apply one itself while this
// goroutine waits; Run returns only once it has).
//
// There are two ways to stop, and they treat pending work differently:
//
//   - Stop drains: Dispatch is refused from then on, but Messages already
//     queued are applied, running Cmds are waited for and their Messages
//     applied (as are those of Cmds started meanwhile), and then Run returns
//     nil. Stop's own context bounds the wait; when it ends, the rest is
//     abandoned as below.
//   - Cancelling ctx abandons: Dispatch is refused from then on, and Run
//     returns as soon as the current update and its listeners return,
//     leaving queued Messages unapplied (those queued by DispatchTracked
//     are reported dropped, each to its own dispatcher). The context
//     passed to every Cmd is cancelled, and whatever they send later is
//     discarded. Run returns context.Cause(ctx).
//
// Run does not wait for abandoned Cmds to return; a Cmd that ignores its
// context keeps its goroutine until it finishes on its own. Run returns
// [ErrAlreadyRunning] if called twice and [ErrStopped] if Stop came first.
func (p *Program[Model, Msg]) Run(ctx context.Context) error {
	p.mu.Lock()
	switch p.state {
	case stateIdle:
	case stateRunning, stateDraining:
		p.mu.Unlock()
		return ErrAlreadyRunning
	default:
		p.mu.Unlock()
		return ErrStopped
	}
	p.state = stateRunning
	cmdCtx, cancelCmds := context.WithCancel(ctx)
	p.cmdCtx = cmdCtx
	p.runCtx = ctx
	p.mu.Unlock()

	stopWatch := context.AfterFunc(ctx, p.abandonNow)
	// The rest of the batch, when abandoned mid-way: unapplied.msgs[at:]
	// and the chunks after it.
	var (
		unapplied *chunk[Msg]
		at        int
	)
	defer func() {
		stopWatch()
		p.mu.Lock()
		// An update that a DispatchTracked caller is running finishes
		// before Run returns, as Run's own would.
		for p.borrowed {
			p.idle = true
			p.mu.Unlock()
			<-p.wake
			p.mu.Lock()
		}
		p.state = stateStopped
		queued := p.takeQueue()
		p.pool.drop()
		p.mu.Unlock()
		cancelCmds()
		// Nothing is applied any more: every tracked Message left is
		// reported dropped, and the references are released.
		dropFrom(unapplied, at)
		dropFrom(queued, 0)
		close(p.done)
	}()

	if p.initCmd != nil {
		p.start(p.initCmd)
		p.initCmd = nil
	}

	var spent *chunk[Msg] // the last batch's final chunk, applied
	for {
		// Take the whole queue at once; senders fill other chunks
		// meanwhile, so the two never share one.
		if spent != nil {
			p.pool.put(spent)
			spent = nil
		}
		p.mu.Lock()
		var batch *chunk[Msg]
		if !p.borrowed { // else a DispatchTracked caller applies; giveBack wakes this goroutine
			batch = p.takeQueue()
		}
		finished := batch == nil && !p.borrowed && p.running == 0 && p.state == stateDraining
		p.idle = batch == nil && !finished
		p.mu.Unlock()

		if batch == nil {
			if finished {
				return nil
			}
			// One channel to wait on, not two: abandoning signals it too.
			<-p.wake
			if p.abandoned.Load() {
				return p.abandonErr(ctx)
			}
			continue
		}
		cur := cursor[Msg]{c: batch}
		for {
			abandon, panicked := p.applyBatch(&cur, ctx)
			if abandon {
				unapplied, at = cur.c, cur.i
				return p.abandonErr(ctx)
			}
			if !panicked {
				break
			}
		}
		spent = cur.spent
	}
}

// abandonErr is Run's result when it exits without draining.
func (p *Program[Model, Msg]) abandonErr(ctx context.Context) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil // Stop's deadline passed; Stop reports that
}

func (p *Program[Model, Msg]) abandonNow() {
	p.abandonMu.Do(func() {
		p.abandoned.Store(true)
		p.signal()
	})
}

// Stop stops the Program, draining first: see Run for what that means. It
// returns nil once Run has returned. If ctx ends before the drain finishes,
// Stop abandons what is left (cancelling the Cmds' context and discarding
// queued Messages) and returns the context's error at once, without waiting
// for the update in progress. Calling Stop before Run stops the Program
// without running anything; calling it again waits like the first call.
//
// A Cmd that runs until its context is cancelled (a ticker, a watch on a
// file) holds a draining Stop until Stop's context ends, since draining waits
// for Cmds to return; give Stop a deadline, or cancel Run's context to stop
// at once.
//
// Stop must not be called from update or from a listener: it waits for the
// Message being applied, which would then be waiting for itself until ctx
// ends.
func (p *Program[Model, Msg]) Stop(ctx context.Context) error {
	p.mu.Lock()
	switch p.state {
	case stateIdle:
		p.state = stateStopped
		queued := p.takeQueue()
		p.mu.Unlock()
		dropFrom(queued, 0)
		close(p.done)
		return nil
	case stateRunning:
		p.state = stateDraining
	}
	p.mu.Unlock()
	p.signal()
	select {
	case <-p.done:
		return nil
	case <-ctx.Done():
		p.abandonNow()
		return ctx.Err()
	}
}

// cursor is where applyBatch is in a batch: the Message c.msgs[i], and
// for it the step that runs next, so that a contained panic resumes the
// batch right after the step that panicked.
type cursor[Msg any] struct {
	c    *chunk[Msg]
	i    int
	step step
	subs []*listeners.Entry[func()]
	obs  []*listeners.Entry[func(Msg)]
	j    int // the listener of subs or obs that runs next
	// spent is the batch's last chunk once applied, for Run to recycle.
	spent *chunk[Msg]
}

type step uint8

const (
	stepUpdate    step = iota // the Message is next for update
	stepSubscribe             // subs[j] is next
	stepObserve               // obs[j] is next
)

// applyBatch applies the batch from cur on. For each Message, in order: it
// tells a tracking dispatcher that update takes it, runs update, publishes
// the result, starts its Cmd, then calls the Subscribe listeners and the
// Observe listeners. Applied chunks are cleared and handed back for reuse.
//
// One deferred recover guards the whole batch rather than one per call: a
// panic in update skips the rest of that Message, a panic in a listener
// skips that listener, and either is reported before applyBatch returns
// with panicked set and cur past the step that panicked, to be called
// again. It returns abandon when Run must stop, with cur at the first
// Message not taken.
func (p *Program[Model, Msg]) applyBatch(cur *cursor[Msg], ctx context.Context) (abandon, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			fromPanic := cur.c.isFromPanic(cur.i)
			source := "listener"
			if cur.step == stepUpdate {
				source = "update"
				cur.i++
			} else {
				cur.j++
			}
			p.report(asPanics(r, source), fromPanic)
			panicked = true
		}
	}()
	for cur.c != nil {
		c := cur.c
		for cur.i < c.n {
			msg := c.msgs[cur.i]
			switch cur.step {
			case stepUpdate:
				// ctx.Err, not a select on ctx.Done(): for the standard
				// library's contexts it is one atomic load, where the
				// select is a call into the runtime, once per Message.
				if p.abandoned.Load() || ctx.Err() != nil {
					return true, false
				}
				if d := c.takeDelivered(cur.i); d != nil {
					d(nil) // update takes it now; a panic in update still counts
				}
				next, cmd := p.app.Update(p.hist.own(), msg)
				if r := p.rec.Load(); r != nil {
					p.tell(r, c, cur.i, msg, next)
				}
				p.hist.publish(next)
				if cmd != nil {
					p.start(cmd)
				}
				cur.step, cur.j, cur.subs = stepSubscribe, 0, p.subs.Snapshot()
				fallthrough
			case stepSubscribe:
				for ; cur.j < len(cur.subs); cur.j++ {
					if e := cur.subs[cur.j]; e.Live() {
						e.Func()()
					}
				}
				cur.step, cur.j, cur.obs = stepObserve, 0, p.obs.Snapshot()
				fallthrough
			case stepObserve:
				for ; cur.j < len(cur.obs); cur.j++ {
					if e := cur.obs[cur.j]; e.Live() {
						e.Func()(msg)
					}
				}
				cur.step, cur.subs, cur.obs = stepUpdate, nil, nil
				cur.i++
			}
		}
		// Hand the applied chunk back at once, so that a sender outrunning
		// this goroutine refills it rather than allocating another.
		next := c.next
		c.reset() // drop references to applied Messages
		if next == nil {
			// The batch's last chunk is handed back by Run, before its
			// next look at the queue (applyDirect's chunk is its own).
			cur.spent = c
		} else {
			p.pool.put(c)
		}
		cur.c, cur.i = next, 0
	}
	return false, false
}

// start runs cmd on its own goroutine, counted so that a draining Stop can
// wait for it.
func (p *Program[Model, Msg]) start(cmd Cmd[Msg]) {
	p.mu.Lock()
	if p.state == stateStopped {
		p.mu.Unlock()
		return
	}
	p.running++
	ctx := p.cmdCtx
	p.mu.Unlock()
	send := p.sender()
	go func() {
		defer func() {
			p.mu.Lock()
			p.running--
			p.mu.Unlock()
			p.signal()
		}()
		defer func() {
			if r := recover(); r != nil {
				p.report(asPanics(r, "cmd"), false)
			}
		}()
		cmd(ctx, send)
	}()
}

// report hands contained panics to the application, or logs them.
func (p *Program[Model, Msg]) report(panics cmdPanics, fromPanic bool) {
	for _, pe := range panics {
		if p.opts.OnPanic != nil {
			p.guard("OnPanic", func() { p.opts.OnPanic(pe) })
		}
		if p.opts.PanicMsg != nil && !fromPanic {
			p.guard("PanicMsg", func() {
				p.enqueue(item[Msg]{msg: p.opts.PanicMsg(pe), fromPanic: true})
			})
		}
		if (p.opts.OnPanic == nil && p.opts.PanicMsg == nil) || (p.opts.OnPanic == nil && fromPanic) {
			p.logger.Error("loop: contained a panic", "source", pe.Source, "panic", fmt.Sprint(pe.Value), "stack", string(pe.Stack))
		}
	}
}

// guard runs a panic callback supplied by the application, logging a panic
// in it instead of letting it escape.
func (p *Program[Model, Msg]) guard(name string, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			p.logger.Error("loop: "+name+" panicked", "panic", fmt.Sprint(r))
		}
	}()
	fn()
}
