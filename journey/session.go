package journey

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Options configure a session. The zero value works: the cursor starts on
// the first declared page, there is no state tap, and high-effect agent
// fires are gated by confirmation (default mode).
type Options struct {
	// Page is the start page; empty means the first declared page.
	Page string
	// State is the initial state view. A non-nil map (even empty) turns the
	// state tap on: fires that declare writes then wait for the app's
	// state report (UpdateState) before they come to rest.
	State map[string]any
	// RequireHumanApproval enforces the ask book: a high-effect agent fire
	// needs a yes a person gave through AskBook.Approve, and the yes is single
	// use.
	RequireHumanApproval bool
	// ApprovalExpiresAfter makes an unspent yes stale after this long
	// (APPROVAL_STALE). Zero means a yes does not expire.
	ApprovalExpiresAfter time.Duration
	// AllowUnmaterializedFires lets an agent fire an action nothing is
	// bound to, as a read-only tour: it is recorded, runs nothing, and is
	// graded as not having happened.
	AllowUnmaterializedFires bool
	// RedactedKeys are state keys whose values never appear in evidence.
	RedactedKeys []string
	// Retention bounds the history the session keeps in detail; the zero
	// value takes the documented defaults (see Retention).
	Retention Retention
	// AttributionPolicy chooses how an untagged state report may be
	// credited to a pending fire. The zero value (AttributionDefault)
	// tries every rung; AttributionStrict skips queue-order, so such a
	// report is credited to a pending fire only when its keys cover the
	// writes of exactly that one fire (signature-match). See ReportState.
	AttributionPolicy AttributionPolicy
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives defect reports; nil means slog.Default().
	Logger *slog.Logger
}

// AttributionPolicy is the protocol's attributionPolicy option.
type AttributionPolicy string

// The attribution policies. The empty policy reads as AttributionDefault.
const (
	AttributionDefault AttributionPolicy = "default"
	AttributionStrict  AttributionPolicy = "strict"
)

type ctxKey struct{}

// TransitionIDFrom returns the id of the fire a handler is running for.
func TransitionIDFrom(ctx context.Context) (string, bool) {
	id, ok := ctx.Value(ctxKey{}).(string)
	return id, ok
}

// Session is one conversation's live view of an application through its
// graph. It is the coordinator of the session's fold: each call that
// changes something (a fire, a state report, a sync, a registration, an
// answer to an ask, work opened or closed, a frame entered or left) takes
// the session's lock, applies that one event to the fold's parts, and
// releases the lock before any observer or host callback runs. Reads go
// through View, the ask book through Asks. All methods are safe for
// concurrent use. Host callbacks (handlers, observers, holds readers,
// Instances, VerifyFunc) are isolated: a panic is recovered and recorded
// as a Defect, and none of them runs while the session is locked, so
// each may read the session.
type Session struct {
	mu sync.Mutex
	st fold // guarded by mu
}

// fold is the state a session's events are applied to, and the rules
// that apply them. Every method of fold runs with the session's lock
// held: only Session (and View, Asks, Handle, Work, through Session.do)
// reach it, after taking the lock, so no helper needs to say so in its
// name. It is made of parts, each a type that owns its state and rules:
// the ledgers, the ask book, the frame book, the work book, the person's
// view (visibility), the bindings, and the observers' outbox.
type fold struct {
	g    *Graph
	opts Options
	now  func() time.Time
	log  *slog.Logger
	// relock runs f under the session's lock again (Session.do), for the
	// work a fold queues to run once the lock is released (a handler's
	// return, a VerifyFunc's verdict).
	relock func(f func(*fold))

	page    int // -1 when off the graph
	offPath string
	// view is where the person is looking (visibility.go).
	view visibility

	state    map[string]any
	tap      bool
	redacted map[string]bool

	version, stateVersion, structureVersion int64
	seq                                     int64 // transition counter

	ledgers   ledgers      // fire.go, ledger.go: transitions, gaps, commits, retention
	askBook   askBook      // ask.go
	frameBook frameBook    // journeys.go
	workBook  workBook     // session.go (work ledger)
	bindings  bindingLists // per action idx, newest last
	regSeq    int
	claim     *record // the open navigation claim window
	// stimuli are the recent state changes no fire was credited with,
	// for the facts block (bounded: maxStimuli, in batches).
	stimuli []*record
	obs     observers // observers.go: observers, defects, the outbox
	sources sources   // sources.go: what the Instances sources said
}

// frameBook holds the journey frames: the open one, and the recent closed
// ones (bounded), with each journey's newest frame kept whatever its age.
type frameBook struct {
	frames        []*frame
	open          *frame
	lastFrame     []*frame // per journey idx
	framesEvicted int
}

