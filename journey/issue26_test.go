package journey

import (
	"strings"
	"testing"
)

// Reject with a SettleError brings a pending fire to rest with the whole refusal: its
// code, the sentence, and the application's report as data. The facts
// line names the code with a library sentence, never the app's text.
func TestRejectWithCarriesCodeSentenceAndData(t *testing.T) {
	s := armsGraph().MustNewSession(Options{State: map[string]any{}})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"write": ok, "write2": ok}})
	r := mustFire(t, s, "p.write", FireOptions{})
	e := &SettleError{Reason: ReasonAppFailed, Message: "our sentence", Data: []byte(`{"tag":"Refused","message":{"reason":"app text"}}`)}
	if err := s.Reject(r.TransitionID, "", e); err != nil {
		t.Fatal(err)
	}
	e.Message = "changed after" // the session keeps its own copy
	st := settle(t, s, r.TransitionID)
	if st.Outcome != OutcomeRejected || st.EffectStatus != EffectRefused || st.Error == nil ||
		st.Error.Reason != ReasonAppFailed || st.Error.Message != "our sentence" || string(st.Error.Data) != `{"tag":"Refused","message":{"reason":"app text"}}` {
		t.Fatalf("%+v %+v", st, st.Error)
	}
	facts := s.View().Facts(0, 0)
	if !strings.Contains(facts, "p.write (the app refused it: APP_FAILED"+noteAppFailed+")") || strings.Contains(facts, "app text") || strings.Contains(facts, "our sentence") {
		t.Fatalf("facts: %s", facts)
	}
	// No error at all is REJECTED, as Reject says.
	r2 := mustFire(t, s, "p.write2", FireOptions{})
	if err := s.Reject(r2.TransitionID, "", nil); err != nil {
		t.Fatal(err)
	}
	if st := settle(t, s, r2.TransitionID); st.Error == nil || st.Error.Reason != ReasonRejected {
		t.Fatalf("%+v", st.Error)
	}
}

// A once-only step per instance, done in an earlier round of its
// journey, is not the new round's step done while the steps before it
// are still to do; once they are, and no new instance appeared, it is.
func TestPerInstanceOnceDoneInAnEarlierRound(t *testing.T) {
	keys := []string{"a"}
	g := MustNewGraph("o", GraphDef{Pages: []Page{{ID: "p", Actions: []Action{{Name: "make", Does: "Make an order"}},
		Containers: []Container{{Name: "orders", Repeats: true,
			Instances: func(StateView) []string { return keys },
			Actions:   []Action{{Name: "pay", Does: "Pay this order", Concurrency: Concurrency{Once: true, PerInstance: true}}}}}}},
		Journeys: []Journey{{ID: "buy", Does: "Make an order and pay it", Steps: []string{"make", "pay"}}}})
	s := g.MustNewSession(Options{})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"make": ok, "orders.pay": ok}})
	step := func(id string) PlanStep {
		t.Helper()
		plan, _ := s.View().Plan("buy")
		for _, st := range plan.Steps {
			if st.Step == id {
				return st
			}
		}
		t.Fatalf("no step %s", id)
		return PlanStep{}
	}
	if cr := s.CommitJourney("buy", ActorAgent); !cr.OK {
		t.Fatalf("%+v", cr)
	}
	settle(t, s, mustFire(t, s, "p.make", FireOptions{}).TransitionID)
	paid := mustFire(t, s, "p.orders.pay", FireOptions{Instance: "a"})
	settle(t, s, paid.TransitionID)
	if st := step("p.orders.pay"); st.Status != StepDone || st.PriorInstance != "" {
		t.Fatalf("this round's payment: %+v", st)
	}
	s.LeaveJourney("completed")
	if cr := s.CommitJourney("buy", ActorAgent); !cr.OK {
		t.Fatalf("%+v", cr)
	}
	st := step("p.orders.pay")
	if st.Status == StepDone || st.PriorTransitionID != paid.TransitionID || st.PriorInstance != "a" || st.Fireable() {
		t.Fatalf("the new round's payment: %+v", st)
	}
	// The new round makes its order: b is the one to pay.
	settle(t, s, mustFire(t, s, "p.make", FireOptions{}).TransitionID)
	if st := step("p.orders.pay"); st.Status != StepDone || st.PriorInstance != "" {
		t.Fatalf("every step before it done, no new instance: %+v", st)
	}
	keys = []string{"a", "b"}
	if st := step("p.orders.pay"); st.Status != StepReady || !st.Fireable() || st.PriorInstance != "" || st.PriorTransitionID != "" {
		t.Fatalf("order b: %+v", st)
	}
}
