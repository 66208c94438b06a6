package journey

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
)

// FireOptions are the arguments of a fire.
type FireOptions struct {
	// Source is who fires. Empty reads as agent, never as user. A
	// user/system fire is the app's self-report and is not gated by
	// NOT_MATERIALIZED or by confirmation.
	Source Actor
	// Input is the action's input (any JSON value; it is detached).
	Input any
	// Instance names the repeats instance to act on.
	Instance string
	// Confirm is the caller's confirmation of a high-effect action. In
	// default mode an agent fire of a high-effect action without it mints
	// an ask and pauses; under enforcement it is not enough on its own.
	Confirm bool
	// AskID points at the ask whose yes authorizes this fire (enforced
	// mode). Without it the session looks for an approved, unspent ask for
	// the same action, instance and input.
	AskID string
	// ExpectedVersion is the session version the caller last looked at.
	// When set and the version has moved since, the fire is refused
	// STALE_CURSOR carrying the current version, and nothing fires. Nil
	// means the caller does not say, and no check is made.
	ExpectedVersion *int64
}

// FireResult is the synchronous answer of a fire: a refusal (OK false with
// a Reason), a pause for confirmation (OK false, NeedsConfirm), or a
// recorded fire (OK true with a TransitionID). Only the fields the case
// carries are set.
type FireResult struct {
	OK     bool   `json:"ok"`
	Reason Reason `json:"reason,omitempty"`
	Action string `json:"affordanceId,omitempty"`
	// TransitionID names the recorded fire; pass it to SettlementOf.
	TransitionID string `json:"transitionId,omitempty"`
	Version      int64  `json:"version"`
	// Settlement is SettleAwaitingState (comes to rest later) or
	// SettleSettled.
	Settlement   SettleState  `json:"settlement,omitempty"`
	EffectStatus EffectStatus `json:"effectStatus,omitempty"`
	// NeedsConfirm marks the default-mode pause: nothing fired, an ask was
	// minted (AskID, Receipts) and the caller must confirm or decline.
	NeedsConfirm bool      `json:"needsConfirm,omitempty"`
	AskID        string    `json:"askId,omitempty"`
	Receipts     *Receipts `json:"receipts,omitempty"`
	// Available lists the served action ids (UNKNOWN_ACTION).
	Available []string `json:"available,omitempty"`
	// Node is the current page (NOT_ON_NODE).
	Node             string          `json:"node,omitempty"`
	Evidence         []Condition     `json:"evidence,omitempty"`
	GuardUnevaluated []string        `json:"guardUnevaluated,omitempty"`
	Issues           []string        `json:"issues,omitempty"`
	Expects          json.RawMessage `json:"expects,omitempty"`
	Retriable        bool            `json:"retriable,omitempty"`
	Busy             string          `json:"busy,omitempty"`
	BlockedBecause   *Blocked        `json:"blockedBecause,omitempty"`
	Instances        []string        `json:"instances,omitempty"`
	InstancesTotal   int             `json:"instancesTotal,omitempty"`
	// Verdict on INSTANCE_UNKNOWN: VerdictNeverExisted when the
	// container declares its existence source, VerdictUnsupported when
	// only registered instances are known.
	Verdict             InstanceVerdict `json:"verdict,omitempty"`
	PendingTransitionID string          `json:"pendingTransitionId,omitempty"`
	// PriorTransitionID is the settled fire a once-only action already
	// made (DUPLICATE_EXECUTION).
	PriorTransitionID string `json:"priorTransitionId,omitempty"`
	Scope             string `json:"scope,omitempty"`
	// Overlay is the blocking modal masking the control (BLOCKED_BY_OVERLAY).
	Overlay string `json:"overlay,omitempty"`
	// Required and Attempted are the policy's actors and the actor that
	// tried (PRINCIPAL_NOT_ALLOWED); the person is "human".
	Required  []string `json:"required,omitempty"`
	Attempted string   `json:"attempted,omitempty"`
	// Differs says what an APPROVAL_MISMATCH differs in.
	Differs       string `json:"differs,omitempty"`
	Executed      *bool  `json:"executed,omitempty"`
	Materialized  *bool  `json:"materialized,omitempty"`
	AlreadyTrue   bool   `json:"alreadyTrue,omitempty"`
	ToNodeClaimed bool   `json:"toNodeClaimed,omitempty"`
	// Repeated: a once-only action fired again because the person acted
	// after its earlier fire came to rest (see Fire).
	Repeated bool `json:"repeated,omitempty"`
}

// SettleState says whether a recorded fire came to rest as it was
// recorded or comes to rest later. The zero value is no fire.
type SettleState string