// workBook is the work ledger: open work only; done work is dropped.
type workBook struct {
	work    []*workItem
	workSeq int64
}

type record struct {
	t        Transition
	an       *actionNode
	seq      int64
	fired    bool
	input    any
	awaiting bool // awaiting the app's state report
	running  bool // handler in flight
	settled  bool
	// verifying: the fire came to rest and its VerifyFunc is being read
	// outside the lock; the settlement is written when it answers.
	verifying bool
	receipt   Settlement
	// done is closed once the fire is at rest: settled, and its handler
	// (if one runs) has returned, so what it produced is in the answer.
	done     chan struct{}
	restTold bool // done is closed
	landed   bool // a sync landed on the claimed page while the window was open
	byReport bool // committed by a real state report
	tour     bool
	obs      []Observation
	// errorNow is why the record moved after its receipt was written
	// (Reject on a fire already at rest).
	errorNow *SettleError
	evicted  bool // no longer held in detail (see Retention)
}

type commit struct {
	seq     int64
	version int64
	rec     *record // the transition the commit is attributed to
	keys    []string
	actor   Actor
}

// StateChange is delivered to state observers after a state report.
type StateChange struct {
	Version      int64    `json:"version"`
	Keys         []string `json:"keys"`
	TransitionID string   `json:"transitionId"`
	Actor        Actor    `json:"principal"`
}

// NewSession opens a session on the graph. It fails for an unknown start
// page.
func (g *Graph) NewSession(opts Options) (*Session, error) {
	sess := &Session{st: fold{g: g, opts: opts, now: opts.Now, log: opts.Logger,
		ledgers:   newLedgers(g, opts.Retention),
		askBook:   newAskBook(opts),
		frameBook: frameBook{lastFrame: make([]*frame, len(g.journeys))},
		bindings:  make([][]*binding, len(g.actions)), view: newVisibility(g),
		redacted: map[string]bool{}, state: map[string]any{}}}
	s := &sess.st
	s.relock = sess.do
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.obs.now, s.obs.log = s.now, s.log
	s.askBook.now, s.askBook.out = s.now, &s.obs
	switch opts.AttributionPolicy {
	case "", AttributionDefault, AttributionStrict:
	default:
		return nil, fmt.Errorf("journey: Options.AttributionPolicy must be %q, %q or empty", AttributionDefault, AttributionStrict)
	}
	if opts.Page == "" {
		s.page = 0
	} else {
		pi, ok := g.pageIndex[opts.Page]
		if !ok {
			return nil, &Error{Reason: ReasonUnknownPage, Msg: "the start page is not declared", Value: opts.Page}
		}
		s.page = pi
	}
	if opts.State != nil {
		s.tap = true
		for k, v := range opts.State {
			nv, err := normalize(v)
			if err != nil {
				return nil, &Error{Reason: ReasonUncloneableDelta, Msg: "an initial state value is not JSON", Value: k}
			}
			s.state[k] = nv
		}
	}
	for _, k := range opts.RedactedKeys {
		s.redacted[k] = true
	}
	return sess, nil
}

// MustNewSession is NewSession that panics on error.
func (g *Graph) MustNewSession(opts Options) *Session {
	s, err := g.NewSession(opts)
	if err != nil {
		panic(err)
	}
	return s
}

// Error is a typed runtime refusal of a session method. Msg is a library
// sentence; Value carries the offending runtime value (data only).
type Error struct {
	Reason Reason
	Msg    string
	Value  string
	// Known lists what would have been accepted (ids), when useful.
	Known []string
}

// Error renders the reason and the library sentence; the offending
// runtime value stays in Value and is never spliced into the message.
func (e *Error) Error() string { return "journey: " + string(e.Reason) + ": " + e.Msg }

// Is lets errors.Is match on the reason: errors.Is(err, &Error{Reason: R}).
func (e *Error) Is(target error) bool {
	var t *Error
	if errors.As(target, &t) {
		return t.Reason == e.Reason
	}
	return false
}

// Graph returns the session's graph.
func (s *Session) Graph() *Graph { return s.st.g }

// Enforced reports whether the session requires human approval.
func (s *Session) Enforced() bool { return s.st.opts.RequireHumanApproval }

// ---- locking and delivery ----

// unlock releases the session lock and then runs what was queued while
// it was held: observer deliveries, and host callbacks that read a copy of
// the state (a VerifyFunc) and apply what they read under the lock again.
func (s *Session) unlock() {
	out := s.st.obs.takeOutbox()
	s.mu.Unlock()
	// Delivery happens on the caller's goroutine with no session lock
	// held, so an observer (or a VerifyFunc) may call back into the
	// session.
	for _, f := range out {
		f()
	}
}

// ---- position ----

