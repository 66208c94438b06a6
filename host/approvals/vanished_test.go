package approvals_test

import (
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/approvals"
)

// An agent withdraws its request just before the person's y, leaving no
// card: the y was meant for the card, and must not fall through to the
// application (where a y may answer a prompt of the application's own,
// one the agent opened beneath the card). Within the settle time after
// the card left, y and n answer nothing and reach nothing; after it, they
// are the application's again. Other keys are the application's always.
func TestAYMeantForAWithdrawnCardReachesNothing(t *testing.T) {
	d := approvals.NewDeck(approvals.Options{}).Ask(pay("q1", "order-1", 95), at(0))
	d = d.Withdraw("q1", at(5000))
	for _, k := range []string{"y", "n"} {
		if _, a, res := d.Key(k, at(5030)); res != approvals.Dropped || a.ID != "" {
			t.Fatalf("%s 30 ms after the card left: %v %+v, want Dropped", k, res, a)
		}
	}
	if _, _, res := d.Key("x", at(5030)); res != approvals.NotMine {
		t.Fatalf("another key: %v, want NotMine", res)
	}
	if _, _, res := d.Key("y", at(6000)); res != approvals.NotMine {
		t.Fatalf("y a settle time after the card left: %v, want NotMine", res)
	}
	// The person's own answer leaves no such window: their next y is the
	// application's.
	d, _ = approvals.NewDeck(approvals.Options{}).Update(agent.ApprovalAsked{Request: pay("q2", "order-1", 95)}, at(0))
	d, _, res := d.Key("y", at(2000))
	if res != approvals.Answered {
		t.Fatalf("y on the settled card: %v", res)
	}
	if _, _, res := d.Key("y", at(2030)); res != approvals.NotMine {
		t.Fatalf("y after the person's own answer: %v, want NotMine", res)
	}
}
