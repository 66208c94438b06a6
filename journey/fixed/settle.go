package fixed

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/foldagent/foldagent/journey"
)

const maxErrorText = 200

// whyAnswer answers <graph>.why {key}: the causal backward slice, as data
// under why (an object, never a sentence: it names keys the app wrote and
// who wrote them). The value itself rides beside who wrote it: a model
// that asks why a key holds what it holds can read what it holds.
type whyAnswer struct {
	verdict
	Key      string           `json:"key"`
	Value    *any             `json:"value,omitempty"`
	Redacted bool             `json:"redacted,omitempty"`
	Why      journey.WhySlice `json:"why"`
	position
}

// keyRequired refuses a why call with no key.
type whyRefusal struct {
	verdict
	Why string `json:"why"`
	position
}

func (p *Port) why(a callArgs) CallResult {
	key := a.str("key")
	if key == "" {
		return resultOf(whyRefusal{verdict: verdict{Judgment: "error", Reason: "KEY_REQUIRED"}, Why: keyRequired, position: p.here()})
	}
	r := whyAnswer{verdict: verdict{OK: true, Judgment: "done"}, Key: key}
	vals, redacted := p.s.View().Values(key)
	if v, ok := vals[key]; ok {
		r.Value = &v
	} else if len(redacted) > 0 {
		r.Redacted = true
	}
	r.Why = p.s.View().Why(key)
	r.position = p.here()
	return resultOf(r)
}

// settlements answers did_it_work, and gives the settled facts a fire's
// own answer folds in (Port.SettledAnswer): how a fire or an ask came to
// rest, read from the session, which it never changes.
type settlements struct{ s *journey.Session }

// didItWork answers <graph>.did_it_work {transitionId}: a poll that never
// waits and never moves the world.
func (d settlements) didItWork(a callArgs) CallResult {
	id := a.str("transitionId")
	if id == "" {
		return resultOf(d.unanswerable("TRANSITION_ID_REQUIRED", transitionRequired))
	}
	return d.answerFor(id, map[string]bool{})
}

// verdict opens every answer: whether the call did what it was asked,
// the routing word, and a refusal's typed reason.
type verdict struct {
	OK       bool           `json:"ok"`
	Judgment string         `json:"judgment"`
	Reason   journey.Reason `json:"reason,omitempty"`
}

// settledAnswer is did_it_work's answer for a fire at rest.
type settledAnswer struct {
	verdict
	Settled bool   `json:"settled"`
	Did     string `json:"did"`
	settledFacts
	position
}

// pendingAnswer is did_it_work's answer for a fire not at rest.
type pendingAnswer struct {
	verdict
	Settled           bool   `json:"settled"`
	Did               string `json:"did"`
	HowToAct          string `json:"howToAct"`
	StillWorking      bool   `json:"stillWorking,omitempty"`
	StillWorkingMeans string `json:"stillWorkingMeans,omitempty"`
	position
}

// heldAnswer is did_it_work's answer for a fire the app holds for the
// person's approval.
type heldAnswer struct {
	verdict
	Settled   bool   `json:"settled"`
	Performed bool   `json:"performed"`
	Did       string `json:"did"`
	AskID     string `json:"askId"`
	HowToAct  string `json:"howToAct"`
	position
}

// askAnswer is did_it_work's answer for a card not spent.
type askAnswer struct {
	verdict
	Settled   bool   `json:"settled"`
	Performed bool   `json:"performed"`
	AskID     string `json:"askId"`
	Did       string `json:"did"`
	HowToAct  string `json:"howToAct"`
	position
}

// ambiguousAnswer refuses an id that names both a fire and an ask.
type ambiguousAnswer struct {
	verdict
	Why        string `json:"why"`
	AskID      string `json:"askId"`
	AskedAbout string `json:"askedAbout"`
	Did        string `json:"did,omitempty"`
	position
}

// openQuestions lists every open question a settlement id could be about:
// fires awaiting the app's state report, every fire not at rest, and every
// card a person has not answered.
type openQuestions struct {
	Pending            []string         `json:"pending"`
	AwaitingSettlement []string         `json:"awaitingSettlement"`
	AwaitingHuman      []journey.AskRef `json:"awaitingHuman"`
}

// unanswerableAnswer refuses a did_it_work that names no id it can answer
// for, listing the open ones.
type unanswerableAnswer struct {
	verdict
	Why string `json:"why"`
	openQuestions
	position
}

func (d settlements) unanswerable(reason journey.Reason, why string) unanswerableAnswer {
	return unanswerableAnswer{verdict: verdict{Judgment: "error", Reason: reason}, Why: why, openQuestions: d.openQuestions(), position: hereOf(d.s)}
}