func (s *fold) pageID() string {
	if s.page < 0 {
		return ""
	}
	return s.g.pages[s.page].id
}

// Position returns where the cursor is and the current version.
func (v View) Position() Position {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	return look{s}.position()
}

func (l look) position() Position {
	s := l.s
	p := Position{YouAreOn: s.pageID(), OffGraph: s.page < 0, Version: s.version}
	if f := s.view.focusPath(); f != "" {
		p.LookingAt = f
	}
	return p
}

// Version returns the session version: it moves on every recorded fire,
// settlement, rejection, page change, state report, journey commit or
// leave, and served-surface change. Refusals and reads never move it.
func (v View) Version() int64 {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	return s.version
}

// StateVersion moves only when a state report commits keys.
func (v View) StateVersion() int64 {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	return s.stateVersion
}

// StructureVersion moves when the served surface changes (registration,
// unregistration, enabled or busy flips).
func (v View) StructureVersion() int64 {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	return s.structureVersion
}

// SyncResult reports what a Sync did.
type SyncResult struct {
	Page     string `json:"page"`
	OffGraph bool   `json:"offGraph,omitempty"`
	Changed  bool   `json:"changed"`
	// Observed names the fire whose navigation claim this sync corroborated.
	Observed string `json:"observed,omitempty"`
	Version  int64  `json:"version"`
}

// Sync reports the application's location from its router: a declared
// page id, or a path matched against the declared routes. A location the
// graph does not map is legal: the cursor goes off the graph and nothing
// is served. A sync that lands on the page an open navigation claim named
// upgrades that fire's arrival from claimed to observed (even when the
// page did not change); any sync closes the claim window.
func (s *Session) Sync(pageOrPath string) SyncResult {
	s.mu.Lock()
	defer s.unlock()
	return s.st.sync(pageOrPath)
}

// sync applies Sync to the fold.
func (s *fold) sync(pageOrPath string) SyncResult {
	pi, ok := s.g.pageIndex[pageOrPath]
	if !ok {
		pi = -1
		if len(pageOrPath) > 0 && pageOrPath[0] == '/' {
			pi = s.g.matchRoute(pageOrPath)
		}
	}
	res := SyncResult{}
	if c := s.claim; c != nil {
		s.claim = nil
		if pi >= 0 && pi == c.an.goTo {
			c.landed = true
			if c.t.Arrival == ArrivalClaimed {
				c.t.Arrival = ArrivalObserved
				s.obs.transition(c)
			}
			res.Observed = c.t.ID
		}
	}
	if pi != s.page || (pi < 0 && s.offPath != pageOrPath) {
		from := s.pageID()
		s.view.leave(s.page)
		s.page = pi
		s.offPath = ""
		name := "(off-graph)"
		if pi < 0 {
			s.offPath = pageOrPath
		} else {
			name = s.g.pages[pi].id
		}
		s.seq++
		s.version++
		r := &record{seq: s.seq, t: Transition{ID: "sync:" + name + "#" + strconv.FormatInt(s.seq, 10), Kind: KindSync,
			Actor: ActorSystem, Timestamp: s.now(), Outcome: OutcomeCommitted, FromNode: from, ToNode: s.pageID(),
			CursorVersion: s.version - 1, Version: s.version, Settled: true}}
		s.ledgers.add(r, s.claim)
		s.obs.transition(r)
		res.Changed = true
	}
	res.Page, res.OffGraph, res.Version = s.pageID(), s.page < 0, s.version
	return res
}

// ---- state ----

// State returns a detached copy of the state view.
func (v View) State() map[string]any {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	out := make(map[string]any, len(s.state))
	for k, v := range s.state {
		out[k], _ = normalize(v)
	}
	return out
}

// Values returns the state view's values at keys, normalized to JSON
// values, for a model to read: a key the view does not hold is left out,
// and a redacted key (Options.RedactedKeys) is left out of values and
// named in redacted instead, so its value never reaches a model.
func (v View) Values(keys ...string) (values map[string]any, redacted []string) {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	values = make(map[string]any, len(keys))
	for _, k := range keys {
		v, ok := s.state[k]
		switch {
		case !ok:
		case s.redacted[k]:
			redacted = append(redacted, k)
		default:
			values[k], _ = normalize(v)
		}
	}
	return values, redacted
}

// StateReport says what UpdateState did with a delta.
type StateReport struct {
	OK     bool   `json:"ok"`
	Reason Reason `json:"reason,omitempty"`
	// TransitionID is the row the delta was attributed to: the named or
	// inferred fire, or a new stimulus row.
	TransitionID string `json:"transitionId,omitempty"`
	// Basis is the rung it was attributed by (BasisNamed, BasisPrincipal,
	// BasisSignature, BasisQueue, BasisStimulus), or "empty" (an empty
	// delta naming no fire: nothing is recorded).
	Basis   Basis    `json:"basis,omitempty"`
	Keys    []string `json:"keys,omitempty"`
	Version int64    `json:"version"`
	// Pending lists the fires awaiting a state report (on UNKNOWN_TRANSITION).
	Pending []string `json:"pending,omitempty"`
	Issues  []string `json:"issues,omitempty"`
}

