package journey

import (
	"encoding/json"
	"slices"
	"time"
)

// FrameStatus is the state of a journey frame.
type FrameStatus string

// The frame statuses.
const (
	FrameOpen      FrameStatus = "open"
	FrameCompleted FrameStatus = "completed"
	FrameCancelled FrameStatus = "cancelled"
	// FrameDemoted: a world change broke the journey's precondition while
	// its frame was open.
	FrameDemoted FrameStatus = "demoted"
)

type frame struct {
	jn            *journeyNode
	status        FrameStatus
	openSeq       int64
	openedVersion int64
	closedVersion int64
	actor         Actor
	reason        string
	opened        time.Time
}

// FrameInfo describes a journey frame. Reason is the caller's note on
// leaving (runtime data).
type FrameInfo struct {
	JourneyID       string      `json:"journeyId"`
	Status          FrameStatus `json:"status"`
	Actor           Actor       `json:"principal"`
	OpenedAtVersion int64       `json:"openedAtVersion"`
	ClosedAtVersion int64       `json:"closedAtVersion,omitempty"`
	Reason          string      `json:"reason,omitempty"`
	Opened          time.Time   `json:"opened"`
}

func (f *frame) info() FrameInfo {
	return FrameInfo{JourneyID: f.jn.id, Status: f.status, Actor: f.actor, OpenedAtVersion: f.openedVersion,
		ClosedAtVersion: f.closedVersion, Reason: f.reason, Opened: f.opened}
}

// StepStatus is a plan step's status.
type StepStatus string

// The step statuses. Done and inferred-done count only while a frame for
// the journey is open.
const (
	StepDone         StepStatus = "done"
	StepInferredDone StepStatus = "inferred-done"
	StepReady        StepStatus = "ready"
	StepBlocked      StepStatus = "blocked"
	StepOffNode      StepStatus = "off-node"
)

// PlanStep is one step of a journey plan, with the live control state a
// serving port needs to sort it into ready and later steps.
type PlanStep struct {
	Step   string     `json:"step"`
	Does   string     `json:"does"`
	Status StepStatus `json:"status"`
	// DependsOn lists the steps whose declared writes feed this step's
	// guard (derived, never authored).
	DependsOn        []string `json:"dependsOn"`
	OnNodes          []string `json:"onNodes"`
	BlockedOn        []string `json:"blockedOn,omitempty"`
	GuardUnevaluated []string `json:"guardUnevaluated,omitempty"`
	GoesTo           string   `json:"goesTo,omitempty"`
	HighEffect       bool     `json:"highEffect,omitempty"`
	PersonApproves   bool     `json:"personApproves,omitempty"`
	// Enabled is present, and false, while the control is switched off.
	Enabled        *bool     `json:"enabled,omitempty"`
	BlockedBecause *Blocked  `json:"blockedBecause,omitempty"`
	UnblockedBy    []Unblock `json:"unblockedBy,omitempty"`
	Busy           string    `json:"busy,omitempty"`
	// Materialized is present, and false, when nothing is bound to run it.
	Materialized *bool           `json:"materialized,omitempty"`
	Expects      json.RawMessage `json:"expects,omitempty"`
	Instances    []string        `json:"instances,omitempty"`
	// PendingFire is the latest fire of this step not yet at rest.
	PendingFire string `json:"pendingFire,omitempty"`
	// PriorTransitionID is the settled fire of a once-only step that
	// leaves nothing of it to fire (see ServedAction.PriorTransitionID).
	// Inside the journey's open frame such a step is done; outside one it
	// keeps its status and is not fireable.
	PriorTransitionID string `json:"priorTransitionId,omitempty"`
	// PriorInstance is the instance PriorTransitionID acted on, for a
	// once-only step per instance whose settled fire came before the open
	// frame: another instance's, so this frame does not count it done.
	PriorInstance string `json:"priorInstance,omitempty"`
	// LastRejected is the step's latest fire when it came to rest refused,
	// rejected or rolled back: the app said no the last time.
	LastRejected string `json:"lastRejected,omitempty"`
	// OpenAsk is an unanswered ask for this step's action.
	OpenAsk string `json:"openAsk,omitempty"`
	// HumanDecides, MayInvoke, AwaitingHuman, Made and About describe a
	// step that is the person's to take (see ServedAction).
	HumanDecides  bool     `json:"humanDecides,omitempty"`
	MayInvoke     []string `json:"mayInvoke,omitempty"`
	AwaitingHuman bool     `json:"awaitingHuman,omitempty"`
	Made          Made     `json:"made,omitempty"`
	About         string   `json:"about,omitempty"`
	// Activation and Overlay: the step's control is on a hidden tab or
	// in a closed modal, or masked by a blocking modal (see ServedAction).
	Activation Activation `json:"activation,omitempty"`
	Overlay    string     `json:"overlay,omitempty"`
	// Reads and Writes are the step's declared state keys.
	Reads  []string `json:"reads,omitempty"`
	Writes []string `json:"writes,omitempty"`
}

