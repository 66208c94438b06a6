package teahost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/host/approvals"
	"github.com/foldagent/foldagent/host/internal/listeners"
	"github.com/foldagent/foldagent/host/internal/undelivered"
)

// Options configures a Host. The zero value, and a nil *Options, are valid.
type Options struct {
	// OnPanic, if set, is called with every panic the Host contains: in the
	// application's Update, or in a listener. It runs on Bubble Tea's event
	// loop goroutine and must not block; it may call Dispatch. Nil means the
	// panic is logged to Logger.
	OnPanic func(*PanicError)

	// OnViolation, if set, is called each time an Update is caught breaking
	// the model obligation (see Violation). It runs on Bubble Tea's event
	// loop goroutine and must not block. Nil means the first violation of each
	// kind for each Message type is logged to Logger, and later ones are not.
	OnViolation func(*Violation)

	// DeepCheck fingerprints everything reachable from the previous model
	// before and after each Update, which also catches value models that
	// share a slice or map with their predecessor and change it in place. It
	// costs time proportional to the model, twice per Message: turn it on in
	// tests and while debugging.
	DeepCheck bool

	// NoCheck turns off the default shallow check for pointer models.
	// DeepCheck still applies if set.
	NoCheck bool

	// ShareModel publishes the model Update returned itself instead of a
	// deep copy of it (see the package documentation, "What agents read").
	// It saves the copy, and is sound only for a model that meets the
	// model obligation: nothing changes after Update has returned it. The
	// checks (NoCheck, DeepCheck) apply only then. False, the default,
	// copies.
	ShareModel bool

	// ServeDespiteViolation keeps agents' calls going while a violation
	// stands. False, the zero value, fails fast, as host/teaserve fails at
	// start-up rather than at the first client: while a Violation stands
	// (Violated returns it), DispatchTracked, which agent runtimes
	// dispatch with, refuses with a *ViolationError, which reports
	// non-delivery (the agent is told nothing happened, and that it may
	// try again). A model changed in place stands for the rest of the run;
	// a model of another type until an Update returns the Host's type
	// again. Either way, while one stands the view ends with an inert line
	// telling the person that agents' view of the program may be wrong,
	// and whether their calls are refused. Dispatch (the application's own
	// Messages) is never refused for it.
	ServeDespiteViolation bool

	// MaxQueue, if positive, bounds how many dispatched Messages may wait
	// for the program to take them; Dispatch beyond it fails with
	// ErrQueueFull instead of growing the queue without limit, so a flood
	// of agent calls cannot exhaust memory while the program is busy or not
	// yet running. Zero means unbounded. Quit is never refused.
	MaxQueue int

	// Logger receives what OnPanic and OnViolation would have, when they are
	// nil, and panics raised inside them. Nil means slog.Default(). A TUI
	// usually wants a logger that writes to a file rather than to the
	// terminal it draws on.
	Logger *slog.Logger

	// WithoutView, for a program run with no terminal (tea.WithoutRenderer:
	// a headless server), answers Bubble Tea's View with an empty view
	// instead of calling the application's. Bubble Tea asks for the view
	// after every Update, renderer or not, and rendering a whole screen
	// nobody sees costs every Message (about 8% of an MCP call's
	// allocations in examples/todo). The application's View stays
	// callable directly (Host.Model().View()).
	WithoutView bool

	// Approvals, if set, has the Host draw the requests an agent runtime
	// holds for the person's approval over the application's view, and
	// answer them with the person's y and n: the application's Update
	// and View stay as they are. The card takes the bottom rows of the
	// screen, under a rule the application's content is clipped above, so
	// nothing the application draws (an agent's text in it included) can
	// reach or imitate that region. y and n are read only while a card is
	// shown, and only once it has settled (see host/approvals); they then
	// never reach the application, and an answer is dispatched as an
	// agent.ApprovalAnswer Message (the Host's Msg type must hold it, as
	// agent.Bind requires). Every other key still goes to the application.
	// The runtime's ApprovalAsked and ApprovalWithdrawn Messages go on to
	// the application too. While a card waits the view reports to the
	// terminal that the program waits for permission (Bubble Tea's
	// View.ProgramStatus, OSC 7501), and the report is cleared when no
	// card is left. With WithoutView nothing is drawn, and keys (tea.WithInput)
	// still answer a settled card.
	//
	// Nil means no card is drawn and every key goes to the application.
	Approvals *ApprovalOptions
}

