package fixed

import (
	"github.com/foldagent/foldagent/journey"
	"unicode/utf8"
)

const maxErrorText = 200

// why answers <graph>.why {key}: the causal backward slice, as data under
// why (an object, never a sentence: it names keys the app wrote and who
// wrote them).
func (p *Port) why(a callArgs) CallResult {
	key := a.str("key")
	if key == "" {
		r := refusal("error", "KEY_REQUIRED")
		r.set("why", keyRequired)
		return *p.position(&r)
	}
	var r CallResult
	r.set("ok", true).set("judgment", "done").set("key", key)
	// The value itself rides beside who wrote it: a model that asks why
	// a key holds what it holds can read what it holds.
	vals, redacted := p.s.Values(key)
	if v, ok := vals[key]; ok {
		r.set("value", v)
	} else if len(redacted) > 0 {
		r.set("redacted", true)
	}
	r.set("why", p.s.Why(key))
	return *p.position(&r)
}

// valuesNow sets valuesNow on a committed fire's facts: the current
// values of the state keys its action declares it writes, so that what a
// step wrote (search results, the cart) is readable in its own answer. It
// is data, read from the session's state view; keys the view does not
// hold are left out, a redacted key's value never rides (valuesRedacted
// names it), and an action declaring no writes adds nothing.
func (p *Port) valuesNow(r *CallResult, action string) {
	info, ok := p.s.Graph().Action(action)
	if !ok || len(info.Writes) == 0 {
		return
	}
	state, redacted := p.s.Values(info.Writes...)
	var vals CallResult
	for _, k := range info.Writes {
		if v, ok := state[k]; ok {
			vals.set(k, v)
		}
	}
	if vals.Len() > 0 {
		r.set("valuesNow", vals)
	}
	if len(redacted) > 0 {
		r.set("valuesRedacted", redacted)
	}
}

// didItWork answers <graph>.did_it_work {transitionId}: a poll that never
// waits and never moves the world.
func (p *Port) didItWork(a callArgs) CallResult {
	id := a.str("transitionId")
	if id == "" {
		r := refusal("error", "TRANSITION_ID_REQUIRED")
		r.set("why", transitionRequired)
		p.openQuestions(&r)
		return *p.position(&r)
	}
	return p.answerFor(id, map[string]bool{})
}

func (p *Port) answerFor(id string, visited map[string]bool) CallResult {
	visited[id] = true
	st, settled, err := p.s.SettlementIfKnown(id)
	ask, isAsk := p.s.Ask(id)
	switch {
	case err == nil && isAsk:
		r := refusal("error", "AMBIGUOUS_ID")
		r.set("why", ambiguousID).set("askId", id).set("askedAbout", ask.Action)
		if t, ok := p.s.Transition(id); ok {
			r.set("did", t.Action)
		}
		return *p.position(&r)
	case err == nil && settled:
		var r CallResult
		// ok says what judgment says: a fire that came to rest refused
		// did not work, whatever the did_it_work call itself did.
		j := settledJudgment(st)
		r.set("ok", j == "done").set("judgment", j).set("settled", true).set("did", st.Action)
		facts := p.settledFacts(st)
		for _, e := range facts.kv {
			r.set(e.k, e.v)
		}
		return *p.position(&r)
	case err == nil:
		return p.pendingAnswer(id)
	case isAsk:
		if ask.Spent && ask.TransitionID != "" && !visited[ask.TransitionID] {
			return p.answerFor(ask.TransitionID, visited)
		}
		var r CallResult
		judgment, how := askJudgment(ask)
		r.set("ok", true).set("judgment", judgment)
		r.set("settled", false).set("performed", false).set("askId", ask.AskID).set("did", ask.Action).set("howToAct", how)
		return *p.position(&r)
	}
	if e, ok := err.(*journey.Error); ok && e.Reason == journey.ReasonTransitionEvicted {
		// Recorded once, no longer held in detail: said as such, never
		// as an id nobody fired.
		r := refusal("error", journey.ReasonTransitionEvicted)
		r.set("why", evictedTransition)
		p.openQuestions(&r)
		return *p.position(&r)
	}
	r := refusal("error", journey.ReasonUnknownTransition)
	r.set("why", unknownTransition)
	p.openQuestions(&r)
	return *p.position(&r)
}

