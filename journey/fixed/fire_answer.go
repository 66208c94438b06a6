package fixed

import (
	"github.com/foldagent/foldagent/journey"
)

// The parts of a firing tool's answer (do_action, a journey step): a
// pause for confirmation, a recorded decline, a recorded fire, a refused
// one. Each is a pure function of what the session answered. A part is
// merged into the answer it closes (CallResult.merge): a key the answer
// already holds keeps its place and takes the part's value.

// selector names what a firing call was about: action for do_action,
// step for a journey's step.
type selector struct {
	Action string `json:"action,omitempty"`
	Step   string `json:"step,omitempty"`
}

func selectorOf(sel, id string) selector {
	if sel == "step" {
		return selector{Step: id}
	}
	return selector{Action: id}
}

// confirmPart is needs-confirm: nothing was done, the person decides.
type confirmPart struct {
	OK       bool   `json:"ok"`
	Judgment string `json:"judgment"`
	selector
	Reason    journey.Reason   `json:"reason,omitempty"`
	Does      string           `json:"does"`
	Performed bool             `json:"performed"`
	Why       string           `json:"why"`
	AskID     string           `json:"askId"`
	Receipts  journey.Receipts `json:"receipts"`
	HowToAct  string           `json:"howToAct"`
}

func confirmOf(gated bool, sel selector, does string, st journey.AskStatus, reason journey.Reason) confirmPart {
	how := confirmHow
	if gated {
		how = confirmGate
	}
	return confirmPart{Judgment: "needs-confirm", selector: sel, Reason: reason, Does: does, Why: nothingDone, AskID: st.AskID, Receipts: st.Receipts, HowToAct: how}
}

// declinedPart is a decline recorded (or, when the person must answer in
// the app, relayed as the model's report).
type declinedPart struct {
	OK       bool   `json:"ok"`
	Judgment string `json:"judgment"`
	selector
	AskID      string `json:"askId"`
	RecordedAs string `json:"recordedAs,omitempty"`
	Why        string `json:"why"`
}

func declinedOf(sel selector, d journey.DeclineResult) declinedPart {
	r := declinedPart{Judgment: "declined", selector: sel, AskID: d.AskID, RecordedAs: string(d.RecordedAs), Why: declinedWhy}
	if d.RecordedAs != "" {
		r.Why = relayedWhy
	}
	return r
}

// settleWith names the tool and argument that learn how a fire came to
// rest.
type settleWith struct {
	Tool string `json:"tool"`
	Arg  string `json:"arg"`
}

// firedPart is a recorded fire: what it did, how to learn how it came to
// rest, and what the session noted about it. A journey step's judgment
// is about its frame, so it is left empty there.
type firedPart struct {
	OK               bool                 `json:"ok"`
	Judgment         string               `json:"judgment,omitempty"`
	Did              string               `json:"did"`
	EffectStatus     journey.EffectStatus `json:"effectStatus"`
	TransitionID     string               `json:"transitionId"`
	HowToSettle      string               `json:"howToSettle,omitempty"`
	SettleWith       *settleWith          `json:"settleWith,omitempty"`
	GuardUnevaluated []string             `json:"guardUnevaluated,omitempty"`
	Executed         *bool                `json:"executed,omitempty"`
	Materialized     *bool                `json:"materialized,omitempty"`
	AlreadyTrue      bool                 `json:"alreadyTrue,omitempty"`
	Why              string               `json:"why,omitempty"`
	// Arrival is claimed when the action declares where it goes: claimed,
	// not arrived; only a later sync from the app observes the arrival
	// (did_it_work reads it live). The claim rides arrival alone.
	Arrival      journey.Arrival `json:"arrival,omitempty"`
	ArrivalMeans string          `json:"arrivalMeans,omitempty"`
}

func (p *Port) firedOf(fr journey.FireResult, f firing) firedPart {
	inJourney := f.sel == "step"
	r := firedPart{OK: true, Did: fr.Action, EffectStatus: fr.EffectStatus, TransitionID: fr.TransitionID, GuardUnevaluated: fr.GuardUnevaluated}
	pending := fr.EffectStatus == journey.EffectPending
	if !inJourney {
		r.Judgment = "done"
		if pending {
			r.Judgment = "navigate-or-wait"
		}
	}
	if pending {
		r.HowToSettle = settleHowA + p.graphID + settleHowB
		if p.withPerson(f.info, fr.TransitionID) {
			r.HowToSettle = personHowA + p.graphID + settleHowB
		}
		r.SettleWith = &settleWith{Tool: p.tools.didItWork, Arg: "transitionId"}
	}
	if fr.Executed != nil {
		r.Executed = no()
	}
	if fr.Materialized != nil {
		r.Materialized = no()
	}
	if fr.AlreadyTrue {
		r.AlreadyTrue, r.Why = true, alreadyTrue
	}
	// fr.Repeated stays on the session's record: the protocol does not
	// copy repeated onto the success arm.
	if fr.ToNodeClaimed {
		r.Arrival, r.ArrivalMeans = journey.ArrivalClaimed, arrClaimed
	}
	return r
}