// PanicError describes a panic the Host contained.
type PanicError struct {
	// Source says where the panic happened: "update" or "listener".
	Source string
	// Msg is the Bubble Tea Message being handled when it happened.
	Msg tea.Msg
	// Value is the value passed to panic.
	Value any
	// Stack is the stack of the panicking goroutine.
	Stack []byte
}

// Error reports where the panic happened, the Message's type and the panic
// value.
func (e *PanicError) Error() string {
	return fmt.Sprintf("teahost: panic in %s handling %T: %v", e.Source, e.Msg, e.Value)
}

// Unwrap returns the panic value if it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// ViolationKind names the way an Update broke the model obligation.
type ViolationKind string

const (
	// MutatedInPlace: Update changed the previous model instead of
	// returning a new one, so a snapshot already handed out changed under
	// its reader. The new model is still published.
	MutatedInPlace ViolationKind = "mutated in place"
	// TypeChanged: Update returned a model that is not of the Host's model
	// type (or nil). Bubble Tea carries on with it, but the Host cannot
	// publish it: Model keeps returning the last model of the right type.
	TypeChanged ViolationKind = "model type changed"
)

// A Violation reports an Update that broke the model obligation.
type Violation struct {
	Kind ViolationKind
	// Msg is the Bubble Tea Message whose Update broke it.
	Msg tea.Msg
	// Model is the type of the model Update returned, as %T prints it.
	Model string
	// Path names the field changed in place, from the model down
	// ("(*model).N", ".items[3]"), when the check could tell; empty for
	// TypeChanged. It names fields and indexes, never values.
	Path string
}

// Error describes the violation by kind and types, never by values.
func (v *Violation) Error() string {
	if v.Path != "" {
		return fmt.Sprintf("teahost: Update for %T: %s at %s (returned %s)", v.Msg, v.Kind, v.Path, v.Model)
	}
	return fmt.Sprintf("teahost: Update for %T: %s (returned %s)", v.Msg, v.Kind, v.Model)
}

var (
	// ErrStopped is returned by Dispatch once the program is stopping (Quit
	// was called, or Run's context is done) or Run has returned, and by Run
	// when called after that. It is also what DispatchTracked reports for a
	// Message dropped when the program exited. It reports non-delivery
	// (a method NotDelivered() bool that returns true): Update never saw
	// the Message.
	ErrStopped error = &undelivered.Error{Text: "teahost: program stopped", Halted: true}
	// ErrAlreadyRunning is returned by Run while another Run is in progress.
	ErrAlreadyRunning = errors.New("teahost: Run called more than once")
	// ErrQueueFull is returned by Dispatch when Options.MaxQueue Messages
	// are already waiting for the program. It reports non-delivery, like
	// ErrStopped.
	ErrQueueFull error = &undelivered.Error{Text: "teahost: too many Messages waiting for the program"}
)

// tracked carries a Message queued by DispatchTracked through Bubble Tea to
// the wrapper's Update, which unwraps it and reports it delivered. done
// makes the report happen once: Update reports nil, and whatever is left
// when the program has exited is reported ErrStopped.
type tracked struct {
	msg       tea.Msg
	delivered func(error)
	done      atomic.Bool
}

func (t *tracked) report(err error) {
	if t.done.CompareAndSwap(false, true) {
		t.delivered(err)
	}
}

// drop reports every tracked Message among msgs as not delivered.
func drop(msgs []tea.Msg) {
	for _, m := range msgs {
		if t, ok := m.(*tracked); ok {
			t.report(ErrStopped)
		}
	}
}

type state int

const (
	stateIdle state = iota
	stateRunning
	stateStopped
)

