package fixed

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/foldagent/foldagent/journey"
)

// The do_action tool, in the order a call goes: resolve the action among
// those served here, the confirmation gate, the fire. What the fire
// answered becomes the answer's part in fire_answer.go, and the answer is
// closed in answer.go.

// actionRefusal refuses a do_action naming no action, or a name
// matching more than one served here.
type actionRefusal struct {
	verdict
	Why     string   `json:"why"`
	Actions []string `json:"actions"`
	position
}

// unknownAction refuses an action not served here: the actions that
// are, and, when the graph has the one named, which true thing is the
// case (notHere).
type unknownAction struct {
	verdict
	Actions []string `json:"actions"`
	notHere
	position
}

// notHere is why an action the graph has is not served here: on another
// page, or here with its conditions unmet. Action is the declared id a
// unique suffix resolved to.
type notHere struct {
	Action           string              `json:"action,omitempty"`
	Why              string              `json:"why,omitempty"`
	On               []string            `json:"on,omitempty"`
	Evidence         []journey.Condition `json:"evidence,omitempty"`
	GuardUnevaluated []string            `json:"guardUnevaluated,omitempty"`
}

// actionHead opens a do_action answer that may pause: the action a
// needs-confirm or a decline is about.
type actionHead struct {
	OK       bool   `json:"ok"`
	Judgment string `json:"judgment"`
	Action   string `json:"action"`
}

// doAction answers do_action: it resolves the action among those served
// here (an exact id, else a unique ".suffix"), lets the confirmation gate
// pause it, fires it, and answers (answer.go).
func (p *Port) doAction(ctx context.Context, a fireArgs) CallResult {
	ids := p.s.View().ServedIDs()
	if ids == nil {
		ids = []string{} // off the graph: none served, said as an empty list
	}
	want := a.action
	if want == "" {
		return resultOf(actionRefusal{verdict: verdict{Judgment: "error", Reason: "ACTION_REQUIRED"}, Why: actionRequired, Actions: ids, position: p.here()})
	}
	action, matches := want, 1
	if !slices.Contains(ids, want) {
		action, matches = "", 0
		for _, id := range ids {
			if strings.HasSuffix(id, "."+want) {
				action = id
				matches++
			}
		}
	}
	switch {
	case matches == 0:
		return resultOf(unknownAction{verdict: verdict{Judgment: "error", Reason: journey.ReasonUnknownAction}, Actions: ids, notHere: p.whyNotHere(want), position: p.here()})
	case matches > 1:
		return resultOf(actionRefusal{verdict: verdict{Judgment: "error", Reason: "AMBIGUOUS_ACTION"}, Why: ambiguousAct, Actions: ids, position: p.here()})
	}
	info, _ := p.s.Graph().Action(action)
	f := firing{action: action, info: info, sel: "action"}
	if part, paused := p.gate(ctx, f, a); paused {
		return p.answer(actionHead{OK: true, Action: action}, part)
	}
	return p.answer(verdict{OK: true}, p.fireAnswer(p.fire(ctx, f, a), f))
}

// firing is what a firing call is about, read once: the action (a
// journey's step is one), its declaration (the zero ActionInfo for an id
// the graph lacks), and the selector naming it on the wire: "action" for
// do_action, "step" for a journey's step.
type firing struct {
	action string
	info   journey.ActionInfo
	sel    string
}

// whyNotHere says which true thing is the case when the graph does have
// an action that is not served here. A name the graph lacks gets no why
// at all: nothing is invented about an action the app never had. A
// unique suffix of a declared id counts as naming it, as it does when
// resolving.
func (p *Port) whyNotHere(id string) notHere {
	var r notHere
	ex, ok := p.s.View().Explain(id)
	if !ok {
		all := p.s.Graph().Actions()
		ids := make([]string, len(all))
		for i, a := range all {
			ids[i] = a.ID
		}
		full, found := resolveID(ids, id)
		if !found {
			return r
		}
		if ex, ok = p.s.View().Explain(full); !ok {
			return r
		}
		r.Action = full
	}
	switch {
	case !ex.OnThisPage:
		r.Why, r.On = notOnThisPage, ex.Pages
	case len(ex.Evidence) > 0:
		r.Why, r.Evidence, r.GuardUnevaluated = conditionsNot, ex.Evidence, ex.GuardUnevaluated
	default:
		r.Why = declaredNotOff
	}
	return r
}

