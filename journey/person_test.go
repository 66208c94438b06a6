package journey

import (
	"strings"
	"testing"
)

// While the application holds a fire for the person's approval, the facts
// name the person, not the app; once the person approved, the fire waits
// on the app again.
func TestFactsNameThePersonWhileTheyDecide(t *testing.T) {
	g := MustNewGraph("t", GraphDef{Pages: []Page{{ID: "p", Actions: []Action{{Name: "pay", Does: "Pay", Writes: []string{"k"}}}}}})
	s := g.MustNewSession(Options{State: map[string]any{}, AllowUnmaterializedFires: true})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"pay": ok}})
	f := mustFire(t, s, "p.pay", FireOptions{})
	if err := s.Asks().HeldForPerson(f.TransitionID, "q1"); err != nil {
		t.Fatal(err)
	}
	text := s.View().GroundTruth(0, 0).Text
	if want := factsAwaitingPerson + "p.pay (" + f.TransitionID + ")."; !strings.Contains(text, want) || strings.Contains(text, "Awaiting the app's report") {
		t.Fatalf("facts while the person decides:\n%s\nwant %q and no app line", text, want)
	}
	if err := s.Asks().PersonAnswered("q1", PersonApproved, "the person"); err != nil {
		t.Fatal(err)
	}
	text = s.View().GroundTruth(0, 0).Text
	if !strings.Contains(text, "Awaiting the app's report: p.pay ("+f.TransitionID+").") || strings.Contains(text, factsAwaitingPerson) {
		t.Fatalf("facts once approved:\n%s", text)
	}
}
