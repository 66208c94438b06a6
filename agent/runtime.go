package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"time"
)

// Host is the seam between a contract and a running application: read the
// current Model, hand it a Message. host/loop and host/teahost implement
// it; so can any application that keeps its state elsewhere.
//
// Model must return an immutable snapshot: the runtime keeps the value it
// read for the whole invocation and never clones it, so an application
// replaces its Model on update rather than mutating it.
//
// Dispatch hands msg to the application. What its result promises is what
// the runtime tells the agent, so it must be exact:
//
//   - nil promises that update has received msg or certainly will: the
//     runtime reports the Message dispatched and, after a completion
//     timeout or a cancellation, that it reached update. A host that can
//     still lose a Message it accepted (a queue dropped when the
//     application stops) must not return nil for it from Dispatch alone:
//     it implements DeliveryTracker, and the runtime then calls
//     DispatchTracked instead and waits for the verdict.
//   - An error that reports non-delivery promises that update will never
//     receive msg: an error with, anywhere in its chain (errors.As), a
//     method NotDelivered() bool that returns true. The agent is told
//     nothing happened and a retry is safe (*NotDeliveredError), or, when
//     the error also wraps context.Canceled or context.DeadlineExceeded,
//     that the call was cancelled before the Message reached the
//     application (*CancelledError). Either is audited as refused. Return
//     one when the queue is full, when the application is stopping or
//     stopped, and when ctx has already ended; hosts need not import this
//     package for it. One that also has a method Stopped() bool returning
//     true says the application is stopping or stopped: a call held for
//     the person's approval whose card could not reach them is then told
//     the person left (*PersonLeftError), not that a retry is safe.
//   - Any other error, or a panic, promises nothing: it is a defect, and
//     delivery is unknown.
//
// Dispatch should return promptly and return early when ctx ends; when it
// does not, the runtime settles without it, with delivery unknown.
type Host[Model, Msg any] interface {
	Model() Model
	Dispatch(ctx context.Context, msg Msg) error
}

// DeliveryTracker is the optional seam for a host that queues Messages and
// may still drop one it accepted, such as host/loop (on an abandoned Run)
// and host/teahost (when the program exits). A Runtime discovers it at
// Bind and then hands every Message over through DispatchTracked instead
// of Dispatch, so what it tells the agent follows what became of the
// Message, not what the queue said.
//
// DispatchTracked refuses msg with an error exactly as Dispatch would (see
// Host); delivered is then never called. A nil error means msg is queued,
// and promises that delivered is called exactly once, later or already:
// with nil when update takes msg (before update runs, so a panicking update
// still counts as delivered), or with an error reporting non-delivery
// (NotDelivered() true) when the host drops msg unapplied. delivered does
// not block; it may be called from the host's update goroutine, or from
// DispatchTracked itself before it returns (host/loop applies a Message on
// the caller's goroutine when it has nothing else to do, which saves the
// wait for another goroutine).
//
// While it waits for the verdict the runtime holds the calling goroutine,
// so a capability must not be invoked, through a tracking host, from
// update or a listener: the Message could never be taken.
type DeliveryTracker[Msg any] interface {
	DispatchTracked(ctx context.Context, msg Msg, delivered func(err error)) error
}

// NonBlocking is the optional seam for a host whose Dispatch (and
// DispatchTracked, if it has one) never waits: it queues the Message or
// refuses it and returns at once, whatever ctx does, or at most applies
// the Message itself, which takes as long as an update, and update must not
// block (host/loop's DispatchTracked on an idle Program). host/loop and
// host/teahost implement it. A Runtime discovers it at Bind and then calls
// such a host on the caller's goroutine; any other host is called on a
// goroutine of its own whenever ctx can end, so that a host that never
// answers cannot hold the caller past its context. The seam changes how
// much a dispatch costs, never what it reports.
//
// A host returns true only if the promise holds for every call: a
// Dispatch that blocks on a full channel, a lock held by update, or the
// network must not claim it.
type NonBlocking interface {
	DispatchNeverBlocks() bool
}

// Finite is the optional seam for a host that stops: Done returns a
// channel closed once it has (host/loop's Program and host/teahost's Host
// implement it). When it closes, the person is gone with the
// application: a call held for their approval ends at once, withdrawn
// as WithdrawnPersonLeft, and its caller is told so (*PersonLeftError),
// rather than waiting out the approval timeout. A Runtime discovers it
// at Bind.
type Finite interface {
	Done() <-chan struct{}
}

