package fixed

import (
	"context"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/journey"
)

// onScreenSession is a one-page app whose payment the app itself asks the
// person to approve on their screen (PersonApproves), beside a high-effect
// action it does not.
func onScreenSession(t *testing.T) *journey.Session {
	t.Helper()
	g, err := journey.NewGraph("app", journey.GraphDef{
		Pages: []journey.Page{{ID: "review", Route: "/", Actions: []journey.Action{
			{Name: "pay", Does: "Pay for the order.", Confirm: true, PersonApproves: true, Writes: []string{"paid"}},
			{Name: "wipe", Does: "Delete the order.", Confirm: true, Writes: []string{"order"}},
		}}},
		Journeys: []journey.Journey{
			{ID: "buy", Does: "Pay for the order.", Steps: []string{"pay"}},
			{ID: "clean", Does: "Delete the order.", Steps: []string{"wipe"}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := g.MustNewSession(journey.Options{State: map[string]any{"paid": false}})
	s.Sync("review")
	// The payment waits (for the person, in the app) until the test ends.
	wait := make(chan struct{})
	t.Cleanup(func() { close(wait) })
	held := func(ctx context.Context, _ any) (any, error) { <-wait; return nil, nil }
	if _, err := s.RegisterActions("review", journey.Registration{Handlers: map[string]journey.Handler{"pay": held, "wipe": held}}); err != nil {
		t.Fatal(err)
	}
	return s
}

// A step the person approves on their own screen is one question, asked
// there: the model is told so before it calls (the tool description and
// the ready row), and the call fires at once instead of pausing for a yes
// in the chat. A high-effect step the app does not ask about still pauses.
func TestOnScreenApprovalIsAskedOnce(t *testing.T) {
	s := onScreenSession(t)
	p := Serve(s, Options{})
	ctx := context.Background()
	descs := map[string]string{}
	for _, tool := range p.Tools() {
		descs[tool.Name] = tool.Description
	}
	if d := descs["app.journey.buy"]; !strings.Contains(d, "personApproves") || strings.Contains(d, "needs-confirm") {
		t.Errorf("the on-screen journey's description: %q", d)
	}
	if d := descs["app.journey.clean"]; strings.Contains(d, "personApproves") || !strings.Contains(d, "needs-confirm") {
		t.Errorf("the chat-confirm journey's description: %q", d)
	}
	open := p.Call(ctx, "app.journey.buy", nil)
	if !strings.Contains(string(open.JSON()), `"step":"review.pay","does":"Pay for the order.","highEffect":true,"personApproves":true`) {
		t.Fatalf("the ready row does not say the person approves it: %s", open.JSON())
	}
	paid := p.Call(ctx, "app.journey.buy", map[string]any{"step": "pay"})
	if j, _ := paid.Get("judgment"); j == "needs-confirm" || paid.Has("askId") || !paid.Has("transitionId") {
		t.Fatalf("the on-screen step paused for a yes in the chat: %s", paid.JSON())
	}

	// While the person decides, every answer says so, and only that.
	id, _ := paid.Get("transitionId")
	work := s.BeginWork("pay", id.(string)) // the app's work on it, as a bound app opens it
	defer work.Done(nil)
	if err := s.Asks().HeldForPerson(id.(string), "card-1"); err != nil {
		t.Fatal(err)
	}
	here := p.Call(ctx, "app.whats_here", nil)
	did := p.Call(ctx, "app.did_it_work", map[string]any{"transitionId": id})
	frame := p.Call(ctx, "app.journey.buy", nil)
	for what, text := range map[string]string{"the step's result": string(paid.JSON()), "whats_here": string(here.JSON()),
		"did_it_work": string(did.JSON()), "the journey": string(frame.JSON())} {
		if !strings.Contains(text, "the person") || strings.Contains(text, "Waiting on the app") || strings.Contains(text, "still working") ||
			strings.Contains(text, "has not reported back") || strings.Contains(text, "Awaiting the human's decision") {
			t.Errorf("%s, while the person decides: %s", what, text)
		}
	}

	p.Call(ctx, "app.journey.clean", nil)
	wiped := p.Call(ctx, "app.journey.clean", map[string]any{"step": "wipe"})
	if j, _ := wiped.Get("judgment"); j != "needs-confirm" {
		t.Fatalf("the chat-confirm step fired without a yes: %s", wiped.JSON())
	}
}

// A request withdrawn before the person answered (what it covered moved,
// the review closed, the caller left) is said as that in the facts and
// the brief, with the reason code as data, never as the app refusing it.
func TestWithdrawnApprovalIsSaidPlainly(t *testing.T) {
	s := onScreenSession(t)
	p := Serve(s, Options{})
	ctx := context.Background()
	p.Call(ctx, "app.journey.buy", nil)
	paid := p.Call(ctx, "app.journey.buy", map[string]any{"step": "pay"})
	id, _ := paid.Get("transitionId")
	if err := s.Asks().HeldForPerson(id.(string), "card-1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Asks().PersonAnswered("card-1", journey.PersonWithdrawn, "the person"); err != nil {
		t.Fatal(err)
	}
	if err := s.Reject(id.(string), journey.OutcomeRejected, &journey.SettleError{Reason: journey.ReasonStaleCursor}); err != nil {
		t.Fatal(err)
	}
	here := p.Call(ctx, "app.whats_here", nil)
	facts, _ := here.Get("facts")
	brief, _ := here.Get("brief")
	f, b := facts.(string), brief.(string)
	if !strings.Contains(f, "withdrawn before the person answered: STALE_CURSOR") || strings.Contains(f, "refused it") {
		t.Errorf("the facts: %s", f)
	}
	if !strings.Contains(b, "Withdrawn before the person answered") || strings.Contains(b, "Refused by the app") {
		t.Errorf("the brief: %s", b)
	}
	truth := s.View().GroundTruth(0, 0)
	if a := truth.Attempts[len(truth.Attempts)-1]; a.Refused != journey.ReasonStaleCursor {
		t.Errorf("the attempt's code as data: %+v", a)
	}
}
