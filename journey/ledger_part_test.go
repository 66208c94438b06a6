package journey

import (
	"strconv"
	"testing"
)

// TestLedgersPart exercises the ledgers part alone, without a session:
// each ledger holds exactly its bound besides what is needed (a fire not
// at rest, each action's latest fire, the open claim), counts what it
// lets go, and answers an evicted id TRANSITION_EVICTED, an id it never
// recorded UNKNOWN_TRANSITION.
func TestLedgersPart(t *testing.T) {
	g := historyGraph(t)
	tick, save := g.actionIndex["home.tick"], g.actionIndex["home.save"]
	fire := func(l *ledgers, an *actionNode, seq int64, settled bool, claim *record) *record {
		r := &record{an: an, seq: seq, fired: true, settled: settled, done: make(chan struct{})}
		r.t = Transition{ID: an.id + "#" + strconv.FormatInt(seq, 10), Actor: ActorUser, Version: seq}
		l.add(r, claim)
		if settled {
			l.rest(r)
		}
		return r
	}
	for _, c := range []struct {
		name        string
		bound, n    int
		openFirst   bool // the first fire (save) never comes to rest
		claimFirst  bool // the first fire is the open claim
		held        int
		evicted     int
		firstKnown  bool
		firstReason Reason
	}{
		{name: "within the bound", bound: 8, n: 5, held: 5, firstKnown: true},
		{name: "past the bound", bound: 8, n: 20, held: 8, evicted: 12, firstReason: ReasonTransitionEvicted},
		{name: "a fire not at rest is kept", bound: 8, n: 20, openFirst: true, held: 9, evicted: 11, firstKnown: true},
		{name: "the open claim is kept", bound: 8, n: 20, claimFirst: true, held: 9, evicted: 11, firstKnown: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := newLedgers(g, Retention{Transitions: c.bound})
			firstAn := tick
			if c.openFirst {
				firstAn = save
			}
			first := fire(&l, firstAn, 1, !c.openFirst, nil)
			var claim *record
			if c.claimFirst {
				claim = first
			}
			for i := 2; i <= c.n; i++ {
				fire(&l, tick, int64(i), true, claim)
			}
			if len(l.records) != c.held || l.recordsEvicted != c.evicted || l.firesTotal != c.n {
				t.Fatalf("held %d (evicted %d, %d fires), want %d (evicted %d)", len(l.records), l.recordsEvicted, l.firesTotal, c.held, c.evicted)
			}
			if last := l.lastFire[tick.idx]; last == nil || last.seq != int64(c.n) || l.byID[last.t.ID] != last {
				t.Fatal("each action's latest fire is kept")
			}
			_, known := l.byID[first.t.ID]
			if known != c.firstKnown || (!known && !l.wasEvicted(first.t.ID)) {
				t.Fatalf("first fire known %v, want %v", known, c.firstKnown)
			}
			if !known {
				if e := l.noFire(first.t.ID, ""); e.Reason != c.firstReason {
					t.Fatalf("evicted id answered %s", e.Reason)
				}
			}
			if e := l.noFire("home.tick#999", ""); e.Reason != ReasonUnknownTransition {
				t.Fatalf("never recorded: %s", e.Reason)
			}
			if e := l.noFire("nope#1", ""); e.Reason != ReasonUnknownTransition {
				t.Fatalf("undeclared action: %s", e.Reason)
			}
			if got := l.awaitingSettlement(); c.openFirst != (len(got) == 1 && got[0] == first.t.ID) {
				t.Fatalf("awaiting %v", got)
			}
		})
	}
	// A save fire at rest is its action's latest fire, kept past the bound.
	l0 := newLedgers(g, Retention{Transitions: 2})
	kept := fire(&l0, save, 1, true, nil)
	for i := 2; i <= 6; i++ {
		fire(&l0, tick, int64(i), true, nil)
	}
	if l0.byID[kept.t.ID] != kept || len(l0.records) != 3 {
		t.Fatalf("the latest save fire must be kept: %d held", len(l0.records))
	}
	// Gaps and commits hold exactly their bound and count the rest.
	l := newLedgers(g, Retention{Gaps: 3, Commits: 2})
	for range 5 {
		l.gap(GapRecord{Kind: GapFireRejected})
		l.commit(commit{})
	}
	if len(l.gaps) != 3 || l.gapsEvicted != 2 || l.rejectedTotal != 5 || l.rejectedEvicted != 2 || len(l.commits) != 2 || l.commitsEvicted != 3 {
		t.Fatalf("gaps %d (evicted %d, refusals %d/%d), commits %d (evicted %d)", len(l.gaps), l.gapsEvicted, l.rejectedTotal, l.rejectedEvicted, len(l.commits), l.commitsEvicted)
	}
}