func (d settlements) answerFor(id string, visited map[string]bool) CallResult {
	visited[id] = true
	st, settled, err := d.s.View().SettlementIfKnown(id)
	ask, isAsk := d.s.Asks().Get(id)
	switch {
	case err == nil && isAsk:
		r := ambiguousAnswer{verdict: verdict{Judgment: "error", Reason: "AMBIGUOUS_ID"}, Why: ambiguousID, AskID: id, AskedAbout: ask.Action}
		if t, ok := d.s.View().Transition(id); ok {
			r.Did = t.Action
		}
		r.position = hereOf(d.s)
		return resultOf(r)
	case err == nil && settled:
		// ok says what judgment says: a fire that came to rest refused
		// did not work, whatever the did_it_work call itself did.
		j := settledJudgment(st)
		facts := d.settledFacts(st)
		return resultOf(settledAnswer{verdict: verdict{OK: j == "done", Judgment: j}, Settled: true, Did: st.Action, settledFacts: facts, position: hereOf(d.s)})
	case err == nil:
		return d.pendingAnswer(id)
	case isAsk:
		if ask.Spent && ask.TransitionID != "" && !visited[ask.TransitionID] {
			return d.answerFor(ask.TransitionID, visited)
		}
		judgment, how := askJudgment(ask)
		return resultOf(askAnswer{verdict: verdict{OK: true, Judgment: judgment}, AskID: ask.AskID, Did: ask.Action, HowToAct: how, position: hereOf(d.s)})
	}
	if e, ok := err.(*journey.Error); ok && e.Reason == journey.ReasonTransitionEvicted {
		// Recorded once, no longer held in detail: said as such, never
		// as an id nobody fired.
		return resultOf(d.unanswerable(journey.ReasonTransitionEvicted, evictedTransition))
	}
	return resultOf(d.unanswerable(journey.ReasonUnknownTransition, unknownTransition))
}

// pendingAnswer answers a fire not at rest: held by the app for the
// person's approval, or still pending (and still worked on).
func (d settlements) pendingAnswer(id string) CallResult {
	t, _ := d.s.View().Transition(id)
	if held := d.s.Asks().Held(id); held != "" {
		// Fired, and held by the app for the person's approval.
		return resultOf(heldAnswer{verdict: verdict{OK: true, Judgment: "awaiting-human"}, Did: t.Action, AskID: held, HowToAct: heldAwaiting, position: hereOf(d.s)})
	}
	r := pendingAnswer{verdict: verdict{OK: true, Judgment: "still-pending"}, Did: t.Action, HowToAct: stillPending}
	if d.workOpenFor(id) {
		r.StillWorking, r.StillWorkingMeans = true, stillWorking
	}
	r.position = hereOf(d.s)
	return resultOf(r)
}

// askJudgment is the judgment and the sentence for a card not spent: a
// card held by the app for the person (fired), or a paused fire's card.
func askJudgment(ask journey.AskStatus) (judgment, how string) {
	held := ask.TransitionID != "" // fired, held by the app for the person
	switch {
	case held && ask.Answer == "declined":
		return "declined", heldDeclined
	case held && ask.Revoked:
		return "approval-withdrawn", heldWithdrawn
	case held:
		return "awaiting-human", heldAwaiting
	case ask.Answer == "declined":
		return "declined", pausedDeclined
	case ask.Revoked:
		return "approval-withdrawn", pausedRevoked
	case ask.Answer == "approved" && ask.Stale:
		return "approval-no-longer-valid", pausedStale
	case ask.Answer == "approved":
		return "approved-not-yet-done", pausedApproved
	}
	return "awaiting-human", pausedAwaiting
}

// settledJudgment routes a settled answer: done when the fire came to
// rest without being refused, rejected when it was refused, rejected or
// rolled back.
func settledJudgment(st journey.Settlement) string {
	now := st.Outcome
	if st.OutcomeNow != "" {
		now = st.OutcomeNow
	}
	if st.EffectStatus == journey.EffectRefused || now == journey.OutcomeRejected || now == journey.OutcomeRolledBack {
		return "rejected"
	}
	return "done"
}

func (d settlements) openQuestions() openQuestions {
	pend := d.s.View().Pending()
	ids := make([]string, len(pend))
	for i, f := range pend {
		ids[i] = f.ID
	}
	human := []journey.AskRef{}
	for _, a := range d.s.Asks().All() {
		if a.Answer == "" && !a.Spent && !a.Revoked {
			human = append(human, journey.AskRef{AskID: a.AskID, Action: a.Action})
		}
	}
	return openQuestions{Pending: ids, AwaitingSettlement: orEmpty(d.s.View().AwaitingSettlement()), AwaitingHuman: human}
}

func (d settlements) workOpenFor(id string) bool { return d.s.View().StillWorking(id) }

