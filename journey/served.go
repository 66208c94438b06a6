package journey

import (
	"slices"
)

// Available returns the actions served at the cursor, in declaration
// order: every action offered on the current page whose guard does not
// fail. A guard whose keys are absent from the state is unevaluable, not
// false: the action is served with guardUnevaluated. Off the graph,
// nothing is served.
func (v View) Available() []ServedAction {
	s := &v.s.st
	v.s.lock()
	rows, reads := look{s}.available()
	v.s.mu.Unlock()
	s.obs.readHolds(rows, reads)
	return rows
}

// holdsRead is a holds reader a served row names. It is called once the
// session's lock is released (readHolds), so a reader may call back into
// the session.
type holdsRead struct {
	row    int
	action string
	fn     func() any
}

// readHolds fills each row's Holds from its reader, outside the lock; a
// reader that panics is recorded as a Defect and leaves Holds empty.
func (o *observers) readHolds(rows []ServedAction, reads []holdsRead) {
	for _, r := range reads {
		o.safeCall("holds reader of "+r.action, func() {
			if nv, err := normalize(r.fn()); err == nil {
				rows[r.row].Holds = nv
			}
		})
	}
}

func (l look) available() ([]ServedAction, []holdsRead) {
	if l.s.page < 0 {
		return nil, nil
	}
	out := make([]ServedAction, 0, len(l.s.g.served[l.s.page]))
	var reads []holdsRead
	l.eachServed(func(an *actionNode, unev []string) bool {
		row, holds := l.row(an, unev)
		if holds != nil {
			reads = append(reads, holdsRead{row: len(out), action: an.id, fn: holds})
		}
		out = append(out, row)
		return true
	})
	return out, reads
}

// eachServed calls yield with every action served at the cursor, in
// declaration order, and the guard keys it could not evaluate, until
// yield returns false: the one rule for what is served here.
func (l look) eachServed(yield func(an *actionNode, unev []string) bool) {
	s := l.s
	if s.page < 0 {
		return
	}
	for _, an := range s.g.served[s.page] {
		pass, unev := evalQuick(an.guard, s.state)
		if pass && !yield(an, unev) {
			return
		}
	}
}

// ServedIDs returns the ids of the actions Available serves, in the same
// order, without building their rows: what resolving a name needs.
func (v View) ServedIDs() []string {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	var ids []string
	look{s}.eachServed(func(an *actionNode, _ []string) bool {
		ids = append(ids, an.id)
		return true
	})
	return ids
}

// Served returns the row Available gives the action id, and false when
// it is not served here; only that row is built.
func (v View) Served(id string) (ServedAction, bool) {
	s := &v.s.st
	v.s.lock()
	var row ServedAction
	var reads []holdsRead
	found := false
	look{s}.eachServed(func(an *actionNode, unev []string) bool {
		if an.id != id {
			return true
		}
		var holds func() any
		row, holds = look{s}.row(an, unev)
		if holds != nil {
			reads = append(reads, holdsRead{action: an.id, fn: holds})
		}
		found = true
		return false
	})
	v.s.mu.Unlock()
	if found {
		rows := []ServedAction{row}
		s.obs.readHolds(rows, reads)
		row = rows[0]
	}
	return row, found
}

// control folds the bindings that describe a served control. For a
// repeats action served without an instance, any instance's handler makes
// it materialized, but only instance-less bindings switch it off or label
// it busy.
func (bl bindingLists) control(an *actionNode) (handler Handler, disabled bool, busy string, holds func() any) {
	if an.repeat == nil {
		return bl.state(an, "")
	}
	list := bl[an.idx]
	for i := len(list) - 1; i >= 0; i-- {
		b := list[i]
		if handler == nil && b.handler != nil {
			handler = b.handler
		}
		if b.instance != "" {
			continue
		}
		if b.enabled != nil && !*b.enabled {
			disabled = true
		}
		if busy == "" && b.busy != "" {
			busy = b.busy
		}
		if holds == nil && b.holds != nil {
			holds = b.holds
		}
	}
	return
}

