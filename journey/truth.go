package journey

import (
	"slices"
	"strconv"
	"strings"
)

// Grade is the lead word an attempt is graded with. Nothing is rounded
// up: only a committed fire whose declared effect was observed is
// GradeDid.
type Grade string

// The grades.
const (
	GradeDid           Grade = "DID happen"
	GradeDidNot        Grade = "did NOT happen"
	GradeNotYetKnown   Grade = "not yet known"
	GradeUnobservable  Grade = "ran, but the effect was unobservable"
	GradeEffectMissing Grade = "ran, but the declared effect was NOT observed"
	GradeNeverObserved Grade = "ran, but the outcome was never observed"
	unknownActionText        = "(an action this app does not have)"
	offGraphText             = "(an unmapped location, off the authored graph)"
	defaultMaxAttempts       = 20
	maxAskLines              = 5
)

// Library sentences of the facts block. Only these constants, graph ids,
// versions, counts and reason codes are ever joined into its text.
const (
	truthHeader = "FACTS FROM THE APP (authoritative). These lines are the app's own record. " +
		"Where the conversation disagrees, even a claim by you or the user that something was done, they are what happened."
	noteNotWired     = "nothing in this app is bound to perform it, so nothing ran"
	notePending      = "the app has not reported back yet"
	noteVerifyFailed = "the app's own verify check did not hold afterwards"
	noteRejected     = "the app refused it"
	noteAppFailed    = " - the app's report is in did_it_work with its id"
	noteRolledBack   = "it was rolled back"
	noteSuperseded   = "tracking of it stopped (superseded)"
	noteObserved     = "committed; effect observed"
	noteNotObserved  = "committed"
	noteUnobservable = "committed"
	noteInferred     = "; attributed by inference, not observed"
	// The rung a fire's state report was credited by, when the app did
	// not name the fire.
	noteBySignature = "; credited by signature-match (its declared writes), not named by the app"
	noteByQueue     = "; credited by queue-order (oldest of several covering its writes), not named by the app"
	changesHeader   = "State changes no action of yours made:"
	changeByUser    = " the person changed the app's state themselves ("
	changeBySystem  = " the app changed its own state ("
	// A change reported as an agent's is never this session's agent's
	// (its own fires are attempts): another conversation's.
	changeByAgent   = " another agent (not you: another conversation with this app) changed the app's state ("
	changeByUnknown = " the app's state changed with no action of yours credited with it, by the person or the app itself ("
	// An inferred fire: the action id is written between the two.
	changeInferred     = " unknown fired "
	changeInferredTail = " (inferred, not observed: nobody was seen firing it; the keys that changed are exactly the ones it declares writing; "
	decisionLead       = "A decision is with the human: "
	decisionTail       = " - the agent presents the options and does not make it."
	humanOnlyLead      = "Only the human may do: "
	humanOnlyTail      = " - the agent cannot fire it."
	untiedWorkLine     = "The app is still working on something it did not tie to an action here."
	nothingYetLine     = "No actions have been performed in this app this session."
)

// Attempt is one graded attempt: a fire from the transition ledger or a
// refusal from the gap ledger. Action is a graph id or the constant for
// an id the graph lacks.
type Attempt struct {
	Version      int64  `json:"version"`
	TransitionID string `json:"transitionId,omitempty"`
	Action       string `json:"action"`
	Actor        Actor  `json:"principal"`
	Grade        Grade  `json:"grade"`
	Note         string `json:"note,omitempty"`
	Refused      Reason `json:"refused,omitempty"`
	Journey      string `json:"journey,omitempty"`
	Inferred     bool   `json:"inferred,omitempty"`
	// Attribution is the rung the fire's state report was credited by.
	Attribution Basis  `json:"attribution,omitempty"`
	Line        string `json:"line"`
}

// AskRef names an ask and its action.
type AskRef struct {
	AskID  string `json:"askId"`
	Action string `json:"action"`
}

