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

	if n := len(s.Transitions()); n > keep.Transitions*3/2+3 {
		t.Fatalf("%d transition rows held under a bound of %d", n, keep.Transitions)
	}
	if n := len(s.Gaps()); n > keep.Gaps*3/2 {
		t.Fatalf("%d gap rows held under a bound of %d", n, keep.Gaps)
	}
	// The open fire and each action's latest fire are never evicted.
	if ids := s.AwaitingSettlement(); len(ids) != 1 || ids[0] != pending.TransitionID {
		t.Fatalf("awaiting %v", ids)
	}
	if _, _, err := s.SettlementIfKnown(pending.TransitionID); err != nil {
		t.Fatalf("an open fire was evicted: %v", err)
	}
	if st, ok, err := s.SettlementIfKnown(once.TransitionID); err != nil || !ok || st.Action != "home.once" {
		t.Fatalf("an action's latest settlement was evicted: %+v %v", st, err)
	}
	if r := s.UpdateState(map[string]any{"draft": 1}, ""); r.TransitionID != pending.TransitionID || r.Basis != BasisSignature {
		t.Fatalf("the old open fire is no longer attributable: %+v", r)
	}
	// An evicted fire is answered as such, everywhere; an id nobody fired
	// is still unknown.
	for name, err := range map[string]error{
		"SettlementIfKnown": func() error { _, _, err := s.SettlementIfKnown(first.TransitionID); return err }(),
		"Reject":            s.Reject(first.TransitionID, ""),
	} {
		if !errors.Is(err, &Error{Reason: ReasonTransitionEvicted}) {
			t.Fatalf("%s on an evicted fire: %v", name, err)
		}
	}
	if r := s.UpdateState(map[string]any{"x": 1}, first.TransitionID); r.Reason != ReasonTransitionEvicted {
		t.Fatalf("UpdateState on an evicted fire: %+v", r)
	}
	if _, _, err := s.SettlementIfKnown("home.tick#999999"); !errors.Is(err, &Error{Reason: ReasonUnknownTransition}) {
		t.Fatalf("an id never fired: %v", err)
	}
	ev := s.Evicted()
	if ev.Fires < 190 || ev.Refusals < 30 || ev.Transitions < ev.Fires {
		t.Fatalf("evictions %+v", ev)
	}
	// The facts block counts every attempt and says how many are no
	// longer held: the history is never silently shortened.
	tr := s.GroundTruth(0, 0)
	if tr.Evicted != ev.Fires+ev.Refusals || tr.Omitted != 203+50-20 || len(tr.Attempts) != 20 {
		t.Fatalf("evicted %d omitted %d attempts %d (evictions %+v)", tr.Evicted, tr.Omitted, len(tr.Attempts), ev)
	}
	if !strings.Contains(tr.Text, "no longer held in detail") || !strings.Contains(tr.Text, "233 earlier attempt(s) omitted") {
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
	if n := len(s.Frames()); n > 4*3/2+2 {
		t.Fatalf("%d frames held", n)
	}
	if js, _ := s.Standing("browse"); js.Standing == StandingNotStarted {
		t.Fatal("the newest frame of a journey was evicted: it reads as never started")
	}
	if n := len(s.OpenWork()); n != 0 {
		t.Fatalf("%d work items open", n)
	}
	ev := s.Evicted()
	if ev.Frames == 0 || ev.Asks == 0 {
		t.Fatalf("%+v", ev)
	}
	if n := len(s.Asks()); n != 1 {
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
		if _, err := s.ReportDecline("home.buy", FireOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(s.Asks()); n == 0 || n > 4*3/2 {
		t.Fatalf("%d declined cards held, want between 1 and 6", n)
	}
	if ev := s.Evicted(); ev.Asks < 40-6 {
		t.Fatalf("evicted %+v", ev)
	}
	if facts := s.Facts(0, 0); !strings.Contains(facts, "The human declined: home.buy") {
		t.Fatalf("the newest decline left the facts:\n%s", facts)
	}
}
