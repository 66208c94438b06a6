package journey

import (
	"encoding/json"
	"errors"
	"time"
)

// Actor is who a fire or a report is attributed to: the person using the
// app, the agent, or the app itself. Records carry it in their "principal"
// field (the protocol's name), but it is not an authenticated identity:
// package agent's principal (the P type parameter) is who is calling, and
// an Actor is only which of these roles an action is stamped with.
type Actor string

// The actors. An omitted Source on a fire reads as ActorAgent, never as
// ActorUser, so nothing a model does is passed off as the person's own.
// ActorUnknown stamps a state change no fire accounts for, and replaces
// any Source outside these four.
const (
	ActorUser    Actor = "user"
	ActorAgent   Actor = "agent"
	ActorSystem  Actor = "system"
	ActorUnknown Actor = "unknown"
)

// Normalized is the actor a session stamps for this Source: empty reads
// as ActorAgent, and anything outside the four actors as ActorUnknown.
func (a Actor) Normalized() Actor { return normActor(a) }

// normActor maps an empty source to agent and anything outside the
// four actors to unknown, so a caller's string never reaches a record.
func normActor(a Actor) Actor {
	switch a {
	case "":
		return ActorAgent
	case ActorUser, ActorAgent, ActorSystem, ActorUnknown:
		return a
	}
	return ActorUnknown
}

// Reason is a refusal code. The codes are protocol: they cross the wire
// unchanged.
type Reason string

// Fire refusal codes, in the order Fire checks them (see Fire).
const (
	ReasonUnknownAction    Reason = "UNKNOWN_ACTION"
	ReasonStaleCursor      Reason = "STALE_CURSOR"
	ReasonNotOnNode        Reason = "NOT_ON_NODE"
	ReasonNodeNotVisible   Reason = "NODE_NOT_VISIBLE"
	ReasonBlockedByOverlay Reason = "BLOCKED_BY_OVERLAY"
	ReasonInstanceRequired Reason = "INSTANCE_REQUIRED"
	ReasonInstanceUnknown  Reason = "INSTANCE_UNKNOWN"
	ReasonGuardFailed      Reason = "GUARD_FAILED"
	ReasonPayloadInvalid   Reason = "PAYLOAD_INVALID"
	ReasonToolDisabled     Reason = "TOOL_DISABLED"
	ReasonStillMounting    Reason = "STILL_MOUNTING"
	ReasonNotMaterialized  Reason = "NOT_MATERIALIZED"
	ReasonPriorFirePending Reason = "PRIOR_FIRE_PENDING"
	ReasonDuplicate        Reason = "DUPLICATE_EXECUTION"
	ReasonNotAllowed       Reason = "PRINCIPAL_NOT_ALLOWED"
	ReasonApprovalRequired Reason = "APPROVAL_REQUIRED"
	ReasonApprovalSpent    Reason = "APPROVAL_SPENT"
	ReasonApprovalMismatch Reason = "APPROVAL_MISMATCH"
	ReasonApprovalStale    Reason = "APPROVAL_STALE"
	ReasonApprovalDeclined Reason = "APPROVAL_DECLINED"
	ReasonApprovalRevoked  Reason = "APPROVAL_REVOKED"
)

// Other codes: journey commits, state reports, settlement look-ups and the
// human approval doors.
const (
	ReasonUnknownJourney       Reason = "UNKNOWN_JOURNEY"
	ReasonFrameAlreadyOpen     Reason = "FRAME_ALREADY_OPEN"
	ReasonPreconditionFailed   Reason = "PRECONDITION_FAILED"
	ReasonEntryNotMaterialized Reason = "ENTRY_NOT_MATERIALIZED"
	ReasonUnknownTransition    Reason = "UNKNOWN_TRANSITION"
	ReasonUncloneableDelta     Reason = "UNCLONEABLE_DELTA"
	ReasonNotAFire             Reason = "NOT_A_FIRE"
	ReasonInvalidObservation   Reason = "INVALID_OBSERVATION"
	ReasonUnknownAsk           Reason = "UNKNOWN_ASK"
	ReasonAskAlreadyAnswered   Reason = "ASK_ALREADY_ANSWERED"
	ReasonAskAlreadySpent      Reason = "ASK_ALREADY_SPENT"
	ReasonRevokeUnanswered     Reason = "REVOKE_UNANSWERED"
	ReasonNeedsDecider         Reason = "NEEDS_DECIDER"
	ReasonNotEnforced          Reason = "NOT_ENFORCED"
	ReasonAlreadyFinal         Reason = "ALREADY_FINAL"
	ReasonVerifyFailed         Reason = "VERIFY_FAILED"
	ReasonHandlerFailed        Reason = "HANDLER_FAILED"
	ReasonRejected             Reason = "REJECTED"
	ReasonExternalRefused      Reason = "EXTERNAL_REFUSED"
	// ReasonAppFailed: the application reported the action failed as it
	// completed (the Message its completion fails on). The report itself
	// is application data: it rides SettleError.Data, never a sentence.
	ReasonAppFailed             Reason = "APP_FAILED"
	ReasonUnknownPage           Reason = "UNKNOWN_PAGE"
	ReasonUnknownActionRegister Reason = "UNKNOWN_ACTION_FOR_PAGE"
)