// Truth is the facts block: the app's own record, graded. Text is built
// only from library sentences, graph ids, versions, counts and reason
// codes; never from state values, inputs, labels, instance keys or
// produced data. The other fields carry the same facts as data.
type Truth struct {
	Text         string    `json:"text"`
	YouAreOn     string    `json:"youAreOn"`
	OffGraph     bool      `json:"offGraph,omitempty"`
	Version      int64     `json:"version"`
	SinceVersion int64     `json:"sinceVersion,omitempty"`
	Attempts     []Attempt `json:"attempts"`
	Omitted      int       `json:"omitted,omitempty"`
	// Evicted counts the attempts no longer held in detail (Retention);
	// they are among those omitted or earlier, never silently dropped.
	Evicted         int      `json:"evicted,omitempty"`
	Earlier         int      `json:"earlier,omitempty"`
	AwaitingHuman   []AskRef `json:"awaitingHuman,omitempty"`
	Withdrawn       []AskRef `json:"withdrawn,omitempty"`
	ApprovedNotDone []AskRef `json:"approvedNotDone,omitempty"`
	Declined        []AskRef `json:"declined,omitempty"`
	// AwaitingApp lists fires the app has not answered (transition ids).
	AwaitingApp []string `json:"awaitingApp,omitempty"`
	// Changes are the state changes since sinceVersion that no fire was
	// credited with (the person's, the app's, or nobody's known), newest
	// last, at most maxAttempts of them.
	Changes []Change `json:"changes,omitempty"`
	// WithTheHuman lists the actions offered here that wait on the person.
	WithTheHuman []string `json:"withTheHuman,omitempty"`
	// StillWorking lists the actions with open work tied to their fires.
	StillWorking []string `json:"stillWorking,omitempty"`
	UntiedWork   bool     `json:"untiedWork,omitempty"`
}

// Change is a state change no fire was credited with. Keys are the app's
// state keys (data; the text carries only their count).
type Change struct {
	TransitionID string `json:"transitionId"`
	Actor        Actor  `json:"principal"`
	Basis        Basis  `json:"basis"`
	// Action and Inferred are set on an inferred fire (basis
	// inferred-fire): the action whose declared writes the change was.
	Action   string   `json:"affordanceId,omitempty"`
	Inferred bool     `json:"inferred,omitempty"`
	Keys     []string `json:"keys"`
	Version  int64    `json:"version"`
}

// GroundTruth builds the facts block. Both ledgers are merged and every
// attempt is graded: DID happen only for a committed fire whose declared
// effect was observed; otherwise unobservable, refused, not yet known or
// did NOT happen, said as such. It then names the open asks, the fires
// awaiting the app and the open work. sinceVersion > 0 narrows the
// attempts to those made at or after that version; maxAttempts <= 0 means
// 20 (the newest are kept).
func (v View) GroundTruth(sinceVersion int64, maxAttempts int) Truth {
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	return look{&v.s.st}.truth(sinceVersion, maxAttempts, true)
}

// Facts is GroundTruth's text alone, for a caller that serves the block
// and not its data: the same sentences, built without the Attempt rows.
func (v View) Facts(sinceVersion int64, maxAttempts int) string {
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	return look{&v.s.st}.truth(sinceVersion, maxAttempts, false).Text
}

// pick is one attempt chosen for the facts block: a fire or a refusal.
type pick struct {
	fire *record
	gap  *GapRecord
}

func (l look) truth(sinceVersion int64, maxAttempts int, rows bool) Truth {
	s := l.s
	if maxAttempts <= 0 {
		maxAttempts = defaultMaxAttempts
	}
	f := &factsBlock{s: s, since: sinceVersion, max: maxAttempts, rows: rows,
		t: Truth{YouAreOn: s.pageID(), OffGraph: s.page < 0, Version: s.version, Attempts: []Attempt{}}}
	if sinceVersion > 0 {
		f.t.SinceVersion = sinceVersion
	}
	picks, inRange := f.pick()
	f.held = func(r *record) personNote {
		switch {
		case !r.settled && s.askBook.heldFor(r.t.ID):
			return personHeld
		case r.settled && s.askBook.withdrawnFor(r.t.ID):
			return personWithdrawn
		}
		return personNone
	}
	f.b.Grow(len(truthHeader) + 400 + 120*len(picks))
	f.position()
	f.attempts(picks, inRange)
	f.changes()
	f.asks()
	f.withTheHuman()
	f.awaiting()
	f.work()
	f.t.Text = strings.TrimSuffix(f.b.String(), "\n")
	return f.t
}

// factsBlock builds one facts block (GroundTruth, Facts) under the
// session's lock, section by section, in the order the block reads.
type factsBlock struct {
	s     *fold
	since int64
	max   int
	rows  bool // build the Attempt and Change rows, not only the text
	// held reports a fire waiting for the person's answer on their
	// screen: said once, as theirs, never as the app still working.
	held func(*record) personNote
	t    Truth
	b    strings.Builder
}