// Host runs a Bubble Tea application and exposes it to an agent: M is the
// application's model type and Msg the type of the Messages an agent may
// send (tea.Msg for any). The application's own code is unchanged: the Host
// wraps its model, and each Update it makes publishes the new model as the
// current snapshot and tells listeners.
//
// Model, Dispatch, Subscribe and Observe are safe from any goroutine,
// including from inside Update, a Cmd or a listener.
type Host[M tea.Model, Msg any] struct {
	opts   Options
	logger *slog.Logger

	model  atomic.Pointer[versioned[M]]
	live   M                                       // the model the program starts from (snapshots are copies of it)
	recent [recentLen]atomic.Pointer[versioned[M]] // the last Models, by version, for ModelAt
	subs   listeners.Registry[func()]
	obs    listeners.Registry[func(Msg)]
	rec    atomic.Pointer[recording[M]] // see Record (observe.go)

	// Fields below are used only on Bubble Tea's event loop goroutine.
	shallow shallowCheck
	timer   func(time.Duration) tea.Cmd // the card's settle timer, for tests (nil: tea.Tick)
	logged  map[string]bool             // violations already logged, by kind and Message type

	violated  atomic.Pointer[Violation] // the violation standing, if any (see violation.go)
	unsettled []unsettled               // Keys waiting for AwaitSettled's condition (event loop only)
	settleIDs uint64                    // numbers the unsettled Keys (event loop only)

	mu       sync.Mutex
	state    state
	stopping bool          // Quit called or Run's context done: Dispatch is refused
	queue    []tea.Msg     // Messages waiting for the pump to send them
	wake     chan struct{} // capacity 1
	done     chan struct{} // closed when Run returns
}

// New returns a Host for an application whose initial model is model,
// configured by opts (nil for defaults). Model returns model until the first
// Update. Msg cannot be inferred, so name both type arguments:
//
//	h := teahost.New[model, tea.Msg](initialModel(), nil)
//
// A nil model is a programming error and panics.
func New[M tea.Model, Msg any](model M, opts *Options) *Host[M, Msg] {
	if any(model) == nil {
		panic("teahost: New called with a nil model")
	}
	h := &Host[M, Msg]{
		wake: make(chan struct{}, 1),
		done: make(chan struct{}),
	}
	if opts != nil {
		h.opts = *opts
	}
	h.logger = h.opts.Logger
	if h.logger == nil {
		h.logger = slog.Default()
	}
	h.live = model
	h.publish(&versioned[M]{model: h.snapshot(model), version: 1})
	return h
}

// publish makes s the current model and keeps it for ModelAt. Only
// Bubble Tea's event loop (or New) calls it.
func (h *Host[M, Msg]) publish(s *versioned[M]) {
	h.recent[s.version%recentLen].Store(s)
	h.model.Store(s)
}

// recentLen is how many versions ModelAt keeps.
const recentLen = 128

// ModelAt returns the model of an earlier version while the Host still
// keeps it: the last 128 versions are kept. It never blocks.
func (h *Host[M, Msg]) ModelAt(version uint64) (M, bool) {
	if s := h.recent[version%recentLen].Load(); s != nil && s.version == version {
		return s.model, true
	}
	var zero M
	return zero, false
}

// versioned is a model with its version, published as one value.
type versioned[M any] struct {
	model   M
	version uint64
}

// Model returns the model produced by the most recent Update, or the initial
// model before any. It never blocks. The value is shared: treat it as
// immutable, and so must the application (see the package documentation).
func (h *Host[M, Msg]) Model() M {
	return h.model.Load().model
}

// VersionedModel returns the current model with its version: 1 for the
// initial model, and one more for each Update that produced a model since
// (keys, resizes and the application's own Messages count as much as an
// agent's). Model and version are published together, and a listener
// called after an Update reads that Update's version (agent.Versioned
// relies on both).
func (h *Host[M, Msg]) VersionedModel() (M, uint64) {
	s := h.model.Load()
	return s.model, s.version
}

