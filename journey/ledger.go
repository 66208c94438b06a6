package journey

import (
	"slices"
	"strconv"
	"strings"
)

// Retention bounds what a session keeps of its history in detail, so a
// long conversation's memory and the cost of a turn stop growing with it.
// What the protocol still needs is never evicted, whatever the bounds:
// fires not at rest, the open navigation claim, each action's latest fire
// (the settlement did_it_work and a journey's standing are read from),
// open and approved-unspent asks, the open frame and each journey's
// latest frame, and open work. What is evicted is counted, and the facts
// block says how many attempts are no longer held, so the history it
// shows is never silently shortened. A fire id that was evicted is
// answered with TRANSITION_EVICTED, never as unknown.
//
// Each bound is a count of rows kept in detail; zero takes the default,
// and a negative value is read as the default too. A ledger holds exactly
// its bound, never more, besides the rows the protocol still needs: as a
// row is recorded, the oldest row nothing needs is let go (a row that
// stopped being needed is let go as the next row is recorded). Letting go
// costs O(1) per row, amortized, in the length of the history (it grows
// only with the rows still needed).
//
// In default mode a card the model reports declined is closed: the facts
// still say so while it is kept, and it counts against Closed like any
// answered ask.
type Retention struct {
	// Transitions is how many transition rows at rest (fires, state
	// reports, page changes, surface changes) are kept, newest first.
	// Zero means DefaultRetainTransitions.
	Transitions int
	// Gaps is how many gap-ledger rows (refused attempts) are kept.
	// Zero means DefaultRetainGaps.
	Gaps int
	// Commits is how many state commits are kept for Why, inferred steps
	// and KeysChangedSince. Zero means DefaultRetainCommits.
	Commits int
	// Closed is how many closed frames and answered or superseded asks
	// are kept. Zero means DefaultRetainClosed.
	Closed int
}

// The default retention: about a megabyte of history per session, enough
// for any answer a model asks about within a long conversation.
const (
	DefaultRetainTransitions = 1024
	DefaultRetainGaps        = 1024
	DefaultRetainCommits     = 1024
	DefaultRetainClosed      = 256
	maxDefects               = 256
)

func (r Retention) withDefaults() Retention {
	def := func(v, d int) int {
		if v <= 0 {
			return d
		}
		return v
	}
	return Retention{Transitions: def(r.Transitions, DefaultRetainTransitions), Gaps: def(r.Gaps, DefaultRetainGaps),
		Commits: def(r.Commits, DefaultRetainCommits), Closed: def(r.Closed, DefaultRetainClosed)}
}

// ReasonTransitionEvicted answers a question about a fire this session
// recorded but no longer holds in detail (see Retention).
const ReasonTransitionEvicted Reason = "TRANSITION_EVICTED"

// ledgers are the transition ledger, the gap ledger and the commit log,
// with the indexes that keep every read independent of history: the
// fires not at rest (in order), each action's retained fires and latest
// fire, and the counts of everything evicted.
//
// It is a part of the session: it holds no lock (the session's
// coordinator does) and its methods own the ledgers' rules: what is
// recorded, what comes to rest, what is let go and how it is counted.
// Its zero value is not ready: use newLedgers.
type ledgers struct {
	keep    Retention
	actions map[string]*actionNode // the graph's, to read an evicted id

	// userVersion is the version of the newest row attributed to the
	// person: a once-only action may be fired again after it (repeated).
	userVersion int64

	records   []*record // retained rows, in order
	byID      map[string]*record
	fires     []*record   // retained fired rows, in order
	openFires []*record   // fires not at rest, in order
	actFires  [][]*record // per action idx, retained fires in order
	unsettled [][]*record // per action idx, fires not at rest
	lastFire  []*record   // per action idx, the newest fire (never evicted)
	commits   []commit
	gaps      []GapRecord

	firesTotal, rejectedTotal     int // attempts ever: fires, fire-rejected gaps
	firesEvicted, rejectedEvicted int
	recordsEvicted, gapsEvicted   int
	commitsEvicted                int
	evictedFire                   []uint64 // bit per transition seq: a fire that was evicted
}

func newLedgers(g *Graph, keep Retention) ledgers {
	actions := len(g.actions)
	return ledgers{keep: keep.withDefaults(), actions: g.actionIndex, byID: map[string]*record{},
		actFires: make([][]*record, actions), unsettled: make([][]*record, actions), lastFire: make([]*record, actions)}
}