// Fireable reports whether the model may take the step now: ready, no
// fire of it pending, clickable, not the person's to take, and not a
// once-only action already done.
func (st PlanStep) Fireable() bool {
	return st.Status == StepReady && st.PendingFire == "" && st.Enabled == nil && st.Activation != ActivationHidden &&
		st.Overlay == "" && !st.AwaitingHuman && agentMay(st.MayInvoke) && st.PriorTransitionID == ""
}

// Plan is a journey's steps evaluated at the cursor.
type Plan struct {
	JourneyID   string     `json:"journeyId"`
	Description string     `json:"description"`
	Steps       []PlanStep `json:"steps"`
	// FrameOpen is true when these statuses are read inside an open frame.
	FrameOpen bool `json:"frameOpen"`
}

// unknownJourney refuses a journey id the graph does not declare.
func (g *Graph) unknownJourney(id string) error {
	known := make([]string, len(g.journeys))
	for i, jn := range g.journeys {
		known[i] = jn.id
	}
	return &Error{Reason: ReasonUnknownJourney, Msg: "the graph declares no journey with that id", Value: id, Known: known}
}

// Plan evaluates a journey at the cursor. It fails with an *Error
// (UNKNOWN_JOURNEY, listing the known ids) for an undeclared id.
func (v View) Plan(journeyID string) (Plan, error) {
	s := &v.s.st
	v.s.lock()
	defer v.s.mu.Unlock()
	jn, ok := s.g.journeyIndex[journeyID]
	if !ok {
		return Plan{}, s.g.unknownJourney(journeyID)
	}
	return look{s}.plan(jn), nil
}

// openFor is the journey's frame when it is the open one, else nil.
func (f *frameBook) openFor(jn *journeyNode) *frame {
	if f.open != nil && f.open.jn == jn {
		return f.open
	}
	return nil
}