// The settle states of a recorded fire.
const (
	SettleAwaitingState SettleState = "awaiting-state"
	SettleSettled       SettleState = "settled"
)

// InstanceVerdict says why an instance is unknown (INSTANCE_UNKNOWN). The
// zero value is no verdict: the refusal is another.
type InstanceVerdict string

// The verdicts of INSTANCE_UNKNOWN.
const (
	// VerdictNeverExisted: the container declares its existence source
	// (Container.Instances), and the key is not among the instances now.
	VerdictNeverExisted InstanceVerdict = "never-existed"
	// VerdictUnsupported: only registered instances are known, and the
	// key is not one of them.
	VerdictUnsupported InstanceVerdict = "unsupported"
)

const maxInstancesListed = 50

func falsePtr() *bool { f := false; return &f }

// wireActor is an actor as a principal policy names it on the wire: the
// person is "human".
func wireActor(a Actor) string {
	if a == ActorUser {
		return "human"
	}
	return string(a)
}

func wireActors(as []Actor) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = wireActor(a)
	}
	return out
}

// runHandler runs a fire's handler on its own goroutine, with no lock
// held (it touches only the observers, which have their own, and relock),
// and applies its return through the coordinator (handlerReturned).
func (s *fold) runHandler(ctx context.Context, r *record, h Handler, input any) {
	var produced any
	var err error
	panicked := false
	func() {
		defer func() {
			if p := recover(); p != nil {
				panicked = true
				s.obs.defect("handler of "+r.an.id, p)
			}
		}()
		produced, err = h(ctx, input)
	}()
	s.relock(func(s *fold) { s.handlerReturned(r, produced, err, panicked) })
}

// handlerReturned applies a handler's return: what it produced, and its
// failure or the settlement it completes.
func (s *fold) handlerReturned(r *record, produced any, err error, panicked bool) {
	r.running = false
	// What a handler returns beside an error is not something it
	// produced: the fire was refused, and its data must not read as an
	// effect.
	if produced != nil && err == nil && !panicked {
		if p, perr := normalize(produced); perr == nil {
			r.t.Produced = p
		}
	}
	defer s.tellRest(r)
	switch {
	case panicked:
		s.fail(r, &SettleError{Reason: ReasonHandlerFailed, Message: "the handler panicked"})
	case err != nil:
		s.fail(r, handlerFailure(err))
	case r.settled:
		// A state report or a reject got there first: first settlement wins.
	case r.awaiting && s.tap:
		// Waits for the app's state report.
	default:
		s.settle(r, EffectPerformed, OutcomeCommitted, Unobservable, nil)
	}
}

// commit moves a record's live outcome to committed and, for a
// navigating action, stamps the claim and moves the cursor optimistically
// while its claim window is still open.
func (s *fold) commit(r *record) {
	if r.t.Outcome != OutcomePending {
		return
	}
	r.t.Outcome = OutcomeCommitted
	if r.an.goTo >= 0 && r.t.Arrival == "" {
		r.t.ToNode = r.an.goToID
		r.t.ToNodeClaimed = true
		r.t.Arrival = ArrivalClaimed
		if r.landed {
			r.t.Arrival = ArrivalObserved
		}
		if s.claim == r || r.tour {
			if s.page != r.an.goTo {
				s.page = r.an.goTo
				s.offPath = ""
			}
		}
	}
}

// settle writes the settlement receipt, once. Later calls are
// ignored: first settlement wins.
func (s *fold) settle(r *record, eff EffectStatus, outcome Outcome, ev Observed, serr *SettleError) {
	if r.settled || r.verifying {
		return
	}
	if r.t.Outcome == OutcomePending || outcome != OutcomeCommitted {
		r.t.Outcome = outcome
	}
	if ev != "" {
		r.t.EffectVerified = ev
	}
	verdict := VerifyVerdict("")
	if r.an.verify != nil || r.an.verifyFn != nil {
		verdict = VerifyUnevaluable
		if eff == EffectPerformed && outcome == OutcomeCommitted {
			if r.an.verifyFn != nil {
				s.verifyOutside(r, serr)
				return
			}
			verdict = verifyGuard(r.an, s.state)
		}
	}
	s.writeReceipt(r, eff, outcome, verdict, serr)
}