// notDelivered is how a host's error says update will never see the
// Message (see Host).
type notDelivered interface {
	error
	NotDelivered() bool
}

// hostStopped is how a host's non-delivery error says the application is
// stopping or stopped (see Host).
type hostStopped interface {
	error
	Stopped() bool
}

// Subscriber is the optional seam for Model changes: listener is called
// after every Model change, and the returned function unsubscribes.
// Completion on state needs it, and adapters use it to follow the
// available capabilities.
//
// A listener may call the host's Model (completion on state does), so a
// host must not hold a lock that Model needs while it calls listeners.
type Subscriber interface {
	Subscribe(listener func()) (unsubscribe func())
}

// Observer is the optional seam for processed Messages: listener is called
// with every Message update has applied, after the Model it produced is
// visible through Model. Completion on Messages needs it.
//
// A Runtime registers at most one listener, only while some invocation
// waits for a Message, and removes it when none does; the listener costs
// a map lookup per Message unless an invocation waits on that Message's
// type.
type Observer[Msg any] interface {
	Observe(listener func(msg Msg)) (unsubscribe func())
}

// BindOptions configure a Runtime. The zero value (or nil) is ready to
// use.
type BindOptions[P any] struct {
	// Principal resolves who is calling, once per invocation, after the
	// input is decoded and before Authorize runs. Nil resolves the zero P.
	// A returned Error (such as an *AuthorizationError) refuses the
	// invocation with that error; any other error is a defect.
	Principal func(ctx context.Context, inv Invocation) (P, error)
	// NewInvocationID mints ids for invocations that arrive without one.
	// Nil uses NewInvocationID.
	NewInvocationID func() string
	// Audit records every decision this runtime makes, refusals included:
	// one entry per invocation (see AuditLog). Nil records nothing and
	// costs nothing. One log may serve several runtimes.
	Audit *AuditLog[P]
	// Tracer, when set, runs each invocation inside a span named
	// "Agent.dispatch" (see SpanName). agentotel.Tracer adapts an
	// OpenTelemetry TracerProvider. Nil traces nothing and costs nothing;
	// no global tracer is ever read.
	Tracer Tracer
	// TraceIDs reads the trace and span ids of the span a dispatch
	// context carries (the caller's: an adapter's HTTP request span, say),
	// so that audit entries name it when the runtime starts no span of
	// its own. agentotel.TraceIDs reads OpenTelemetry's. It is consulted
	// only with Audit set and Tracer nil: with a Tracer, entries name the
	// runtime's own span. Nil: entries of an untraced runtime carry no ids.
	TraceIDs func(ctx context.Context) (traceID, spanID string)
	// ApprovalTimeout is how long a call held for the person's approval
	// (Variant.Approval) waits for their answer before it is withdrawn
	// and refused (*ApprovalTimeoutError). Zero means
	// DefaultApprovalTimeout.
	ApprovalTimeout time.Duration
	// HeldBound bounds the calls held for approval at once, per identity
	// and in all (see HeldBound). Nil gives the runtime a HeldBound of its
	// own with the defaults, counting by caller.
	HeldBound *HeldBound[P]
	// OnAnswerRefused hears every answer of the person the runtime
	// refuses (see AnswerRefusal): an approval whose Shown is not the
	// pending request's Digest, or a late answer to one of its requests
	// that has ended (an answer to another runtime's request is not
	// this one's to report).
	// A refused answer changes nothing, and the request it named stays
	// pending; with Audit set, an approval refused for a pending request
	// is also recorded on its held call (OutcomeAnswerRefused). It runs
	// on the host's update goroutine, where the answer was applied: it
	// must return promptly and must not wait for the host; a panic in it
	// is dropped. Nil: only the audit log is told. The runtime listens
	// for answers only while one of its calls is held: an answer applied
	// when none is (a late y on a card long gone) is not heard, and
	// changes nothing.
	OnAnswerRefused func(RefusedAnswer)
}