func (l look) plan(jn *journeyNode) Plan {
	s := l.s
	f := s.frameBook.openFor(jn)
	p := Plan{JourneyID: jn.id, Description: jn.does, Steps: make([]PlanStep, len(jn.steps)), FrameOpen: f != nil}
	occurrence := map[*actionNode]int{}
	for i, an := range jn.steps {
		occurrence[an]++
		st := PlanStep{Step: an.id, Does: an.does, DependsOn: slices.Clone(jn.deps[i]), OnNodes: slices.Clone(an.onIDs), GoesTo: an.goToID,
			HighEffect: an.highEffect, PersonApproves: an.personApproves, Expects: an.input.expectsJSON()}
		pass, unev := evalQuick(an.guard, s.state)
		st.GuardUnevaluated = unev
		if an.conc.Once {
			var keys []string
			if an.repeat != nil {
				keys, _ = s.instances(an)
			}
			_, st.PriorTransitionID = s.ledgers.onceHeld(an, keys)
			if st.PriorTransitionID != "" && an.conc.PerInstance && f != nil {
				// Per instance, a fire settled before this frame opened,
				// with steps before it still to do in this frame, was
				// another round's (the order paid last time): it leaves
				// nothing to fire now, but it is not this frame's step
				// done.
				if r := s.ledgers.fireByID(an, st.PriorTransitionID); r != nil && r.seq <= f.openSeq && !priorStepsDone(p.Steps[:i]) {
					st.PriorInstance = r.t.Instance
				}
			}
		}
		switch {
		case f != nil && s.ledgers.committedSince(an, f.openSeq) >= occurrence[an]:
			st.Status = StepDone
		case f != nil && s.ledgers.inferred(an, f.openSeq):
			st.Status = StepInferredDone
		case f != nil && an.decides != nil && madeIn(an, s.state) == MadeYes:
			// The person's decision is made (its DoneWhen holds), in this
			// frame or before it: nothing here waits for it.
			st.Status = StepInferredDone
		case f != nil && st.PriorTransitionID != "" && st.PriorInstance == "":
			// Done once and for good, whenever it was: it cannot be done
			// again, so it is nothing this frame still waits for.
			st.Status = StepDone
		case s.page < 0 || !slices.Contains(an.on, s.page):
			st.Status = StepOffNode
		case !pass:
			st.Status = StepBlocked
			st.BlockedOn = failingKeys(an.guard, s.state)
		default:
			st.Status = StepReady
		}
		if st.Status == StepReady || st.Status == StepBlocked {
			row, _ := look{s}.row(an, unev) // a plan step carries no holds
			st.Enabled, st.BlockedBecause, st.UnblockedBy, st.Busy, st.Materialized, st.Instances = row.Enabled, row.BlockedBecause, row.UnblockedBy, row.Busy, row.Materialized, row.Instances
			st.Activation, st.Overlay = row.Activation, row.Overlay
		}
		st.HumanDecides, st.AwaitingHuman = an.decides != nil, awaitingHumanIn(an, s.state)
		if an.decides != nil {
			st.Made, st.About = madeIn(an, s.state), an.decides.About
		}
		if len(an.policy.MayInvoke) > 0 {
			st.MayInvoke = wireActors(an.policy.MayInvoke)
		}
		st.Reads, st.Writes = slices.Clone(an.reads), slices.Clone(an.writes)
		if u := s.ledgers.unsettled[an.idx]; len(u) > 0 {
			st.PendingFire = u[len(u)-1].t.ID
		}
		if last := s.ledgers.latestFire(an); last != nil && last.refused() {
			st.LastRejected = last.t.ID
		}
		st.OpenAsk = s.askBook.openAskID(an)
		p.Steps[i] = st
	}
	return p
}

// priorStepsDone: every step before this one in the plan is done
// in the open frame (so a once-only instance done before it opened is
// this round's too: nothing earlier makes a new one).
func priorStepsDone(before []PlanStep) bool {
	for _, st := range before {
		if st.Status != StepDone && st.Status != StepInferredDone {
			return false
		}
	}
	return true
}

// CommitResult is the answer of CommitJourney.
type CommitResult struct {
	OK     bool   `json:"ok"`
	Reason Reason `json:"reason,omitempty"`
	// JourneyID is the journey asked about (or, on FRAME_ALREADY_OPEN, the
	// journey whose frame is open).
	JourneyID               string      `json:"journeyId,omitempty"`
	Known                   []string    `json:"known,omitempty"`
	Evidence                []Condition `json:"evidence,omitempty"`
	PreconditionUnevaluable []string    `json:"preconditionUnevaluable,omitempty"`
	// Action is the first step that nothing is bound to
	// (ENTRY_NOT_MATERIALIZED).
	Action  string     `json:"affordanceId,omitempty"`
	Frame   *FrameInfo `json:"frame,omitempty"`
	Plan    *Plan      `json:"plan,omitempty"`
	Version int64      `json:"version"`
}

