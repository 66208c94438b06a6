package fixed

import (
	"context"
	"testing"

	"github.com/foldagent/foldagent/journey"
)

// did_it_work answers a fire the session recorded and has since evicted
// with its own constant, never as an id nobody fired.
func TestDidItWorkAnswersAnEvictedFire(t *testing.T) {
	g := journey.MustNewGraph("hist", journey.GraphDef{Pages: []journey.Page{{ID: "home", Actions: []journey.Action{
		{Name: "tick", Does: "Tick once."}}}}})
	s := g.MustNewSession(journey.Options{Retention: journey.Retention{Transitions: 4}})
	first := s.Fire(context.Background(), "home.tick", journey.FireOptions{Source: journey.ActorUser})
	for range 20 {
		s.Fire(context.Background(), "home.tick", journey.FireOptions{Source: journey.ActorUser})
	}
	p := Serve(s, Options{})
	r := p.Call(context.Background(), "hist.did_it_work", map[string]any{"transitionId": first.TransitionID})
	if r.Reason() != journey.ReasonTransitionEvicted || r.String("why") != evictedTransition || r.OK() {
		t.Fatalf("%s", r.JSON())
	}
	r = p.Call(context.Background(), "hist.did_it_work", map[string]any{"transitionId": "home.tick#9999"})
	if r.Reason() != journey.ReasonUnknownTransition {
		t.Fatalf("%s", r.JSON())
	}
}
