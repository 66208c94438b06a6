package journey_test

import (
	"context"
	"fmt"

	"github.com/foldagent/foldagent/journey"
)

func exampleShop() *journey.Graph {
	return journey.MustNewGraph("shop", journey.GraphDef{
		Pages: []journey.Page{
			{ID: "catalog", Route: "/catalog", Actions: []journey.Action{
				{Name: "add-to-cart", Does: "Add the selected dress to the cart", Writes: []string{"cart"}},
				{Name: "go-checkout", Does: "Go to checkout", GoTo: "checkout"},
			}},
			{ID: "checkout", Route: "/checkout", Actions: []journey.Action{
				{Name: "place-order", Does: "Place the order", Confirm: true, Writes: []string{"orders"}},
			}},
		},
		Journeys: []journey.Journey{
			{ID: "purchase", Does: "Buy a dress end to end", Steps: []string{"add-to-cart", "go-checkout", "place-order"}},
		},
	})
}

// A fire is recorded at once and comes to rest when the app reports the
// state change it caused; the facts block grades it from the record.
func Example() {
	ctx := context.Background()
	s := exampleShop().MustNewSession(journey.Options{State: map[string]any{"cart": []any{}}})
	s.RegisterActions("catalog", journey.Registration{Handlers: map[string]journey.Handler{
		"add-to-cart": journey.Typed(func(ctx context.Context, _ struct{}) (any, error) {
			id, _ := journey.TransitionIDFrom(ctx)
			s.UpdateState(map[string]any{"cart": []any{"dress-1"}}, id)
			return nil, nil
		}),
	}})

	r := s.Fire(ctx, "catalog.add-to-cart", journey.FireOptions{})
	fmt.Println(r.TransitionID, r.EffectStatus)

	st, _ := s.SettlementOf(ctx, r.TransitionID)
	fmt.Println(st.EffectStatus, st.Outcome, st.EffectVerified)
	fmt.Println(s.View().GroundTruth(0, 0).Attempts[0].Line)
	// Output:
	// catalog.add-to-cart#2 pending
	// performed committed true
	//   • DID happen — agent fired catalog.add-to-cart (committed; effect observed)
}

// A high-effect action fired by an agent without confirmation pauses:
// nothing fires, an ask with receipts is minted, and the caller confirms
// (or reports a decline) on the human's word.
func ExampleSession_Fire_confirm() {
	ctx := context.Background()
	s := exampleShop().MustNewSession(journey.Options{Page: "checkout"})
	s.RegisterActions("checkout", journey.Registration{Handlers: map[string]journey.Handler{
		"place-order": journey.Typed(func(context.Context, struct{}) (any, error) { return nil, nil }),
	}})

	pause := s.Fire(ctx, "checkout.place-order", journey.FireOptions{})
	fmt.Println(pause.OK, pause.NeedsConfirm, pause.AskID, pause.Receipts.WillDo.Does)

	done := s.Fire(ctx, "checkout.place-order", journey.FireOptions{Confirm: true})
	ask, _ := s.Asks().Get(pause.AskID)
	fmt.Println(done.OK, ask.Answer, ask.TransitionID == done.TransitionID)
	// Output:
	// false true ask#1 Place the order
	// true approved true
}

// HowToReach answers with the declared hops: the actions whose goTo claims
// the next page, fewest first.
func ExampleView_HowToReach() {
	s := exampleShop().MustNewSession(journey.Options{})
	route, reachable, _ := s.View().HowToReach("checkout")
	fmt.Println(reachable, route)
	// Output:
	// true [{catalog.go-checkout checkout}]
}

// Authoring mistakes fail when the graph is built, naming the culprit.
func ExampleNewGraph() {
	_, err := journey.NewGraph("shop", journey.GraphDef{Pages: []journey.Page{{ID: "catalog", Actions: []journey.Action{
		{Name: "go-checkout", Does: "Go to checkout", GoTo: "checkout"},
	}}}})
	fmt.Println(err)
	// Output:
	// journey: graph "shop": action "catalog.go-checkout": goTo names unknown page "checkout"
}

// A typed handler: the fire's input arrives as the function's own type,
// and what it returns is the fire's produced data.
func ExampleTyped() {
	g := journey.MustNewGraph("shop", journey.GraphDef{Pages: []journey.Page{{ID: "catalog", Actions: []journey.Action{
		{Name: "search", Does: "Search the catalog.", Input: journey.InputSchemaJSON([]byte(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`))},
	}}}})
	s := g.MustNewSession(journey.Options{})
	type query struct {
		Q string `json:"q"`
	}
	s.RegisterActions("catalog", journey.Registration{Handlers: map[string]journey.Handler{
		"search": journey.Typed(func(_ context.Context, in query) (map[string]any, error) {
			return map[string]any{"searched": in.Q}, nil
		}),
	}})
	r := s.Fire(context.Background(), "catalog.search", journey.FireOptions{Input: map[string]any{"q": "dress"}})
	st, _ := s.SettlementOf(context.Background(), r.TransitionID)
	fmt.Println(st.EffectStatus, st.Produced)
	// Output: performed map[searched:dress]
}