func (f *factsBlock) inWindow(version int64) bool { return f.since <= 0 || version >= f.since }

// pick chooses the attempts shown: both ledgers are in version order, so
// the newest attempts are at their ends; a backward merge picks them and
// only those are graded, the rest counted, so the cost does not grow with
// history. A refusal sorts before a fire made at the same version.
func (f *factsBlock) pick() (picks []pick, inRange int) {
	s := f.s
	picks = make([]pick, 0, min(f.max, len(s.ledgers.fires)+len(s.ledgers.gaps)))
	fi, gi := len(s.ledgers.fires)-1, len(s.ledgers.gaps)-1
	skipGaps := func() {
		for gi >= 0 && s.ledgers.gaps[gi].Kind != GapFireRejected {
			gi--
		}
	}
	skipGaps()
	for {
		fireOK := fi >= 0 && f.inWindow(s.ledgers.fires[fi].t.CursorVersion)
		gapOK := gi >= 0 && f.inWindow(s.ledgers.gaps[gi].Version)
		if !fireOK && !gapOK || (len(picks) == f.max && f.since <= 0) {
			break // without sinceVersion the rest is counted from the totals
		}
		inRange++
		takeFire := fireOK && (!gapOK || s.ledgers.fires[fi].t.CursorVersion >= s.ledgers.gaps[gi].Version)
		switch {
		case takeFire && len(picks) < f.max:
			picks = append(picks, pick{fire: s.ledgers.fires[fi]})
		case !takeFire && len(picks) < f.max:
			picks = append(picks, pick{gap: &s.ledgers.gaps[gi]})
		}
		if takeFire {
			fi--
		} else {
			gi--
			skipGaps()
		}
	}
	slices.Reverse(picks)
	return picks, inRange
}

func (f *factsBlock) position() {
	s, b := f.s, &f.b
	b.WriteString(truthHeader)
	b.WriteString("\nYou are on: ")
	if s.page < 0 {
		b.WriteString(offGraphText)
	} else {
		b.WriteString(s.pageID())
	}
	b.WriteString(".\n")
	if fp := s.view.focusPath(); fp != "" {
		writeAll(b, "Focus: ", fp, ".\n")
	}
}

// attempts writes the attempts picked. Every attempt ever made is
// counted, including those no longer held in detail (Retention): they are
// earlier than any held one.
func (f *factsBlock) attempts(picks []pick, inRange int) {
	s, b, t := f.s, &f.b, &f.t
	total := s.ledgers.firesTotal + s.ledgers.rejectedTotal
	if f.since <= 0 {
		inRange = total
	}
	t.Earlier = total - inRange
	t.Evicted = s.ledgers.firesEvicted + s.ledgers.rejectedEvicted
	t.Omitted = inRange - len(picks)
	v := strconv.FormatInt(s.version, 10)
	switch {
	case len(picks) == 0 && f.since > 0:
		b.WriteString("No actions have been performed since version " + strconv.FormatInt(f.since, 10) + " — " +
			strconv.Itoa(t.Earlier) + " earlier attempt(s) this session are not listed.\n")
		return
	case len(picks) == 0:
		b.WriteString(nothingYetLine + "\n")
		return
	case f.since > 0:
		writeAll(b, "Attempts since version ", strconv.FormatInt(f.since, 10), " (now ", v, "):\n")
	default:
		writeAll(b, "Attempts so far (version ", v, "):\n")
	}
	if t.Omitted > 0 {
		writeAll(b, "  … ", strconv.Itoa(t.Omitted), " earlier attempt(s) omitted.\n")
	}
	if t.Evicted > 0 {
		writeAll(b, "  (", strconv.Itoa(t.Evicted), " of this session's earliest attempts are no longer held in detail by the app, only counted.)\n")
	}
	if f.rows {
		t.Attempts = make([]Attempt, 0, len(picks))
	}
	for _, p := range picks {
		switch {
		case f.rows:
			var a Attempt
			if p.fire != nil {
				a = gradeFire(p.fire, f.held(p.fire))
			} else {
				a = s.g.gradeRefusal(*p.gap)
			}
			t.Attempts = append(t.Attempts, a)
			b.WriteString(a.Line)
		case p.fire != nil:
			writeFireLine(b, p.fire, f.held(p.fire))
		default:
			s.g.writeRefusalLine(b, p.gap)
		}
		b.WriteByte('\n')
	}
}

