package fixed

import (
	"context"
	"slices"
	"strings"

	"github.com/foldagent/foldagent/journey"
)

// ---- journeys ----

// journeyRefusal refuses a journey call the port cannot route: no
// journey named, an unknown one, an entry the session refused, an
// unknown step. Journeys lists the scope whats_here serves, never every
// declared id.
type journeyRefusal struct {
	verdict
	Journey                string    `json:"journey,omitempty"`
	Step                   string    `json:"step,omitempty"`
	Why                    string    `json:"why,omitempty"`
	Steps                  []string  `json:"steps,omitempty"`
	Journeys               *[]string `json:"journeys,omitempty"`
	JourneysElsewhere      int       `json:"journeysElsewhere,omitempty"`
	JourneysElsewhereMeans string    `json:"journeysElsewhereMeans,omitempty"`
	position
}

// journeyBlocked refuses a journey whose precondition does not hold now.
type journeyBlocked struct {
	verdict
	Journey          string              `json:"journey"`
	Why              string              `json:"why"`
	Evidence         []journey.Condition `json:"evidence"`
	KeptFrame        string              `json:"keptFrame,omitempty"`
	GuardUnevaluated []string            `json:"guardUnevaluated,omitempty"`
	position
}

// journeyHead opens a journey answer; the frame, and a step's pause or
// fire, are merged into it (their judgment replaces the empty one).
type journeyHead struct {
	OK            bool   `json:"ok"`
	Judgment      string `json:"judgment"`
	Journey       string `json:"journey"`
	Step          string `json:"step,omitempty"`
	NewRound      bool   `json:"newRound,omitempty"`
	NewRoundMeans string `json:"newRoundMeans,omitempty"`
}

func (p *Port) callSingle(ctx context.Context, a callArgs) CallResult {
	id := a.str("journey")
	if id == "" {
		return resultOf(p.scoped(journeyRefusal{verdict: verdict{Judgment: "error", Reason: "JOURNEY_REQUIRED"}, Why: journeyReq}))
	}
	if _, ok := p.s.Graph().Journey(id); !ok {
		return resultOf(p.scoped(journeyRefusal{verdict: verdict{Judgment: "error", Reason: journey.ReasonUnknownJourney}, Journey: id, Why: unknownJourney}))
	}
	return p.callJourney(ctx, id, a)
}

// scoped lists the journeys startable here (plus the open one), the same
// scope whats_here serves, and closes the answer with the position.
func (p *Port) scoped(r journeyRefusal) journeyRefusal {
	h := p.s.View().Here()
	ids := make([]string, len(h.Journeys))
	for i, j := range h.Journeys {
		ids[i] = j.ID
	}
	r.Journeys = &ids
	if h.JourneysElsewhere > 0 {
		r.JourneysElsewhere, r.JourneysElsewhereMeans = h.JourneysElsewhere, elsewhereMeans
	}
	r.position = p.here()
	return r
}

// callJourney answers a journey tool: open the frame (switching from
// another one only when this journey's precondition holds), return the
// frame's ready and later steps, and with step, fire it.
func (p *Port) callJourney(ctx context.Context, id string, a callArgs) CallResult {
	head := journeyHead{OK: true, Journey: id}
	if refused, ok := p.openFrame(id, &head); !ok {
		return refused
	}
	stepArg := a.str("step")
	if stepArg == "" {
		r := resultOf(head)
		p.frameData(&r, id)
		return *p.position(&r)
	}
	info, _ := p.s.Graph().Journey(id)
	step, ok := resolveID(info.Steps, stepArg)
	if !ok {
		return resultOf(journeyRefusal{verdict: verdict{Judgment: "error", Reason: "UNKNOWN_STEP"}, Journey: id, Why: unknownStep, Steps: info.Steps, position: p.here()})
	}
	head.Step = step
	r := resultOf(head)
	fa := a.fire()
	act, _ := p.s.Graph().Action(step)
	f := firing{action: step, info: act, sel: "step"}
	if part, paused := p.gate(ctx, f, fa); paused {
		r.merge(part)
		return *p.position(&r)
	}
	fr := p.fire(ctx, f, fa)
	p.frameData(&r, id)
	r.merge(p.fireAnswer(fr, f))
	if r.String("did") == step {
		// did names the step: the echo of the argument goes.
		r.Delete("step")
	}
	return *p.position(&r)
}