// Dispatch queues msg for the running Bubble Tea program and returns at
// once, without waiting for the program to take it, so it is safe from a
// listener or from Update. Queued Messages reach Update in the order they
// were dispatched, mixed in with keys, resizes and the application's own
// Cmd results. Messages dispatched before Run wait for it.
//
// A nil error means msg was accepted. A Message still queued when the
// program exits is dropped; a dispatcher that must know uses
// DispatchTracked. Dispatch fails without queuing anything when ctx is
// already done (an error wrapping the context's error), the program is
// stopping or has stopped ([ErrStopped]: Quit was called, Run's context is
// done, or Run has returned), or Options.MaxQueue Messages are already
// waiting ([ErrQueueFull]). Each of these errors has a method
// NotDelivered() bool that returns true.
func (h *Host[M, Msg]) Dispatch(ctx context.Context, msg Msg) error {
	if err := ctx.Err(); err != nil {
		return &undelivered.Error{Cause: err}
	}
	return h.enqueue(markInput(h.withOrigin(ctx, msg)), h.opts.MaxQueue)
}

// DispatchTracked is Dispatch for a dispatcher that must know whether
// Update received msg (agent.Runtime uses it; see agent.DeliveryTracker).
// It fails exactly as Dispatch does, and then never calls delivered. Once
// it returns nil, delivered is called exactly once: with nil on Bubble
// Tea's event loop just before the application's Update is called with
// msg, or with [ErrStopped] when the program exits first. delivered must
// not block.
//
// msg travels through Bubble Tea inside a value of an unexported type,
// which the Host unwraps before the application's Update and listeners
// see it. A tea.WithFilter function therefore sees that value, not msg;
// one that drops it keeps msg from Update, and msg is then reported not
// delivered when Run returns.
func (h *Host[M, Msg]) DispatchTracked(ctx context.Context, msg Msg, delivered func(err error)) error {
	if err := ctx.Err(); err != nil {
		return &undelivered.Error{Cause: err}
	}
	if err := h.refusal(); err != nil {
		return err
	}
	return h.enqueue(&tracked{msg: markInput(h.withOrigin(ctx, msg)), delivered: delivered}, h.opts.MaxQueue)
}

// DispatchNeverBlocks reports true: Dispatch and DispatchTracked only
// queue the Message for the pump or refuse it, and return at once. A
// dispatcher such as agent.Runtime (see agent.NonBlocking) then calls them
// on its own goroutine rather than guarding each call with another.
func (h *Host[M, Msg]) DispatchNeverBlocks() bool { return true }

// Quit asks the running program to quit, as tea.Quit does, after every
// Message dispatched before it. From then on Dispatch is refused with
// ErrStopped. It returns ErrStopped if Run has returned; calling it again
// before then does nothing more.
func (h *Host[M, Msg]) Quit() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.state == stateStopped {
		return ErrStopped
	}
	if h.stopping {
		return nil
	}
	h.stopping = true
	h.queue = append(h.queue, tea.QuitMsg{})
	h.wakePump()
	return nil
}

// enqueue appends msg for the pump; limit > 0 refuses it when that many
// Messages already wait.
func (h *Host[M, Msg]) enqueue(msg tea.Msg, limit int) error {
	h.mu.Lock()
	if h.state == stateStopped || h.stopping {
		h.mu.Unlock()
		return ErrStopped
	}
	if limit > 0 && len(h.queue) >= limit {
		h.mu.Unlock()
		return ErrQueueFull
	}
	h.queue = append(h.queue, msg)
	h.mu.Unlock()
	h.wakePump()
	return nil
}

func (h *Host[M, Msg]) wakePump() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// Subscribe registers listener to be called after every Update, once the
// model it returned is what Model returns. Every Bubble Tea Message counts,
// keys and resizes included, whether or not the model changed. It returns an
// idempotent function that removes the listener. A nil listener is ignored.
//
// See Observe for the guarantees listeners get.
func (h *Host[M, Msg]) Subscribe(listener func()) (unsubscribe func()) {
	if listener == nil {
		return func() {}
	}
	return h.subs.Add(listener)
}