// pendingAnswer answers a fire not at rest: held by the app for the
// person's approval, or still pending (and still worked on).
func (p *Port) pendingAnswer(id string) CallResult {
	t, _ := p.s.Transition(id)
	var r CallResult
	if held := p.s.HeldAsk(id); held != "" {
		// Fired, and held by the app for the person's approval.
		r.set("ok", true).set("judgment", "awaiting-human").set("settled", false).set("performed", false).set("did", t.Action).
			set("askId", held).set("howToAct", heldAwaiting)
		return *p.position(&r)
	}
	r.set("ok", true).set("judgment", "still-pending").set("settled", false).set("did", t.Action).set("howToAct", stillPending)
	if p.workOpenFor(id) {
		r.set("stillWorking", true).set("stillWorkingMeans", stillWorking)
	}
	return *p.position(&r)
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

// openQuestions lists every open question a settlement id could be about:
// fires awaiting the app's state report, every fire not at rest, and every
// card a person has not answered.
func (p *Port) openQuestions(r *CallResult) {
	pend := p.s.Pending()
	ids := make([]string, len(pend))
	for i, f := range pend {
		ids[i] = f.ID
	}
	r.set("pending", ids)
	r.set("awaitingSettlement", orEmpty(p.s.AwaitingSettlement()))
	human := []journey.AskRef{}
	for _, a := range p.s.Asks() {
		if a.Answer == "" && !a.Spent && !a.Revoked {
			human = append(human, journey.AskRef{AskID: a.AskID, Action: a.Action})
		}
	}
	r.set("awaitingHuman", human)
}

func (p *Port) workOpenFor(id string) bool { return p.s.StillWorking(id) }

// settledFacts is the one builder of the settled arm: three axes side by
// side (effectStatus: did anyone perform it; effectVerified: were the
// declared writes observed; verifyHeld: did the app's own contract hold),
// the receipt's outcome and, when the live record has moved since, the
// outcome now beside it, never over it. A committed fire whose action
// declares writes carries valuesNow: what those state keys hold now, as
// data.
func (p *Port) settledFacts(st journey.Settlement) CallResult {
	var r CallResult
	r.set("effectStatus", string(st.EffectStatus)).set("outcome", string(st.Outcome))
	if st.OutcomeNow != "" {
		r.set("outcomeNow", string(st.OutcomeNow)).set("howToAct", outcomeMoved)
	}
	r.set("effectVerified", st.EffectVerified)
	if st.WritesObserved != nil {
		r.set("writesObserved", *st.WritesObserved)
	}
	if st.VerifyHeld != "" {
		r.set("verifyHeld", st.VerifyHeld)
	}
	// A refused fire went nowhere: the navigation it claimed was walked
	// back, so no arrival is reported for it.
	refused := st.EffectStatus == journey.EffectRefused
	switch {
	case refused:
	case st.Arrival == journey.ArrivalClaimed:
		r.set("arrival", string(st.Arrival)).set("arrivalMeans", arrClaimed)
	case st.Arrival == journey.ArrivalObserved:
		r.set("arrival", string(st.Arrival)).set("arrivalMeans", arrObserved)
	}
	if st.Materialized != nil {
		r.set("materialized", false).set("why", nothingRan)
	} else if st.AlreadyTrue {
		r.set("alreadyTrue", true).set("why", alreadyTrue)
	}
	if st.ToNode != "" && !refused {
		r.set("toNode", st.ToNode)
	}
	if st.SettledBy != "" {
		r.set("settledBy", st.SettledBy)
		if st.ReportedBy != "" {
			r.set("reportedBy", st.ReportedBy)
		}
		if st.EvidenceRef != "" {
			r.set("evidenceOnRecord", st.EvidenceRef)
		}
	}
	if st.Error != nil {
		var e CallResult
		e.set("reason", string(st.Error.Reason))
		if st.Error.Message != "" {
			e.set("message", capText(st.Error.Message))
		}
		if len(st.Error.Data) > 0 {
			e.set("data", st.Error.Data)
		}
		r.set("error", e)
	}
	if st.Produced != nil {
		r.set("data", st.Produced)
	}
	if !refused && st.Outcome == journey.OutcomeCommitted && st.OutcomeNow == "" {
		p.valuesNow(&r, st.Action)
	}
	if st.StillWorking {
		r.set("stillWorking", true).set("stillWorkingMeans", stillWorking)
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
