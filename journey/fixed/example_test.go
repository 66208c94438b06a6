package fixed_test

import (
	"context"
	"fmt"

	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/fixed"
)

// A model drives a session through a port: a fixed tool set, and results
// that say what can be done now. The high-effect step pauses for the
// human first; only confirm: true fires it.
func ExampleServe() {
	g := journey.MustNewGraph("shop", journey.GraphDef{
		Pages: []journey.Page{
			{ID: "catalog", Actions: []journey.Action{
				{Name: "add-to-cart", Does: "Add the dress to the cart.", Writes: []string{"cart"}},
				{Name: "go-checkout", Does: "Go to checkout.", GoTo: "checkout"},
			}},
			{ID: "checkout", Actions: []journey.Action{
				{Name: "place-order", Does: "Place the order.", Confirm: true},
			}},
		},
		Journeys: []journey.Journey{{ID: "purchase", Does: "Buy a dress end to end.", Steps: []string{"add-to-cart", "go-checkout", "place-order"}}},
	})
	s := g.MustNewSession(journey.Options{})
	noop := func(context.Context, any) (any, error) { return nil, nil }
	s.RegisterActions("catalog", journey.Registration{Handlers: map[string]journey.Handler{"add-to-cart": noop, "go-checkout": noop}})
	s.RegisterActions("checkout", journey.Registration{Handlers: map[string]journey.Handler{"place-order": noop}})

	port := fixed.Serve(s, fixed.Options{})
	fmt.Println(port.ToolNames())

	ctx := context.Background()
	r := port.Call(ctx, "shop.journey.purchase", nil)
	fmt.Println(r.Judgment())
	for _, step := range []string{"add-to-cart", "go-checkout"} {
		r = port.Call(ctx, "shop.journey.purchase", map[string]any{"step": step})
		id := r.String("transitionId")
		port.WhenSettled(ctx, id)
	}
	r = port.Call(ctx, "shop.journey.purchase", map[string]any{"step": "place-order"})
	performed, _ := r.Get("performed")
	fmt.Println(r.Judgment(), performed)
	r = port.Call(ctx, "shop.journey.purchase", map[string]any{"step": "place-order", "confirm": true})
	fmt.Println(r.OK(), r.String("did"))
	// Output:
	// [shop.journey.purchase shop.whats_here shop.why shop.do_action shop.did_it_work]
	// needs-choice
	// needs-confirm false
	// true checkout.place-order
}