// add appends a row to the transition ledger and lets go of what the
// retention no longer keeps; claim is the open navigation claim, which is
// kept.
func (s *ledgers) add(r *record, claim *record) {
	s.records = append(s.records, r)
	s.byID[r.t.ID] = r
	if r.t.Actor == ActorUser {
		s.userVersion = r.t.Version
	}
	if r.fired {
		s.firesTotal++
		s.fires = append(s.fires, r)
		s.openFires = append(s.openFires, r)
		s.actFires[r.an.idx] = append(s.actFires[r.an.idx], r)
		s.unsettled[r.an.idx] = append(s.unsettled[r.an.idx], r)
		s.lastFire[r.an.idx] = r
	}
	s.records = trim(s.records, s.keep.Transitions, func(x *record) bool { return s.needed(x, claim) }, s.evict)
}

// trim lets go of the oldest elements of list, one at a time, while it
// holds more than bound: each time the oldest one outside the newest
// bound that pinned does not hold on to, reported to evict. It stops when
// every element outside the newest bound is pinned. The pinned elements
// before the one let go are shifted up by one and the head is sliced off,
// so the cost is the number of pinned elements, never the history's
// length; append reuses and regrows the backing array as usual, copying
// only what is held.
func trim[T any](list []T, bound int, pinned func(T) bool, evict func(T)) []T {
	for len(list) > bound {
		limit := len(list) - bound
		i := 0
		for i < limit && pinned(list[i]) {
			i++
		}
		if i == limit {
			break
		}
		evict(list[i])
		copy(list[1:i+1], list[:i])
		var zero T
		list[0] = zero // nothing keeps the evicted element alive
		list = list[1:]
	}
	return list
}

// dropOldest lets go of the oldest elements of a ledger nothing pins (gaps,
// commits) so that it holds exactly bound; each one let go is reported to
// evict first.
func dropOldest[T any](list []T, bound int, evict func(T)) []T {
	for len(list) > bound {
		evict(list[0])
		var zero T
		list[0] = zero
		list = list[1:]
	}
	return list
}

// removeRecord takes r out of an ordered index of records. r is among the
// oldest (everything older in the index is still needed), so the scan is
// short.
func removeRecord(list []*record, r *record) []*record {
	i := slices.Index(list, r)
	if i < 0 {
		return list
	}
	copy(list[1:i+1], list[:i])
	list[0] = nil
	return list[1:]
}

// rest takes a fire that came to rest out of the open indexes.
func (s *ledgers) rest(r *record) {
	s.unsettled[r.an.idx] = slices.DeleteFunc(s.unsettled[r.an.idx], func(x *record) bool { return x == r })
	s.openFires = slices.DeleteFunc(s.openFires, func(x *record) bool { return x == r })
}

// needed reports whether the protocol still needs a row in detail: the
// open claim, a fire not at rest, each action's latest fire.
func (s *ledgers) needed(r, claim *record) bool {
	if r == claim {
		return true
	}
	if r.fired && (!r.settled || s.lastFire[r.an.idx] == r) {
		return true
	}
	return false
}

// evict lets go of a transition row: it is forgotten by id,
// counted, and, for a fire, marked so its id is answered
// TRANSITION_EVICTED.
func (s *ledgers) evict(r *record) {
	delete(s.byID, r.t.ID)
	s.recordsEvicted++
	if !r.fired {
		return
	}
	r.evicted = true
	s.firesEvicted++
	s.markEvicted(r.seq)
	s.fires = removeRecord(s.fires, r)
	s.actFires[r.an.idx] = removeRecord(s.actFires[r.an.idx], r)
}

func (s *ledgers) markEvicted(seq int64) {
	w := int(seq / 64)
	for len(s.evictedFire) <= w {
		s.evictedFire = append(s.evictedFire, 0)
	}
	s.evictedFire[w] |= 1 << (seq % 64)
}

// wasEvicted reports whether an id names a fire this session recorded
// and has since evicted: its action is declared and its sequence number
// was a fire that is no longer held.
func (s *ledgers) wasEvicted(id string) bool {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return false
	}
	if _, ok := s.actions[id[:i]]; !ok {
		return false
	}
	seq, err := strconv.ParseInt(id[i+1:], 10, 64)
	if err != nil || seq < 0 || strconv.FormatInt(seq, 10) != id[i+1:] {
		return false
	}
	w := int(seq / 64)
	return w < len(s.evictedFire) && s.evictedFire[w]&(1<<(seq%64)) != 0
}

// noFire is the refusal for an id no settlement is held for:
// TRANSITION_EVICTED when the session recorded it and let it go,
// UNKNOWN_TRANSITION otherwise.
func (s *ledgers) noFire(id, msg string) *Error {
	if s.wasEvicted(id) {
		return &Error{Reason: ReasonTransitionEvicted, Msg: "that fire was recorded, but this session no longer holds it in detail", Value: id, Known: s.awaitingSettlement()}
	}
	return &Error{Reason: ReasonUnknownTransition, Msg: msg, Value: id, Known: s.awaitingSettlement()}
}