// Runtime is a contract bound to a live application. It is safe for
// concurrent use: every invocation reads its own Model snapshot.
type Runtime[Model, Msg, P any] struct {
	contract   *Contract[Model, P]
	seam       seam[Model, Msg, P] // the host, and how a Message is handed to it (seam.go)
	subscriber Subscriber
	observer   Observer[Msg]
	principal  func(ctx context.Context, inv Invocation) (P, error)
	newID      func() string
	waits      *waitIndex[Model, P] // nil when no capability completes on a Message
	audit      *AuditLog[P]
	tracer     Tracer
	traceIDs   func(ctx context.Context) (traceID, spanID string)

	// Versions and looks (freshness.go).
	sight sight[Model, P]

	// approvals holds the calls waiting for the person (approval.go); nil
	// unless a capability declares an Approval.
	approvals       *approvalBook[Model]
	approvalTimeout time.Duration
	held            *HeldBound[P] // bounds approvals; set with it
	// context keeps the newest encoding of the context projection
	// (change.go).
	context contextCache[Model]

	// carrier wraps and unwraps the approval Messages; set with
	// approvals.
	carrier carrier[Msg]
	// onAnswerRefused is BindOptions.OnAnswerRefused.
	onAnswerRefused func(RefusedAnswer)
	// hostDone is closed when the host stops (Finite); nil when it
	// cannot say. A held call ends then: the person left.
	hostDone <-chan struct{}
}

// Bind binds a contract to a host.
//
// It refuses, with an error naming the culprits, a host whose Message type
// cannot hold one of the contract's Messages (including the Messages its
// completion contracts wait for), and a contract that needs a
// seam the host lacks: completion on Messages needs an Observer, and
// completion on state needs a Subscriber.
func Bind[Model, Msg, P any](c *Contract[Model, P], host Host[Model, Msg], opts *BindOptions[P]) (*Runtime[Model, Msg, P], error) {
	if c == nil {
		return nil, errors.New("agent: Bind needs a contract")
	}
	if host == nil {
		return nil, errors.New("agent: Bind needs a host")
	}
	r := &Runtime[Model, Msg, P]{contract: c, seam: seam[Model, Msg, P]{host: host}, newID: NewInvocationID}
	if opts != nil {
		r.principal = opts.Principal
		if opts.NewInvocationID != nil {
			r.newID = opts.NewInvocationID
		}
		r.audit = opts.Audit
		r.tracer = opts.Tracer
		r.traceIDs = opts.TraceIDs
		r.approvalTimeout = opts.ApprovalTimeout
		r.held = opts.HeldBound
		r.onAnswerRefused = opts.OnAnswerRefused
	}
	if r.held == nil {
		r.held = NewHeldBound[P](0, 0, nil)
	}
	if r.approvalTimeout <= 0 {
		r.approvalTimeout = DefaultApprovalTimeout
	}
	r.subscriber, _ = host.(Subscriber)
	r.observer, _ = host.(Observer[Msg])
	r.sight.versioned, _ = host.(Versioned[Model])
	r.sight.model, r.sight.watches = host.Model, c.watches
	r.context.p = c.context.p
	if r.sight.versioned != nil {
		r.seam.stamp = r.versionNow
	}
	r.seam.tracker, _ = host.(DeliveryTracker[Msg])
	if f, ok := host.(Finite); ok {
		r.hostDone = f.Done()
	}
	if nb, ok := host.(NonBlocking); ok {
		r.seam.inline = nb.DispatchNeverBlocks()
	}

	msgType := reflect.TypeOf((*Msg)(nil)).Elem()
	var misfits, needObserve, needSubscribe []string
	for _, capab := range c.caps {
		if !capab.msgType.AssignableTo(msgType) {
			misfits = append(misfits, capab.tag)
		}
		if plan := capab.completion; plan != nil {
			for _, m := range plan.matches {
				if !m.typ.AssignableTo(msgType) && !slices.Contains(misfits, m.tag) {
					misfits = append(misfits, m.tag)
				}
			}
			if plan.needsObserve() && r.observer == nil {
				needObserve = append(needObserve, capab.name)
			}
			if plan.needsSubscribe() && r.subscriber == nil {
				needSubscribe = append(needSubscribe, capab.name)
			}
		}
	}
	if len(misfits) > 0 {
		return nil, fmt.Errorf("agent: Bind: the host's Message type %s cannot hold %s", msgType, strings.Join(misfits, ", "))
	}
	if len(needObserve) > 0 {
		return nil, fmt.Errorf("agent: Bind: this host cannot observe Messages, which %s needs to report completion; the host must implement Observe", quoteJoin(needObserve))
	}
	if len(needSubscribe) > 0 {
		return nil, fmt.Errorf("agent: Bind: this host cannot report Model changes, which %s needs to complete on state; the host must implement Subscribe", quoteJoin(needSubscribe))
	}
	if len(c.watches) > 0 {
		if r.sight.versioned == nil || r.seam.tracker == nil {
			var watching []string
			for _, capab := range c.caps {
				if len(capab.watches) > 0 {
					watching = append(watching, capab.name)
				}
			}
			return nil, fmt.Errorf("agent: Bind: %s declare watches, which need a host that numbers its Models and tracks delivery; the host must implement VersionedModel, ModelAt and DispatchTracked", quoteJoin(watching))
		}
		r.sight.looks = newLookBook[Model](maxCallers)
	}
	if err := r.bindApprovals(msgType); err != nil {
		return nil, err
	}
	r.waits = newWaitIndex(c, r.observer)
	return r, nil
}