// rejectedPart is a fire the session refused: the typed reason, its
// sentence, and what the refusal names, in wire order. A refusal names
// an earlier fire either as pending or as prior, never both, so scope
// follows whichever it names.
type rejectedPart struct {
	OK                  bool                `json:"ok"`
	Judgment            string              `json:"judgment"`
	Did                 string              `json:"did"`
	Reason              journey.Reason      `json:"reason"`
	Why                 string              `json:"why,omitempty"`
	Node                string              `json:"node,omitempty"`
	Evidence            []journey.Condition `json:"evidence,omitempty"`
	GuardUnevaluated    []string            `json:"guardUnevaluated,omitempty"`
	Issues              []string            `json:"issues,omitempty"`
	Expects             rawJSON             `json:"expects,omitempty"`
	Instances           *[]string           `json:"instances,omitempty"`
	AskID               string              `json:"askId,omitempty"`
	Differs             string              `json:"differs,omitempty"`
	PendingTransitionID string              `json:"pendingTransitionId,omitempty"`
	PriorTransitionID   string              `json:"priorTransitionId,omitempty"`
	Scope               *string             `json:"scope,omitempty"`
	Overlay             string              `json:"overlay,omitempty"`
	Required            []string            `json:"required,omitempty"`
	Attempted           *string             `json:"attempted,omitempty"`
	Retriable           bool                `json:"retriable,omitempty"`
	BlockedBecause      *journey.Blocked    `json:"blockedBecause,omitempty"`
	Busy                string              `json:"busy,omitempty"`
}

func rejectedOf(fr journey.FireResult) rejectedPart {
	r := rejectedPart{Judgment: "rejected", Did: fr.Action, Reason: fr.Reason, Why: refusalWhy(fr), Node: fr.Node, Evidence: fr.Evidence,
		GuardUnevaluated: fr.GuardUnevaluated, Issues: fr.Issues, Expects: rawJSON(fr.Expects), AskID: fr.AskID, Differs: fr.Differs,
		PendingTransitionID: fr.PendingTransitionID, PriorTransitionID: fr.PriorTransitionID, Overlay: fr.Overlay, Required: fr.Required,
		Retriable: fr.Retriable, BlockedBecause: fr.BlockedBecause, Busy: fr.Busy}
	if fr.Instances != nil || fr.Reason == journey.ReasonInstanceRequired || fr.Reason == journey.ReasonInstanceUnknown {
		in := orEmpty(fr.Instances)
		r.Instances = &in
	}
	if fr.PendingTransitionID != "" || fr.PriorTransitionID != "" {
		r.Scope = &fr.Scope
	}
	if len(fr.Required) > 0 {
		r.Attempted = &fr.Attempted
	}
	return r
}

// withPerson reports whether a pending fire waits for the person's answer
// on their screen: the app holds it for them now, or asks them for every
// fire of the action (PersonApproves) and is about to.
func (p *Port) withPerson(info journey.ActionInfo, transitionID string) bool {
	return p.s.Asks().Held(transitionID) != "" || info.PersonApproves
}

// fireAnswer is the part a fire's result adds to its answer: the success
// arm (did, effectStatus, transitionId and, while pending only,
// howToSettle and settleWith), a pause (APPROVAL_REQUIRED is
// needs-confirm), or a refusal (rejected, carrying the typed reason and
// what it names).
func (p *Port) fireAnswer(fr journey.FireResult, f firing) any {
	if fr.OK {
		return p.firedOf(fr, f)
	}
	if fr.NeedsConfirm || fr.Reason == journey.ReasonApprovalRequired {
		st, _ := p.s.Asks().Get(fr.AskID)
		if fr.Receipts != nil {
			st.Receipts = *fr.Receipts
		}
		st.AskID = fr.AskID
		return pausedFire{confirmPart: f.confirm(p.gated, fr.Action, st, fr.Reason), Did: fr.Action}
	}
	return rejectedOf(fr)
}

// pausedFire is a fire the session paused for confirmation: needs-confirm,
// then what it would have done.
type pausedFire struct {
	confirmPart
	Did string `json:"did"`
}

// confirm is needs-confirm for the action fired, said with its does.
func (f firing) confirm(gated bool, action string, st journey.AskStatus, reason journey.Reason) confirmPart {
	return confirmOf(gated, selectorOf(f.sel, action), f.info.Does, st, reason)
}

// refusalWhys is the sentence each refusal reason is explained by (one
// place for the rule); TOOL_DISABLED is built by disabledWhyFor.
var refusalWhys = map[journey.Reason]string{
	journey.ReasonNotMaterialized:  notMaterialized,
	journey.ReasonPriorFirePending: priorPending,
	journey.ReasonStaleCursor:      staleCursor,
	journey.ReasonNodeNotVisible:   notVisible,
	journey.ReasonBlockedByOverlay: behindOverlay,
	journey.ReasonStillMounting:    stillMounting,
	journey.ReasonDuplicate:        duplicateWhy,
	journey.ReasonInstanceUnknown:  instanceUnknown,
	journey.ReasonInstanceRequired: instanceRequired,
	journey.ReasonNotAllowed:       notAllowedWhy,
	journey.ReasonApprovalSpent:    approvalSpent,
	journey.ReasonApprovalMismatch: approvalMismatch,
	journey.ReasonApprovalStale:    approvalStale,
	journey.ReasonApprovalDeclined: approvalDeclined,
	journey.ReasonApprovalRevoked:  approvalRevoked,
}

// refusalWhy is the why of a refused fire: the reason's sentence, and the
// busy sentence when the control said it is busy.
func refusalWhy(fr journey.FireResult) string {
	why := refusalWhys[fr.Reason]
	if fr.Reason == journey.ReasonToolDisabled {
		why = disabledWhyFor(fr)
	}
	if fr.Busy != "" {
		if why != "" {
			why += " "
		}
		why += busyWhy
	}
	return why
}

func disabledWhyFor(fr journey.FireResult) string {
	why := disabledWhy
	if b := fr.BlockedBecause; b != nil && b.Says != "" {
		why += disabledSays
		switch b.ClearedBy {
		case "user":
			why += clearedByUser
		case "app":
			why += clearedByApp
		case "invalid":
			why += clearedByInvalid
		}
	} else {
		why += disabledUnknown
	}
	if len(fr.Evidence) > 0 {
		why += " " + disabledEvidence
	}
	return why
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