// awaitingSettlement lists every fire not yet at rest, oldest first.
func (s *ledgers) awaitingSettlement() []string {
	var out []string
	for _, r := range s.openFires {
		if !r.settled {
			out = append(out, r.t.ID)
		}
	}
	return out
}

// pending lists the fires awaiting the app's state report, oldest first.
func (s *ledgers) pending() []string {
	var out []string
	for _, r := range s.openFires {
		if r.awaiting && !r.settled {
			out = append(out, r.t.ID)
		}
	}
	return out
}

// commit records a state commit, letting go of the oldest beyond the
// retention.
func (s *ledgers) commit(c commit) {
	s.commits = append(s.commits, c)
	s.commits = dropOldest(s.commits, s.keep.Commits, func(commit) { s.commitsEvicted++ })
}

// gap records a gap row, letting go of the oldest beyond the retention.
func (s *ledgers) gap(g GapRecord) {
	if g.Kind == GapFireRejected {
		s.rejectedTotal++
	}
	s.gaps = append(s.gaps, g)
	s.gaps = dropOldest(s.gaps, s.keep.Gaps, func(old GapRecord) {
		if old.Kind == GapFireRejected {
			s.rejectedEvicted++
		}
		s.gapsEvicted++
	})
}

// Evicted counts what the session has let go of under its Retention.
type Evicted struct {
	// Transitions are transition rows no longer held; Fires, the fires
	// among them (ids answered TRANSITION_EVICTED).
	Transitions int `json:"transitions"`
	Fires       int `json:"fires"`
	// Gaps are gap-ledger rows no longer held; Refusals, the refused
	// fires among them.
	Gaps     int `json:"gaps"`
	Refusals int `json:"refusals"`
	Commits  int `json:"commits"`
	Frames   int `json:"frames"`
	Asks     int `json:"asks"`
}

// Evicted reports what the session has evicted so far.
func (v View) Evicted() Evicted {
	s := &v.s.st
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	return Evicted{Transitions: s.ledgers.recordsEvicted, Fires: s.ledgers.firesEvicted, Gaps: s.ledgers.gapsEvicted, Refusals: s.ledgers.rejectedEvicted,
		Commits: s.ledgers.commitsEvicted, Frames: s.frameBook.framesEvicted, Asks: s.askBook.asksEvicted}
}

// add records a newly opened frame, letting go of closed frames beyond
// keep (the open frame and each journey's newest frame are kept).
func (b *frameBook) add(f *frame, keep int) {
	b.frames = append(b.frames, f)
	b.lastFrame[f.jn.idx] = f
	b.frames = trim(b.frames, keep,
		func(x *frame) bool { return x == b.open || b.lastFrame[x.jn.idx] == x },
		func(*frame) { b.framesEvicted++ })
}

// add records a minted ask, letting go of cards that left the book
// beyond keep (open and approved-unspent cards are kept).
func (s *askBook) add(a *ask, keep int) {
	s.asks = append(s.asks, a)
	s.askByID[a.id] = a
	// Kept: the newest Closed, the open cards, and a standing yes. A card
	// closed as declined is an answered ask, kept only while it is among
	// the newest.
	s.asks = trim(s.asks, keep,
		func(x *ask) bool {
			return (x.inBook && x.answer != answerDeclined) || (x.answer == answerApproved && !x.spent && !x.revoked)
		},
		func(x *ask) {
			delete(s.askByID, x.id)
			s.asksEvicted++
		})
}

// ---- reads of the ledgers (under the coordinator's lock) ----

// fireByID finds a fire of an by its transition id among those the
// session still holds for the action.
func (s *ledgers) fireByID(an *actionNode, id string) *record {
	for _, r := range s.actFires[an.idx] {
		if r.t.ID == id {
			return r
		}
	}
	if r := s.lastFire[an.idx]; r != nil && r.t.ID == id {
		return r
	}
	return nil
}

func (s *ledgers) committedSince(an *actionNode, seq int64) int {
	n := 0
	fires := s.actFires[an.idx]
	for i := len(fires) - 1; i >= 0 && fires[i].seq > seq; i-- {
		if r := fires[i]; r.t.Outcome == OutcomeCommitted && r.t.Materialized == nil {
			n++
		}
	}
	return n
}