// verifyOutside reads the action's VerifyFunc on a copy of the state as
// it is now, once the lock is released (Session.unlock runs the queue),
// and then writes the settlement with its verdict: no application code
// runs under the session's lock.
func (s *fold) verifyOutside(r *record, serr *SettleError) {
	r.verifying = true
	view := StateView{maps.Clone(s.state)}
	s.obs.outbox = append(s.obs.outbox, func() {
		verdict := VerifyUnevaluable
		s.obs.safeCall("verify of "+r.an.id, func() {
			// A panic leaves the verdict unevaluable, never a verdict.
			held := r.an.verifyFn(view)
			verdict = VerifyNotHeld
			if held {
				verdict = VerifyHeld
			}
		})
		s.relock(func(s *fold) {
			r.verifying = false
			s.writeReceipt(r, EffectPerformed, OutcomeCommitted, verdict, serr)
		})
	})
}

// writeReceipt writes the settlement receipt, with the verify
// verdict: a postcondition that did not hold refuses the effect.
func (s *fold) writeReceipt(r *record, eff EffectStatus, outcome Outcome, verdict VerifyVerdict, serr *SettleError) {
	if verdict == VerifyNotHeld {
		eff = EffectRefused
		serr = &SettleError{Reason: ReasonVerifyFailed}
	}
	s.version++
	r.settled = true
	r.t.Settled = true
	r.receipt = Settlement{TransitionID: r.t.ID, Action: r.an.id, EffectStatus: eff, Outcome: outcome, EffectVerified: r.t.EffectVerified,
		VerifyHeld: verdict, ToNode: r.t.ToNode, Materialized: r.t.Materialized, AlreadyTrue: r.t.AlreadyTrue, Error: serr,
		SettledAt: s.now(), Version: s.version}
	if r.receipt.EffectVerified == "" {
		r.receipt.EffectVerified = Unobservable
		r.t.EffectVerified = Unobservable
	}
	s.ledgers.rest(r)
	s.tellRest(r)
	s.obs.transition(r)
}

// tellRest wakes those waiting for r to come to rest, unless its
// handler is still running (a state report settled it first): then
// runHandler tells them once the handler returned, so that a waiter
// reads what the handler produced.
func (s *fold) tellRest(r *record) {
	if r.restTold || !r.settled || r.running {
		return
	}
	r.restTold = true
	close(r.done)
}

// verifyGuard is the verdict of an action's declared Verify guard.
func verifyGuard(an *actionNode, state map[string]any) VerifyVerdict {
	pass, unev := evalQuick(an.verify, state)
	switch {
	case !pass:
		return VerifyNotHeld
	case len(unev) == len(guardKeys(an.verify)):
		return VerifyUnevaluable
	}
	return VerifyHeld
}

// fail is the failure path (a failing handler, failed work, an
// external refusal): a pending record is rejected; a committed record
// that only claims (no state report behind it) is rolled back and its
// cursor move walked back; a commit backed by a real state report stands.
func (s *fold) fail(r *record, serr *SettleError) {
	switch {
	case r.t.Outcome == OutcomePending:
		s.settle(r, EffectRefused, OutcomeRejected, "", serr)
	case r.t.Outcome == OutcomeCommitted && !r.byReport:
		s.rollBack(r, OutcomeRolledBack)
		if r.settled {
			s.version++
			s.obs.transition(r)
		} else {
			s.settle(r, EffectRefused, OutcomeRolledBack, "", serr)
		}
	default:
		s.settle(r, EffectRefused, r.t.Outcome, "", serr)
	}
}

func (s *fold) rollBack(r *record, to Outcome) {
	r.t.Outcome = to
	if to == OutcomeRolledBack && r.an.goTo >= 0 && s.page == r.an.goTo && r.t.Arrival != ArrivalObserved {
		if pi, ok := s.g.pageIndex[r.t.FromNode]; ok {
			s.page = pi
		}
	}
}

// Reject moves a fire's outcome from outside (a server refused what the
// app had reported): a pending fire becomes rejected (the default); a
// committed one becomes rolled-back (the default) or superseded. why is
// the whole refusal, or nil: a reason code, the sentence an agent is
// told, and the application's own report as data (see SettleError); a
// nil or code-less why is REJECTED, carrying its Message and Data if
// any ("the card was declined"). The message is runtime data: it rides
// the settlement's error message (did_it_work's error.message), never a
// sentence. If the fire had already come to rest its receipt is not
// rewritten; the answer then carries outcomeNow beside it, and why as
// ErrorNow. Any id that is not a fire, or a fire already rejected or
// rolled back, is refused and nothing changes.
func (s *Session) Reject(transitionID string, outcome Outcome, why *SettleError) error {
	s.mu.Lock()
	defer s.unlock()
	return s.st.reject(transitionID, outcome, why)
}