// settledFacts is the settled arm: three axes side by side (effectStatus:
// did anyone perform it; effectVerified: were the declared writes
// observed; verifyHeld: did the app's own contract hold), the receipt's
// outcome and, when the live record has moved since, the outcome now
// beside it, never over it. A committed fire whose action declares writes
// carries valuesNow: what those state keys hold now, as data.
type settledFacts struct {
	EffectStatus   journey.EffectStatus  `json:"effectStatus"`
	Outcome        journey.Outcome       `json:"outcome"`
	OutcomeNow     journey.Outcome       `json:"outcomeNow,omitempty"`
	HowToAct       string                `json:"howToAct,omitempty"`
	EffectVerified journey.Observed      `json:"effectVerified"`
	WritesObserved *bool                 `json:"writesObserved,omitempty"`
	VerifyHeld     journey.VerifyVerdict `json:"verifyHeld,omitempty"`
	Arrival        journey.Arrival       `json:"arrival,omitempty"`
	ArrivalMeans   string                `json:"arrivalMeans,omitempty"`
	// Materialized is false when nothing performed it (absent otherwise);
	// AlreadyTrue when its effect held before it fired. Why says which.
	Materialized     *bool         `json:"materialized,omitempty"`
	AlreadyTrue      bool          `json:"alreadyTrue,omitempty"`
	Why              string        `json:"why,omitempty"`
	ToNode           string        `json:"toNode,omitempty"`
	SettledBy        string        `json:"settledBy,omitempty"`
	ReportedBy       string        `json:"reportedBy,omitempty"`
	EvidenceOnRecord string        `json:"evidenceOnRecord,omitempty"`
	Error            *settledError `json:"error,omitempty"`
	Data             any           `json:"data,omitempty"`
	valuesNow
	StillWorking      bool   `json:"stillWorking,omitempty"`
	StillWorkingMeans string `json:"stillWorkingMeans,omitempty"`
}

// settledError is the app's refusal of a fire, its text capped.
type settledError struct {
	Reason  journey.Reason  `json:"reason"`
	Message string          `json:"message,omitempty"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// valuesNow is what the state keys a committed fire's action declares it
// writes hold now, so that what a step wrote (search results, the cart)
// is readable in its own answer. It is data, read from the session's
// state view; keys the view does not hold are left out, a redacted key's
// value never rides (ValuesRedacted names it), and an action declaring no
// writes adds nothing.
type valuesNow struct {
	ValuesNow      *CallResult `json:"valuesNow,omitempty"`
	ValuesRedacted []string    `json:"valuesRedacted,omitempty"`
}

func (d settlements) valuesNow(action string) valuesNow {
	info, ok := d.s.Graph().Action(action)
	if !ok || len(info.Writes) == 0 {
		return valuesNow{}
	}
	state, redacted := d.s.View().Values(info.Writes...)
	var vals CallResult
	for _, k := range info.Writes {
		if v, ok := state[k]; ok {
			vals.set(k, v)
		}
	}
	out := valuesNow{ValuesRedacted: redacted}
	if vals.Len() > 0 {
		out.ValuesNow = &vals
	}
	return out
}

// settledFacts reads what the settled arm needs besides the settlement
// (the values its writes hold now) and builds it.
func (d settlements) settledFacts(st journey.Settlement) settledFacts {
	var vals valuesNow
	if st.EffectStatus != journey.EffectRefused && st.Outcome == journey.OutcomeCommitted && st.OutcomeNow == "" {
		vals = d.valuesNow(st.Action)
	}
	return settledFactsOf(st, vals)
}

// settledFactsOf is the settled arm of one settlement: a pure function.
func settledFactsOf(st journey.Settlement, vals valuesNow) settledFacts {
	r := settledFacts{EffectStatus: st.EffectStatus, Outcome: st.Outcome, OutcomeNow: st.OutcomeNow, EffectVerified: st.EffectVerified,
		WritesObserved: st.WritesObserved, VerifyHeld: st.VerifyHeld, Data: st.Produced, valuesNow: vals}
	if st.OutcomeNow != "" {
		r.HowToAct = outcomeMoved
	}
	// A refused fire went nowhere: the navigation it claimed was walked
	// back, so no arrival is reported for it.
	refused := st.EffectStatus == journey.EffectRefused
	switch {
	case refused:
	case st.Arrival == journey.ArrivalClaimed:
		r.Arrival, r.ArrivalMeans = st.Arrival, arrClaimed
	case st.Arrival == journey.ArrivalObserved:
		r.Arrival, r.ArrivalMeans = st.Arrival, arrObserved
	}
	if st.Materialized != nil {
		r.Materialized, r.Why = no(), nothingRan
	} else if st.AlreadyTrue {
		r.AlreadyTrue, r.Why = true, alreadyTrue
	}
	if !refused {
		r.ToNode = st.ToNode
	}
	if st.SettledBy != "" {
		r.SettledBy, r.ReportedBy, r.EvidenceOnRecord = st.SettledBy, st.ReportedBy, st.EvidenceRef
	}
	if st.Error != nil {
		r.Error = &settledError{Reason: st.Error.Reason, Message: capText(st.Error.Message), Data: st.Error.Data}
	}
	if st.StillWorking {
		r.StillWorking, r.StillWorkingMeans = true, stillWorking
	}
	return r
}

// capText caps application error text (data) at 200 bytes, on a rune
// boundary.
func capText(s string) string {
	if len(s) <= maxErrorText {
		return s
	}
	cut := maxErrorText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