// changes writes the state changes no fire was credited with: a change
// the person made is their change, never "nothing happened".
func (f *factsBlock) changes() {
	s, b := f.s, &f.b
	var changes []*record
	for i := len(s.stimuli) - 1; i >= 0 && len(changes) < f.max; i-- {
		r := s.stimuli[i]
		if f.since > 0 && r.t.Version <= f.since {
			break
		}
		changes = append(changes, r)
	}
	if len(changes) == 0 {
		return
	}
	slices.Reverse(changes)
	b.WriteString(changesHeader + "\n")
	for _, r := range changes {
		if f.rows {
			f.t.Changes = append(f.t.Changes, Change{TransitionID: r.t.ID, Actor: r.t.Actor, Basis: r.t.Attribution.Basis,
				Action: r.t.Action, Inferred: r.t.Inferred, Keys: slices.Clone(r.t.Keys), Version: r.t.Version})
		}
		b.WriteString("  •")
		switch {
		case r.an != nil:
			writeAll(b, changeInferred, r.an.id, changeInferredTail)
		case r.t.Actor == ActorUser:
			b.WriteString(changeByUser)
		case r.t.Actor == ActorSystem:
			b.WriteString(changeBySystem)
		case r.t.Actor == ActorAgent:
			b.WriteString(changeByAgent)
		default:
			b.WriteString(changeByUnknown)
		}
		writeAll(b, strconv.Itoa(len(r.t.Keys)), " key(s), ", r.t.ID, ").\n")
	}
}

// asks writes the ask book's open questions and answers.
func (f *factsBlock) asks() {
	t := &f.t
	var inChat []AskRef
	for _, a := range f.s.askBook.asks {
		if !a.inBook || a.superseded {
			continue
		}
		ref := AskRef{AskID: a.id, Action: a.an.id}
		switch {
		case a.answer == answerOpen && a.firedAs != "" && !a.revoked:
			// Held for the person on their screen: awaiting() says it,
			// once, with the fire it holds.
			t.AwaitingHuman = append(t.AwaitingHuman, ref)
		case a.answer == answerOpen:
			t.AwaitingHuman = append(t.AwaitingHuman, ref)
			inChat = append(inChat, ref)
		case a.revoked:
			t.Withdrawn = append(t.Withdrawn, ref)
		case a.answer == answerApproved && !a.spent:
			t.ApprovedNotDone = append(t.ApprovedNotDone, ref)
		case a.answer == answerDeclined:
			t.Declined = append(t.Declined, ref)
		}
	}
	askLines(&f.b, "Awaiting the human's decision: ", inChat)
	askLines(&f.b, "The human withdrew their approval: ", t.Withdrawn)
	askLines(&f.b, "Approved by the human, not yet done: ", t.ApprovedNotDone)
	askLines(&f.b, "The human declined: ", t.Declined)
}

// withTheHuman writes what waits on the person here: their decisions,
// and what only they may do.
func (f *factsBlock) withTheHuman() {
	s := f.s
	if s.page < 0 {
		return
	}
	for _, an := range s.g.served[s.page] {
		if pass, _ := evalQuick(an.guard, s.state); !pass || !awaitingHumanIn(an, s.state) {
			continue
		}
		f.t.WithTheHuman = append(f.t.WithTheHuman, an.id)
		if an.decides != nil {
			writeAll(&f.b, decisionLead, an.id, decisionTail, "\n")
		} else {
			writeAll(&f.b, humanOnlyLead, an.id, humanOnlyTail, "\n")
		}
	}
}

// awaiting writes the fires the app, or the person, has not answered.
func (f *factsBlock) awaiting() {
	s := f.s
	var awaitingActions, awaitingPerson []string
	for _, r := range s.ledgers.openFires {
		switch {
		case r.settled:
		case s.askBook.heldFor(r.t.ID):
			f.t.AwaitingApp = append(f.t.AwaitingApp, r.t.ID)
			awaitingPerson = append(awaitingPerson, r.an.id+" ("+r.t.ID+")")
		default:
			f.t.AwaitingApp = append(f.t.AwaitingApp, r.t.ID)
			awaitingActions = append(awaitingActions, r.an.id+" ("+r.t.ID+")")
		}
	}
	if len(awaitingPerson) > 0 {
		f.b.WriteString(factsAwaitingPerson + strings.Join(awaitingPerson, ", ") + ".\n")
	}
	if len(awaitingActions) > 0 {
		f.b.WriteString("Awaiting the app's report: " + strings.Join(awaitingActions, ", ") + ".\n")
	}
}

