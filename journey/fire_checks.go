package journey

import (
	"context"
	"slices"
	"strconv"
)

// A fire's path, in the order it goes: Fire, the checks (fireChecks, each
// its own method), the record. What follows the record (settlement, the
// handler's return, Reject, the settlement doors and the ledger's views)
// is in fire.go.

// Fire performs an action. The gates run in this fixed order, and the
// first that fails refuses the fire:
//
//	UNKNOWN_ACTION        no such action in the graph
//	STALE_CURSOR          ExpectedVersion given and the version moved
//	NOT_ON_NODE           not offered on the current page
//	PRINCIPAL_NOT_ALLOWED the action's policy does not let this actor fire
//	NODE_NOT_VISIBLE      (agent) on a hidden tab or a closed modal
//	BLOCKED_BY_OVERLAY    (agent) masked by a shown blocking modal
//	INSTANCE_REQUIRED     a repeats action fired without an instance
//	INSTANCE_UNKNOWN      an instance that does not exist
//	STILL_MOUNTING        (agent) its tab or modal was just shown and
//	                      nothing is bound to it yet (retriable)
//	GUARD_FAILED          its guard fails now (per-condition evidence;
//	                      unevaluable keys are dropped, never false)
//	PAYLOAD_INVALID       the input breaks the contract (carries expects)
//	TOOL_DISABLED         the control is switched off (retriable)
//	NOT_MATERIALIZED      an agent fire with nothing bound to run it
//	PRIOR_FIRE_PENDING    single-flight or once, an earlier fire not at rest
//	DUPLICATE_EXECUTION   once, an earlier fire came to rest successfully,
//	                      and nothing the person did came after it; when
//	                      something did, the fire proceeds carrying
//	                      Repeated instead
//	confirmation          default mode: a high-effect agent fire without
//	                      Confirm pauses with an ask (NeedsConfirm)
//	APPROVAL_*            enforced mode: the approval gate
//
// Capability comes before authority: nobody is asked to approve what is
// guard-closed, mis-shaped, switched off or wired to nothing. A refusal
// writes one gap row, mints no transition and moves no version; a pause
// writes no gap row either. On success the fire is recorded (version+1)
// and its handler, if bound, runs on its own goroutine with a context
// derived from ctx that is not cancelled with it.
func (s *Session) Fire(ctx context.Context, actionID string, opts FireOptions) FireResult {
	if ctx == nil {
		ctx = context.Background()
	}
	at := fireAttempt{s: &s.st, src: normActor(opts.Source), opts: opts}
	at.input, at.inputErr = normalize(opts.Input)

	s.lock()
	defer s.unlock()
	return s.st.fire(ctx, &at, actionID)
}

// fire applies a fire: the checks in order, then the record.
func (s *fold) fire(ctx context.Context, at *fireAttempt, actionID string) FireResult {
	an, ok := s.g.actionIndex[actionID]
	if !ok {
		ids := look{s}.servedIDs()
		s.gap(GapRecord{Kind: GapFireRejected, Reason: ReasonUnknownAction, Actor: at.src, Request: actionID})
		return FireResult{Reason: ReasonUnknownAction, Available: ids, Version: s.version}
	}
	at.an = an
	for _, c := range fireChecks {
		stop := at.check(c)
		if stop == nil {
			continue
		}
		if stop.pause {
			return stop.r
		}
		r := stop.r
		r.Action, r.Version = an.id, s.version
		s.gap(GapRecord{Kind: GapFireRejected, Reason: r.Reason, Actor: at.src, Action: an.id, Does: an.does, Evidence: stop.evidence})
		return r
	}
	return at.record(ctx)
}

// fireAttempt is one fire on its way through the checks, under the
// session's lock: what the caller asked, and what the checks passed so
// far have established (the instance, the guard's evidence, the
// checked payload, the bound handler, the ask that authorizes it).
type fireAttempt struct {
	s        *fold
	an       *actionNode
	src      Actor
	opts     FireOptions
	input    any
	inputErr error

	instance     string
	evidence     []Condition
	unevaluated  []string
	payload      any
	handler      Handler
	materialized bool
	tour         bool
	scope        string
	repeated     bool
	askID        string
}