// row is the row served for an action, and its holds reader (nil
// when it has none), which the caller runs once the lock is released.
func (l look) row(an *actionNode, unev []string) (ServedAction, func() any) {
	s := l.s
	row := ServedAction{Action: an.id, Does: an.does, GoesTo: an.goToID, HighEffect: an.highEffect, PersonApproves: an.personApproves, GuardUnevaluated: unev, Expects: an.input.expectsJSON()}
	handler, disabled, busy, holds := s.bindings.control(an)
	if an.enabled != nil {
		if ok, _ := evalQuick(an.enabled, s.state); !ok {
			disabled = true
			_, ev, _ := evalFull(an.enabled, s.state, s.redacted)
			for _, c := range ev {
				if !c.Result {
					row.EnabledEvidence = append(row.EnabledEvidence, c)
				}
			}
		}
	}
	if disabled {
		row.Enabled = falsePtr()
		if an.blocked != nil {
			b := *an.blocked
			row.BlockedBecause = &b
		}
		row.UnblockedBy = look{s}.unblocks(an)
	}
	row.Busy = busy
	if an.decides != nil {
		row.HumanDecides, row.About = true, an.decides.About
	}
	if len(an.policy.MayInvoke) > 0 {
		row.MayInvoke = wireActors(an.policy.MayInvoke)
	}
	row.AwaitingHuman = awaitingHumanIn(an, s.state)
	row.Activation = s.view.activation(an)
	if ov := s.view.overlay(an, s.page); ov != nil {
		row.Overlay = ov.path
	}
	if handler == nil {
		row.Materialized = falsePtr()
	}
	if an.repeat != nil {
		row.Instances, _ = s.instances(an)
	}
	row.Instances, row.PriorTransitionID = s.ledgers.onceHeld(an, row.Instances)
	if u := s.ledgers.unsettled[an.idx]; len(u) > 0 {
		row.PriorFireUnsettled = u[len(u)-1].t.ID
	}
	return row, holds
}

// Made is whether the person's decision is made: "true", "false", or
// "unknown" when the app declared no DoneWhen (or its keys are absent).
type Made string

// The Made values.
const (
	MadeYes     Made = "true"
	MadeNo      Made = "false"
	MadeUnknown Made = "unknown"
)

// MarshalJSON renders made/not made as booleans.
func (m Made) MarshalJSON() ([]byte, error) { return triStateJSON(string(m)) }

// madeIn is whether the person's decision on an action is made in state.
func madeIn(an *actionNode, state map[string]any) Made {
	if an.decides == nil || an.decideWhen == nil {
		return MadeUnknown
	}
	pass, unev := evalQuick(an.decideWhen, state)
	switch {
	case len(unev) == len(guardKeys(an.decideWhen)):
		return MadeUnknown
	case pass:
		return MadeYes
	}
	return MadeNo
}

// awaitingHumanIn: the action waits on the person: it is their
// decision and it is not known to be made, or only they may fire it. A
// decision they have made waits on nobody, even when only they may make
// it again; it stays unclickable for the model (see agentMay).
func awaitingHumanIn(an *actionNode, state map[string]any) bool {
	if an.decides != nil {
		return madeIn(an, state) != MadeYes
	}
	return an.humanOnly()
}

// agentMay reports whether a row's or step's declared policy (its
// mayInvoke, in wire names) lets the model fire it: no policy, or one
// that names the agent.
func agentMay(mayInvoke []string) bool {
	return len(mayInvoke) == 0 || slices.Contains(mayInvoke, wireActor(ActorAgent))
}

// Clickable reports whether the model may click the row now: not
// switched off, not hidden or masked, not waiting on the person, and not
// a once-only action already done (PriorTransitionID).
func (r ServedAction) Clickable() bool {
	return r.Enabled == nil && r.Activation != ActivationHidden && r.Overlay == "" && !r.AwaitingHuman && agentMay(r.MayInvoke) && r.PriorTransitionID == ""
}