// UpdateState is the state tap: the app reports a delta of its state
// view, naming the fire it belongs to or not. It is ReportState with only
// a transition id; see ReportState for how a delta is attributed.
func (s *Session) UpdateState(delta map[string]any, transitionID string) StateReport {
	return s.ReportState(delta, ReportOptions{TransitionID: transitionID})
}

// ReportOptions say what the app knows about a state change it reports.
// The zero value reports an untagged change.
type ReportOptions struct {
	// TransitionID names the fire the change belongs to.
	TransitionID string
	// Principal says whose change it is when the app knows: ActorUser
	// for an edit the person made themselves, ActorSystem for the app's
	// own, ActorAgent for another agent's (another conversation's: this
	// session's own agent's changes are its fires). A change reported
	// with a principal is a stimulus: it is never
	// credited to a pending fire. Empty means the app does not say.
	Principal Actor
}

// ReportState is the state tap with what the app knows about the change.
// It is ReportStateContext without a handler's context: the
// handler-window rung never applies.
func (s *Session) ReportState(delta map[string]any, ro ReportOptions) StateReport {
	return s.ReportStateContext(context.Background(), delta, ro)
}

// ReportStateContext is the state tap with what the app knows about the
// change, made from ctx. The delta is attributed by the first rung that
// applies:
//
//	named-by-report     TransitionID names the fire exactly
//	handler-window      ctx is the context a handler was given
//	                    (TransitionIDFrom) and that handler is still
//	                    running: the report is that fire's
//	reported-principal  a Principal was given: a stimulus row of that
//	                    actor, never credited to a pending fire
//	signature-match     the delta's keys cover the declared writes of
//	                    exactly one fire awaiting its report
//	queue-order         they cover the writes of several: the oldest
//	                    (skipped under AttributionStrict)
//	inferred-fire       no fire awaits a report, and the delta's keys
//	                    are exactly the declared writes of one action:
//	                    a row of that action by an unknown actor,
//	                    marked inferred, never a fire anyone made
//	stimulus            otherwise: a stimulus row of an unknown actor,
//	                    so state never moves silently
//
// An untagged edit while a fire is pending is therefore credited to that
// fire only when it writes what the fire declared writing. A fire awaiting
// its state report comes to rest here (performed, committed), with
// effectVerified saying whether every declared write key was in the
// delta. The row that carries the change records the rung (Attribution),
// and the facts block says it. A bad delta or an unknown id changes
// nothing. A nil ctx reads as context.Background.
func (s *Session) ReportStateContext(ctx context.Context, delta map[string]any, ro ReportOptions) StateReport {
	s.mu.Lock()
	defer s.unlock()
	return s.st.report(ctx, delta, ro)
}

// report applies ReportStateContext to the fold.
func (s *fold) report(ctx context.Context, delta map[string]any, ro ReportOptions) StateReport {
	rep := &stateReport{s: s, named: ro.TransitionID}
	if ro.Principal != "" {
		rep.principal = normActor(ro.Principal)
	}
	if ctx != nil {
		rep.window, _ = TransitionIDFrom(ctx)
	}
	if refused := rep.read(delta); refused != nil {
		return *refused
	}
	if len(rep.keys) == 0 && rep.named == "" {
		// Nothing moved and nobody was named: there is nothing to record.
		return StateReport{OK: true, Basis: BasisEmpty, Version: s.version}
	}
	if refused := rep.attribute(); refused != nil {
		return *refused
	}
	for k, v := range rep.norm {
		s.state[k] = v
	}
	s.seq++
	if rep.target == nil {
		rep.stimulus()
	} else {
		rep.credit()
	}
	if len(rep.keys) > 0 {
		s.stateVersion++
	}
	target := rep.target
	s.ledgers.commit(commit{seq: s.seq, version: s.version, rec: target, keys: rep.keys, actor: target.t.Actor})
	s.checkDemotion()
	emit(&s.obs, &s.obs.onState, "state observer", StateChange{Version: s.version, Keys: rep.keys, TransitionID: target.t.ID, Actor: target.t.Actor})
	return StateReport{OK: true, TransitionID: target.t.ID, Basis: rep.basis, Keys: rep.keys, Version: s.version}
}