// MustBind is like Bind but panics when Bind would return an error. It is
// meant for program start-up.
func MustBind[Model, Msg, P any](c *Contract[Model, P], host Host[Model, Msg], opts *BindOptions[P]) *Runtime[Model, Msg, P] {
	r, err := Bind(c, host, opts)
	if err != nil {
		panic(err)
	}
	return r
}

func quoteJoin(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// Contract returns the bound contract.
func (r *Runtime[Model, Msg, P]) Contract() *Contract[Model, P] { return r.contract }

// Describe returns the bound contract as data (see Contract.Describe).
func (r *Runtime[Model, Msg, P]) Describe() Description { return r.contract.Describe() }

// Available returns the descriptors of the capabilities the current Model
// offers, in declaration order. It reads the Model once. A panicking
// Available hook leaves its capability out and is reported as a
// *DefectError beside the list; a panicking host returns no list.
func (r *Runtime[Model, Msg, P]) Available() ([]Descriptor, error) {
	model, err := r.seam.readModel("")
	if err != nil {
		return nil, err
	}
	return r.offeredBy(model)
}

// offeredBy is the one rule for what a Model offers: each capability, in
// declaration order, whose Available hook accepts model. A hook that
// fails leaves its capability out; the first failure is returned beside
// the others (Available, Offered).
func (r *Runtime[Model, Msg, P]) offeredBy(model Model) ([]Descriptor, error) {
	var buf [64]bool // most contracts: no allocation for the set
	set, defect := r.offerSet(model, buf[:0])
	out := make([]Descriptor, 0, len(set))
	for i, on := range set {
		if on {
			out = append(out, r.contract.caps[i].descriptor)
		}
	}
	return out, defect
}

// offerSet reports, in dst grown to the contract's size, whether model
// offers each capability (offeredBy's rule, without the descriptors).
func (r *Runtime[Model, Msg, P]) offerSet(model Model, dst []bool) ([]bool, error) {
	dst = slices.Grow(dst[:0], len(r.contract.caps))[:len(r.contract.caps)]
	var defect error
	for i, capab := range r.contract.caps {
		ok, _, err := capab.isOffered(model)
		if err != nil && defect == nil {
			defect = err
		}
		dst[i] = ok && err == nil
	}
	return dst, defect
}

// AvailableSet is Available without the descriptors: it reports, for
// each capability in declaration order (Describe's), whether the current
// Model offers it, in dst grown to the contract's size and returned. It
// reads the Model once and allocates nothing once dst is large enough, so
// a caller that follows the Model (mcpagent's Feed) compares one offer
// with the last and builds a list only when it changed. Defects are
// reported as Available reports them; a panicking host returns nil.
func (r *Runtime[Model, Msg, P]) AvailableSet(dst []bool) ([]bool, error) {
	model, err := r.seam.readModel("")
	if err != nil {
		return nil, err
	}
	return r.offerSet(model, dst)
}

// Subscribe registers listener for Model changes through the host's
// Subscriber seam. On a host without one it registers nothing and returns
// a no-op.
func (r *Runtime[Model, Msg, P]) Subscribe(listener func()) (unsubscribe func()) {
	if r.subscriber == nil {
		return func() {}
	}
	return r.subscriber.Subscribe(listener)
}

// CanSubscribe reports whether the host reports Model changes.
func (r *Runtime[Model, Msg, P]) CanSubscribe() bool { return r.subscriber != nil }

// Context reads the context projection from the current Model and returns
// its JSON, or nil when the contract projects no context. A projection that
// panics or cannot be encoded is a *DefectError; a value whose JSON does
// not match the advertised schema is a *ProjectionError. Either way no
// JSON is returned.
func (r *Runtime[Model, Msg, P]) Context(ctx context.Context) (json.RawMessage, error) {
	read, err := r.ContextRead(ctx)
	return read.Value, err
}

// ReadResource reads the named resource from the current Model and returns
// its JSON. An unknown name is a *ResourceError and reads no Model. As for
// Context, a failing projection is a *DefectError and a value that does
// not match the resource's schema a *ProjectionError, and no JSON is
// returned. ResourceRead also returns the version it read.
func (r *Runtime[Model, Msg, P]) ReadResource(ctx context.Context, name string) (json.RawMessage, error) {
	read, err := r.ResourceRead(ctx, name)
	return read.Value, err
}

func encodeProjection[Model any](p *projection[Model], model Model, subject, stage string) (out json.RawMessage, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, &DefectError{Capability: subject, Stage: stage, Cause: panicError(v)}
		}
	}()
	b, err := json.Marshal(p.read(model))
	if err != nil {
		return nil, &DefectError{Capability: subject, Stage: stage, Cause: fmt.Errorf("%s projection cannot be encoded: %w", stage, err)}
	}
	// What the agent is shown must be what it is told: the encoded value
	// is held to the advertised schema before it leaves.
	if err := p.wire.Check(b); err != nil {
		return nil, &ProjectionError{Projection: subject, Resource: stage == "resource", cause: err}
	}
	return b, nil
}