// CommitJourney opens a frame for a journey. One frame is open at a time.
// It is refused with UNKNOWN_JOURNEY, FRAME_ALREADY_OPEN,
// PRECONDITION_FAILED (an evaluable precondition condition fails), or
// ENTRY_NOT_MATERIALIZED: an agent commit whose first step is offered on
// this page with nothing bound to run it (unless unmaterialized fires are
// allowed); that refusal writes a gap row naming the journey.
func (s *Session) CommitJourney(journeyID string, source Actor) CommitResult {
	s.lock()
	defer s.unlock()
	return s.st.commitJourney(journeyID, source)
}

// commitJourney applies CommitJourney to the fold.
func (s *fold) commitJourney(journeyID string, source Actor) CommitResult {
	src := normActor(source)
	jn, ok := s.g.journeyIndex[journeyID]
	if !ok {
		err := s.g.unknownJourney(journeyID).(*Error)
		return CommitResult{Reason: ReasonUnknownJourney, Known: err.Known, Version: s.version}
	}
	if s.frameBook.open != nil {
		return CommitResult{Reason: ReasonFrameAlreadyOpen, JourneyID: s.frameBook.open.jn.id, Version: s.version}
	}
	if jn.when != nil {
		pass, ev, unev := evalFull(jn.when, s.state, s.redacted)
		if !pass {
			return CommitResult{Reason: ReasonPreconditionFailed, JourneyID: jn.id, Evidence: ev, PreconditionUnevaluable: unev, Version: s.version}
		}
	}
	first := jn.steps[0]
	if src == ActorAgent && !s.opts.AllowUnmaterializedFires && s.page >= 0 && slices.Contains(first.on, s.page) {
		if h, _, _, _ := s.bindings.control(first); h == nil {
			s.gap(GapRecord{Kind: GapFireRejected, Reason: ReasonEntryNotMaterialized, Actor: src, Action: first.id, Does: first.does, JourneyID: jn.id})
			return CommitResult{Reason: ReasonEntryNotMaterialized, JourneyID: jn.id, Action: first.id, Version: s.version}
		}
	}
	s.version++
	f := &frame{jn: jn, status: FrameOpen, openSeq: s.seq, openedVersion: s.version, actor: src, opened: s.now()}
	s.frameBook.open = f
	s.frameBook.add(f, s.ledgers.keep.Closed)
	fi := f.info()
	plan := look{s}.plan(jn)
	return CommitResult{OK: true, JourneyID: jn.id, Frame: &fi, Plan: &plan, Version: s.version}
}

// LeaveJourney closes the open frame: completed when every step is done
// or inferred done, cancelled otherwise. reason is the caller's note. It
// reports false when no frame is open.
func (s *Session) LeaveJourney(reason string) (FrameInfo, bool) {
	s.lock()
	defer s.unlock()
	return s.st.leaveJourney(reason)
}

// leaveJourney applies LeaveJourney to the fold.
func (s *fold) leaveJourney(reason string) (FrameInfo, bool) {
	f := s.frameBook.open
	if f == nil {
		return FrameInfo{}, false
	}
	status := FrameCompleted
	for _, st := range (look{s}).plan(f.jn).Steps {
		if st.Status != StepDone && st.Status != StepInferredDone {
			status = FrameCancelled
			break
		}
	}
	s.version++
	f.status, f.reason, f.closedVersion = status, reason, s.version
	s.frameBook.open = nil
	return f.info(), true
}

func (s *fold) checkDemotion() {
	f := s.frameBook.open
	if f == nil || f.jn.when == nil {
		return
	}
	if pass, _ := evalQuick(f.jn.when, s.state); !pass {
		f.status, f.closedVersion = FrameDemoted, s.version
		s.frameBook.open = nil
	}
}

// Frame returns the open frame, if any.
func (v View) Frame() (FrameInfo, bool) {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	return look{s}.frame()
}

func (l look) frame() (FrameInfo, bool) {
	if l.s.frameBook.open == nil {
		return FrameInfo{}, false
	}
	return l.s.frameBook.open.info(), true
}