// stateReport is one state report on its way in, under the session's
// lock: the delta read, then attributed (the rungs of
// ReportStateContext), then recorded as a stimulus row or credited to a
// fire.
type stateReport struct {
	s         *fold
	named     string // ReportOptions.TransitionID
	principal Actor
	window    string // the fire whose handler's context made the report
	norm      map[string]any
	keys      []string // sorted

	target   *record
	inferred *actionNode
	basis    Basis
}

// read detaches the delta; a value that is not JSON refuses the report.
func (r *stateReport) read(delta map[string]any) *StateReport {
	r.norm = make(map[string]any, len(delta))
	r.keys = make([]string, 0, len(delta))
	for k, v := range delta {
		nv, err := normalize(v)
		if err != nil {
			return &StateReport{Reason: ReasonUncloneableDelta, Issues: []string{"a value is not JSON: " + err.Error()}, Version: r.s.version}
		}
		r.norm[k] = nv
		r.keys = append(r.keys, k)
	}
	slices.Sort(r.keys)
	return nil
}

// attribute applies the rungs in order: named, handler window, reported
// principal, then the pending fires' signatures (signature match, queue
// order) or, with none pending, the sole declared writer (inferred). An
// unknown named id refuses the report.
func (r *stateReport) attribute() *StateReport {
	s := r.s
	switch {
	case r.named != "":
		t, ok := s.ledgers.byID[r.named]
		if !ok || !t.fired {
			reason := ReasonUnknownTransition
			if s.ledgers.wasEvicted(r.named) {
				reason = ReasonTransitionEvicted
			}
			return &StateReport{Reason: reason, Pending: s.ledgers.pending(), Version: s.version}
		}
		r.target, r.basis = t, BasisNamed
	case s.ledgers.inWindow(r.window) != nil:
		// Reported from inside the fire's handler while it runs: the
		// handler is the fire's own code, so the change is the fire's.
		r.target, r.basis = s.ledgers.inWindow(r.window), BasisHandlerWindow
	case r.principal != "":
		// The app said whose change it is: never a pending fire's.
	default:
		r.bySignature()
	}
	return nil
}

// bySignature credits the change to the pending fire whose declared
// writes it covers: only fires not at rest are scanned, never the
// history.
func (r *stateReport) bySignature() {
	s := r.s
	matches, pending := 0, false
	for _, f := range s.ledgers.openFires {
		if !f.awaiting || f.settled {
			continue
		}
		pending = true
		if len(f.an.writes) > 0 && coversAll(r.norm, f.an.writes) {
			if r.target == nil {
				r.target = f
			}
			matches++
		}
	}
	switch {
	case matches == 0:
		if !pending {
			r.inferred = s.soleWriter(r.keys)
		}
	case matches == 1:
		r.basis = BasisSignature
	case s.opts.AttributionPolicy == AttributionStrict:
		// Several fires claim the change and strict attribution does not
		// pick by age: nobody is credited.
		r.target = nil
	default:
		r.basis = BasisQueue
	}
}

// stimulus records a change no fire is credited with: the principal's
// when the app named one, an inferred fire of the sole declared writer,
// or an unknown actor's; state never moves silently.
func (r *stateReport) stimulus() {
	s := r.s
	actor := ActorUnknown
	r.basis = BasisStimulus
	if r.principal != "" {
		actor, r.basis = r.principal, BasisPrincipal
	}
	s.version++
	t := &record{seq: s.seq, t: Transition{ID: "stimulus:state#" + strconv.FormatInt(s.seq, 10), Kind: KindStimulus,
		Actor: actor, Stimulus: "state", Timestamp: s.now(), Outcome: OutcomeCommitted, FromNode: s.pageID(),
		Keys: r.keys, CursorVersion: s.version - 1, Version: s.version, Settled: true, Attribution: &Attribution{Actor: actor, Basis: r.basis}}}
	if an := r.inferred; an != nil {
		// An inferred fire: the action whose writes these are, by an
		// actor nobody named. It is no fire anyone made (fired stays
		// false: it opens no settlement and is no attempt).
		r.basis = BasisInferred
		t.t.ID = an.id + "#" + strconv.FormatInt(s.seq, 10)
		t.t.Kind, t.t.Stimulus = KindFired, ""
		t.t.Action, t.t.Does, t.t.Inferred = an.id, an.does, true
		t.t.Attribution.Basis = r.basis
		t.an = an
	}
	s.ledgers.add(t, s.claim)
	s.stimuli = append(s.stimuli, t)
	if len(s.stimuli) > 2*maxStimuli {
		s.stimuli = slices.Delete(s.stimuli, 0, len(s.stimuli)-maxStimuli)
	}
	s.obs.transition(t)
	r.target = t
}