func (l look) servedIDs() []string {
	s := l.s
	if s.page < 0 {
		return []string{}
	}
	out := []string{}
	for _, an := range s.g.served[s.page] {
		if pass, _ := evalQuick(an.guard, s.state); pass {
			out = append(out, an.id)
		}
	}
	return out
}

// Availability is one journey's standing at the cursor.
type Availability struct {
	ID          string   `json:"id"`
	Description string   `json:"description"`
	Steps       []string `json:"steps"`
	// PreconditionPassed is false only when an evaluable precondition
	// condition fails.
	PreconditionPassed bool `json:"preconditionPassed"`
	// Evidence is the precondition's evidence, present when it failed.
	Evidence                []Condition `json:"evidence,omitempty"`
	PreconditionUnevaluable []string    `json:"preconditionUnevaluable,omitempty"`
	// EntryAvailable: the first step is offered on this page and its
	// guard does not fail.
	EntryAvailable bool `json:"entryAvailable"`
	// Open marks the journey whose frame is open.
	Open bool `json:"open,omitempty"`
}

func (l look) journeyAvail(jn *journeyNode) Availability {
	s := l.s
	ja := Availability{ID: jn.id, Description: jn.does, Steps: make([]string, len(jn.steps)), PreconditionPassed: true}
	for i, st := range jn.steps {
		ja.Steps[i] = st.id
	}
	if jn.when != nil {
		pass, unev := evalQuick(jn.when, s.state)
		ja.PreconditionPassed, ja.PreconditionUnevaluable = pass, unev
		if !pass {
			_, ja.Evidence, _ = evalFull(jn.when, s.state, s.redacted)
		}
	}
	ja.EntryAvailable = look{s}.entryAvailable(jn)
	ja.Open = s.frameBook.open != nil && s.frameBook.open.jn == jn
	return ja
}

func (l look) entryAvailable(jn *journeyNode) bool {
	s := l.s
	first := jn.steps[0]
	if s.page < 0 || !slices.Contains(first.on, s.page) {
		return false
	}
	pass, _ := evalQuick(first.guard, s.state)
	return pass
}

func (l look) entryJourneyIDs() []string {
	s := l.s
	out := []string{}
	if s.page < 0 {
		return out
	}
	for _, jn := range s.g.entries[s.page] {
		if (look{s}).entryAvailable(jn) {
			out = append(out, jn.id)
		}
	}
	return out
}

// AvailableJourneys answers for every declared journey, in declaration
// order, whatever page the cursor is on.
func (v View) AvailableJourneys() []Availability {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	out := make([]Availability, len(s.g.journeys))
	for i, jn := range s.g.journeys {
		out[i] = look{s}.journeyAvail(jn)
	}
	return out
}

// Here is one consistent snapshot of the cursor: the position, the served
// actions, and the journeys that can start here (entryAvailable) plus the
// open one, whatever its entry step says now. JourneysElsewhere counts
// the declared journeys not listed.
type Here struct {
	Position
	Actions           []ServedAction `json:"actions"`
	Journeys          []Availability `json:"journeys"`
	JourneysElsewhere int            `json:"journeysElsewhere,omitempty"`
	// OpenJourney is the id of the journey whose frame is open, if any.
	OpenJourney string `json:"openJourney,omitempty"`
}

// Here returns the snapshot. Its cost depends on what is offered on the
// current page and on the journeys that start there, never on the rest of
// the graph: both are indexed per page when the graph is built.
func (v View) Here() Here {
	s := &v.s.st
	v.s.lock()
	h, reads := look{s}.here()
	v.s.mu.Unlock()
	s.obs.readHolds(h.Actions, reads)
	return h
}