// EffectStatus is the invocation axis: did anyone perform the action.
// EffectPending is only ever seen on the synchronous Fire result.
type EffectStatus string

// The effect statuses.
const (
	EffectPending      EffectStatus = "pending"
	EffectPerformed    EffectStatus = "performed"
	EffectRefused      EffectStatus = "refused"
	EffectUnobservable EffectStatus = "unobservable"
)

// Outcome is the record's outcome axis.
type Outcome string

// The outcomes.
const (
	OutcomePending    Outcome = "pending"
	OutcomeCommitted  Outcome = "committed"
	OutcomeRejected   Outcome = "rejected"
	OutcomeRolledBack Outcome = "rolled-back"
	OutcomeSuperseded Outcome = "superseded"
)

// Observed is the state axis (effectVerified): were the declared write
// keys in the state report that settled the fire. It marshals as true,
// false or "unobservable"; the zero value means "not known yet" and is
// omitted.
type Observed string

// The Observed values.
const (
	ObservedYes  Observed = "true"
	ObservedNo   Observed = "false"
	Unobservable Observed = "unobservable"
)

// MarshalJSON renders ObservedYes/No as booleans.
func (o Observed) MarshalJSON() ([]byte, error) { return triStateJSON(string(o)) }

// triStateJSON renders the two boolean values of a tri-state axis ("true",
// "false") as JSON booleans and its third value as a string.
func triStateJSON(v string) ([]byte, error) {
	if v == "true" || v == "false" {
		return []byte(v), nil
	}
	return json.Marshal(v)
}

// Bool returns the boolean form and whether one exists (writesObserved).
func (o Observed) Bool() (bool, bool) {
	switch o {
	case ObservedYes:
		return true, true
	case ObservedNo:
		return false, true
	}
	return false, false
}

// VerifyVerdict is the contract axis (verifyHeld): did the app's own
// verify postcondition hold. It marshals as true, false or "unevaluable";
// the zero value means no contract was declared and is omitted.
type VerifyVerdict string

// The verify verdicts.
const (
	VerifyHeld        VerifyVerdict = "true"
	VerifyNotHeld     VerifyVerdict = "false"
	VerifyUnevaluable VerifyVerdict = "unevaluable"
)

// MarshalJSON renders held/not held as booleans.
func (v VerifyVerdict) MarshalJSON() ([]byte, error) { return triStateJSON(string(v)) }

// Arrival is the navigation axis of an action that declared GoTo. It has
// exactly two values; there is no third value for "did not arrive".
type Arrival string

// The arrival values.
const (
	ArrivalClaimed  Arrival = "claimed"
	ArrivalObserved Arrival = "observed"
)

// TransitionKind tells a fire from a stimulus or a sync row.
type TransitionKind string

// The transition kinds.
const (
	KindFired    TransitionKind = "fired"
	KindStimulus TransitionKind = "stimulus"
	KindSync     TransitionKind = "sync"
)

