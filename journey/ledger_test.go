package journey

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// historyGraph is one page with a quick action that comes to rest the
// moment it fires (no writes, nothing bound, fired as the user), one that
// waits for the app's state report, and one guarded shut.
func historyGraph(t testing.TB) *Graph {
	t.Helper()
	g, err := NewGraph("hist", GraphDef{Pages: []Page{{ID: "home", Actions: []Action{
		{Name: "tick", Does: "Tick once."},
		{Name: "save", Does: "Save the draft.", Writes: []string{"draft"}},
		{Name: "once", Does: "Do the one-off thing."},
		{Name: "shut", Does: "Never offered.", When: Guard{Eq("open", true)}},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func tick(t testing.TB, s *Session, n int) {
	t.Helper()
	for range n {
		if r := s.Fire(context.Background(), "home.tick", FireOptions{Source: ActorUser}); !r.OK {
			t.Fatalf("%+v", r)
		}
	}
}

func TestRetentionKeepsWhatTheProtocolNeedsAndCountsTheRest(t *testing.T) {
	keep := Retention{Transitions: 8, Gaps: 8, Commits: 8, Closed: 4}
	s := historyGraph(t).MustNewSession(Options{State: map[string]any{"open": false}, Retention: keep})
	// Held open: a fire awaiting its state report, from the very start.
	pending := s.Fire(context.Background(), "home.save", FireOptions{Source: ActorUser})
	once := s.Fire(context.Background(), "home.once", FireOptions{Source: ActorUser})
	first := s.Fire(context.Background(), "home.tick", FireOptions{Source: ActorUser})
	tick(t, s, 200)
	for range 50 {
		s.Fire(context.Background(), "home.shut", FireOptions{})
	}

	// Exactly the bound, besides the two older rows still needed (the
	// open save, once's latest fire).
	if n := len(s.View().Transitions()); n != keep.Transitions+2 {
		t.Fatalf("%d transition rows held under a bound of %d (+2 needed)", n, keep.Transitions)
	}
	if n := len(s.View().Gaps()); n != keep.Gaps {
		t.Fatalf("%d gap rows held under a bound of %d", n, keep.Gaps)
	}
	// The open fire and each action's latest fire are never evicted.
	if ids := s.View().AwaitingSettlement(); len(ids) != 1 || ids[0] != pending.TransitionID {
		t.Fatalf("awaiting %v", ids)
	}
	if _, _, err := s.View().SettlementIfKnown(pending.TransitionID); err != nil {
		t.Fatalf("an open fire was evicted: %v", err)
	}
	if st, ok, err := s.View().SettlementIfKnown(once.TransitionID); err != nil || !ok || st.Action != "home.once" {
		t.Fatalf("an action's latest settlement was evicted: %+v %v", st, err)
	}
	if r := s.UpdateState(map[string]any{"draft": 1}, ""); r.TransitionID != pending.TransitionID || r.Basis != BasisSignature {
		t.Fatalf("the old open fire is no longer attributable: %+v", r)
	}
	// An evicted fire is answered as such, everywhere; an id nobody fired
	// is still unknown.
	for name, err := range map[string]error{
		"SettlementIfKnown": func() error { _, _, err := s.View().SettlementIfKnown(first.TransitionID); return err }(),
		"Reject":            s.Reject(first.TransitionID, "", nil),
	} {
		if !errors.Is(err, &Error{Reason: ReasonTransitionEvicted}) {
			t.Fatalf("%s on an evicted fire: %v", name, err)
		}
	}
	if r := s.UpdateState(map[string]any{"x": 1}, first.TransitionID); r.Reason != ReasonTransitionEvicted {
		t.Fatalf("UpdateState on an evicted fire: %+v", r)
	}
	if _, _, err := s.View().SettlementIfKnown("home.tick#999999"); !errors.Is(err, &Error{Reason: ReasonUnknownTransition}) {
		t.Fatalf("an id never fired: %v", err)
	}
	ev := s.View().Evicted()
	if ev.Fires < 190 || ev.Refusals < 30 || ev.Transitions < ev.Fires {
		t.Fatalf("evictions %+v", ev)
	}
	// The facts block counts every attempt and says how many are no
	// longer held: the history is never silently shortened.
	tr := s.View().GroundTruth(0, 0)
	// Held: the 10 fires (8 + the 2 needed) and the 8 refusals.
	if tr.Evicted != ev.Fires+ev.Refusals || tr.Omitted != 203+50-18 || len(tr.Attempts) != 18 {
		t.Fatalf("evicted %d omitted %d attempts %d (evictions %+v)", tr.Evicted, tr.Omitted, len(tr.Attempts), ev)
	}
	if !strings.Contains(tr.Text, "no longer held in detail") || !strings.Contains(tr.Text, "235 earlier attempt(s) omitted") {
		t.Fatalf("facts:\n%s", tr.Text)
	}
}

func TestRetentionBoundsFramesAsksAndWork(t *testing.T) {
	g, err := NewGraph("fa", GraphDef{Pages: []Page{{ID: "home", Actions: []Action{
		{Name: "buy", Does: "Buy it.", Confirm: true},
		{Name: "look", Does: "Look around."},
	}}}, Journeys: []Journey{{ID: "shop", Does: "Shop.", Steps: []string{"look", "buy"}}, {ID: "browse", Does: "Browse.", Steps: []string{"look"}}}})
	if err != nil {
		t.Fatal(err)
	}
	s := g.MustNewSession(Options{Retention: Retention{Closed: 4}})
	s.RegisterActions("home", Registration{Handlers: map[string]Handler{"buy": ok, "look": ok}})
	s.CommitJourney("browse", "")
	s.LeaveJourney("")
	for range 40 {
		s.CommitJourney("shop", "")
		s.Fire(context.Background(), "home.buy", FireOptions{}) // a pause: an ask
		s.LeaveJourney("")
		s.BeginWork("x", "").Done(nil)
	}
	// The newest 4, and browse's only frame, older, still needed.
	if n := len(s.View().Frames()); n != 4+1 {
		t.Fatalf("%d frames held", n)
	}
	if js, _ := s.View().Standing("browse"); js.Standing == StandingNotStarted {
		t.Fatal("the newest frame of a journey was evicted: it reads as never started")
	}
	if n := len(s.View().OpenWork()); n != 0 {
		t.Fatalf("%d work items open", n)
	}
	ev := s.View().Evicted()
	if ev.Frames == 0 || ev.Asks == 0 {
		t.Fatalf("%+v", ev)
	}
	if n := len(s.Asks().All()); n != 1 {
		t.Fatalf("the open card must stay in the book: %d", n)
	}
}

// In default mode, cards the model reports declined are answered asks:
// the newest are kept (and the facts say so), the rest are evicted and
// counted, so declines never grow without limit.
func TestDeclinedAsksAreBoundedByClosed(t *testing.T) {
	g, err := NewGraph("da", GraphDef{Pages: []Page{{ID: "home", Actions: []Action{{Name: "buy", Does: "Buy it.", Confirm: true}}}}})
	if err != nil {
		t.Fatal(err)
	}
	s := g.MustNewSession(Options{Retention: Retention{Closed: 4}})
	s.RegisterActions("home", Registration{Handlers: map[string]Handler{"buy": ok}})
	for range 40 {
		if _, err := s.Asks().ReportDecline("home.buy", FireOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(s.Asks().All()); n != 4 {
		t.Fatalf("%d declined cards held, want exactly 4", n)
	}
	if ev := s.View().Evicted(); ev.Asks != 40-4 {
		t.Fatalf("evicted %+v", ev)
	}
	if facts := s.View().Facts(0, 0); !strings.Contains(facts, "The human declined: home.buy") {
		t.Fatalf("the newest decline left the facts:\n%s", facts)
	}
}

// Every ledger holds exactly its bound, checked after every row, never
// half as many again between compactions (issue 26: ledgers held up to
// 1.5x their documented bound): transitions, gaps, commits and asks.
func TestRetentionIsExactAfterEveryRow(t *testing.T) {
	keep := Retention{Transitions: 5, Gaps: 3, Commits: 4, Closed: 2}
	g, err := NewGraph("exact", GraphDef{Pages: []Page{{ID: "home", Actions: []Action{
		{Name: "tick", Does: "Tick once."},
		{Name: "buy", Does: "Buy it.", Confirm: true},
		{Name: "shut", Does: "Never offered.", When: Guard{Eq("open", true)}},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	s := g.MustNewSession(Options{State: map[string]any{"open": false}, Retention: keep})
	s.RegisterActions("home", Registration{Handlers: map[string]Handler{"buy": ok}})
	held := func() (transitions, gaps, commits, asks int) {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.st.ledgers.records), len(s.st.ledgers.gaps), len(s.st.ledgers.commits), len(s.st.askBook.asks)
	}
	for i := range 100 {
		tick(t, s, 1)
		s.Fire(context.Background(), "home.shut", FireOptions{})
		s.UpdateState(map[string]any{"n": i}, "")
		if _, err := s.Asks().ReportDecline("home.buy", FireOptions{}); err != nil {
			t.Fatal(err)
		}
		tr, gp, cm, as := held()
		if tr > keep.Transitions || gp > keep.Gaps || cm > keep.Commits || as > keep.Closed {
			t.Fatalf("row %d: held %d transitions, %d gaps, %d commits, %d asks over %+v", i, tr, gp, cm, as, keep)
		}
	}
	// And the bound is what is held, not less.
	if tr, gp, cm, as := held(); tr != keep.Transitions || gp != keep.Gaps || cm != keep.Commits || as != keep.Closed {
		t.Fatalf("held %d transitions, %d gaps, %d commits, %d asks; want exactly %+v", tr, gp, cm, as, keep)
	}
	ev := s.View().Evicted()
	if ev.Gaps != 100-keep.Gaps || ev.Commits != 100-keep.Commits || ev.Asks != 100-keep.Closed {
		t.Fatalf("evicted %+v", ev)
	}
	// The newest rows are the ones held.
	if ts := s.View().Transitions(); ts[len(ts)-1].Kind != KindStimulus || len(s.View().Gaps()) != keep.Gaps {
		t.Fatalf("the newest rows must be held: %+v", ts[len(ts)-1])
	}
}

// BenchmarkRecordPastRetention is the amortized cost of recording a row
// once the ledgers are full: one fire (a transition row), one refusal (a
// gap row) and one state report (a commit) per op, under the default
// retention, each letting go of the oldest row as it is recorded.
func BenchmarkRecordPastRetention(b *testing.B) {
	s := historyGraph(b).MustNewSession(Options{State: map[string]any{"open": false}})
	ctx := context.Background()
	delta := map[string]any{"n": 1}
	for range 4096 {
		s.Fire(ctx, "home.tick", FireOptions{Source: ActorUser})
		s.Fire(ctx, "home.shut", FireOptions{})
		s.UpdateState(delta, "")
	}
	for b.Loop() {
		s.Fire(ctx, "home.tick", FireOptions{Source: ActorUser})
		s.Fire(ctx, "home.shut", FireOptions{})
		s.UpdateState(delta, "")
	}
}
