package shop

import (
	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
)

type (
	page      = bind.Page[Model, agent.NoPrincipal]
	action    = bind.Action[Model, agent.NoPrincipal]
	container = bind.Container[Model, agent.NoPrincipal]
)

// State is the journey's state view of the Model: what guards, writes and
// instances read. order is the newest paid order, absent until one is;
// checkoutOrder is the id of the order being checked out (the instance
// pay acts on), absent before the first checkout; addressConfirmed is
// whether the person has given the delivery address.
func State(m Model) map[string]any {
	lines := make([]any, len(m.Cart))
	skus := make([]any, len(m.Cart))
	for i, l := range m.Cart {
		lines[i] = map[string]any{"sku": l.SKU, "qty": l.Qty}
		skus[i] = l.SKU
	}
	results := make([]any, len(m.Results))
	for i, r := range m.Results {
		results[i] = r
	}
	s := map[string]any{"results": results, "cart": lines, "cartSkus": skus, "cartCount": m.CartCount(),
		"address": m.Address, "addressConfirmed": m.AddressConfirmed}
	if m.Current != "" {
		s["checkoutOrder"] = m.Current
	}
	if o, ok := m.LastPaid(); ok {
		s["order"] = map[string]any{"id": o.ID, "total": o.Total, "status": o.Status}
	}
	return s
}

// Journey is the store's navigation graph, declared over the contract:
// every action names the capability that performs it, and the page, the
// state view and the order review's visibility are projections of the
// Model. Three declarations carry what a real store needs:
//
//   - the payment is once-only per order: pay sits in a repeating
//     container whose instance is the order, with Once and PerInstance,
//     so a second payment of a paid order is refused DUPLICATE_EXECUTION
//     naming the payment that settled, and the next order can be paid;
//   - changing the delivery address is the person's decision, and only
//     theirs: change-address is HumanDecides and human-only, names no
//     capability (the contract does not expose one), and is made when the
//     person gives the address in the app (addressConfirmed);
//   - the payment sits in the order review, a modal the Model opens
//     (open-review): until it is open, pay is served but not clickable
//     (NODE_NOT_VISIBLE), and while it is open it masks the rest of the
//     page (BLOCKED_BY_OVERLAY).
var Journey = bind.Def[Model, agent.NoPrincipal]{
	Does:  "A small clothing store.",
	Page:  func(m Model) string { return m.Page },
	State: State,
	Pages: []page{
		{ID: PageCatalog, Route: "/", Does: "The catalog", Actions: []action{
			{Name: "search", Does: "Search the catalog by name.", Capability: SearchCap, Writes: []string{"results"}},
			{Name: "open-product", Does: "Open a product's page.", Capability: OpenProductCap, GoTo: PageProduct},
		}},
		{ID: PageProduct, Route: "/products/:sku", Does: "One product", Actions: []action{
			{Name: "add-to-cart", Does: "Put this product in the cart.", Capability: AddToCartCap, Writes: []string{"cart", "cartCount"}},
			{Name: "go-cart", Does: "Go to the cart.", Capability: GoCartCap, GoTo: PageCart},
			{Name: "back", Does: "Back to the catalog.", Capability: GoCatalogCap, GoTo: PageCatalog},
		}},
		{ID: PageCart, Route: "/cart", Does: "The cart", Actions: []action{
			{Name: "checkout", Does: "Go to checkout.", Capability: CheckoutCap, GoTo: PageCheckout,
				BlockedBecause: &journey.Blocked{Says: "The cart is empty.", ClearedBy: "user"}},
			{Name: "shop-more", Does: "Back to the catalog.", Capability: GoCatalogCap, GoTo: PageCatalog},
		}, Containers: []container{{Name: "lines", Repeats: true,
			Instances: func(v journey.StateView) []string {
				skus, _ := v.Get("cartSkus")
				var out []string
				if xs, ok := skus.([]any); ok {
					for _, x := range xs {
						if s, ok := x.(string); ok {
							out = append(out, s)
						}
					}
				}
				return out
			},
			Actions: []action{{Name: "remove", Does: "Take this line out of the cart.", Capability: RemoveLineCap, InstanceField: "sku", Writes: []string{"cart", "cartCount"}}},
		}}},
		{ID: PageCheckout, Route: "/checkout", Does: "Checkout", Actions: []action{
			{Name: "change-address", Does: "Change the delivery address.", Writes: []string{"address", "addressConfirmed"},
				HumanDecides: &journey.HumanDecides{About: "delivery-address", DoneWhen: journey.Guard{journey.Eq("addressConfirmed", true)}},
				Policy:       journey.PrincipalPolicy{MayInvoke: []journey.Actor{journey.ActorUser}},
				Holds:        func(m Model) any { return m.Address }},
			{Name: "open-review", Does: "Open the order review, where the order is paid.", Capability: OpenReviewCap,
				BlockedBecause: &journey.Blocked{Says: "The person gives the delivery address first.", ClearedBy: "user"}},
			{Name: "back-to-cart", Does: "Back to the cart.", Capability: GoCartCap, GoTo: PageCart},
		}, Containers: []container{{Name: "review", Modal: true, Does: "The order review",
			Shown: func(m Model) bool { return m.Page == PageCheckout && m.Review },
			Actions: []action{
				{Name: "close-review", Does: "Close the order review.", Capability: CloseReviewCap},
			},
			Containers: []container{{Name: "order", Repeats: true,
				Instances: func(v journey.StateView) []string {
					if id, ok := v.Get("checkoutOrder"); ok {
						if s, ok := id.(string); ok {
							return []string{s}
						}
					}
					return nil
				},
				Actions: []action{
					{Name: "pay", Does: "Pay for this order.", Capability: PayCap, InstanceField: "order", Confirm: true,
						Writes: []string{"order"}, Reads: []string{"cart", "address"},
						Concurrency: journey.Concurrency{Once: true, PerInstance: true}},
				}}},
		}}},
	},
	Journeys: []journey.Journey{
		{ID: "purchase", Does: "Buy a product: open it, add it to the cart, check out, have the person give the address, review and pay.",
			Steps: []string{"open-product", "add-to-cart", "go-cart", "checkout", "change-address", "open-review", "pay"}},
		{ID: "find", Does: "Find a product by name and open it.", Steps: []string{"search", "open-product"}},
		{ID: "pay-cart", Does: "Pay for what is already in the cart: check out, have the person give the address, review and pay.",
			Steps: []string{"checkout", "change-address", "open-review", "pay"}},
	},
}