// Observe registers listener to be called with every Message of type Msg
// after Update has applied it and the model it returned is what Model
// returns. Messages of other types (keys, resizes, timers of another type)
// are not observed; with Msg = tea.Msg every Message is. For each Message,
// Subscribe listeners run first, then Observe listeners, each group in
// registration order. It returns an idempotent function that removes the
// listener. A nil listener is ignored.
//
// A listener registered before a call to Dispatch sees the Message that call
// queued and everything after it, including Messages the application's Cmds
// produce in response.
//
// Listeners run on Bubble Tea's event loop goroutine, before the view is
// rendered: keep them short. From a listener it is safe to call Model,
// Dispatch (the Message is queued, never applied re-entrantly), Quit,
// Subscribe, Observe, and any unsubscribe function, including its own: a
// listener removed during a notification is not called again. A panicking
// listener is contained and reported, and the other listeners still run.
func (h *Host[M, Msg]) Observe(listener func(Msg)) (unsubscribe func()) {
	if listener == nil {
		return func() {}
	}
	return h.obs.Add(listener)
}

// Done returns a channel closed when Run has returned.
func (h *Host[M, Msg]) Done() <-chan struct{} {
	return h.done
}

// Run runs the application as a Bubble Tea program built with opts, and
// returns its final model and the program's error, as tea.Program.Run does.
// The program stops when the application quits, when Quit is called, or when
// ctx is cancelled (Run then returns an error wrapping tea.ErrProgramKilled
// and the context's error). Run passes tea.WithContext(ctx) after opts, so ctx
// is the program's context. Once ctx is done, or Run returns, Dispatch is
// refused, and Messages still queued when Run returns are dropped (those
// queued by DispatchTracked are reported dropped, each to its dispatcher). A Host runs once: a second call returns
// ErrAlreadyRunning, or ErrStopped after the first has returned.
//
// Bubble Tea hands the wrapped model, not the application's, to a
// tea.WithFilter function; use [Unwrap] there to reach the application's.
func (h *Host[M, Msg]) Run(ctx context.Context, opts ...tea.ProgramOption) (M, error) {
	h.mu.Lock()
	switch h.state {
	case stateRunning:
		h.mu.Unlock()
		return h.Model(), ErrAlreadyRunning
	case stateStopped:
		h.mu.Unlock()
		return h.Model(), ErrStopped
	}
	h.state = stateRunning
	h.mu.Unlock()

	// Once ctx is done the program is on its way out: refuse at once
	// rather than queue what it will drop.
	stopWatch := context.AfterFunc(ctx, func() {
		h.mu.Lock()
		h.stopping = true
		h.mu.Unlock()
	})
	defer stopWatch()

	opts = append(opts[:len(opts):len(opts)], tea.WithContext(ctx))
	start := wrapped[M, Msg]{h: h, inner: h.live}
	if a := h.opts.Approvals; a != nil {
		start.deck = approvals.NewDeck(a.Options)
	}
	prog := tea.NewProgram(start, opts...)

	pumpCtx, stopPump := context.WithCancel(context.Background())
	pumped := make(chan struct{})
	go func() {
		defer close(pumped)
		h.pump(pumpCtx, prog)
	}()

	final, err := prog.Run()

	h.mu.Lock()
	h.state = stateStopped
	queued := h.queue
	h.queue = nil
	h.mu.Unlock()
	stopPump()
	<-pumped // tea.Program.Send returns at once after Run has returned
	// No Update runs any more: what is left was never delivered.
	drop(queued)
	close(h.done)

	if w, ok := final.(wrapped[M, Msg]); ok {
		if m, ok := w.inner.(M); ok {
			return m, err
		}
	}
	return h.Model(), err
}