// openFrame makes the journey's frame the open one: it leaves another
// journey's frame only when this one's precondition holds, and commits
// the journey when no frame is open (a new round when its last one came
// to rest completed). It answers the refusal and false when it cannot.
func (p *Port) openFrame(id string, head *journeyHead) (CallResult, bool) {
	if f, open := p.s.View().Frame(); open && f.JourneyID != id {
		for _, j := range p.s.View().AvailableJourneys() {
			if j.ID == id && !j.PreconditionPassed {
				return resultOf(journeyBlocked{verdict: verdict{Judgment: "blocked"}, Journey: id, Why: precondKept, Evidence: j.Evidence, KeptFrame: f.JourneyID, position: p.here()}), false
			}
		}
		p.s.LeaveJourney("switched to another journey")
	}
	if _, open := p.s.View().Frame(); open {
		return CallResult{}, true
	}
	if p.completedLast(id) {
		// The last round of this journey came to rest completed: the
		// frame opened now is a new round, and the answer says so.
		head.NewRound, head.NewRoundMeans = true, newRoundMeans
	}
	cr := p.s.CommitJourney(id, p.source)
	switch {
	case cr.OK:
		return CallResult{}, true
	case cr.Reason == journey.ReasonPreconditionFailed:
		return resultOf(journeyBlocked{verdict: verdict{Judgment: "blocked"}, Journey: id, Why: precondition, Evidence: cr.Evidence,
			GuardUnevaluated: cr.PreconditionUnevaluable, position: p.here()}), false
	}
	r := journeyRefusal{verdict: verdict{Judgment: "error", Reason: cr.Reason}, Journey: id, Step: cr.Action, position: p.here()}
	if cr.Reason == journey.ReasonEntryNotMaterialized {
		r.Why = notMaterialized
	}
	return resultOf(r), false
}

// completedLast reports whether the latest frame of the journey came to
// rest completed.
func (p *Port) completedLast(id string) bool {
	for _, f := range slices.Backward(p.s.View().Frames()) {
		if f.JourneyID == id {
			return f.Status == journey.FrameCompleted
		}
	}
	return false
}

// resolveID matches an exact id, else a unique ".suffix".
func resolveID(ids []string, want string) (string, bool) {
	if slices.Contains(ids, want) {
		return want, true
	}
	match := ""
	for _, id := range ids {
		if strings.HasSuffix(id, "."+want) {
			if match != "" && match != id {
				return "", false
			}
			match = id
		}
	}
	return match, match != ""
}

// frameData describes the open frame: its standing and judgment, the steps
// that can be fired now, and why each of the others waits. When every step
// is done the frame is closed as completed and the judgment is done.
func (p *Port) frameData(r *CallResult, id string) {
	// The answer reads the plan, the frames, the standing and the keys
	// changed under the model from one state of the session.
	seen := p.looks.last()
	fl := p.s.View().FrameLook(id, seen >= 0, seen, p.source)
	if fl.PlanErr != nil {
		return
	}
	open := fl.Open
	if open && fl.Frame.JourneyID == id && allDone(fl.Plan) {
		p.s.LeaveJourney("completed")
		// Read again after the answer's own write: the closed frame is
		// answered from the state that holds it closed.
		fl = p.s.View().FrameLook(id, false, 0, p.source)
		open = false
	}
	standing := string(fl.Standing)
	if !open || fl.Frame.JourneyID != id {
		p.closedFrame(r, id, standing, fl.Frames)
		return
	}
	var rows frameRows
	rows.refusedCode = p.refusedCode
	for _, st := range fl.Plan.Steps {
		rows.add(st, fl.Changed)
		if st.PendingFire == "" {
			continue
		}
		if info, _ := p.s.Graph().Action(st.Step); p.withPerson(info, st.PendingFire) {
			rows.withPerson = true
		}
	}
	r.merge(rows.open(standing))
}