// Transition is one row of the transition ledger: a fire, a state report
// no fire claimed (a stimulus), a page change, or a change of the served
// surface. Reads hand out copies.
type Transition struct {
	ID        string         `json:"id"`
	Kind      TransitionKind `json:"kind"`
	Actor     Actor          `json:"principal"`
	Action    string         `json:"affordanceId,omitempty"`
	Does      string         `json:"does,omitempty"`
	Stimulus  string         `json:"stimulus,omitempty"`
	Timestamp time.Time      `json:"timestamp"`
	// Input is the detached input the fire carried (runtime data).
	Input    any    `json:"payload,omitempty"`
	Instance string `json:"instance,omitempty"`
	// Outcome is the live outcome; it can move after the settlement
	// receipt was written (see Settlement.OutcomeNow).
	Outcome          Outcome     `json:"outcome"`
	EffectVerified   Observed    `json:"effectVerified,omitempty"`
	Evidence         []Condition `json:"evidence,omitempty"`
	GuardUnevaluated []string    `json:"guardUnevaluated,omitempty"`
	FromNode         string      `json:"fromNode"`
	ToNode           string      `json:"toNode,omitempty"`
	ToNodeClaimed    bool        `json:"toNodeClaimed,omitempty"`
	Arrival          Arrival     `json:"arrival,omitempty"`
	// Keys are the state keys a stimulus row committed.
	Keys []string `json:"keys,omitempty"`
	// Produced is what the handler returned (runtime data).
	Produced any `json:"produced,omitempty"`
	// CursorVersion is the session version when the fire was attempted.
	CursorVersion int64 `json:"cursorVersion"`
	// Version is the session version right after the row was recorded.
	Version      int64  `json:"version"`
	AskID        string `json:"askId,omitempty"`
	Materialized *bool  `json:"materialized,omitempty"`
	AlreadyTrue  bool   `json:"alreadyTrue,omitempty"`
	// Inferred marks a state report attributed by inference (queue order
	// or signature match) rather than named by the app, and an inferred
	// fire row (Kind fired, Actor unknown, basis inferred-fire) that
	// nobody was seen firing.
	Inferred bool `json:"inferred,omitempty"`
	// Repeated marks a fire of a once-only action let through again
	// because the person acted after its earlier fire came to rest.
	Repeated bool `json:"repeated,omitempty"`
	// Attribution says how the state report that settled a fire (or made
	// a stimulus row) was attributed: the rung and the actor.
	Attribution *Attribution `json:"attribution,omitempty"`
	Settled     bool         `json:"settled"`
}

// Basis is the rung a state report was attributed by. Its values are
// the constants below (and BasisEmpty, for a report that recorded
// nothing); on the wire it is the protocol's string.
type Basis string

// The attribution rungs a state report is attributed by, in the order
// they are tried (see ReportState).
const (
	// BasisNamed: the report named the fire's transition id.
	BasisNamed Basis = "named-by-report"
	// BasisHandlerWindow: the report was made with the context a fire's
	// handler was given, while that handler was still running.
	BasisHandlerWindow Basis = "handler-window"
	// BasisPrincipal: the report said whose change it was (a stimulus
	// with its principal); it is never credited to a pending fire.
	BasisPrincipal Basis = "reported-principal"
	// BasisSignature: the report's keys cover the declared writes of
	// exactly one pending fire.
	BasisSignature Basis = "signature-match"
	// BasisQueue: they cover the writes of several pending fires; the
	// oldest is credited. AttributionStrict skips this rung.
	BasisQueue Basis = "queue-order"
	// BasisInferred: no fire awaited a report, and the keys are exactly
	// the declared writes of one action, so a row of that action is
	// inferred, by an unknown actor (Transition.Inferred). It was not
	// observed being fired: it is no attempt and opens no settlement.
	// The protocol names the rung (an inferred fire) but not its basis
	// string; this is the library's.
	BasisInferred Basis = "inferred-fire"
	// BasisStimulus: no pending fire's writes are covered, so the change
	// is recorded as a stimulus row of its own: state never moves
	// silently.
	BasisStimulus Basis = "stimulus"
	// BasisEmpty: an empty delta naming no fire; nothing was recorded.
	BasisEmpty Basis = "empty"
)

// Attribution is who a state change is credited to, and by which rung.
type Attribution struct {
	Actor Actor `json:"principal"`
	Basis Basis `json:"basis"`
}

// SettleError is why a fire came to rest badly. Reason is a library code;
// Message is the application's own error text (runtime data).
//
// A Handler may return a *SettleError (or an error wrapping one) to say
// why it refused in the protocol's own words: the fire comes to rest with
// that Reason, Message and Data, rather than as HANDLER_FAILED with the
// error's text. A binding over a contract does (journey/bind): a call the
// contract refused as stale comes to rest STALE_CURSOR.
type SettleError struct {
	Reason  Reason `json:"reason"`
	Message string `json:"message,omitempty"`
	// Data is the refusal as structured data (a JSON object), or nil: the
	// contract's typed refusal, say, with its tag and what it names.
	Data json.RawMessage `json:"data,omitempty"`
}