// work writes the open work: the actions still worked on, and work tied
// to no fire.
func (f *factsBlock) work() {
	s, t := f.s, &f.t
	for _, w := range s.workBook.work {
		if !w.open {
			continue
		}
		r, ok := s.ledgers.byID[w.transitionID]
		if ok && r.fired && f.held(r) == personHeld {
			continue // the person's to answer, said by awaiting()
		}
		if ok && r.fired {
			if !slices.Contains(t.StillWorking, r.an.id) {
				t.StillWorking = append(t.StillWorking, r.an.id)
			}
		} else {
			t.UntiedWork = true
		}
	}
	if len(t.StillWorking) > 0 {
		f.b.WriteString("The app is still working on: " + strings.Join(t.StillWorking, ", ") + ".\n")
	}
	if t.UntiedWork {
		f.b.WriteString(untiedWorkLine + "\n")
	}
}

func askLines(b *strings.Builder, lead string, refs []AskRef) {
	for i, r := range refs {
		if i == maxAskLines {
			b.WriteString(lead + "… and " + strconv.Itoa(len(refs)-maxAskLines) + " more.\n")
			return
		}
		b.WriteString(lead + r.Action + " (" + r.AskID + ").\n")
	}
}

// gradeFire grades one fire, reading the live record beside its receipt.
func gradeFire(r *record, held personNote) Attempt {
	a := Attempt{Version: r.t.CursorVersion, TransitionID: r.t.ID, Action: r.an.id, Actor: r.t.Actor, Inferred: r.t.Inferred}
	if r.t.Attribution != nil {
		a.Attribution = r.t.Attribution.Basis
	}
	a.Grade, a.Note = grade(r, held)
	if e := r.receipt.Error; held == personWithdrawn && e != nil {
		a.Refused = e.Reason // the code, as data
	}
	var b strings.Builder
	writeFireLine(&b, r, held)
	a.Line = b.String()
	return a
}

func grade(r *record, held personNote) (Grade, string) {
	switch {
	case r.t.Materialized != nil:
		return GradeDidNot, noteNotWired
	case held == personHeld:
		return GradeNotYetKnown, noteHeld
	case held == personWithdrawn:
		return GradeDidNot, noteWithdrawn
	case !r.settled || r.t.Outcome == OutcomePending:
		return GradeNotYetKnown, notePending
	case r.receipt.VerifyHeld == VerifyNotHeld:
		return GradeDidNot, noteVerifyFailed
	case r.t.Outcome == OutcomeRejected:
		return GradeDidNot, noteRejected
	case r.t.Outcome == OutcomeRolledBack:
		return GradeDidNot, noteRolledBack
	case r.t.Outcome == OutcomeSuperseded:
		return GradeNeverObserved, noteSuperseded
	case r.t.EffectVerified == ObservedYes:
		return GradeDid, noteObserved
	case r.t.EffectVerified == ObservedNo:
		return GradeEffectMissing, noteNotObserved
	}
	return GradeUnobservable, noteUnobservable
}

// personNote is what the person's screen says about a fire: nothing,
// held for their answer, or withdrawn before they answered.
type personNote int

const (
	personNone personNote = iota
	personHeld
	personWithdrawn
)

// writeFireLine writes a fire's line of the facts block: library words,
// the actor and the action's graph id only.
func writeFireLine(b *strings.Builder, r *record, held personNote) {
	g, note := grade(r, held)
	b.WriteString("  • ")
	b.WriteString(string(g))
	b.WriteString(" — ")
	b.WriteString(string(r.t.Actor))
	b.WriteString(" fired ")
	b.WriteString(r.an.id)
	b.WriteString(" (")
	b.WriteString(note)
	// Why it did not happen, as a code, when a code says more than the
	// note: a stale view, a disabled tool, a failed handler. The message
	// beside it may be the application's text, so only the code is said.
	if e := r.receipt.Error; g == GradeDidNot && e != nil && e.Reason != "" && e.Reason != ReasonRejected && e.Reason != ReasonVerifyFailed {
		b.WriteString(": ")
		b.WriteString(string(e.Reason))
		if e.Reason == ReasonAppFailed {
			b.WriteString(noteAppFailed)
		}
	}
	if r.t.Inferred {
		switch {
		case r.t.Attribution != nil && r.t.Attribution.Basis == BasisSignature:
			b.WriteString(noteBySignature)
		case r.t.Attribution != nil && r.t.Attribution.Basis == BasisQueue:
			b.WriteString(noteByQueue)
		default:
			b.WriteString(noteInferred)
		}
	}
	b.WriteByte(')')
}