// Result reports a dispatched invocation.
type Result struct {
	// Capability is the protocol name.
	Capability string `json:"capability"`
	// Tag is the Go type name of the dispatched Message.
	Tag string `json:"tag"`
	// Message is the Message handed to the host.
	Message any `json:"-"`
	// Invocation is the invocation, with its defaults filled in.
	Invocation Invocation `json:"invocation"`
	// Completion is the fact that finished the work; nil when the
	// capability declares no completion contract, in which case validated
	// dispatch is the boundary. A completion with Status Failed is still a
	// nil error: the application reported the failure, the runtime did
	// not; Summarize reports it as not ok.
	Completion *Completion `json:"completion,omitempty"`
	// Version is the version of the Model after the call's Message (or,
	// with a completion contract, when the completing fact was seen), on
	// a versioned host; 0 otherwise. On a host that does not track
	// delivery, it is the version read once the host accepted the
	// Message, which may already include later Messages.
	Version uint64 `json:"version,omitempty"`
	// Moved names the watches that moved since the caller last looked,
	// when the capability's Freshness let the call proceed anyway
	// (StaleDisclose, or StaleRequireAck after the caller read again).
	Moved []string `json:"moved,omitempty"`
	// Changed is what the call changed of what its caller may see: the
	// context projection's changed paths and their new values, from the
	// version the call was checked on to Version, bounded by
	// MaxChangeBytes (see Change). Nil when the contract projects no
	// context, or on an unversioned host.
	Changed *Change `json:"changed,omitempty"`
}

// DispatchUnknown is the adapters' path: it invokes the capability named
// name with a raw JSON payload read off the wire. It runs the same checked
// path as Dispatch: resolve, (cancelled?), read the Model once, available,
// decode, principal, authorize, (cancelled?), construct, dispatch. A
// refusal at any step before the last sends nothing.
//
// With a completion contract, dispatch then waits for it (see
// CompletionContract): the result carries the Completion, or the call
// fails with a *CompletionTimeoutError when the deadline passes, or a
// *CancelledError with Dispatched true when ctx ends while waiting. When
// ctx ends (or the deadline passes) while the host's Dispatch has not
// returned, the call settles with delivery unknown.
//
// Every refusal is one of this package's Errors; a failure in application
// code is a *DefectError. With BindOptions.Audit every invocation leaves
// exactly one AuditEntry, and with BindOptions.Tracer it runs
// inside one "Agent.dispatch" span.
func (r *Runtime[Model, Msg, P]) DispatchUnknown(ctx context.Context, name string, payload json.RawMessage, inv Invocation) (Result, error) {
	return r.invoke(ctx, r.contract.byName[name], name, payload, nil, inv)
}