// Error returns the Message, or the Reason when there is none.
func (e *SettleError) Error() string {
	if e.Message != "" {
		return e.Message
	}
	return string(e.Reason)
}

// handlerFailure is how a handler's error comes to rest: as the
// *SettleError it carries, or HANDLER_FAILED with its text.
func handlerFailure(err error) *SettleError {
	var se *SettleError
	if errors.As(err, &se) && se.Reason != "" {
		c := *se
		return &c
	}
	return &SettleError{Reason: ReasonHandlerFailed, Message: err.Error()}
}

// Settlement is the receipt of how a fire came to rest. First settlement
// wins: the receipt is written once and never rewritten. Fields read live
// at answer time (OutcomeNow, Arrival, StillWorking) say where the record
// stands now, beside the receipt.
type Settlement struct {
	TransitionID   string       `json:"transitionId"`
	Action         string       `json:"did"`
	EffectStatus   EffectStatus `json:"effectStatus"`
	Outcome        Outcome      `json:"outcome"`
	OutcomeNow     Outcome      `json:"outcomeNow,omitempty"`
	EffectVerified Observed     `json:"effectVerified"`
	// WritesObserved is the boolean form of EffectVerified, absent when
	// that answer is not knowable (so "unobservable" is never read as a
	// truthy observed write).
	WritesObserved *bool         `json:"writesObserved,omitempty"`
	VerifyHeld     VerifyVerdict `json:"verifyHeld,omitempty"`
	Arrival        Arrival       `json:"arrival,omitempty"`
	ToNode         string        `json:"toNode,omitempty"`
	Materialized   *bool         `json:"materialized,omitempty"`
	AlreadyTrue    bool          `json:"alreadyTrue,omitempty"`
	// SettledBy is "external-report" when ObserveEffect settled the fire.
	SettledBy   string       `json:"settledBy,omitempty"`
	ReportedBy  string       `json:"reportedBy,omitempty"`
	EvidenceRef string       `json:"evidenceOnRecord,omitempty"`
	Error       *SettleError `json:"error,omitempty"`
	// ErrorNow is why the record moved after the receipt was written,
	// beside OutcomeNow (the receipt's Error is never rewritten).
	ErrorNow *SettleError `json:"errorNow,omitempty"`
	Produced any          `json:"data,omitempty"`
	// StillWorking is read live: the app has open work tied to this fire.
	StillWorking bool      `json:"stillWorking,omitempty"`
	SettledAt    time.Time `json:"settledAt"`
	// Version is the session version right after the settlement.
	Version int64 `json:"version"`
}

// Position is where the session's cursor is.
type Position struct {
	// YouAreOn is the current page id, empty when off the graph.
	YouAreOn string `json:"youAreOn"`
	// OffGraph is true after a Sync to a location the graph does not map.
	OffGraph bool `json:"offGraph,omitempty"`
	// LookingAt is the container below page level the app last reported
	// the person looking at (ObserveFocus), empty when it reported none.
	LookingAt string `json:"lookingAt,omitempty"`
	Version   int64  `json:"version"`
}

// Unblock names an action whose declared writes touch a currently failing
// condition of another action.
type Unblock struct {
	Action   string   `json:"action"`
	Writes   []string `json:"writes"`
	InFlight bool     `json:"inFlight,omitempty"`
}