// credit gives the change to the fire attributed: a fire awaiting its
// report comes to rest (performed, committed), effectVerified saying
// whether every declared write key was in the delta.
func (r *stateReport) credit() {
	s, t := r.s, r.target
	if r.basis == BasisSignature || r.basis == BasisQueue {
		t.t.Inferred = true
	}
	t.t.Attribution = &Attribution{Actor: t.t.Actor, Basis: r.basis}
	if !t.awaiting || t.settled {
		s.version++
		return
	}
	ev := ObservedNo
	if coversAll(r.norm, t.an.writes) {
		ev = ObservedYes
	}
	t.t.EffectVerified = ev
	t.byReport = true
	s.commit(t)
	s.settle(t, EffectPerformed, OutcomeCommitted, ev, nil)
}

// soleWriter is the one action whose declared writes are exactly
// keys (sorted), or nil when none or several are.
func (s *fold) soleWriter(keys []string) *actionNode {
	if len(keys) == 0 {
		return nil
	}
	var found *actionNode
	for _, an := range s.g.actions {
		if len(an.writes) != len(keys) || !sameSet(an.writes, keys) {
			continue
		}
		if found != nil {
			return nil
		}
		found = an
	}
	return found
}

// sameSet: writes (no duplicates) holds exactly the sorted keys.
func sameSet(writes, sorted []string) bool {
	for _, w := range writes {
		if _, ok := slices.BinarySearch(sorted, w); !ok {
			return false
		}
	}
	return true
}

func coversAll(delta map[string]any, writes []string) bool {
	for _, w := range writes {
		if _, ok := delta[w]; !ok {
			return false
		}
	}
	return true
}

// ---- registration ----

type binding struct {
	reg      int
	an       *actionNode
	instance string
	handler  Handler
	enabled  *bool
	busy     string
	holds    func() any
}

// Registration is what a page hands the session when it mounts. Keys of
// the maps name actions offered on the page: the name relative to the
// page ("add-to-cart", "lines.remove"), the qualified id, or a root
// action's id.
type Registration struct {
	// Instance is the repeats instance this registration mounts, if any.
	Instance string
	// Handlers bind actions to the code that performs them.
	Handlers map[string]Handler
	// Enabled sets initial clickability (false greys a control out).
	Enabled map[string]bool
	// Busy sets the app's initial working label for a control.
	Busy map[string]string
	// Holds reads what a control holds right now (a draft in a box). It is
	// read each time the control is served (Available, Here), after the
	// session's lock is released, so it may read the session.
	Holds map[string]func() any
}

// Handle is a mounted registration. Unregister it when the page unmounts.
type Handle struct {
	s    *fold
	id   int
	page string
	mine []*binding
}

// RegisterActions binds handlers and control state for actions offered on
// a page. It fails, changing nothing, for an unknown page or an action
// the page does not offer.
func (s *Session) RegisterActions(page string, reg Registration) (*Handle, error) {
	s.mu.Lock()
	defer s.unlock()
	return s.st.registerActions(page, reg)
}

// registerActions applies RegisterActions to the fold.
func (s *fold) registerActions(page string, reg Registration) (*Handle, error) {
	pi, ok := s.g.pageIndex[page]
	if !ok {
		return nil, &Error{Reason: ReasonUnknownPage, Msg: "RegisterActions names a page the graph does not declare", Value: page}
	}
	resolve := func(k string) (*actionNode, error) {
		for _, cand := range []string{k, page + "." + k} {
			if an, ok := s.g.actionIndex[cand]; ok && slices.Contains(an.on, pi) {
				return an, nil
			}
		}
		return nil, &Error{Reason: ReasonUnknownActionRegister, Msg: "a registration names an action the page does not offer", Value: k}
	}
	s.regSeq++
	h := &Handle{s: s, id: s.regSeq, page: page}
	byAction := map[*actionNode]*binding{}
	var order []*actionNode
	get := func(k string) (*binding, error) {
		an, err := resolve(k)
		if err != nil {
			return nil, err
		}
		b, ok := byAction[an]
		if !ok {
			b = &binding{reg: h.id, an: an, instance: reg.Instance}
			byAction[an] = b
			order = append(order, an)
		}
		return b, nil
	}
	for k, fn := range reg.Handlers {
		b, err := get(k)
		if err != nil {
			return nil, err
		}
		b.handler = fn
	}
	for k, on := range reg.Enabled {
		b, err := get(k)
		if err != nil {
			return nil, err
		}
		v := on
		b.enabled = &v
	}
	for k, label := range reg.Busy {
		b, err := get(k)
		if err != nil {
			return nil, err
		}
		b.busy = label
	}
	for k, fn := range reg.Holds {
		b, err := get(k)
		if err != nil {
			return nil, err
		}
		b.holds = fn
	}
	slices.SortFunc(order, func(a, b *actionNode) int { return a.idx - b.idx })
	for _, an := range order {
		b := byAction[an]
		s.bindings[an.idx] = append(s.bindings[an.idx], b)
		h.mine = append(h.mine, b)
	}
	if len(order) > 0 {
		s.swap()
	}
	return h, nil
}