// here is Here under the lock, with the holds readers its rows name (to
// be read once the lock is released).
func (l look) here() (Here, []holdsRead) {
	s := l.s
	actions, reads := l.available()
	h := Here{Position: l.position(), Actions: actions}
	if h.Actions == nil {
		h.Actions = []ServedAction{}
	}
	n := 1
	if s.page >= 0 {
		n += len(s.g.entries[s.page])
	}
	h.Journeys = make([]Availability, 0, n)
	// The page's entries are in declaration order; the open journey, listed
	// whatever its entry says now, takes its own declaration place among
	// them rather than trailing after.
	open := s.frameBook.open
	openListed := open == nil
	if s.page >= 0 {
		for _, jn := range s.g.entries[s.page] {
			if !openListed && open.jn.idx < jn.idx {
				h.Journeys = append(h.Journeys, l.journeyAvail(open.jn))
				openListed = true
			}
			if l.entryAvailable(jn) || (open != nil && open.jn == jn) {
				h.Journeys = append(h.Journeys, l.journeyAvail(jn))
				if open != nil && open.jn == jn {
					openListed = true
				}
			}
		}
	}
	if open != nil {
		h.OpenJourney = open.jn.id
		if !openListed {
			h.Journeys = append(h.Journeys, l.journeyAvail(open.jn))
		}
	}
	h.JourneysElsewhere = len(s.g.journeys) - len(h.Journeys)
	return h, reads
}

// Explanation says which true thing is the case for an action id: not in
// the graph, declared on other pages, or on this page with its
// conditions unmet, or served.
type Explanation struct {
	Action string `json:"action"`
	// Pages are the pages the action is offered on.
	Pages []string `json:"pages"`
	// OnThisPage: the action is offered on the current page.
	OnThisPage bool `json:"onThisPage"`
	// Served: offered here and its guard does not fail.
	Served bool `json:"served"`
	// Evidence is the guard's evidence when it fails here.
	Evidence         []Condition `json:"evidence,omitempty"`
	GuardUnevaluated []string    `json:"guardUnevaluated,omitempty"`
}

// Explain reports why an action is or is not served. It answers false
// for an id the graph does not declare: there is nothing true to say
// about an action the app never had.
func (v View) Explain(actionID string) (Explanation, bool) {
	s := &v.s.st
	an, ok := s.g.actionIndex[actionID]
	if !ok {
		return Explanation{}, false
	}
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	e := Explanation{Action: an.id, Pages: slices.Clone(an.onIDs), OnThisPage: s.page >= 0 && slices.Contains(an.on, s.page)}
	if e.OnThisPage {
		pass, ev, unev := evalFull(an.guard, s.state, s.redacted)
		e.Served, e.GuardUnevaluated = pass, unev
		if !pass {
			e.Evidence = ev
		}
	}
	return e, true
}

// KeysChangedSince lists the state keys committed after the given
// version, sorted, for a caller narrowing its view to a delta.
func (v View) KeysChangedSince(version int64) []string {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	var out []string
	for i := len(s.ledgers.commits) - 1; i >= 0 && s.ledgers.commits[i].version > version; i-- {
		for _, k := range s.ledgers.commits[i].keys {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

// KeysChangedByOthersSince lists the state keys committed after the given
// version by anyone but the actor (a state report credited to one of its
// fires is its own change; every other commit is someone else's), sorted.
// A serving port passes the version of the model's last look and its own
// source, to flag the rows whose reads or writes moved under the model.
func (v View) KeysChangedByOthersSince(version int64, self Actor) []string {
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	return look{&v.s.st}.changedByOthers(version, self)
}

func (l look) changedByOthers(version int64, self Actor) []string {
	s := l.s
	self = normActor(self)
	var out []string
	for i := len(s.ledgers.commits) - 1; i >= 0 && s.ledgers.commits[i].version > version; i-- {
		c := s.ledgers.commits[i]
		if c.actor == self {
			continue
		}
		for _, k := range c.keys {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

// OnceDone names the fire of a once-only action that came to rest
// successfully (for the instance, when it is scoped per instance), or ""
// when there is none, or the action is not once-only or not declared.
func (v View) OnceDone(actionID, instance string) string {
	s := &v.s.st
	an, ok := s.g.actionIndex[actionID]
	if !ok || !an.conc.Once {
		return ""
	}
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	if r := s.ledgers.onceDone(an, instance); r != nil {
		return r.t.ID
	}
	return ""
}