// fireStop is how a check stops a fire: a refusal (a gap row carrying
// evidence is written) or, with pause, the default-mode confirmation
// pause (no gap row).
type fireStop struct {
	r        FireResult
	evidence []Condition
	pause    bool
}

// A check that lets the fire through returns nil; a refusal allocates its
// stop (the refusal path only), so a fire that passes costs no more than
// it did as one function.
func refusal(r FireResult) *fireStop { return &fireStop{r: r} }

// fireChecks is the fire path, in the order Fire documents: each check is
// named by the reason code it refuses with (the first, where a check has
// several), and check runs it. The first check that stops a fire decides
// its answer. UNKNOWN_ACTION comes before them all, in Fire, since the
// others read the action.
var fireChecks = [...]Reason{
	ReasonStaleCursor,
	ReasonNotOnNode,
	ReasonNotAllowed,
	ReasonNodeNotVisible,
	ReasonBlockedByOverlay,
	ReasonInstanceRequired,
	ReasonStillMounting,
	ReasonGuardFailed,
	ReasonPayloadInvalid,
	ReasonToolDisabled,
	ReasonNotMaterialized,
	ReasonPriorFirePending,
	ReasonDuplicate,
	ReasonApprovalRequired,
}

// check runs the check named by its reason code. The dispatch is a
// switch, not a table of functions, so the attempt stays on the stack: a
// fire costs no more than it did as one function.
func (a *fireAttempt) check(r Reason) *fireStop {
	switch r {
	case ReasonStaleCursor:
		return a.checkCursor()
	case ReasonNotOnNode:
		return a.checkOnNode()
	case ReasonNotAllowed:
		return a.checkPolicy()
	case ReasonNodeNotVisible:
		return a.checkVisible()
	case ReasonBlockedByOverlay:
		return a.checkOverlay()
	case ReasonInstanceRequired:
		return a.checkInstance()
	case ReasonStillMounting:
		return a.checkMounting()
	case ReasonGuardFailed:
		return a.checkGuard()
	case ReasonPayloadInvalid:
		return a.checkPayload()
	case ReasonToolDisabled:
		return a.checkEnabled()
	case ReasonNotMaterialized:
		return a.checkMaterialized()
	case ReasonPriorFirePending:
		return a.checkPending()
	case ReasonDuplicate:
		return a.checkOnce()
	case ReasonApprovalRequired:
		return a.checkApproval()
	}
	panic("journey: no fire check for " + string(r)) // a definition mistake, caught by TestFireChecksOrder
}

// STALE_CURSOR: the caller cited a version and it moved.
func (a *fireAttempt) checkCursor() *fireStop {
	if v := a.opts.ExpectedVersion; v != nil && *v != a.s.version {
		return refusal(FireResult{Reason: ReasonStaleCursor})
	}
	return nil
}

// NOT_ON_NODE: the action is not offered on the current page.
func (a *fireAttempt) checkOnNode() *fireStop {
	if a.s.page < 0 || !slices.Contains(a.an.on, a.s.page) {
		return refusal(FireResult{Reason: ReasonNotOnNode, Node: a.s.pageID()})
	}
	return nil
}

// PRINCIPAL_NOT_ALLOWED: who may fire it comes before anything about the
// moment; it is the one refusal no change on screen will lift.
func (a *fireAttempt) checkPolicy() *fireStop {
	if !a.an.policy.allows(a.src) {
		return refusal(FireResult{Reason: ReasonNotAllowed, Required: wireActors(a.an.policy.MayInvoke), Attempted: wireActor(a.src)})
	}
	return nil
}

