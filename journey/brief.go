package journey

import (
	"strconv"
	"strings"
)

// Library sentences of the brief. Only these, graph ids, the journey's and
// its steps' authored does, counts and standing words are joined into it.
const (
	briefNoJourney   = "No journey is open."
	briefOpen        = "Open journey: "
	briefReady       = "Ready for you now: "
	briefHuman       = "With the human (present it; do not do it yourself): "
	briefAwaitingApp = "Waiting on the app: "
	briefNotClick    = "Not clickable now (hidden or behind an overlay): "
	briefRefused     = "Refused by the app the last time it was fired (did_it_work with its lastFireRejected id says why; firing it again is a new attempt, so check with the human first): "
	briefNext        = "Still to come: "
)

// Brief is a short account of the journey the model is inside: where it
// is, the open journey with its authored description, how far it has
// come, its standing, and which steps are the model's, the person's or
// the app's to move. Text is built only from library sentences, graph
// ids, authored does, counts and standing words; no state value, input,
// label or instance key ever enters it.
type Brief struct {
	Text string `json:"text"`
	// Journey is the open journey's id, empty when none is open.
	Journey    string   `json:"journey,omitempty"`
	Standing   Standing `json:"standing,omitempty"`
	StepsDone  int      `json:"stepsDone,omitempty"`
	StepsTotal int      `json:"stepsTotal,omitempty"`
}

// ContextBrief builds the brief of the open journey.
func (v View) ContextBrief() Brief {
	v.s.lock()
	defer v.s.mu.Unlock()
	return look{&v.s.st}.brief()
}

func (l look) brief() Brief {
	s := l.s
	var b strings.Builder
	b.WriteString("You are on: ")
	if s.page < 0 {
		b.WriteString(offGraphText)
	} else {
		b.WriteString(s.pageID())
	}
	b.WriteString(".\n")
	if f := s.view.focusPath(); f != "" {
		writeAll(&b, "Focus: ", f, ".\n")
	}
	if s.frameBook.open == nil {
		b.WriteString(briefNoJourney)
		return Brief{Text: b.String()}
	}
	jn := s.frameBook.open.jn
	st := look{s}.standing(jn)
	plan := look{s}.plan(jn)
	out := Brief{Journey: jn.id, Standing: st.Standing, StepsDone: st.StepsDone, StepsTotal: st.StepsTotal}
	writeAll(&b, briefOpen, jn.id, " - ", strings.TrimRight(jn.does, ".!? "), " (", strconv.Itoa(st.StepsDone), "/", strconv.Itoa(st.StepsTotal),
		" steps done; standing: ", string(st.Standing), ").\n")
	var ready, refused, withdrawn, human, person, app, masked, later []string
	for _, ps := range plan.Steps {
		switch {
		case ps.Status == StepDone || ps.Status == StepInferredDone:
		case ps.PendingFire != "" && s.askBook.heldFor(ps.PendingFire):
			person = append(person, ps.Step)
		case ps.PendingFire != "":
			app = append(app, ps.Step)
		case ps.Status == StepReady && ps.AwaitingHuman:
			human = append(human, ps.Step)
		case ps.Status == StepReady && (ps.Activation == ActivationHidden || ps.Overlay != ""):
			masked = append(masked, ps.Step)
		case ps.Fireable() && s.askBook.withdrawnFor(ps.LastRejected):
			withdrawn = append(withdrawn, ps.Step+s.ledgers.refusedCode(ps.LastRejected))
		case ps.Fireable() && ps.LastRejected != "":
			// Offered again, but never as simply ready: the app said no
			// the last time, and its code says how.
			refused = append(refused, ps.Step+s.ledgers.refusedCode(ps.LastRejected))
		case ps.Fireable():
			ready = append(ready, ps.Step+" ("+strings.TrimSuffix(ps.Does, ".")+")")
		default:
			later = append(later, ps.Step)
		}
	}
	for _, line := range []struct {
		lead string
		ids  []string
	}{{briefReady, ready}, {briefRefused, refused}, {briefWithdrawn, withdrawn}, {briefHuman, human}, {briefAwaitingPerson, person}, {briefAwaitingApp, app}, {briefNotClick, masked}, {briefNext, later}} {
		if len(line.ids) > 0 {
			writeAll(&b, line.lead, strings.Join(line.ids, ", "), ".\n")
		}
	}
	out.Text = strings.TrimSuffix(b.String(), "\n")
	return out
}