// Dispatch invokes a capability by its typed handle, with a compile-time
// checked input. The input goes through the same path as DispatchUnknown:
// it is encoded and then decoded and checked against the advertised
// schema, so a typed caller gets exactly the checks an agent gets.
func Dispatch[In, Model, Msg, P any](ctx context.Context, r *Runtime[Model, Msg, P], c *Exposed[In, Model, P], input In, inv Invocation) (Result, error) {
	if c == nil || c.c == nil || r.contract.byName[c.c.name] != c.c {
		name := "<nil>"
		if c != nil && c.c != nil {
			name = c.c.name
		}
		return r.invoke(ctx, nil, name, nil, nil, inv)
	}
	return r.invokeTyped(ctx, c.c, input, inv)
}

// DispatchMessage invokes the direct variant that exposes Messages of type
// M, with msg as its input. A Message type the contract does not expose
// directly is refused with an *UnknownCapabilityError naming the type.
func DispatchMessage[M, Model, Msg, P any](ctx context.Context, r *Runtime[Model, Msg, P], msg M, inv Invocation) (Result, error) {
	t := reflect.TypeOf((*M)(nil)).Elem()
	capab := r.contract.byType[t]
	if capab == nil || !capab.direct {
		return r.invoke(ctx, nil, typeLabel(t), nil, nil, inv)
	}
	return r.invokeTyped(ctx, capab, msg, inv)
}

func (r *Runtime[Model, Msg, P]) invokeTyped(ctx context.Context, capab *capability[Model, P], input any, inv Invocation) (Result, error) {
	payload, err := json.Marshal(input)
	if err != nil {
		return r.invoke(ctx, capab, capab.name, nil, err, inv)
	}
	return r.invoke(ctx, capab, capab.name, payload, nil, inv)
}

// invoke is the one checked path every dispatch takes. Without audit or
// tracing it is run itself; with either, observed wraps run to record the
// decision and the span.
func (r *Runtime[Model, Msg, P]) invoke(ctx context.Context, capab *capability[Model, P], asked string, payload []byte, encodeErr error, inv Invocation) (Result, error) {
	inv = inv.withDefaults(r.newID)
	if r.audit == nil && r.tracer == nil {
		var tr trail[P]
		return r.run(ctx, &tr, capab, asked, payload, encodeErr, inv)
	}
	return r.observed(ctx, capab, asked, payload, encodeErr, inv)
}

// trail is what run leaves behind for the audit log: how far delivery got
// and the principal, if it was resolved.
type trail[P any] struct {
	_            incomparable // never compared: no equality function compiled
	delivery     delivery
	principal    P
	hasPrincipal bool
	// principalID is the audit's projection of principal, once
	// principalID worked it out (projected).
	principalID string
	projected   bool
	approval    *ApprovalRecord // set when the call was held (approval.go)
}

// principalID is the audit log's projection of the call's principal,
// worked out once for the host (Handed) and the audit entry.
func (r *Runtime[Model, Msg, P]) principalID(tr *trail[P]) string {
	if r.audit == nil || r.audit.principal == nil || !tr.hasPrincipal {
		return ""
	}
	if !tr.projected {
		tr.principalID, tr.projected = r.audit.projectPrincipal(tr.principal), true
	}
	return tr.principalID
}

