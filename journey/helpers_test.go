package journey

import (
	"context"
	"testing"
	"time"
)

type addInput struct {
	SKU string `json:"sku"`
	Qty int    `json:"qty,omitempty"`
}

// shopDef is the small shop every session test starts from.
func shopDef() GraphDef {
	return GraphDef{
		Pages: []Page{
			{ID: "catalog", Route: "/catalog", Actions: []Action{
				{Name: "add-to-cart", Does: "Add the selected dress to the cart", Writes: []string{"cart", "cartCount"}, Input: InputFor[addInput]()},
				{Name: "go-checkout", Does: "Go to checkout", GoTo: "checkout", When: Guard{Gt("cartCount", 0)}},
				{Name: "go-product", Does: "Open a product page", GoTo: "product"},
			}},
			{ID: "product", Route: "/products/:id", Actions: []Action{
				{Name: "back", Does: "Back to the catalog", GoTo: "catalog", Input: NoInput()},
			}},
			{ID: "checkout", Route: "/checkout", Actions: []Action{
				{Name: "place-order", Does: "Place the order", Confirm: true, Writes: []string{"orders"}, Reads: []string{"cart"},
					EnabledWhen: Guard{Eq("paymentReady", true)}, BlockedBecause: &Blocked{Says: "Add a card first", ClearedBy: "user"}},
				{Name: "pay", Does: "Pay for the order", Writes: []string{"paid"}, Concurrency: Concurrency{SingleFlight: true}},
				{Name: "to-catalog", Does: "Return to the catalog", GoTo: "catalog"},
			}, Containers: []Container{{Name: "lines", Repeats: true, Actions: []Action{
				{Name: "remove", Does: "Remove this line from the cart", Writes: []string{"cart"}},
			}}}},
		},
		Actions: []RootAction{{Action: Action{Name: "login", Does: "Sign in", Writes: []string{"user"}}, On: []string{"catalog", "checkout"}}},
		Journeys: []Journey{
			{ID: "purchase", Does: "Buy a dress end to end", Steps: []string{"add-to-cart", "go-checkout", "place-order"}},
			{ID: "vip-sale", Does: "Shop the VIP sale", Steps: []string{"add-to-cart"}, When: Guard{Eq("vip", true)}},
			{ID: "tidy", Does: "Remove a line at checkout", Steps: []string{"remove"}},
		},
	}
}

func shopGraph(t testing.TB) *Graph {
	t.Helper()
	g, err := NewGraph("shop", shopDef())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func ok(context.Context, any) (any, error) { return nil, nil }

// boundShop is a session with every handler registered on both pages.
func boundShop(t testing.TB, opts Options) *Session {
	t.Helper()
	s := shopGraph(t).MustNewSession(opts)
	if _, err := s.RegisterActions("catalog", Registration{Handlers: map[string]Handler{"add-to-cart": ok, "go-checkout": ok, "go-product": ok, "login": ok}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RegisterActions("checkout", Registration{Handlers: map[string]Handler{"place-order": ok, "pay": ok, "to-catalog": ok}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RegisterActions("product", Registration{Handlers: map[string]Handler{"back": ok}}); err != nil {
		t.Fatal(err)
	}
	return s
}

func settle(t testing.TB, s *Session, id string) Settlement {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := s.SettlementOf(ctx, id)
	if err != nil {
		t.Fatalf("SettlementOf(%s): %v", id, err)
	}
	return st
}

// waitFor waits until cond holds, checking it again on each of the
// session's own notifications (a transition, a state change, an ask)
// rather than on a timer; it fails naming what after five seconds.
func waitFor(t testing.TB, s *Session, what string, cond func() bool) {
	t.Helper()
	moved := make(chan struct{}, 1)
	poke := func() {
		select {
		case moved <- struct{}{}:
		default:
		}
	}
	defer s.OnTransition(func(Transition) { poke() })()
	defer s.OnState(func(StateChange) { poke() })()
	defer s.OnAsk(func(AskEvent) { poke() })()
	timeout := time.After(5 * time.Second)
	for !cond() {
		select {
		case <-moved:
		case <-timeout:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func mustFire(t testing.TB, s *Session, id string, o FireOptions) FireResult {
	t.Helper()
	r := s.Fire(context.Background(), id, o)
	if !r.OK {
		t.Fatalf("Fire(%s) refused: %+v", id, r)
	}
	return r
}