// pump forwards queued Messages to the program in order. tea.Program.Send
// blocks until the event loop takes the Message, which is why Dispatch
// queues instead of sending: a listener on the event loop would otherwise
// wait for itself.
//
// A tracked Message is reported delivered by Update, never here: once Send
// returns, the event loop may have taken it or may have exited. The pump
// keeps the tracked Messages it has sent until Update reports them, and
// when it stops (after the program has exited, so no Update can still
// come) reports the rest, and the unsent rest of its batch, as dropped.
func (h *Host[M, Msg]) pump(ctx context.Context, prog *tea.Program) {
	var batch, spare []tea.Msg
	var sent []*tracked // sent, not yet reported by Update
	var i int
	defer func() {
		for _, t := range sent {
			t.report(ErrStopped)
		}
		if batch != nil {
			drop(batch[i:])
		}
	}()
	for {
		h.mu.Lock()
		if len(h.queue) > 0 {
			batch, h.queue = h.queue, spare[:0]
		}
		h.mu.Unlock()
		if len(batch) == 0 {
			select {
			case <-h.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		for i = range batch {
			if ctx.Err() != nil {
				return
			}
			m := batch[i]
			if t, ok := m.(*tracked); ok {
				sent = slices.DeleteFunc(sent, func(t *tracked) bool { return t.done.Load() })
				sent = append(sent, t)
			}
			prog.Send(m)
		}
		i = len(batch)
		clear(batch)
		spare, batch = batch, nil
	}
}

// Unwrap returns the application's model from the model Bubble Tea holds,
// for code that receives it from Bubble Tea directly, such as a
// tea.WithFilter function. Any other model is returned as it is.
func Unwrap(m tea.Model) tea.Model {
	if w, ok := m.(interface{ unwrap() tea.Model }); ok {
		return w.unwrap()
	}
	return m
}

// wrapped is the tea.Model the program actually runs: the application's
// model plus the Host to publish through.
type wrapped[M tea.Model, Msg any] struct {
	h     *Host[M, Msg]
	inner tea.Model
	// With Options.Approvals: the requests waiting for the person, and
	// the terminal's size the card is laid out in.
	deck          approvals.Deck
	width, height int
}

func (w wrapped[M, Msg]) unwrap() tea.Model { return w.inner }

// Init returns the application's initial Cmd.
func (w wrapped[M, Msg]) Init() tea.Cmd { return w.inner.Init() }

// View renders the application's view, or nothing with WithoutView.
// The view's content keeps text and styling only (shownContent), and its
// window title text only (shownTitle): what an agent wrote into the
// application's data is shown, never obeyed.
//
// Below it the Host draws its own region, each line inert, the
// application's content clipped above: the approval card in front
// (Options.Approvals), while one waits, and a line telling the person of
// a violation standing, while one does.
func (w wrapped[M, Msg]) View() tea.View {
	if w.h.opts.WithoutView {
		return tea.NewView("")
	}
	v := w.inner.View()
	v.Content = shownContent(v.Content)
	v.WindowTitle = shownTitle(v.WindowTitle)
	var region []string
	ruled := false
	if w.h.opts.Approvals != nil {
		if region, ruled = w.approvalRegion(); ruled {
			// The terminal is told the program waits for permission
			// (OSC 7501).
			v.ProgramStatus = &tea.ProgramStatus{State: tea.ProgramStateBlocked, Kind: tea.ProgramStatusKindPermission, App: "foldagent", Title: "approval"}
		}
	}
	if line, ok := w.h.violationLine(); ok {
		region = append(region, line)
	}
	if len(region) == 0 {
		return v
	}
	return w.drawBottom(v, region, ruled)
}

// Update applies msg with the application's Update, checks the model
// obligation, publishes the result and notifies listeners.
func (w wrapped[M, Msg]) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	h := w.h
	dispatched := false // queued by Dispatch: code's, never the person's key
	if t, ok := msg.(*tracked); ok {
		t.report(nil) // Update takes it now; a panic in Update still counts
		msg, dispatched = t.msg, true
	}
	msg, origin := unwrapOrigin(msg)
	if in, ok := msg.(dispatchedInput); ok {
		msg, dispatched = in.msg, true
	}
	dispatched = dispatched || origin != nil
	if r, ok := msg.(keysReturned); ok {
		h.keysReturned(r, w.inner)
		return w, nil
	}
	if size, ok := msg.(tea.WindowSizeMsg); ok && !dispatched {
		// The terminal's size; one dispatched is the application's to hear.
		w = w.resize(size)
	}
	var deckCmd tea.Cmd
	if h.opts.Approvals != nil {
		var consumed bool
		if w, deckCmd, consumed = w.approval(msg, dispatched); consumed {
			return w, deckCmd
		}
	}
	if k, ok := msg.(Keys); ok {
		return w.pressKeys(k)
	}
	prev := w.inner
	before := h.checkBefore(prev)
	next, cmd, ok := h.update(prev, msg)
	if !ok {
		h.shallow.release()
		return w, deckCmd // the panicking Message is dropped; the model stays
	}
	if deckCmd != nil {
		cmd = tea.Batch(cmd, deckCmd)
	}
	if path, mutated := h.checkAfter(prev, before); mutated {
		h.violation(&Violation{Kind: MutatedInPlace, Msg: msg, Model: fmt.Sprintf("%T", next), Path: path})
	}

	if m, ok := next.(M); ok && next != nil {
		s := &versioned[M]{model: h.snapshot(m), version: h.model.Load().version + 1}
		h.publish(s)
		h.recordApplied(msg, origin, s)
		h.settle()
	} else {
		h.violation(&Violation{Kind: TypeChanged, Msg: msg, Model: fmt.Sprintf("%T", next)})
	}

	h.subs.Each(func(fn func()) { h.callSub(fn, msg) })
	if am, ok := msg.(Msg); ok {
		h.obs.Each(func(fn func(Msg)) { h.callObs(fn, am) })
	}
	if next == nil {
		return w, cmd // keep a model Bubble Tea can render; reported above
	}
	h.settleKeys(next)
	w.inner = next
	return w, cmd
}

func (h *Host[M, Msg]) update(prev tea.Model, msg tea.Msg) (next tea.Model, cmd tea.Cmd, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			h.panicked(&PanicError{Source: "update", Msg: msg, Value: r, Stack: debug.Stack()})
		}
	}()
	next, cmd = prev.Update(msg)
	return next, cmd, true
}