// run performs the checked path: resolve, (cancelled?), read the Model
// once, available, decode, principal, authorize, (cancelled?), construct,
// then deliver (and, with a completion contract, wait).
func (r *Runtime[Model, Msg, P]) run(ctx context.Context, tr *trail[P], capab *capability[Model, P], asked string, payload []byte, encodeErr error, inv Invocation) (Result, error) {
	// 1. Resolve. An unknown capability never reads the Model.
	if capab == nil {
		return Result{}, &UnknownCapabilityError{Capability: asked}
	}
	// 1b. Already cancelled: refused before the Model is read.
	if err := ctx.Err(); err != nil {
		return Result{}, &CancelledError{Capability: capab.name, cause: err}
	}
	// 2. One Model snapshot feeds available, freshness, exists, authorize
	// and construct.
	model, version, err := r.sight.readSnapshot(capab.name)
	if err != nil {
		return Result{}, err
	}
	// 2a. A caller told of a version the host has not applied yet (its
	// last call was reported the moment update took its Message) reads
	// the Model that version made, not an older one.
	seen := r.sight.lookOf(ctx)
	if model, version, err = r.sight.catchUp(ctx, seen, capab.name, model, version); err != nil {
		return Result{}, err
	}
	ok, reason, err := capab.isOffered(model)
	if err != nil {
		return Result{}, err
	}
	if !ok {
		return Result{}, &UnavailableError{Capability: capab.name, Type: capab.tag, Reason: reason}
	}
	// 2b. Judged against what the caller saw: a call built from a state
	// that moved is refused before its input is even read. A call the
	// person approved is judged against what they were shown.
	approved := approvedFrom[Model](ctx)
	if approved != nil && (approved.req.Invocation != inv.ID || approved.subject != capab.name) {
		approved = nil
	}
	var moved []string
	if approved != nil {
		if m := movedSince(approved.watches, capab.name, approved.model, model); len(m) > 0 {
			return Result{}, &StaleViewError{Capability: capab.name, Type: capab.tag, Moved: m, Version: version, Seen: approved.req.Version, Policy: capab.freshness}
		}
	} else if moved, err = r.sight.judge(seen, capab, inv, model, version); err != nil {
		return Result{}, err
	}
	// 3. Decode the wire input, and check that what it names exists.
	if encodeErr != nil {
		return Result{}, capab.invalidInput(encodeErr)
	}
	input, err := capab.decode(payload)
	if err != nil {
		return Result{}, capab.invalidInput(err)
	}
	if capab.exists != nil {
		if err := capab.checkExists(input, model); err != nil {
			return Result{}, err
		}
	}
	// 4. Principal (once), then authorize.
	principal, err := r.resolvePrincipal(ctx, capab, inv)
	if err != nil {
		return Result{}, err
	}
	tr.principal, tr.hasPrincipal, tr.projected = principal, true, false
	call := Call[Model, P]{Invocation: inv, Model: model, Principal: principal}
	if capab.authorize != nil {
		if err := capab.runAuthorize(ctx, input, call); err != nil {
			return Result{}, err
		}
	}
	// 4b. Cancelled while decode or authorize was pending: nothing is built.
	if err := ctx.Err(); err != nil {
		return Result{}, &CancelledError{Capability: capab.name, cause: err}
	}
	// 4c. The person's approval: held, not run, until they answer; then
	// the whole path runs again on the Model of that moment.
	if approved == nil && capab.approval != nil {
		need, err := capab.needsApproval(input, call)
		if err != nil {
			return Result{}, err
		}
		if need {
			actx, err := r.hold(ctx, tr, capab, input, call, model, version, payload)
			if err != nil {
				return Result{}, err
			}
			return r.run(actx, tr, capab, asked, payload, nil, inv)
		}
	}
	// 5. Construct from the same snapshot, then dispatch.
	msg, err := capab.build(input, call)
	if err != nil {
		return Result{}, err
	}
	typed, _ := msg.(Msg) // Bind checked that every Message fits.
	if r.approvals != nil {
		if _, answers := r.carrier.answerOf(typed); answers {
			// Bind refused every type that carries an answer; this is one
			// the application's carrier reads by its content.
			return Result{}, &DefectError{Capability: capab.name, Stage: "approval", Cause: errAgentAnswers}
		}
	}
	res := Result{Capability: capab.name, Tag: capab.tag, Message: msg, Invocation: inv, Moved: moved}
	// The host's Dispatch can tell whose Message this is (InvocationFrom).
	ctx = &invocationCtx{Context: ctx, handed: Handed{Invocation: inv, Principal: r.principalID(tr)}}
	var at *appliedAt
	if r.seam.stamp != nil && r.seam.tracker != nil {
		at = &appliedAt{delivered: deliveredHook(ctx)}
	}
	if capab.completion == nil {
		tr.delivery = deliveryAttempted
		if err := r.seam.deliver(ctx, capab, typed, at); err != nil {
			tr.undelivered(err)
			return Result{}, err
		}
		tr.delivery = deliverySent
		r.settled(seen, &res, at)
		res.Changed = r.changeOf(ctx, model, version, &res)
		return res, nil
	}
	// 6. Wait for the completion contract: the waiter is registered before
	// the host's Dispatch is called, and the deadline starts with it.
	c, err := r.complete(ctx, tr, capab, input, call, typed, at)
	if err != nil {
		tr.undelivered(err)
		return Result{}, err
	}
	res.Completion = c
	r.settled(seen, &res, at)
	res.Changed = r.changeOf(ctx, model, version, &res)
	return res, nil
}