// Frames lists the frames the session holds, oldest first: the open one,
// each journey's newest, and the most recent closed ones within the
// Retention.
func (v View) Frames() []FrameInfo {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	return look{s}.frames()
}

func (l look) frames() []FrameInfo {
	s := l.s
	out := make([]FrameInfo, len(s.frameBook.frames))
	for i, f := range s.frameBook.frames {
		out[i] = f.info()
	}
	return out
}

// Standing is a journey's standing word.
type Standing string

// The standings. Failed is minted only from a fire that came to rest
// badly, never from a pause or a refusal.
const (
	StandingDone          Standing = "done"
	StandingInProgress    Standing = "in-progress"
	StandingAwaitingHuman Standing = "awaiting-human"
	StandingWithTheHuman  Standing = "with-the-human"
	StandingBlocked       Standing = "blocked"
	StandingFailed        Standing = "failed"
	StandingDeclined      Standing = "declined"
	// StandingNotStarted: no frame was ever opened for the journey, so
	// nothing of it has happened.
	StandingNotStarted Standing = "not-started"
)

// StandingReport is a journey's standing with its evidence.
type StandingReport struct {
	JourneyID        string   `json:"journeyId"`
	Standing         Standing `json:"standing"`
	Step             string   `json:"step,omitempty"`
	AskID            string   `json:"askId,omitempty"`
	BlockedOn        []string `json:"blockedOn,omitempty"`
	GuardUnevaluated []string `json:"guardUnevaluated,omitempty"`
	TransitionID     string   `json:"transitionId,omitempty"`
	StepsDone        int      `json:"stepsDone"`
	StepsTotal       int      `json:"stepsTotal"`
}

// Standing folds the plan, the asks, the settlements and the frames into
// one word: not-started (no frame was ever opened for it), done (a frame
// completed, or every step done in the open frame), failed (a step's fire in the open frame came to rest badly),
// declined (a step's card was declined), awaiting-human (a step's card is
// open), with-the-human (the only steps that can move now are the
// person's: their decision, or human-only), blocked (a failing
// precondition, or no step can move), else in-progress.
func (v View) Standing(journeyID string) (StandingReport, error) {
	s := &v.s.st
	v.s.lock()
	defer v.s.mu.Unlock()
	jn, ok := s.g.journeyIndex[journeyID]
	if !ok {
		return StandingReport{}, s.g.unknownJourney(journeyID)
	}
	return look{s}.standing(jn), nil
}

func (l look) standing(jn *journeyNode) StandingReport {
	s := l.s
	plan := look{s}.plan(jn)
	js := StandingReport{JourneyID: jn.id, StepsTotal: len(plan.Steps)}
	for _, st := range plan.Steps {
		if st.Status == StepDone || st.Status == StepInferredDone {
			js.StepsDone++
		}
	}
	j := standingJudge{s: s, jn: jn, js: js}
	f := s.frameBook.openFor(jn)
	switch {
	case f == nil:
		j.unframed()
	case js.StepsDone == js.StepsTotal:
		j.js.Standing = StandingDone
	case j.failed(f), j.asked(f):
	default:
		j.moves(plan)
	}
	return j.js
}

// standingJudge works out one journey's standing, rule by rule, under the
// session's lock; the first rule that decides writes js.
type standingJudge struct {
	s  *fold
	jn *journeyNode
	js StandingReport
}

// unframed: no open frame. Done if the last round completed, blocked by
// a failing precondition, else in progress (a round was opened before)
// or not started.
func (j *standingJudge) unframed() {
	s, jn, js := j.s, j.jn, &j.js
	opened := false
	if last := s.frameBook.latest(jn); last != nil {
		opened = true
		if last.status == FrameCompleted {
			js.Standing = StandingDone
			js.StepsDone = js.StepsTotal
			return
		}
	}
	if jn.when != nil {
		if pass, unev := evalQuick(jn.when, s.state); !pass {
			js.Standing, js.BlockedOn, js.GuardUnevaluated = StandingBlocked, failingKeys(jn.when, s.state), unev
			return
		}
	}
	js.Standing = StandingInProgress
	if !opened {
		js.Standing = StandingNotStarted
	}
}

