package journey

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// rungsSession: a and b both write x, c writes y, once writes z and may be
// done once.
func rungsSession(t *testing.T, opts Options, handlers map[string]Handler) *Session {
	t.Helper()
	g := MustNewGraph("r", GraphDef{Pages: []Page{{ID: "p", Actions: []Action{
		{Name: "a", Does: "Write x", Writes: []string{"x"}},
		{Name: "b", Does: "Write x too", Writes: []string{"x"}},
		{Name: "c", Does: "Write y", Writes: []string{"y"}},
		{Name: "once", Does: "Write z once", Writes: []string{"z"}, Concurrency: Concurrency{Once: true}},
		{Name: "touch", Does: "Touch nothing"},
	}}}})
	if opts.State == nil {
		opts.State = map[string]any{}
	}
	s := g.MustNewSession(opts)
	hs := map[string]Handler{"a": ok, "b": ok, "c": ok, "once": ok, "touch": ok}
	for k, h := range handlers {
		hs[k] = h
	}
	if _, err := s.RegisterActions("p", Registration{Handlers: hs}); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestHandlerWindowRung(t *testing.T) {
	var s *Session
	got := make(chan StateReport, 2)
	release := make(chan struct{})
	kept := make(chan context.Context, 1)
	s = rungsSession(t, Options{}, map[string]Handler{
		"touch": func(ctx context.Context, _ any) (any, error) { kept <- ctx; return nil, nil },
		"c": func(ctx context.Context, _ any) (any, error) {
			// Reported from the handler's own context, naming nothing,
			// with keys that are not c's declared writes.
			got <- s.ReportStateContext(ctx, map[string]any{"w": 1}, ReportOptions{})
			<-release
			return nil, nil
		},
	})
	fr := mustFire(t, s, "p.c", FireOptions{})
	rep := <-got
	if !rep.OK || rep.Basis != BasisHandlerWindow || rep.TransitionID != fr.TransitionID {
		t.Fatalf("a report from inside the handler goes to its fire: %+v", rep)
	}
	tr, _ := s.View().Transition(fr.TransitionID)
	if tr.Attribution == nil || tr.Attribution.Basis != BasisHandlerWindow || tr.Inferred || tr.EffectVerified != ObservedNo {
		t.Fatalf("%+v", tr)
	}
	close(release)
	// The window closes when the handler returns: its context, kept
	// past it, no longer attributes anything. (touch settles only after
	// its handler returned, so the wait is exact.)
	touch := mustFire(t, s, "p.touch", FireOptions{})
	settle(t, s, touch.TransitionID)
	ctx := <-kept
	if rep := s.ReportStateContext(ctx, map[string]any{"w": 2}, ReportOptions{}); rep.Basis != BasisStimulus {
		t.Fatalf("after the handler returned: %+v", rep)
	}
	// Without a handler's context the rung never applies.
	if rep := s.ReportState(map[string]any{"w": 3}, ReportOptions{}); rep.Basis != BasisStimulus {
		t.Fatalf("%+v", rep)
	}
}

func TestInferredFireRung(t *testing.T) {
	s := rungsSession(t, Options{}, nil)
	// Exactly c's writes, nothing pending: an inferred fire of c.
	rep := s.UpdateState(map[string]any{"y": 1}, "")
	if !rep.OK || rep.Basis != BasisInferred || !strings.HasPrefix(rep.TransitionID, "p.c#") {
		t.Fatalf("%+v", rep)
	}
	tr, _ := s.View().Transition(rep.TransitionID)
	if tr.Kind != KindFired || tr.Actor != ActorUnknown || !tr.Inferred || tr.Action != "p.c" || tr.Outcome != OutcomeCommitted {
		t.Fatalf("%+v", tr)
	}
	if b, _ := json.Marshal(tr); !strings.Contains(string(b), `"principal":"unknown"`) || !strings.Contains(string(b), `"inferred":true`) {
		t.Fatalf("%s", b)
	}
	// Nobody fired it: no settlement, no attempt.
	if _, err := s.SettlementOf(context.Background(), rep.TransitionID); err == nil {
		t.Fatal("an inferred row opened a settlement")
	}
	truth := s.View().GroundTruth(0, 0)
	if len(truth.Attempts) != 0 || len(truth.Changes) != 1 || !truth.Changes[0].Inferred || truth.Changes[0].Action != "p.c" ||
		truth.Changes[0].Basis != BasisInferred {
		t.Fatalf("%+v %+v", truth.Attempts, truth.Changes)
	}
	if want := changeInferred + "p.c" + changeInferredTail; !strings.Contains(truth.Text, want) || !strings.Contains(truth.Text, "inferred, not observed") {
		t.Fatalf("facts lack the inferred line:\n%s", truth.Text)
	}
	// x is written by two actions: no single writer, a stimulus.
	if rep := s.UpdateState(map[string]any{"x": 1}, ""); rep.Basis != BasisStimulus {
		t.Fatalf("%+v", rep)
	}
	// Keys beyond c's writes: not exactly c's, a stimulus.
	if rep := s.UpdateState(map[string]any{"y": 2, "w": 1}, ""); rep.Basis != BasisStimulus {
		t.Fatalf("%+v", rep)
	}
	// With a fire pending, no inference even for a sole writer.
	mustFire(t, s, "p.a", FireOptions{})
	if rep := s.UpdateState(map[string]any{"y": 3}, ""); rep.Basis != BasisStimulus {
		t.Fatalf("with a fire pending: %+v", rep)
	}
	// A principal is the app's word: never inferred.
	s2 := rungsSession(t, Options{}, nil)
	if rep := s2.ReportState(map[string]any{"y": 1}, ReportOptions{Principal: ActorUser}); rep.Basis != BasisPrincipal {
		t.Fatalf("%+v", rep)
	}
}

func TestStrictAttributionSkipsQueueOrder(t *testing.T) {
	for _, tc := range []struct {
		policy AttributionPolicy
		basis  Basis
	}{{"", BasisQueue}, {AttributionDefault, BasisQueue}, {AttributionStrict, BasisStimulus}} {
		s := rungsSession(t, Options{AttributionPolicy: tc.policy}, nil)
		a := mustFire(t, s, "p.a", FireOptions{})
		b := mustFire(t, s, "p.b", FireOptions{})
		rep := s.UpdateState(map[string]any{"x": 1}, "")
		if rep.Basis != tc.basis {
			t.Fatalf("policy %q: %+v", tc.policy, rep)
		}
		if tc.basis == BasisQueue && rep.TransitionID != a.TransitionID {
			t.Fatalf("queue-order credits the oldest: %+v", rep)
		}
		if tc.policy == AttributionStrict && len(s.View().Pending()) != 2 {
			t.Fatalf("strict credited someone: %+v", s.View().Pending())
		}
		// A sole signature match is credited under every policy.
		s.UpdateState(nil, a.TransitionID)
		if rep := s.UpdateState(map[string]any{"x": 2}, ""); rep.Basis != BasisSignature || rep.TransitionID != b.TransitionID {
			t.Fatalf("policy %q: %+v", tc.policy, rep)
		}
	}
	g := MustNewGraph("r", GraphDef{Pages: []Page{{ID: "p", Actions: []Action{{Name: "a", Does: "A"}}}}})
	if _, err := g.NewSession(Options{AttributionPolicy: "lenient"}); err == nil {
		t.Fatal("an unknown policy was accepted")
	}
}

func TestOnceRepeatedAfterThePersonActs(t *testing.T) {
	s := rungsSession(t, Options{}, nil)
	first := mustFire(t, s, "p.once", FireOptions{})
	s.UpdateState(map[string]any{"z": 1}, first.TransitionID)
	settle(t, s, first.TransitionID)
	// Something not the person's since the receipt: still a duplicate.
	s.ReportState(map[string]any{"w": 1}, ReportOptions{Principal: ActorSystem})
	if fr := s.Fire(context.Background(), "p.once", FireOptions{}); fr.Reason != ReasonDuplicate || fr.Repeated {
		t.Fatalf("%+v", fr)
	}
	// The person acts: the next fire proceeds, carrying repeated.
	user := mustFire(t, s, "p.touch", FireOptions{Source: ActorUser})
	settle(t, s, user.TransitionID)
	again := s.Fire(context.Background(), "p.once", FireOptions{})
	if !again.OK || !again.Repeated {
		t.Fatalf("%+v", again)
	}
	tr, _ := s.View().Transition(again.TransitionID)
	if !tr.Repeated {
		t.Fatalf("%+v", tr)
	}
	s.UpdateState(map[string]any{"z": 2}, again.TransitionID)
	settle(t, s, again.TransitionID)
	// The repeat is the new receipt: nothing of the person's since it.
	if fr := s.Fire(context.Background(), "p.once", FireOptions{}); fr.Reason != ReasonDuplicate || fr.PriorTransitionID != again.TransitionID {
		t.Fatalf("%+v", fr)
	}
}