// reject applies Reject to the fold.
func (s *fold) reject(transitionID string, outcome Outcome, e *SettleError) error {
	if e == nil || e.Reason == "" {
		se := SettleError{Reason: ReasonRejected}
		if e != nil {
			se.Message, se.Data = e.Message, e.Data
		}
		e = &se
	} else {
		se := *e
		e = &se
	}
	r, ok := s.ledgers.byID[transitionID]
	if !ok || !r.fired {
		return s.ledgers.noFire(transitionID, "Reject names no fire in this session")
	}
	switch r.t.Outcome {
	case OutcomePending:
		if outcome == "" {
			outcome = OutcomeRejected
		}
		if outcome != OutcomeRejected {
			return &Error{Reason: ReasonAlreadyFinal, Msg: "a fire that has not committed can only be rejected", Value: string(outcome)}
		}
		s.settle(r, EffectRefused, OutcomeRejected, "", e)
		return nil
	case OutcomeCommitted:
		if outcome == "" {
			outcome = OutcomeRolledBack
		}
		if outcome != OutcomeRolledBack && outcome != OutcomeSuperseded {
			return &Error{Reason: ReasonAlreadyFinal, Msg: "a committed fire can only be rolled back or superseded", Value: string(outcome)}
		}
		s.rollBack(r, outcome)
		if r.settled {
			r.errorNow = e
			s.version++
			s.obs.transition(r)
			return nil
		}
		eff := EffectRefused
		if outcome == OutcomeSuperseded {
			eff = EffectUnobservable
		}
		s.settle(r, eff, outcome, "", e)
		return nil
	}
	return &Error{Reason: ReasonAlreadyFinal, Msg: "the fire's outcome is already final", Value: string(r.t.Outcome)}
}

// Observation is an external report of a fire's effect (a webhook, a
// payment provider, a sensor).
type Observation struct {
	// Source names the reporter (runtime data).
	Source string `json:"source"`
	// Status is performed, refused or unobservable.
	Status      EffectStatus `json:"status"`
	EvidenceRef string       `json:"evidenceRef,omitempty"`
	// Settled is true on the report that settled the fire.
	Settled bool `json:"settled"`
}

// ObserveEffect records an external report about a fire. The first report
// settles the fire (refused goes through the failure path); later reports
// are kept with Settled false.
func (s *Session) ObserveEffect(transitionID string, o Observation) (Observation, error) {
	s.mu.Lock()
	defer s.unlock()
	return s.st.observeEffect(transitionID, o)
}

// observeEffect applies ObserveEffect to the fold.
func (s *fold) observeEffect(transitionID string, o Observation) (Observation, error) {
	r, ok := s.ledgers.byID[transitionID]
	if !ok {
		return Observation{}, s.ledgers.noFire(transitionID, "ObserveEffect names no transition in this session")
	}
	if !r.fired {
		return Observation{}, &Error{Reason: ReasonNotAFire, Msg: "only fires can be observed", Value: transitionID}
	}
	switch o.Status {
	case EffectPerformed, EffectRefused, EffectUnobservable:
	default:
		return Observation{}, &Error{Reason: ReasonInvalidObservation, Msg: "status must be performed, refused or unobservable", Value: string(o.Status)}
	}
	o.Settled = !r.settled
	r.obs = append(r.obs, o)
	if !o.Settled {
		return o, nil
	}
	switch o.Status {
	case EffectRefused:
		s.fail(r, &SettleError{Reason: ReasonExternalRefused})
	default:
		s.commit(r)
		s.settle(r, o.Status, OutcomeCommitted, r.t.EffectVerified, nil)
	}
	r.receipt.SettledBy, r.receipt.ReportedBy, r.receipt.EvidenceRef = "external-report", o.Source, o.EvidenceRef
	return o, nil
}

// ObservationsOf lists the external reports about a fire.
func (v View) ObservationsOf(transitionID string) []Observation {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	if r, ok := s.ledgers.byID[transitionID]; ok {
		return slices.Clone(r.obs)
	}
	return nil
}

// ---- settlement doors ----

func (l look) answer(r *record) Settlement {
	s := l.s
	a := r.receipt
	if r.t.Outcome != a.Outcome {
		a.OutcomeNow = r.t.Outcome
	}
	a.Arrival = r.t.Arrival
	if b, known := a.EffectVerified.Bool(); known {
		a.WritesObserved = &b
	}
	a.StillWorking = s.workBook.stillWorking(r.t.ID)
	if r.t.Produced != nil {
		a.Produced, _ = normalize(r.t.Produced)
	}
	if a.Error != nil {
		e := *a.Error
		a.Error = &e
	}
	if r.errorNow != nil && a.OutcomeNow != "" {
		e := *r.errorNow
		a.ErrorNow = &e
	}
	return a
}

