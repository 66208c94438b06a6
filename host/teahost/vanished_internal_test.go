package teahost

import (
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// The agent withdraws its request 30 ms before the person's y: the y
// neither answers nor reaches the application (where it could answer a
// prompt of the application's own). A settle time later y is the
// application's again.
func TestAYForAWithdrawnCardIsNotTheApplications(t *testing.T) {
	w, c := deckHost(t, typist{})
	w, _ = w.feed(agent.ApprovalAsked{Request: request("q1", 95)})
	c.at(5000)
	w, _ = w.feed(agent.ApprovalWithdrawn{ID: "q1", Why: agent.WithdrawnCancelled})
	c.at(5030)
	w, out := w.feed(key("y"))
	if len(answers(out)) != 0 || w.inner.(typist).keys != "" {
		t.Fatalf("the y meant for the withdrawn card: answers %+v, application saw %q", answers(out), w.inner.(typist).keys)
	}
	c.at(6100)
	w, _ = w.feed(key("y"))
	if k := w.inner.(typist).keys; k != "y" {
		t.Fatalf("a y a settle time after: the application saw %q", k)
	}
}
