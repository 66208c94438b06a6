package journeymcp_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/fixed"
	"github.com/foldagent/foldagent/journey/journeymcp"
)

// part3Store is a checkout whose payment is once-only, whose delivery
// address is the person's decision, whose card entry is human-only and
// whose payment waits behind a review modal until the person closes it.
func part3Store(t *testing.T) *journey.Session {
	t.Helper()
	g := journey.MustNewGraph("shop3", journey.GraphDef{
		Pages: []journey.Page{{ID: "checkout", Actions: []journey.Action{
			{Name: "change-address", Does: "Change the delivery address", Writes: []string{"address"},
				HumanDecides: &journey.HumanDecides{About: "address"}},
			{Name: "enter-card", Does: "Enter a payment card", Writes: []string{"card"},
				Policy: journey.PrincipalPolicy{MayInvoke: []journey.Actor{journey.ActorUser}}},
			{Name: "pay", Does: "Pay for the order", Writes: []string{"paid"}, Confirm: true, Concurrency: journey.Concurrency{Once: true}},
		}, Containers: []journey.Container{{Name: "review", Modal: true, Actions: []journey.Action{{Name: "close-review", Does: "Close the review"}}}}}},
		Journeys: []journey.Journey{{ID: "buy", Does: "Pay for the order", Steps: []string{"change-address", "pay"}}},
	})
	s := g.MustNewSession(journey.Options{State: map[string]any{"paid": false}})
	pay := func(ctx context.Context, _ any) (any, error) {
		id, _ := journey.TransitionIDFrom(ctx)
		s.UpdateState(map[string]any{"paid": true}, id)
		return nil, nil
	}
	if _, err := s.RegisterActions("checkout", journey.Registration{Handlers: map[string]journey.Handler{
		"change-address": ok, "enter-card": ok, "pay": pay, "review.close-review": ok}}); err != nil {
		t.Fatal(err)
	}
	return s
}

func ok(context.Context, any) (any, error) { return nil, nil }

// TestPart3OverMCP drives a whole checkout through a real MCP client: the
// person's step served apart from the ready ones, the payment masked by
// the review modal and a human-only control refused with no card, a stale
// expectedVersion refused, then one payment and its refused duplicate.
// No domain refusal is an MCP error.
func TestPart3OverMCP(t *testing.T) {
	s := part3Store(t)
	s.Show("checkout.review")
	cs := connect(t, newServer(t, fixed.Serve(s, fixed.Options{}), &journeymcp.Options{SettleWithin: 5 * time.Second}))

	frame, isErr := call(t, cs, "shop3.journey.buy", nil)
	if isErr || frame["standing"] != "with-the-human" || len(rowsOfAny(frame["withTheHuman"])) != 1 || len(rowsOfAny(frame["readySteps"])) != 0 {
		t.Fatalf("%v", frame)
	}
	for action, reason := range map[string]string{"pay": "BLOCKED_BY_OVERLAY", "enter-card": "PRINCIPAL_NOT_ALLOWED"} {
		r, isErr := call(t, cs, "shop3.do_action", map[string]any{"action": action})
		if isErr || r["reason"] != reason || r["askId"] != nil {
			t.Fatalf("%s: %v", action, r)
		}
	}
	if len(s.Asks().All()) != 0 {
		t.Fatal("a card was minted for a control the model cannot fire")
	}
	// The person closes the review.
	s.SetVisible("checkout.review", false)
	r, _ := call(t, cs, "shop3.do_action", map[string]any{"action": "pay", "confirm": true, "expectedVersion": 0})
	if r["reason"] != "STALE_CURSOR" || r["version"].(float64) == 0 {
		t.Fatalf("%v", r)
	}
	r, _ = call(t, cs, "shop3.do_action", map[string]any{"action": "pay", "confirm": true, "expectedVersion": r["version"]})
	if r["ok"] != true || r["effectStatus"] != "performed" {
		t.Fatalf("the payment (folded): %v", r)
	}
	first := r["transitionId"]
	r, _ = call(t, cs, "shop3.do_action", map[string]any{"action": "pay", "confirm": true})
	if r["reason"] != "DUPLICATE_EXECUTION" || r["priorTransitionId"] != first {
		t.Fatalf("%v", r)
	}
}

// TestPart3ConcurrentPaymentsFireOnce is the fault test for once-only: a
// burst of concurrent confirmed payments over MCP fires exactly one; every
// other call is refused PRIOR_FIRE_PENDING or DUPLICATE_EXECUTION.
func TestPart3ConcurrentPaymentsFireOnce(t *testing.T) {
	s := part3Store(t)
	cs := connect(t, newServer(t, fixed.Serve(s, fixed.Options{}), &journeymcp.Options{SettleWithin: time.Second}))
	const n = 16
	var wg sync.WaitGroup
	results := make([]map[string]any, n)
	for i := range n {
		wg.Go(func() {
			results[i], _ = call(t, cs, "shop3.do_action", map[string]any{"action": "pay", "confirm": true})
		})
	}
	wg.Wait()
	fired := 0
	for _, r := range results {
		switch {
		case r["ok"] == true:
			fired++
		case r["reason"] == "PRIOR_FIRE_PENDING" || r["reason"] == "DUPLICATE_EXECUTION":
		default:
			t.Fatalf("unexpected: %v", r)
		}
	}
	fires := 0
	for _, tr := range s.View().Transitions() {
		if tr.Action == "checkout.pay" {
			fires++
		}
	}
	if fired != 1 || fires != 1 {
		t.Fatalf("%d accepted, %d recorded; want exactly one", fired, fires)
	}
}

func rowsOfAny(v any) []any { xs, _ := v.([]any); return xs }