// failed: a step's latest fire in the frame came to rest badly.
func (j *standingJudge) failed(f *frame) bool {
	for _, an := range j.jn.steps {
		r := j.s.ledgers.lastFire[an.idx]
		if r == nil || r.seq <= f.openSeq {
			continue
		}
		if r.t.Outcome == OutcomeRejected || r.t.Outcome == OutcomeRolledBack || (r.settled && r.receipt.EffectStatus == EffectRefused) {
			j.js.Standing, j.js.Step, j.js.TransitionID = StandingFailed, an.id, r.t.ID
			return true
		}
	}
	return false
}

// asked: a step's card in the frame, newer than its last fire, was
// declined or is still open.
func (j *standingJudge) asked(f *frame) bool {
	s := j.s
	for _, an := range j.jn.steps {
		var lastFire int64 = -1
		if r := s.ledgers.lastFire[an.idx]; r != nil {
			lastFire = r.seq
		}
		for i := len(s.askBook.asks) - 1; i >= 0; i-- {
			a := s.askBook.asks[i]
			if a.an != an || a.superseded || a.spent {
				continue
			}
			if a.seq < lastFire || a.seq < f.openSeq {
				break // a later fire of the step, or an ask from before the frame, answers nothing now
			}
			if a.answer == answerDeclined {
				j.js.Standing, j.js.Step, j.js.AskID = StandingDeclined, an.id, a.id
				return true
			}
			if a.answer == answerOpen {
				j.js.Standing, j.js.Step, j.js.AskID = StandingAwaitingHuman, an.id, a.id
				return true
			}
			break
		}
	}
	return false
}

// moves: in progress while the model has a move; else the person's move
// (with the human), else the first blocked step.
func (j *standingJudge) moves(plan Plan) {
	js := &j.js
	movable, human := false, ""
	for _, st := range plan.Steps {
		if st.PendingFire != "" || (st.Status == StepReady && !st.AwaitingHuman && agentMay(st.MayInvoke) && st.Activation != ActivationHidden && st.Overlay == "") {
			movable = true
			break
		}
		if st.Status == StepReady && st.AwaitingHuman && human == "" {
			human = st.Step
		}
	}
	if !movable && human != "" {
		// Nothing the model can take: the next move is the person's.
		js.Standing, js.Step = StandingWithTheHuman, human
		return
	}
	if !movable {
		for _, st := range plan.Steps {
			if st.Status == StepBlocked {
				js.Standing, js.Step, js.BlockedOn, js.GuardUnevaluated = StandingBlocked, st.Step, st.BlockedOn, st.GuardUnevaluated
				return
			}
		}
	}
	js.Standing = StandingInProgress
}

// RouteStep is one declared hop: fire Action to get to To.
type RouteStep struct {
	Action string `json:"action"`
	To     string `json:"to"`
}

// HowToReach finds the fewest declared hops (actions whose GoTo claims a
// page) from the cursor to a page, ties broken in declaration order. It
// returns an empty route when already there and reachable=false when no
// declared route exists (including from off the graph). An undeclared
// page id is an *Error (UNKNOWN_PAGE).
func (v View) HowToReach(page string) (route []RouteStep, reachable bool, err error) {
	s := &v.s.st
	target, err := s.g.pageTarget(page)
	if err != nil {
		return nil, false, err
	}
	v.s.mu.Lock()
	from := s.page
	v.s.mu.Unlock()
	route, reachable = s.g.route(from, target)
	return route, reachable, nil
}