// NODE_NOT_VISIBLE: an agent cannot click what is on a hidden tab or in
// a closed modal. A user or system fire is the app's own report of a
// click, so it is not judged by the person's view (nor by the overlay
// and mounting checks).
func (a *fireAttempt) checkVisible() *fireStop {
	if a.src == ActorAgent {
		if hidden := a.s.view.hiddenBy(a.an); hidden != nil {
			return refusal(FireResult{Reason: ReasonNodeNotVisible, Node: hidden.path})
		}
	}
	return nil
}

// BLOCKED_BY_OVERLAY: an agent cannot click under a blocking modal.
func (a *fireAttempt) checkOverlay() *fireStop {
	if a.src == ActorAgent {
		if ov := a.s.view.overlay(a.an, a.s.page); ov != nil {
			return refusal(FireResult{Reason: ReasonBlockedByOverlay, Overlay: ov.path})
		}
	}
	return nil
}

// INSTANCE_REQUIRED, INSTANCE_UNKNOWN: a repeats action names one of its
// instances. A once-only instance that was done and has since left the
// list (a paid order once the next is checked out) is done, not unknown:
// DUPLICATE_EXECUTION.
func (a *fireAttempt) checkInstance() *fireStop {
	an := a.an
	if an.repeat == nil {
		return nil
	}
	keys, declared := a.s.instances(an)
	listed := keys
	if len(listed) > maxInstancesListed {
		listed = listed[:maxInstancesListed]
	}
	if a.opts.Instance == "" {
		return refusal(FireResult{Reason: ReasonInstanceRequired, Instances: listed, InstancesTotal: len(keys)})
	}
	if !slices.Contains(keys, a.opts.Instance) {
		if an.conc.Once && an.conc.PerInstance {
			if prior := a.s.ledgers.onceDone(an, a.opts.Instance); prior != nil {
				return refusal(FireResult{Reason: ReasonDuplicate, PriorTransitionID: prior.t.ID, Scope: "instance"})
			}
		}
		verdict := VerdictUnsupported
		if declared {
			verdict = VerdictNeverExisted
		}
		return refusal(FireResult{Reason: ReasonInstanceUnknown, Instances: listed, InstancesTotal: len(keys), Verdict: verdict})
	}
	a.instance = a.opts.Instance
	return nil
}

// STILL_MOUNTING: (agent) its tab or modal was just shown and nothing is
// bound to it yet (retriable).
func (a *fireAttempt) checkMounting() *fireStop {
	if a.src == ActorAgent {
		if c := a.s.mounting(a.an, a.instance); c != nil {
			return refusal(FireResult{Reason: ReasonStillMounting, Node: c.path, Retriable: true})
		}
	}
	return nil
}

// GUARD_FAILED: its guard fails now, with per-condition evidence;
// unevaluable keys are dropped, never false.
func (a *fireAttempt) checkGuard() *fireStop {
	held, evidence, unevaluated := evalFull(a.an.guard, a.s.state, a.s.redacted)
	if !held {
		return &fireStop{r: FireResult{Reason: ReasonGuardFailed, Evidence: evidence, GuardUnevaluated: unevaluated}, evidence: evidence}
	}
	a.evidence, a.unevaluated = evidence, unevaluated
	return nil
}

// PAYLOAD_INVALID: the input is not JSON, or breaks the contract
// (carries expects).
func (a *fireAttempt) checkPayload() *fireStop {
	if a.inputErr != nil {
		return refusal(FireResult{Reason: ReasonPayloadInvalid, Issues: []string{"the input is not a JSON value"}, Expects: a.an.input.expectsJSON()})
	}
	payload, issues := a.an.input.check(a.input)
	if len(issues) > 0 {
		return refusal(FireResult{Reason: ReasonPayloadInvalid, Issues: issues, Expects: a.an.input.expectsJSON()})
	}
	a.payload = payload
	return nil
}