// settled stamps a dispatched call's Result with its version and makes it
// the caller's look, a look only at what the result showed (resultLook):
// the version the call's Message produced when the host
// tracks delivery (read on the update goroutine, so exact), or the version
// the completing fact was seen at. On a host that does not track delivery
// the version is read now, and is not a look: it may include Messages the
// caller knows nothing of.
func (r *Runtime[Model, Msg, P]) settled(seen callerLook[Model], res *Result, at *appliedAt) {
	if r.seam.stamp == nil {
		return
	}
	after, applied := at.after()
	if c := res.Completion; c != nil && c.version != 0 {
		res.Version = c.version
		r.sight.rememberResult(seen, c.version, after-1, applied)
		r.noteTold(c.version)
		return
	}
	if applied {
		res.Version = after
		r.sight.rememberResult(seen, after, after-1, true)
		r.noteTold(after)
		return
	}
	res.Version = r.seam.stamp()
}

// noteTold records that a result named version v, which update may not
// have applied yet: every later call reads at least the Model it makes
// (catchUp), whoever its caller.
func (r *Runtime[Model, Msg, P]) noteTold(v uint64) {
	for {
		old := r.sight.told.Load()
		if v <= old || r.sight.told.CompareAndSwap(old, v) {
			return
		}
	}
}

// hostError turns what a host reported into what the agent is told: nil
// stays nil; an error that reports non-delivery is a refusal (cancelled
// when it carries the context's error, not delivered otherwise); anything
// else is a defect, with delivery unknown.
func hostError[Model, P any](capab *capability[Model, P], err error) error {
	return hostVerdict(capab.name, capab.tag, err)
}

// hostVerdict is hostError for the capability named name, of Message type
// tag.
func hostVerdict(name, tag string, err error) error {
	if err == nil {
		return nil
	}
	if nd, ok := errors.AsType[notDelivered](err); ok && nd.NotDelivered() {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return &CancelledError{Capability: name, cause: err}
		}
		return &NotDeliveredError{Capability: name, Type: tag, RetrySafe: true, cause: err}
	}
	return &DefectError{Capability: name, Stage: "dispatch", Cause: err}
}

func (r *Runtime[Model, Msg, P]) resolvePrincipal(ctx context.Context, capab *capability[Model, P], inv Invocation) (p P, err error) {
	if r.principal == nil {
		return p, nil
	}
	defer func() {
		if v := recover(); v != nil {
			err = &DefectError{Capability: capab.name, Stage: "principal", Cause: panicError(v)}
		}
	}()
	p, err = r.principal(ctx, inv)
	if err != nil {
		return p, refusalOrDefect(capab.name, "principal", err)
	}
	return p, nil
}

func (c *capability[Model, P]) isAvailable(model Model) (ok bool, err error) {
	if c.available == nil {
		return true, nil
	}
	defer func() {
		if v := recover(); v != nil {
			ok, err = false, &DefectError{Capability: c.name, Stage: "available", Cause: panicError(v)}
		}
	}()
	return c.available(model), nil
}

func (c *capability[Model, P]) runAuthorize(ctx context.Context, input any, call Call[Model, P]) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &DefectError{Capability: c.name, Stage: "authorize", Cause: panicError(v)}
		}
	}()
	dec, err := c.authorize(ctx, input, call)
	if err != nil {
		return refusalOrDefect(c.name, "authorize", err)
	}
	d := readDecision(dec)
	if !d.allowed && d.state {
		return &StateError{Capability: c.name, Type: c.tag, Reason: d.reason}
	}
	if !d.allowed {
		return &AuthorizationError{Capability: c.name, Type: c.tag, Reason: d.reason}
	}
	return nil
}

func (c *capability[Model, P]) build(input any, call Call[Model, P]) (msg any, err error) {
	defer func() {
		if v := recover(); v != nil {
			msg, err = nil, &DefectError{Capability: c.name, Stage: "construct", Cause: panicError(v)}
		}
	}()
	return c.construct(input, call), nil
}

// refusalOrDefect passes one of this package's Errors through (a hook may
// refuse with its own typed error) and turns anything else into a defect.
func refusalOrDefect(capability, stage string, err error) error {
	if agentErr, ok := errors.AsType[Error](err); ok {
		if _, isDefect := agentErr.(*DefectError); !isDefect {
			return agentErr
		}
	}
	return &DefectError{Capability: capability, Stage: stage, Cause: err}
}

func panicError(v any) error {
	if err, ok := v.(error); ok {
		return &PanicError{Value: err, Stack: debug.Stack()}
	}
	return &PanicError{Value: v, Stack: debug.Stack()}
}