func (s *fold) swap() {
	s.seq++
	s.version++
	s.structureVersion++
	r := &record{seq: s.seq, t: Transition{ID: "stimulus:structure-swap#" + strconv.FormatInt(s.seq, 10), Kind: KindStimulus,
		Actor: ActorSystem, Stimulus: "structure-swap", Timestamp: s.now(), Outcome: OutcomeCommitted, FromNode: s.pageID(),
		CursorVersion: s.version - 1, Version: s.version, Settled: true}}
	s.ledgers.add(r, s.claim)
	s.obs.transition(r)
}

func (h *Handle) find(action string) *binding {
	for _, b := range h.mine {
		if b.an.id == action || b.an.id == h.page+"."+action {
			return b
		}
	}
	return nil
}

func (h *Handle) bindingFor(action string) (*binding, error) {
	if b := h.find(action); b != nil {
		return b, nil
	}
	pi := h.s.g.pageIndex[h.page]
	for _, cand := range []string{action, h.page + "." + action} {
		if an, ok := h.s.g.actionIndex[cand]; ok && slices.Contains(an.on, pi) {
			b := &binding{reg: h.id, an: an, instance: ""}
			if len(h.mine) > 0 {
				b.instance = h.mine[0].instance
			}
			h.mine = append(h.mine, b)
			h.s.bindings[an.idx] = append(h.s.bindings[an.idx], b)
			return b, nil
		}
	}
	return nil, &Error{Reason: ReasonUnknownActionRegister, Msg: "the handle's page does not offer that action", Value: action}
}

// SetEnabled switches a control on or off. A switched-off control is
// served greyed (enabled:false) and its fires are refused TOOL_DISABLED.
func (h *Handle) SetEnabled(action string, on bool) (err error) {
	h.s.relock(func(*fold) { err = h.setEnabled(action, on) })
	return err
}

func (h *Handle) setEnabled(action string, on bool) error {
	b, err := h.bindingFor(action)
	if err != nil {
		return err
	}
	was := b.enabled == nil || *b.enabled
	v := on
	b.enabled = &v
	if was != on {
		h.s.swap()
	}
	return nil
}

// SetBusy sets (or, with "", clears) the app's own label for working on a
// control right now. It gates nothing.
func (h *Handle) SetBusy(action string, label string) (err error) {
	h.s.relock(func(*fold) { err = h.setBusy(action, label) })
	return err
}

func (h *Handle) setBusy(action string, label string) error {
	b, err := h.bindingFor(action)
	if err != nil {
		return err
	}
	if b.busy != label {
		b.busy = label
		h.s.swap()
	}
	return nil
}

// Unregister removes everything the registration bound. It is idempotent.
func (h *Handle) Unregister() { h.s.relock(func(*fold) { h.unregister() }) }

func (h *Handle) unregister() {
	if len(h.mine) == 0 {
		return
	}
	for _, b := range h.mine {
		list := h.s.bindings[b.an.idx]
		h.s.bindings[b.an.idx] = slices.DeleteFunc(list, func(x *binding) bool { return x == b })
	}
	h.mine = nil
	h.s.swap()
}

// bindingLists are the registrations that bind each action (per action
// idx, newest last).
type bindingLists [][]*binding

// state folds the bindings of an action for an instance: the
// newest binding with a handler, the switched-off flag, the busy label and
// the holds reader. For a repeats action a binding applies to its own
// instance, and an instance-less binding to every instance; for any other
// action the registration's instance does not matter.
func (bl bindingLists) state(an *actionNode, instance string) (handler Handler, disabled bool, busy string, holds func() any) {
	list := bl[an.idx]
	for i := len(list) - 1; i >= 0; i-- {
		b := list[i]
		if an.repeat != nil && b.instance != "" && b.instance != instance {
			continue
		}
		if handler == nil && b.handler != nil {
			handler = b.handler
		}
		if b.enabled != nil && !*b.enabled {
			disabled = true
		}
		if busy == "" && b.busy != "" {
			busy = b.busy
		}
		if holds == nil && b.holds != nil {
			holds = b.holds
		}
	}
	return
}

// instances lists the instance keys of an action's repeats
// container: the declared existence source if any, else the registered
// instances in registration order.
func (s *fold) instances(an *actionNode) (keys []string, declared bool) {
	c := an.repeat
	if c == nil {
		return nil, false
	}
	if c.instances != nil {
		// Read outside the lock, for this state version (Session.lock).
		return slices.Clone(s.sources.keys(c)), true
	}
	return s.bindings.registered(c), false
}