// TOOL_DISABLED: the control is switched off, by its binding or by its
// enabled guard (retriable; the failing conditions are the evidence).
func (a *fireAttempt) checkEnabled() *fireStop {
	an := a.an
	handler, disabled, busy, _ := a.s.bindings.state(an, a.instance)
	a.handler = handler
	var enabledEvidence []Condition
	if an.enabled != nil {
		ok, ev, _ := evalFull(an.enabled, a.s.state, a.s.redacted)
		if !ok {
			disabled = true
			for _, c := range ev {
				if !c.Result {
					enabledEvidence = append(enabledEvidence, c)
				}
			}
		}
	}
	if !disabled {
		return nil
	}
	r := FireResult{Reason: ReasonToolDisabled, Retriable: true, Evidence: enabledEvidence, Busy: busy}
	if an.blocked != nil {
		b := *an.blocked
		r.BlockedBecause = &b
	}
	return &fireStop{r: r, evidence: enabledEvidence}
}

// NOT_MATERIALIZED: an agent fire with nothing bound to run it, unless
// Options.AllowUnmaterializedFires lets it through as a tour.
func (a *fireAttempt) checkMaterialized() *fireStop {
	a.materialized = a.handler != nil
	if !a.materialized && a.src == ActorAgent {
		if !a.s.opts.AllowUnmaterializedFires {
			return refusal(FireResult{Reason: ReasonNotMaterialized})
		}
		a.tour = true
	}
	return nil
}

// PRIOR_FIRE_PENDING: single-flight or once, an earlier fire (of this
// instance, when scoped per instance) is not at rest.
func (a *fireAttempt) checkPending() *fireStop {
	an := a.an
	a.scope = "action"
	if an.conc.PerInstance {
		a.scope = "instance"
	}
	if !an.conc.SingleFlight && !an.conc.Once {
		return nil
	}
	for _, r := range a.s.ledgers.unsettled[an.idx] {
		if an.conc.PerInstance && r.t.Instance != a.instance {
			continue
		}
		return refusal(FireResult{Reason: ReasonPriorFirePending, PendingTransitionID: r.t.ID, Scope: a.scope})
	}
	return nil
}

// DUPLICATE_EXECUTION: once, an earlier fire came to rest successfully
// and nothing the person did came after it. When something did, doing it
// again is theirs to have asked for: the fire proceeds, Repeated.
func (a *fireAttempt) checkOnce() *fireStop {
	if !a.an.conc.Once {
		return nil
	}
	if prior := a.s.ledgers.onceDone(a.an, a.instance); prior != nil {
		if !a.s.ledgers.personSince(prior) {
			return refusal(FireResult{Reason: ReasonDuplicate, PriorTransitionID: prior.t.ID, Scope: a.scope})
		}
		a.repeated = true
	}
	return nil
}

// Confirmation and APPROVAL_*: a high-effect agent fire. Enforced mode
// runs the approval gate; default mode pauses an unconfirmed fire with
// an ask (NeedsConfirm, no gap row), and a confirmed one spends the open
// ask for the same action and instance, if any.
func (a *fireAttempt) checkApproval() *fireStop {
	an, s := a.an, a.s
	if !an.highEffect || a.src != ActorAgent {
		return nil
	}
	switch {
	case s.opts.RequireHumanApproval:
		ask, refused := s.approvalGate(an, a.instance, a.payload, a.opts)
		if refused != nil {
			return refusal(*refused)
		}
		a.askID = ask.id
	case !a.opts.Confirm:
		ask := s.mintAsk(an, a.instance, a.payload, a.src)
		rc := ask.receipts
		return &fireStop{pause: true, r: FireResult{NeedsConfirm: true, Action: an.id, AskID: ask.id, Receipts: &rc, Version: s.version}}
	default:
		if ask := s.askBook.openAsk[askKey{an.idx, a.instance}]; ask != nil {
			a.askID = ask.id
		}
	}
	return nil
}