// inferred: the step was not fired in the frame, but every key it
// declares writing was committed since the frame opened by something
// else (a person, another fire, a stimulus).
func (s *ledgers) inferred(an *actionNode, seq int64) bool {
	if len(an.writes) == 0 {
		return false
	}
	for _, w := range an.writes {
		seen := false
		for i := len(s.commits) - 1; i >= 0 && s.commits[i].seq > seq; i-- {
			c := s.commits[i]
			// An inferred row of this very action counts: nobody fired
			// it in the frame, something else wrote its keys.
			if (c.rec == nil || c.rec.an != an || !c.rec.fired) && slices.Contains(c.keys, w) {
				seen = true
				break
			}
		}
		if !seen {
			return false
		}
	}
	return true
}

// inWindow is the fire whose handler is running now with the
// context that named id: a report made with that context is in the
// handler's window. It is nil when id names no fire or its handler has
// returned.
func (s *ledgers) inWindow(id string) *record {
	if id == "" {
		return nil
	}
	if r := s.byID[id]; r != nil && r.fired && r.running {
		return r
	}
	return nil
}

func (s *ledgers) settlementRecord(id string) (*record, error) {
	r, ok := s.byID[id]
	if !ok || !r.fired {
		return nil, s.noFire(id, "no settlement can exist for that id: only a fire opens one")
	}
	return r, nil
}

// refusedCode is " (CODE)" for a fire that came to rest with a
// reason code, empty otherwise: a library word, never the app's text.
func (s *ledgers) refusedCode(id string) string {
	if r, ok := s.byID[id]; ok {
		if e := r.receipt.Error; e != nil && e.Reason != "" {
			return " (" + string(e.Reason) + ")"
		}
	}
	return ""
}

// onceDone is the fire of a once-only action (for this instance,
// when scoped per instance) that came to rest successfully: at rest, and
// not refused, rejected or rolled back. A fire refused before it was
// recorded minted nothing, so it never counts.
func (s *ledgers) onceDone(an *actionNode, instance string) *record {
	ok := func(r *record) bool {
		return s.onceSettled(r) && (!an.conc.PerInstance || r.t.Instance == instance)
	}
	fires := s.actFires[an.idx]
	for i := len(fires) - 1; i >= 0; i-- {
		if ok(fires[i]) {
			return fires[i]
		}
	}
	if last := s.lastFire[an.idx]; ok(last) {
		return last
	}
	return nil
}

// onceSettled: the fire counts against a once-only action (see
// onceDone).
func (s *ledgers) onceSettled(r *record) bool {
	return r != nil && r.settled && !r.refused() && r.t.Materialized == nil
}

// onceHeld is the DUPLICATE_EXECUTION gate read for a served
// control, so that what is offered is what a fire would be let through:
// it drops from keys (the instances listed on the row) those whose
// once-only fire came to rest successfully, and names the settled fire
// that leaves nothing to fire. For an action scoped per action that is
// its settled fire, and no instance is left; per instance it is the
// newest settled fire among the listed instances, named only when none of
// them is left. An empty listing names nothing: no instance says nothing
// about what was done. keys is not modified. The person acting since
// does not release the hold here: the row and the plan keep saying it was
// done, so nothing offers a repeat to the model; only a fire made anyway
// is let through, carrying Repeated.
func (s *ledgers) onceHeld(an *actionNode, keys []string) (left []string, prior string) {
	if !an.conc.Once {
		return keys, ""
	}
	if !an.conc.PerInstance {
		if r := s.onceDone(an, ""); r != nil {
			return nil, r.t.ID
		}
		return keys, ""
	}
	if len(keys) == 0 {
		return keys, ""
	}
	// One pass over the action's fires, newest first: the newest settled
	// fire of each instance.
	done := map[string]*record{}
	note := func(r *record) {
		if s.onceSettled(r) && r.t.Instance != "" {
			if d := done[r.t.Instance]; d == nil || d.seq < r.seq {
				done[r.t.Instance] = r
			}
		}
	}
	for _, r := range s.actFires[an.idx] {
		note(r)
	}
	note(s.lastFire[an.idx])
	if len(done) == 0 {
		return keys, ""
	}
	var newest *record
	for _, k := range keys {
		if r := done[k]; r != nil {
			if newest == nil || newest.seq < r.seq {
				newest = r
			}
			continue
		}
		left = append(left, k)
	}
	if len(left) > 0 || newest == nil {
		return left, ""
	}
	return nil, newest.t.ID
}

// personSince: a row attributed to the person was recorded after
// the once-only fire r came to rest (its receipt), so a fire of the
// action now is a repeat, not a duplicate.
func (s *ledgers) personSince(r *record) bool {
	return s.userVersion > r.receipt.Version
}