// pageTarget is the index of a page HowToReach is asked for, or its
// UNKNOWN_PAGE error.
func (g *Graph) pageTarget(page string) (int, error) {
	target, ok := g.pageIndex[page]
	if !ok {
		known := make([]string, len(g.pages))
		for i, p := range g.pages {
			known[i] = p.id
		}
		return -1, &Error{Reason: ReasonUnknownPage, Msg: "the graph declares no such page", Value: page, Known: known}
	}
	return target, nil
}

// route is HowToReach from one page to another (from < 0: off the graph).
func (g *Graph) route(from, target int) (route []RouteStep, reachable bool) {
	if from < 0 {
		return nil, false
	}
	if from == target {
		return []RouteStep{}, true
	}
	prev := make([]*actionNode, len(g.pages))
	prevPage := make([]int, len(g.pages))
	seen := make([]bool, len(g.pages))
	seen[from] = true
	queue := []int{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, an := range g.hops[p] {
			q := an.goTo
			if seen[q] {
				continue
			}
			seen[q], prev[q], prevPage[q] = true, an, p
			if q == target {
				var out []RouteStep
				for at := q; at != from; at = prevPage[at] {
					out = append(out, RouteStep{Action: prev[at].id, To: g.pages[at].id})
				}
				slices.Reverse(out)
				return out, true
			}
			queue = append(queue, q)
		}
	}
	return nil, false
}

// UnblockVia is one answer of WhatUnblocks: an action and the failing
// keys its declared writes touch.
type UnblockVia struct {
	Action  string   `json:"affordanceId"`
	ViaKeys []string `json:"viaKeys"`
}

// WhatUnblocks lists the actions whose declared writes touch a currently
// failing condition of the action's guard or enabledWhen, in declaration
// order. It never names the action itself. An undeclared id is an *Error
// (UNKNOWN_ACTION).
func (v View) WhatUnblocks(actionID string) ([]UnblockVia, error) {
	s := &v.s.st
	an, ok := s.g.actionIndex[actionID]
	if !ok {
		return nil, &Error{Reason: ReasonUnknownAction, Msg: "the graph declares no such action", Value: actionID}
	}
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	var out []UnblockVia
	for _, u := range (look{s}).unblocks(an) {
		out = append(out, UnblockVia{Action: u.Action, ViaKeys: u.Writes})
	}
	return out, nil
}

func (l look) unblocks(an *actionNode) []Unblock {
	s := l.s
	failing := failingKeys(an.guard, s.state)
	for _, k := range failingKeys(an.enabled, s.state) {
		if !slices.Contains(failing, k) {
			failing = append(failing, k)
		}
	}
	if len(failing) == 0 {
		return nil
	}
	// Only the actions that write a failing key can unblock it: the
	// graph indexes them, so the cost is theirs, not the graph's.
	var cands []*actionNode
	for _, k := range failing {
		for _, w := range s.g.writers[k] {
			if w != an && !slices.Contains(cands, w) {
				cands = append(cands, w)
			}
		}
	}
	slices.SortFunc(cands, func(a, b *actionNode) int { return a.idx - b.idx })
	var out []Unblock
	for _, other := range cands {
		var via []string
		for _, w := range other.writes {
			if slices.Contains(failing, w) {
				via = append(via, w)
			}
		}
		if len(via) > 0 {
			out = append(out, Unblock{Action: other.id, Writes: via, InFlight: len(s.ledgers.unsettled[other.idx]) > 0})
		}
	}
	return out
}

// latest is the newest frame opened for a journey, or nil.
func (f *frameBook) latest(jn *journeyNode) *frame { return f.lastFrame[jn.idx] }

// latestFire is an action's newest fire, or nil.
func (l *ledgers) latestFire(an *actionNode) *record { return l.lastFire[an.idx] }

// refused: the fire came to rest and the app said no (refused,
// rejected, or rolled back since).
func (r *record) refused() bool {
	if !r.settled {
		return false
	}
	return r.receipt.EffectStatus == EffectRefused || r.t.Outcome == OutcomeRejected || r.t.Outcome == OutcomeRolledBack
}