// registered lists the instances registered for a repeats container's
// actions, in registration order.
func (bl bindingLists) registered(c *containerNode) (keys []string) {
	for _, a := range c.actions {
		for _, b := range bl[a.idx] {
			if b.instance != "" && !slices.Contains(keys, b.instance) {
				keys = append(keys, b.instance)
			}
		}
	}
	return keys
}

// ---- work ledger ----

type workItem struct {
	id           string
	label        string
	transitionID string
	started      time.Time
	open         bool
}

// Work is an open piece of app work, tied to a fire or not.
type Work struct {
	s    *fold
	item *workItem
}

// WorkInfo describes open work. Label is the app's text (runtime data).
type WorkInfo struct {
	WorkID       string    `json:"workId"`
	Label        string    `json:"label,omitempty"`
	TransitionID string    `json:"transitionId,omitempty"`
	Started      time.Time `json:"started"`
}

// BeginWork opens a piece of work. While it is open, a settlement of the
// fire it is tied to carries stillWorking. Nothing ever times it out.
func (s *Session) BeginWork(label, transitionID string) *Work {
	s.mu.Lock()
	defer s.unlock()
	return s.st.beginWork(label, transitionID)
}

// beginWork applies BeginWork to the fold.
func (s *fold) beginWork(label, transitionID string) *Work {
	s.workBook.workSeq++
	w := &workItem{id: "work#" + strconv.FormatInt(s.workBook.workSeq, 10), label: label, transitionID: transitionID, started: s.now(), open: true}
	s.workBook.work = append(s.workBook.work, w)
	return &Work{s: s, item: w}
}

// ID returns the work id.
func (w *Work) ID() string { return w.item.id }

// Done closes the work. A non-nil err on work tied to a fire is reported
// as that fire's failure (the same path as a failing handler). Done is
// idempotent.
func (w *Work) Done(err error) { w.s.relock(func(s *fold) { s.workDone(w.item, err) }) }

// workDone applies Work.Done: the item leaves the work book, and a
// failure is its fire's.
func (s *fold) workDone(item *workItem, err error) {
	if !item.open {
		return
	}
	item.open = false
	s.workBook.work = slices.DeleteFunc(s.workBook.work, func(x *workItem) bool { return x == item })
	if err != nil && item.transitionID != "" {
		if r, ok := s.ledgers.byID[item.transitionID]; ok && r.fired {
			s.fail(r, handlerFailure(err))
		}
	}
}

// OpenWork lists work not yet done, oldest first.
func (v View) OpenWork() []WorkInfo {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	var out []WorkInfo
	for _, w := range s.workBook.work {
		if w.open {
			out = append(out, WorkInfo{WorkID: w.id, Label: w.label, TransitionID: w.transitionID, Started: w.started})
		}
	}
	return out
}

// StillWorking reports whether the app has open work tied to a fire. It
// rides either answer about the fire, settled or not: a fire can be at
// rest while the app is still working on it.
func (v View) StillWorking(transitionID string) bool {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	return s.workBook.stillWorking(transitionID)
}

func (s *workBook) stillWorking(id string) bool {
	for _, w := range s.work {
		if w.open && w.transitionID == id {
			return true
		}
	}
	return false
}

// look is the fold read under the session's lock: the rules an answer is
// built by (served rows, journey availability, plans, standings, the
// facts block, a settlement's answer). Its methods change nothing; a
// write path that needs an answer (a gap row naming what is served)
// reads it through look too.
type look struct{ s *fold }

// View reads a session: every answer the session gives about itself.
// Each read takes the session's lock once and builds its answer from the
// fold as it is at that moment; host code a read needs (a holds reader)
// runs after the lock is released. Two reads are two states: an answer
// built from several reads takes them with Look or FrameLook, which read
// all of it under one acquisition. A View is a value: obtain it with
// Session.View, without any lock, and keep it as long as the session.
type View struct{ s *Session }

// View returns the session's read side.
func (s *Session) View() View { return View{s} }

// AskBook is a session's ask book as the application and its ports use
// it: the cards, the person's answers, and declines relayed by a model.
// Obtain it with Session.Asks.
type AskBook struct{ s *Session }

// Asks returns the session's ask book.
func (s *Session) Asks() AskBook { return AskBook{s} }

// do applies f to the fold under the session's lock, and delivers what f
// queued once the lock is released: the coordinator's one entry for work
// that comes back to the session from outside a call (a handler
// returning, a VerifyFunc's verdict, work closed, a handle's flips).
func (s *Session) do(f func(*fold)) {
	s.mu.Lock()
	defer s.unlock()
	f(&s.st)
}