// writeRefusalLine writes a refused fire's line of the facts block.
func (gr *Graph) writeRefusalLine(b *strings.Builder, g *GapRecord) {
	action := unknownActionText
	if _, ok := gr.actionIndex[g.Action]; ok {
		action = g.Action
	}
	b.WriteString("  • ")
	b.WriteString(string(GradeDidNot))
	b.WriteString(" — ")
	b.WriteString(string(normActor(g.Actor)))
	if g.JourneyID != "" {
		journey := ""
		if _, ok := gr.journeyIndex[g.JourneyID]; ok {
			journey = g.JourneyID
		}
		b.WriteString("'s attempt to start ")
		b.WriteString(journey)
		b.WriteString(" was refused: ")
		b.WriteString(string(g.Reason))
		b.WriteString(" (its first step is ")
		b.WriteString(action)
		b.WriteByte(')')
		return
	}
	b.WriteString("'s fire of ")
	b.WriteString(action)
	b.WriteString(" was refused: ")
	b.WriteString(string(g.Reason))
}

// WhyStep is one fire (or report) in a key's causal slice.
type WhyStep struct {
	TransitionID string         `json:"transitionId"`
	Kind         TransitionKind `json:"kind"`
	Action       string         `json:"action,omitempty"`
	Actor        Actor          `json:"principal"`
	Wrote        []string       `json:"wrote"`
	// Via is the key through which this step feeds the one after it (the
	// asked key for the last step).
	Via      string `json:"via"`
	Inferred bool   `json:"inferred,omitempty"`
	Version  int64  `json:"version"`
}

// WhySlice is the causal backward slice of a state key: the commit that
// last wrote it, then, through the keys that fire declared it reads, the
// commits that last wrote those before it, and so on. Steps are oldest
// first. It is data: keys are application strings.
type WhySlice struct {
	Key   string    `json:"key"`
	Known bool      `json:"known"`
	Steps []WhyStep `json:"steps"`
}

// Why answers who produced a state key's current value.
func (v View) Why(key string) WhySlice {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	out := WhySlice{Key: key, Steps: []WhyStep{}}
	type item struct {
		key    string
		before int // commit index bound (exclusive)
	}
	seen := map[int]bool{}
	queue := []item{{key, len(s.ledgers.commits)}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		for i := it.before - 1; i >= 0; i-- {
			c := s.ledgers.commits[i]
			if !slices.Contains(c.keys, it.key) {
				continue
			}
			if seen[i] {
				break
			}
			seen[i] = true
			step := WhyStep{TransitionID: c.rec.t.ID, Kind: c.rec.t.Kind, Actor: c.actor, Wrote: slices.Clone(c.keys), Via: it.key,
				Inferred: c.rec.t.Inferred, Version: c.version}
			if c.rec.an != nil {
				step.Action = c.rec.an.id
				for _, rk := range c.rec.an.reads {
					queue = append(queue, item{rk, i})
				}
			}
			out.Steps = append(out.Steps, step)
			break
		}
	}
	out.Known = len(out.Steps) > 0
	slices.SortFunc(out.Steps, func(a, b WhyStep) int { return int(a.Version - b.Version) })
	return out
}

// gradeRefusal grades one refused fire from the gap ledger.
func (gr *Graph) gradeRefusal(g GapRecord) Attempt {
	a := Attempt{Version: g.Version, Actor: normActor(g.Actor), Grade: GradeDidNot, Refused: g.Reason, Action: unknownActionText}
	if _, ok := gr.actionIndex[g.Action]; ok {
		a.Action = g.Action
	}
	if _, ok := gr.journeyIndex[g.JourneyID]; ok && g.JourneyID != "" {
		a.Journey = g.JourneyID
	}
	var b strings.Builder
	gr.writeRefusalLine(&b, &g)
	a.Line = b.String()
	return a
}

// writeAll writes the parts in order, so no intermediate string is built
// (whose allocation would depend on how long its numbers are).
func writeAll(b *strings.Builder, parts ...string) {
	for _, p := range parts {
		b.WriteString(p)
	}
}
