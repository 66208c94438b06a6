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
// and a negative value is read as the default too. A ledger is compacted
// back to its bound when it has grown to half as many again, so between
// compactions it holds at most one and a half times its bound (a cost
// paid once per half-bound of rows, not on every row).
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
type ledgers struct {
	keep Retention

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

func newLedgers(actions int, keep Retention) ledgers {
	return ledgers{keep: keep.withDefaults(), byID: map[string]*record{},
		actFires: make([][]*record, actions), unsettled: make([][]*record, actions), lastFire: make([]*record, actions)}
}

// addRecord appends a row to the transition ledger and evicts, in
// batches, what the retention no longer keeps.
func (s *Session) addRecord(r *record) {
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
	// Compact once the ledger holds half again its bound, so eviction
	// costs O(1) per row, amortized.
	if len(s.records) > s.keep.Transitions+s.keep.Transitions/2 {
		s.compactRecordsLocked()
	}
}

// restLocked takes a fire that came to rest out of the open indexes.
func (s *Session) restLocked(r *record) {
	s.unsettled[r.an.idx] = slices.DeleteFunc(s.unsettled[r.an.idx], func(x *record) bool { return x == r })
	s.openFires = slices.DeleteFunc(s.openFires, func(x *record) bool { return x == r })
}

// needed reports whether the protocol still needs a row in detail.
func (s *Session) needed(r *record) bool {
	if r == s.claim {
		return true
	}
	if r.fired && (!r.settled || s.lastFire[r.an.idx] == r) {
		return true
	}
	return false
}

func (s *Session) compactRecordsLocked() {
	keepFrom := len(s.records) - s.keep.Transitions
	kept := s.records[:0]
	evictedFires := false
	for i, r := range s.records {
		if i >= keepFrom || s.needed(r) {
			kept = append(kept, r)
			continue
		}
		delete(s.byID, r.t.ID)
		s.recordsEvicted++
		if r.fired {
			r.evicted = true
			evictedFires = true
			s.firesEvicted++
			s.markEvictedLocked(r.seq)
		}
	}
	clear(s.records[len(kept):])
	s.records = kept
	if evictedFires {
		s.fires = slices.DeleteFunc(s.fires, func(r *record) bool { return r.evicted })
		for i, list := range s.actFires {
			if len(list) > 0 && list[0].evicted {
				s.actFires[i] = slices.DeleteFunc(list, func(r *record) bool { return r.evicted })
			}
		}
	}
}

func (s *Session) markEvictedLocked(seq int64) {
	w := int(seq / 64)
	for len(s.evictedFire) <= w {
		s.evictedFire = append(s.evictedFire, 0)
	}
	s.evictedFire[w] |= 1 << (seq % 64)
}

// evictedLocked reports whether an id names a fire this session recorded
// and has since evicted: its action is declared and its sequence number
// was a fire that is no longer held.
func (s *Session) evictedLocked(id string) bool {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return false
	}
	if _, ok := s.g.actionIndex[id[:i]]; !ok {
		return false
	}
	seq, err := strconv.ParseInt(id[i+1:], 10, 64)
	if err != nil || seq < 0 || strconv.FormatInt(seq, 10) != id[i+1:] {
		return false
	}
	w := int(seq / 64)
	return w < len(s.evictedFire) && s.evictedFire[w]&(1<<(seq%64)) != 0
}

// noFireLocked is the refusal for an id no settlement is held for:
// TRANSITION_EVICTED when the session recorded it and let it go,
// UNKNOWN_TRANSITION otherwise.
func (s *Session) noFireLocked(id, msg string) *Error {
	if s.evictedLocked(id) {
		return &Error{Reason: ReasonTransitionEvicted, Msg: "that fire was recorded, but this session no longer holds it in detail", Value: id, Known: s.awaitingSettlementLocked()}
	}
	return &Error{Reason: ReasonUnknownTransition, Msg: msg, Value: id, Known: s.awaitingSettlementLocked()}
}

func (s *Session) addCommit(c commit) {
	s.commits = append(s.commits, c)
	if n := len(s.commits); n > s.keep.Commits+s.keep.Commits/2 {
		drop := n - s.keep.Commits
		s.commitsEvicted += drop
		s.commits = slices.Delete(s.commits, 0, drop)
	}
}

func (s *Session) addGap(g GapRecord) {
	if g.Kind == GapFireRejected {
		s.rejectedTotal++
	}
	s.gaps = append(s.gaps, g)
	if n := len(s.gaps); n > s.keep.Gaps+s.keep.Gaps/2 {
		drop := n - s.keep.Gaps
		for _, old := range s.gaps[:drop] {
			if old.Kind == GapFireRejected {
				s.rejectedEvicted++
			}
		}
		s.gapsEvicted += drop
		s.gaps = slices.Delete(s.gaps, 0, drop)
	}
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
func (s *Session) Evicted() Evicted {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Evicted{Transitions: s.recordsEvicted, Fires: s.firesEvicted, Gaps: s.gapsEvicted, Refusals: s.rejectedEvicted,
		Commits: s.commitsEvicted, Frames: s.framesEvicted, Asks: s.asksEvicted}
}

// addFrame records a newly opened frame, evicting closed frames beyond
// the retention (each journey's newest frame is kept).
func (s *Session) addFrame(f *frame) {
	s.frames = append(s.frames, f)
	s.lastFrame[f.jn.idx] = f
	if len(s.frames) > s.keep.Closed+s.keep.Closed/2 {
		keepFrom := len(s.frames) - s.keep.Closed
		kept := s.frames[:0]
		for i, x := range s.frames {
			if i >= keepFrom || x == s.open || s.lastFrame[x.jn.idx] == x {
				kept = append(kept, x)
				continue
			}
			s.framesEvicted++
		}
		clear(s.frames[len(kept):])
		s.frames = kept
	}
}

// addAsk records a minted ask, evicting cards that left the book beyond
// the retention (open and approved-unspent cards are kept).
func (s *Session) addAsk(a *ask) {
	s.asks = append(s.asks, a)
	s.askByID[a.id] = a
	if len(s.asks) > s.keep.Closed+s.keep.Closed/2 {
		keepFrom := len(s.asks) - s.keep.Closed
		kept := s.asks[:0]
		for i, x := range s.asks {
			// Kept: the newest Closed, the open cards, and a standing yes.
			// A card closed as declined is an answered ask, kept only
			// while it is among the newest.
			open := x.inBook && x.answer != "declined"
			if i >= keepFrom || open || (x.answer == "approved" && !x.spent && !x.revoked) {
				kept = append(kept, x)
				continue
			}
			delete(s.askByID, x.id)
			s.asksEvicted++
		}
		clear(s.asks[len(kept):])
		s.asks = kept
	}
}