// gate is the port's confirmation gate for a high-effect action. It
// returns the answer's part and true for needs-confirm, declined, or a
// fire refused when tried (fire_answer.go builds each); it lets the
// call through to the fire when no pause is due (the app asks the person
// on their screen, PersonApproves: that is the one question), or when the control can
// not be fired anyway (not offered here, switched off, held by an earlier
// fire): capability comes before authority, so nobody is asked to approve
// what nobody can do, and the session refuses it instead.
func (p *Port) gate(ctx context.Context, f firing, a fireArgs) (any, bool) {
	action, info := f.action, f.info
	if !info.HighEffect || info.PersonApproves || !p.confirm || a.confirm {
		return nil, false
	}
	row, served := p.s.View().Served(action)
	if !served || row.Enabled != nil || (info.SingleFlight && row.PriorFireUnsettled != "") {
		return nil, false
	}
	// Nobody is asked to approve what this port may not do, cannot click,
	// or would do against a state the model has not seen: the fire is
	// refused instead (PRINCIPAL_NOT_ALLOWED, NODE_NOT_VISIBLE,
	// BLOCKED_BY_OVERLAY, STALE_CURSOR, DUPLICATE_EXECUTION).
	if !info.Allows(p.source) || row.Activation == journey.ActivationHidden || row.Overlay != "" {
		return nil, false
	}
	if ev := a.expected; ev != nil && *ev != p.s.View().Version() {
		return nil, false
	}
	if info.Once && p.s.View().OnceDone(action, a.instance) != "" {
		return nil, false
	}
	opts := journey.FireOptions{Source: p.source, Input: a.input, Instance: a.instance}
	if a.decline {
		d, err := p.s.Asks().ReportDecline(action, opts)
		if err != nil {
			return nil, false
		}
		return declinedOf(selectorOf(f.sel, action), d), true
	}
	var st journey.AskStatus
	switch {
	case p.gated:
		// An approved or open card for the same request is reused; the
		// session mints one otherwise. Without confirm nothing fires.
		found := false
		for _, c := range slices.Backward(p.s.Asks().All()) {
			if c.Action == action && c.Instance == opts.Instance && !c.Spent && !c.Revoked && c.Answer != "declined" && sameInput(c, opts.Input) {
				st, found = c, true
				break
			}
		}
		if !found {
			st, _ = p.s.Asks().Confirm(action, opts) // action resolved against the graph above
		}
	case p.source == journey.ActorAgent:
		fr := p.s.Fire(ctx, action, opts)
		if !fr.NeedsConfirm {
			// Refused by a capability gate after all (the world moved
			// between the look and the fire): report the refusal.
			return p.fireAnswer(fr, f), true
		}
		st, _ = p.s.Asks().Get(fr.AskID)
	default:
		st, _ = p.s.Asks().Confirm(action, opts)
	}
	return f.confirm(p.gated, action, st, ""), true
}

func sameInput(c journey.AskStatus, input any) bool {
	if c.Receipts.WillUse == nil {
		return input == nil
	}
	return sameJSON(c.Receipts.WillUse.Input, input)
}

// fire fires the action with the call's arguments; a high-effect one is
// confirmed when the model confirmed it, when the port does not pause, or
// when the person approves it on their own screen.
func (p *Port) fire(ctx context.Context, f firing, a fireArgs) journey.FireResult {
	opts := journey.FireOptions{Source: p.source, Input: a.input, Instance: a.instance, ExpectedVersion: a.expected}
	if f.info.HighEffect && (!p.confirm || a.confirm || f.info.PersonApproves) {
		opts.Confirm = true
	}
	return p.s.Fire(ctx, f.action, opts)
}

// sameJSON reports whether two values encode to the same JSON (object
// keys sorted, as encoding/json writes maps).
func sameJSON(a, b any) bool {
	ab, err := json.Marshal(a)
	if err != nil {
		return false
	}
	bb, err := json.Marshal(b)
	return err == nil && bytes.Equal(ab, bb)
}