func allDone(plan journey.Plan) bool {
	for _, st := range plan.Steps {
		if st.Status != journey.StepDone && st.Status != journey.StepInferredDone {
			return false
		}
	}
	return true
}

// closedPart answers a journey with no open frame: how its last round
// ended (completed, demoted) and how to go on.
type closedPart struct {
	Frame     journey.FrameStatus `json:"frame"`
	Judgment  string              `json:"judgment"`
	HowToAct  string              `json:"howToAct,omitempty"`
	StartWith string              `json:"startWith,omitempty"`
	Why       string              `json:"why,omitempty"`
	Standing  string              `json:"standing"`
}

func (p *Port) closedFrame(r *CallResult, id, standing string, frames []journey.FrameInfo) {
	status := journey.FrameCompleted
	for _, fr := range slices.Backward(frames) {
		if fr.JourneyID == id {
			status = fr.Status
			break
		}
	}
	c := closedPart{Frame: status, Judgment: "navigate-or-wait", Standing: standing}
	switch status {
	case journey.FrameCompleted:
		c.Judgment, c.HowToAct = "done", doneHow
		if info, ok := p.s.Graph().Journey(id); ok && len(info.Steps) > 0 {
			c.StartWith = info.Steps[0]
		}
	case journey.FrameDemoted:
		c.Judgment, c.Why = "blocked", demoted
	}
	r.merge(c)
}

// frameRows sorts an open frame's plan steps into the rows a journey
// answer serves: ready, later, the person's, and the cards awaiting them.
type frameRows struct {
	ready         []readyRow
	later         []laterRow
	human         []humanRow
	awaitingHuman []askRow
	readyRejected int
	awaitingState []string
	// withPerson: a pending step waits for the person's answer on their
	// screen, not for the app.
	withPerson bool
	// done counts the steps done with no row of their own (plainDone).
	done     int
	rejected bool
	stale    bool
	// refusedCode is the reason code a refused fire came to rest with.
	refusedCode func(transitionID string) journey.Reason
}

// refusedCode is the reason code the fire came to rest refused with, if
// it did and gave one.
func (p *Port) refusedCode(transitionID string) journey.Reason {
	st, settled, err := p.s.View().SettlementIfKnown(transitionID)
	if err != nil || !settled || st.Error == nil {
		return ""
	}
	return st.Error.Reason
}

// askRow is a ready step whose card awaits the person.
type askRow struct {
	AskID string `json:"askId"`
	Step  string `json:"step"`
}

// humanRow is the person's step: presented, never offered as ready.
type humanRow struct {
	Step          string        `json:"step"`
	Does          string        `json:"does"`
	AwaitingHuman bool          `json:"awaitingHuman"`
	HumanDecides  bool          `json:"humanDecides,omitempty"`
	Made          *journey.Made `json:"made,omitempty"`
	MayInvoke     []string      `json:"mayInvoke,omitempty"`
	About         string        `json:"about,omitempty"`
}

// readyRow is a step that can be fired now.
type readyRow struct {
	Step             string   `json:"step"`
	Does             string   `json:"does"`
	GoesTo           string   `json:"goesTo,omitempty"`
	HighEffect       bool     `json:"highEffect,omitempty"`
	PersonApproves   bool     `json:"personApproves,omitempty"`
	GuardUnevaluated []string `json:"guardUnevaluated,omitempty"`
	Materialized     *bool    `json:"materialized,omitempty"`
	Busy             string   `json:"busy,omitempty"`
	Instances        []string `json:"instances,omitempty"`
	Expects          rawJSON  `json:"expects,omitempty"`
	LastFireRejected string   `json:"lastFireRejected,omitempty"`
	// LastFireRejectedReason is the app's reason code for that refusal.
	LastFireRejectedReason journey.Reason `json:"lastFireRejectedReason,omitempty"`
	StaleReads             []string       `json:"staleReads,omitempty"`
	StaleWrites            []string       `json:"staleWrites,omitempty"`
}