// ServedAction is one row of what is served at the cursor. Every stamp is
// presence-only: an absent key means "not said" or "not known", never
// false. Field order is the emission order.
type ServedAction struct {
	Action string `json:"action"`
	Does   string `json:"does"`
	GoesTo string `json:"goesTo,omitempty"`
	// Holds is what the control holds right now, read through the host's
	// holds reader when one was registered (runtime data).
	Holds      any  `json:"holds,omitempty"`
	HighEffect bool `json:"highEffect,omitempty"`
	// PersonApproves: the app asks the person to approve each fire on
	// their screen (Action.PersonApproves).
	PersonApproves bool `json:"personApproves,omitempty"`
	// HumanDecides: the action is the person's decision; the model
	// presents it and does not make it.
	HumanDecides bool `json:"humanDecides,omitempty"`
	// MayInvoke is the declared policy, present when it limits who may
	// fire; the person is "human" on the wire.
	MayInvoke []string `json:"mayInvoke,omitempty"`
	// AwaitingHuman: the row waits on the person (their decision not yet
	// made, or an action only they may fire). It is not a control the
	// model clicks. A decision they have made waits on nobody; when only
	// they may make it again, MayInvoke still keeps it from the model.
	AwaitingHuman bool `json:"awaitingHuman,omitempty"`
	// About is the app's name for the person's decision (runtime data).
	About            string   `json:"about,omitempty"`
	GuardUnevaluated []string `json:"guardUnevaluated,omitempty"`
	// Activation is "hidden" while the control sits on a hidden tab or a
	// closed modal, "shown" while the tab or modal it sits in is shown;
	// absent for a control on the page itself.
	Activation Activation `json:"activation,omitempty"`
	// Overlay names the blocking modal that masks the control right now.
	Overlay string `json:"overlay,omitempty"`
	// StaleReads and StaleWrites are the state keys the action declares
	// reading or writing that someone other than the model changed since
	// the model's last look (set by a serving port, which knows that look).
	StaleReads  []string `json:"staleReads,omitempty"`
	StaleWrites []string `json:"staleWrites,omitempty"`
	// Enabled is present, and false, only while the control is switched off.
	Enabled        *bool     `json:"enabled,omitempty"`
	BlockedBecause *Blocked  `json:"blockedBecause,omitempty"`
	UnblockedBy    []Unblock `json:"unblockedBy,omitempty"`
	// PriorFireUnsettled is the most recent fire of this control that has
	// not come to rest.
	PriorFireUnsettled string `json:"priorFireUnsettled,omitempty"`
	// PriorTransitionID is the fire of a once-only action that came to
	// rest successfully and leaves nothing of it to fire: a fire now is
	// refused DUPLICATE_EXECUTION naming it, so the row is not clickable.
	// For an action scoped per instance it is present only when every
	// listed instance is settled; until then the settled instances are
	// left out of Instances and the row stays clickable for the others.
	PriorTransitionID string `json:"priorTransitionId,omitempty"`
	Busy              string `json:"busy,omitempty"`
	// Materialized is present, and false, when nothing is bound to run it.
	Materialized *bool    `json:"materialized,omitempty"`
	Instances    []string `json:"instances,omitempty"`
	// Expects is the wire-shaped input contract: a JSON Schema object or
	// the JSON string "none". It is rendered once per action and shared by
	// every row and result that describes the action: do not modify it.
	Expects json.RawMessage `json:"expects,omitempty"`
	// EnabledEvidence lists the failing enabledWhen conditions while the
	// control is switched off by its declaration (not serialized on rows).
	EnabledEvidence []Condition `json:"-"`
}

// GapKind classifies a gap-ledger row.
type GapKind string

// The gap kinds.
const (
	GapFireRejected       GapKind = "fire-rejected"
	GapUnmaterializedFire GapKind = "unmaterialized-fire"
)

// GapRecord is one row of the gap ledger: an attempt that did not become
// a transition (or a tour that ran nothing).
type GapRecord struct {
	Kind              GapKind     `json:"kind"`
	Timestamp         time.Time   `json:"timestamp"`
	Node              string      `json:"node"`
	Version           int64       `json:"version"`
	AvailableActions  []string    `json:"availableActions"`
	AvailableJourneys []string    `json:"availableJourneys"`
	Action            string      `json:"affordanceId,omitempty"`
	Does              string      `json:"does,omitempty"`
	Reason            Reason      `json:"rejectionReason,omitempty"`
	Actor             Actor       `json:"principal,omitempty"`
	Evidence          []Condition `json:"evidence,omitempty"`
	JourneyID         string      `json:"journeyId,omitempty"`
	// Request is the id the caller asked for when the graph lacks it
	// (runtime data; never rendered into text).
	Request string `json:"request,omitempty"`
}

// Defect is a host callback that panicked (an observer, a handler, a holds
// reader). The session recovers and records it; it never crosses the API.
type Defect struct {
	Where string    `json:"where"`
	Value string    `json:"value"`
	At    time.Time `json:"at"`
}