// SettlementOf waits until the fire comes to rest and returns its
// settlement; it never fails for a real fire, and for a fire the app
// never reports it waits until ctx is done. An id no settlement can exist
// for (unknown, or a sync or stimulus row) is refused at once with an
// *Error whose Reason is UNKNOWN_TRANSITION.
func (s *Session) SettlementOf(ctx context.Context, transitionID string) (Settlement, error) {
	s.mu.Lock()
	r, err := s.st.ledgers.settlementRecord(transitionID)
	s.mu.Unlock()
	if err != nil {
		return Settlement{}, err
	}
	select {
	case <-r.done:
	case <-ctx.Done():
		return Settlement{}, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return look{&s.st}.answer(r), nil
}

// Settled returns a channel closed when the fire comes to rest, for a
// caller that selects over several things. It refuses an impossible id
// like SettlementOf.
func (s *Session) Settled(transitionID string) (<-chan struct{}, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.st.ledgers.settlementRecord(transitionID)
	if err != nil {
		return nil, err
	}
	return r.done, nil
}

// SettlementIfKnown answers without waiting: the settlement and true for
// a fire at rest, false while it is in flight, and an error for an id no
// settlement can exist for.
func (v View) SettlementIfKnown(transitionID string) (Settlement, bool, error) {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	r, err := s.ledgers.settlementRecord(transitionID)
	if err != nil {
		return Settlement{}, false, err
	}
	if !r.settled {
		return Settlement{}, false, nil
	}
	return look{s}.answer(r), true, nil
}

// ---- ledgers ----

// copyTransition is a row as handed out: detached from the ledger.
func copyTransition(r *record) Transition {
	t := r.t
	t.Evidence = slices.Clone(t.Evidence)
	t.GuardUnevaluated = slices.Clone(t.GuardUnevaluated)
	t.Keys = slices.Clone(t.Keys)
	if t.Input != nil {
		t.Input, _ = normalize(t.Input)
	}
	if t.Produced != nil {
		t.Produced, _ = normalize(t.Produced)
	}
	if t.Materialized != nil {
		t.Materialized = falsePtr()
	}
	return t
}

// Transitions returns copies of the ledger rows the session holds, oldest
// first: every row within the Retention, and older rows the protocol still
// needs (fires not at rest, each action's latest fire).
func (v View) Transitions() []Transition {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	out := make([]Transition, len(s.ledgers.records))
	for i, r := range s.ledgers.records {
		out[i] = copyTransition(r)
	}
	return out
}

// Transition returns a copy of one ledger row.
func (v View) Transition(id string) (Transition, bool) {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	r, ok := s.ledgers.byID[id]
	if !ok {
		return Transition{}, false
	}
	return copyTransition(r), true
}

// PendingFire is a fire awaiting the app's state report.
type PendingFire struct {
	ID     string `json:"id"`
	Action string `json:"affordanceId"`
	Does   string `json:"does"`
}

// Pending lists the fires awaiting the app's state report, oldest first.
// A fire that declares no writes never joins it.
func (v View) Pending() []PendingFire {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	var out []PendingFire
	for _, r := range s.ledgers.openFires {
		if r.awaiting && !r.settled {
			out = append(out, PendingFire{ID: r.t.ID, Action: r.an.id, Does: r.an.does})
		}
	}
	return out
}

// AwaitingSettlement lists every fire not yet at rest: the ids a
// settlement question can be asked about.
func (v View) AwaitingSettlement() []string {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	return s.ledgers.awaitingSettlement()
}

// Gaps returns the gap-ledger rows the session holds (the newest, within
// the Retention), oldest first.
func (v View) Gaps() []GapRecord {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	out := make([]GapRecord, len(s.ledgers.gaps))
	for i, g := range s.ledgers.gaps {
		g.AvailableActions = slices.Clone(g.AvailableActions)
		g.AvailableJourneys = slices.Clone(g.AvailableJourneys)
		g.Evidence = slices.Clone(g.Evidence)
		out[i] = g
	}
	return out
}

func (s *fold) gap(g GapRecord) {
	g.Timestamp = s.now()
	g.Node = s.pageID()
	g.Version = s.version
	g.AvailableActions = look{s}.servedIDs()
	g.AvailableJourneys = look{s}.entryJourneyIDs()
	s.ledgers.gap(g)
	emit(&s.obs, &s.obs.onGap, "gap observer", g)
}