// laterRow is a step that cannot be fired now, and why it waits.
type laterRow struct {
	Step               string             `json:"step"`
	Status             journey.StepStatus `json:"status"`
	On                 *[]string          `json:"on,omitempty"`
	BlockedOn          []string           `json:"blockedOn,omitempty"`
	PriorFireUnsettled string             `json:"priorFireUnsettled,omitempty"`
	// PriorTransitionID: a once-only step done, why it is not offered
	// again; PriorInstance: done for another round's instance, not here.
	PriorTransitionID      string             `json:"priorTransitionId,omitempty"`
	PriorInstance          string             `json:"priorInstance,omitempty"`
	PriorInstanceMeans     string             `json:"priorInstanceMeans,omitempty"`
	LastFireRejected       string             `json:"lastFireRejected,omitempty"`
	LastFireRejectedReason journey.Reason     `json:"lastFireRejectedReason,omitempty"`
	Enabled                *bool              `json:"enabled,omitempty"`
	BlockedBecause         *journey.Blocked   `json:"blockedBecause,omitempty"`
	UnblockedBy            []journey.Unblock  `json:"unblockedBy,omitempty"`
	Busy                   string             `json:"busy,omitempty"`
	Activation             journey.Activation `json:"activation,omitempty"`
	Overlay                string             `json:"overlay,omitempty"`
}

func (f *frameRows) add(st journey.PlanStep, changed []string) {
	if st.PendingFire != "" {
		f.awaitingState = append(f.awaitingState, st.Step)
	}
	fireable := st.Fireable()
	switch {
	case fireable && st.OpenAsk != "":
		f.awaitingHuman = append(f.awaitingHuman, askRow{AskID: st.OpenAsk, Step: st.Step})
	case st.Status == journey.StepReady && st.PendingFire == "" && st.AwaitingHuman:
		f.human = append(f.human, humanRowOf(st))
	case fireable:
		row := readyRowOf(st, changed)
		if row.LastFireRejected != "" {
			row.LastFireRejectedReason = f.reason(row.LastFireRejected)
			f.rejected = true
			f.readyRejected++
		}
		f.stale = f.stale || len(row.StaleReads)+len(row.StaleWrites) > 0
		f.ready = append(f.ready, row)
	case plainDone(st):
		// A step done and nothing more to say about it is counted, not
		// listed: its own answer said it was done.
		f.done++
	default:
		row := laterRowOf(st)
		if row.LastFireRejected != "" {
			row.LastFireRejectedReason = f.reason(row.LastFireRejected)
		}
		f.rejected = f.rejected || row.LastFireRejected != ""
		f.later = append(f.later, row)
	}
}

// plainDone reports a step done by a fire whose row would say only
// that: no once-only fire, earlier round or refusal to name. A step
// inferred done (the state says so, nobody fired it here) keeps its row.
func plainDone(st journey.PlanStep) bool {
	return st.Status == journey.StepDone && st.PendingFire == "" &&
		st.PriorTransitionID == "" && st.LastRejected == ""
}

func (f *frameRows) reason(transitionID string) journey.Reason {
	if f.refusedCode == nil {
		return ""
	}
	return f.refusedCode(transitionID)
}

func humanRowOf(st journey.PlanStep) humanRow {
	row := humanRow{Step: st.Step, Does: st.Does, AwaitingHuman: true, MayInvoke: st.MayInvoke, About: st.About}
	if st.HumanDecides {
		made := st.Made
		row.HumanDecides, row.Made = true, &made
	}
	return row
}

func readyRowOf(st journey.PlanStep, changed []string) readyRow {
	row := readyRow{Step: st.Step, Does: st.Does, GoesTo: st.GoesTo, HighEffect: st.HighEffect, PersonApproves: st.PersonApproves, GuardUnevaluated: st.GuardUnevaluated,
		Busy: st.Busy, Instances: st.Instances, Expects: rawJSON(st.Expects), LastFireRejected: st.LastRejected}
	if st.Materialized != nil {
		row.Materialized = no()
	}
	row.StaleReads, row.StaleWrites = staleFor(changed, st.Reads, st.Writes)
	return row
}