// record writes the fire that passed every check (version+1), settles it
// at once when nothing is left to wait for, and starts its handler, if
// bound, on its own goroutine with a context derived from ctx that is
// not cancelled with it.
func (a *fireAttempt) record(ctx context.Context) FireResult {
	s, an := a.s, a.an
	s.seq++
	r := &record{an: an, seq: s.seq, fired: true, input: a.payload, tour: a.tour, done: make(chan struct{})}
	r.t = Transition{ID: an.id + "#" + strconv.FormatInt(s.seq, 10), Kind: KindFired, Actor: a.src, Action: an.id, Does: an.does,
		Timestamp: s.now(), Input: a.payload, Instance: a.instance, Outcome: OutcomePending, Evidence: a.evidence,
		GuardUnevaluated: a.unevaluated, FromNode: s.pageID(), CursorVersion: s.version, AskID: a.askID, Repeated: a.repeated}
	if !a.materialized {
		r.t.Materialized = falsePtr()
	}
	if a.askID != "" {
		s.askBook.spend(a.askID, r.t.ID)
	}
	alreadyTrue := s.alreadyTrue(an)
	r.t.AlreadyTrue = alreadyTrue
	// The next fired transition closes any earlier claim window; a
	// navigating fire opens its own, unless it is a tour, which can claim
	// but never be corroborated.
	s.claim = nil
	if an.goTo >= 0 && !a.tour {
		s.claim = r
	}
	s.version++
	r.t.Version = s.version
	s.ledgers.add(r, s.claim)
	if a.tour {
		s.gap(GapRecord{Kind: GapUnmaterializedFire, Actor: a.src, Action: an.id, Does: an.does})
	}

	res := FireResult{OK: true, Action: an.id, TransitionID: r.t.ID, GuardUnevaluated: a.unevaluated, AlreadyTrue: alreadyTrue, Repeated: a.repeated}
	if !a.materialized {
		res.Materialized, res.Executed = falsePtr(), falsePtr()
	}
	res.Settlement, res.EffectStatus = a.settleAtOnce(r, alreadyTrue)
	res.ToNodeClaimed = r.t.ToNodeClaimed
	res.Version = s.version
	if !r.settled {
		s.obs.transition(r)
	}
	if a.materialized {
		r.running = true
		hctx := context.WithValue(context.WithoutCancel(ctx), ctxKey{}, r.t.ID)
		in, _ := normalize(a.payload)
		go s.runHandler(hctx, r, a.handler, in)
	}
	return res
}

// alreadyTrue: the declarative verify covers every declared write
// and already holds, fully evaluable, before the fire.
func (s *fold) alreadyTrue(an *actionNode) bool {
	if an.verify == nil || len(an.writes) == 0 {
		return false
	}
	keys := guardKeys(an.verify)
	for _, w := range an.writes {
		if !slices.Contains(keys, w) {
			return false
		}
	}
	pass, unev := evalQuick(an.verify, s.state)
	return pass && len(unev) == 0
}

// settleAtOnce decides what a recorded fire waits for: the app's state
// report (it writes, the session is told state, it is not already true
// and not a tour), its handler, or nothing (committed and settled now).
func (a *fireAttempt) settleAtOnce(r *record, alreadyTrue bool) (SettleState, EffectStatus) {
	s := a.s
	writes := len(a.an.writes) > 0
	runs := a.materialized
	switch {
	case writes && s.tap && !alreadyTrue && !a.tour:
		r.awaiting = true
		return SettleAwaitingState, EffectPending
	case writes && runs:
		return SettleAwaitingState, EffectPending
	case writes:
		s.commit(r)
		s.settle(r, EffectUnobservable, OutcomeCommitted, Unobservable, nil)
		return SettleSettled, EffectUnobservable
	case runs:
		s.commit(r)
		return SettleSettled, EffectPending
	default:
		s.commit(r)
		s.settle(r, EffectUnobservable, OutcomeCommitted, Unobservable, nil)
		return SettleSettled, EffectUnobservable
	}
}
