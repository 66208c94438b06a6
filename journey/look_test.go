package journey

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// TestLookAgreesWithEachRead: on a session nothing else moves, Look and
// FrameLook answer what the reads they gather answer one by one, at each
// step of a purchase; an unknown page or journey is the same typed error,
// and what is not asked for is left empty.
func TestLookAgreesWithEachRead(t *testing.T) {
	s := boundShop(t, Options{})
	steps := []struct {
		name string
		move func()
	}{
		{"off the graph", func() {}},
		{"catalog", func() { s.Sync("catalog") }},
		{"cart filled", func() { s.UpdateState(map[string]any{"cartCount": 1, "cart": []any{"d1"}}, "") }},
		{"journey open", func() {
			if r := s.CommitJourney("purchase", ActorAgent); !r.OK {
				t.Fatalf("commit: %+v", r)
			}
		}},
		// The fire comes to rest on its own after Fire returns: the look
		// is taken once it has, when nothing moves any more.
		{"fired", func() {
			r := mustFire(t, s, "catalog.go-checkout", FireOptions{Source: ActorAgent})
			if _, err := s.SettlementOf(context.Background(), r.TransitionID); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, st := range steps {
		st.move()
		v := s.View()
		lk := v.Look(LookQuery{WithChanged: true, ChangedSince: 0, Self: ActorAgent, FactsSince: []int64{0, 1}, WithBrief: true, RouteTo: "checkout"})
		if want := v.Here(); !reflect.DeepEqual(lk.Here, want) {
			t.Fatalf("%s: Here %+v, want %+v", st.name, lk.Here, want)
		}
		if want := v.KeysChangedByOthersSince(0, ActorAgent); !reflect.DeepEqual(lk.Changed, want) {
			t.Fatalf("%s: changed %v, want %v", st.name, lk.Changed, want)
		}
		if len(lk.Standings) != len(lk.Here.Journeys) {
			t.Fatalf("%s: %d standings for %d journeys", st.name, len(lk.Standings), len(lk.Here.Journeys))
		}
		for i, j := range lk.Here.Journeys {
			if want, _ := v.Standing(j.ID); lk.Standings[i] != want.Standing {
				t.Fatalf("%s: %s standing %q, want %q", st.name, j.ID, lk.Standings[i], want.Standing)
			}
		}
		if want := v.ContextBrief(); lk.Brief != want {
			t.Fatalf("%s: brief %+v, want %+v", st.name, lk.Brief, want)
		}
		for i, since := range []int64{0, 1} {
			if want := v.Facts(since, 0); lk.Facts[i] != want {
				t.Fatalf("%s: facts since %d %q, want %q", st.name, since, lk.Facts[i], want)
			}
		}
		route, reachable, err := v.HowToReach("checkout")
		if !reflect.DeepEqual(lk.Route, route) || lk.Reachable != reachable || err != nil || lk.RouteErr != nil {
			t.Fatalf("%s: route %v %v %v, want %v %v", st.name, lk.Route, lk.Reachable, lk.RouteErr, route, reachable)
		}
		fl := v.FrameLook("purchase", true, 0, ActorAgent)
		plan, _ := v.Plan("purchase")
		std, _ := v.Standing("purchase")
		f, open := v.Frame()
		if !reflect.DeepEqual(fl.Plan, plan) || fl.Standing != std.Standing || fl.Open != open || fl.Frame != f ||
			!reflect.DeepEqual(fl.Frames, v.Frames()) || !reflect.DeepEqual(fl.Changed, lk.Changed) || fl.PlanErr != nil {
			t.Fatalf("%s: FrameLook %+v disagrees with the reads one by one", st.name, fl)
		}
	}
	bare := s.View().Look(LookQuery{RouteTo: "nowhere"})
	var e *Error
	if !errors.As(bare.RouteErr, &e) || e.Reason != ReasonUnknownPage || bare.Reachable || bare.Route != nil {
		t.Fatalf("unknown page: %+v", bare)
	}
	if bare.Changed != nil || bare.Brief != (Brief{}) || len(bare.Facts) != 0 {
		t.Fatalf("reads not asked for were made: %+v", bare)
	}
	if fl := s.View().FrameLook("nope", false, 0, ""); !errors.As(fl.PlanErr, &e) || e.Reason != ReasonUnknownJourney || fl.Changed != nil {
		t.Fatalf("unknown journey: %+v", fl)
	}
}