func laterRowOf(st journey.PlanStep) laterRow {
	row := laterRow{Step: st.Step, Status: st.Status, BlockedOn: st.BlockedOn, PriorFireUnsettled: st.PendingFire,
		PriorTransitionID: st.PriorTransitionID, BlockedBecause: st.BlockedBecause, UnblockedBy: st.UnblockedBy, Busy: st.Busy,
		Activation: st.Activation, Overlay: st.Overlay}
	if st.Status == journey.StepOffNode {
		on := st.OnNodes
		row.On = &on
	}
	if st.PriorTransitionID != "" && st.PriorInstance != "" {
		row.PriorInstance, row.PriorInstanceMeans = st.PriorInstance, priorInstanceMeans
	}
	if st.PendingFire == "" {
		row.LastFireRejected = st.LastRejected
	}
	if st.Enabled != nil {
		row.Enabled = no()
	}
	return row
}

// openPart is an open frame: its standing and judgment, the rows, and
// the sentences they call for.
type openPart struct {
	Frame                 journey.FrameStatus `json:"frame"`
	Standing              string              `json:"standing"`
	Judgment              string              `json:"judgment"`
	AwaitingState         []string            `json:"awaitingState,omitempty"`
	StateReported         *bool               `json:"stateReported,omitempty"`
	StateMeans            string              `json:"stateMeans,omitempty"`
	AwaitingHuman         []askRow            `json:"awaitingHuman,omitempty"`
	WithTheHuman          []humanRow          `json:"withTheHuman,omitempty"`
	WithTheHumanMeans     string              `json:"withTheHumanMeans,omitempty"`
	ReadySteps            []readyRow          `json:"readySteps"`
	LaterSteps            []laterRow          `json:"laterSteps"`
	StepsDone             int                 `json:"stepsDone,omitempty"`
	LastFireRejectedMeans string              `json:"lastFireRejectedMeans,omitempty"`
	StaleMeans            string              `json:"staleMeans,omitempty"`
	HowToAct              string              `json:"howToAct"`
}

func (f *frameRows) open(standing string) openPart {
	r := openPart{Frame: journey.FrameOpen, Standing: standing, Judgment: countJudgment(len(f.ready)), AwaitingHuman: f.awaitingHuman,
		WithTheHuman: f.human, ReadySteps: f.ready, LaterSteps: f.later, StepsDone: f.done}
	if r.ReadySteps == nil {
		r.ReadySteps = []readyRow{}
	}
	if r.LaterSteps == nil {
		r.LaterSteps = []laterRow{}
	}
	if len(f.awaitingState) > 0 {
		// The steps below were read before the app reported what these
		// fires changed: say so rather than present them as settled.
		r.AwaitingState, r.StateReported, r.StateMeans = f.awaitingState, no(), stateNotReported
	}
	if len(f.human) > 0 {
		r.WithTheHumanMeans = withHumanMeans
	}
	if f.rejected {
		r.LastFireRejectedMeans = lastRejected
	}
	if f.stale {
		r.StaleMeans = staleMeans
	}
	switch {
	case len(f.ready) > 0 && f.readyRejected == len(f.ready):
		// Every step offered was refused by the app the last time: not
		// an invitation to fire it again.
		r.HowToAct = readyRejectedHow
	case len(f.ready) > 0:
		r.HowToAct = readyHow
	case len(f.awaitingState) > 0 && f.withPerson:
		r.HowToAct = personWaitHow
	case len(f.awaitingState) > 0:
		r.HowToAct = waitHow
	case len(f.human) > 0:
		r.HowToAct = humanHow
	default:
		r.HowToAct = noReadyHow
	}
	return r
}

// frameKeys are the keys frameData writes, so that a re-read replaces
// every one of them (and drops those the fresh frame no longer has).
var frameKeys = []string{"frame", "standing", "judgment", "awaitingState", "stateReported", "stateMeans",
	"awaitingHuman", "withTheHuman", "withTheHumanMeans", "readySteps", "laterSteps", "laterStepsUnchanged", "laterStepsUnchangedMeans", "stepsDone", "lastFireRejectedMeans", "staleMeans", "howToAct", "frameSameMeans"}