func (h *Host[M, Msg]) callSub(fn func(), msg tea.Msg) {
	defer func() {
		if r := recover(); r != nil {
			h.panicked(&PanicError{Source: "listener", Msg: msg, Value: r, Stack: debug.Stack()})
		}
	}()
	fn()
}

func (h *Host[M, Msg]) callObs(fn func(Msg), msg Msg) {
	defer func() {
		if r := recover(); r != nil {
			h.panicked(&PanicError{Source: "listener", Msg: msg, Value: r, Stack: debug.Stack()})
		}
	}()
	fn(msg)
}

func (h *Host[M, Msg]) panicked(e *PanicError) {
	if h.opts.OnPanic != nil {
		h.guard("OnPanic", func() { h.opts.OnPanic(e) })
		return
	}
	h.logger.Error("teahost: contained a panic", "source", e.Source, "msg", fmt.Sprintf("%T", e.Msg),
		"panic", fmt.Sprint(e.Value), "stack", string(e.Stack))
}

func (h *Host[M, Msg]) violation(v *Violation) {
	h.stand(v)
	if h.opts.OnViolation != nil {
		h.guard("OnViolation", func() { h.opts.OnViolation(v) })
		return
	}
	key := string(v.Kind) + "\x00" + fmt.Sprintf("%T", v.Msg)
	if h.logged[key] {
		return
	}
	if h.logged == nil {
		h.logged = map[string]bool{}
	}
	h.logged[key] = true
	h.logger.Warn("teahost: Update broke the model obligation; later ones like it are not logged",
		"kind", string(v.Kind), "msg", fmt.Sprintf("%T", v.Msg), "model", v.Model, "path", v.Path)
}

func (h *Host[M, Msg]) guard(name string, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			h.logger.Error("teahost: "+name+" panicked", "panic", fmt.Sprint(r))
		}
	}()
	fn()
}
