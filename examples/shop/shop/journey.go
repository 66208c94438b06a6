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
// instances read. order is the newest paid order, absent until one is.
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
		"address": m.Address, "addressSet": m.Address != ""}
	if o, ok := m.LastPaid(); ok {
		s["order"] = map[string]any{"id": o.ID, "total": o.Total, "status": o.Status}
	}
	return s
}

// Journey is the store's navigation graph, declared over the contract:
// every action names the capability that performs it, and the page and
// state view are projections of the Model.
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
			{Name: "set-address", Does: "Set the delivery address.", Capability: SetAddressCap, Writes: []string{"address", "addressSet"}},
			{Name: "place-order", Does: "Place the order and pay for it.", Capability: PlaceOrderCap, Confirm: true,
				Writes: []string{"order"}, Reads: []string{"cart", "address"},
				BlockedBecause: &journey.Blocked{Says: "Add a delivery address first.", ClearedBy: "user"},
				Concurrency:    journey.Concurrency{SingleFlight: true}},
			{Name: "back-to-cart", Does: "Back to the cart.", Capability: GoCartCap, GoTo: PageCart},
		}},
	},
	Journeys: []journey.Journey{
		{ID: "purchase", Does: "Buy a product: open it, add it to the cart, check out, give an address and pay.",
			Steps: []string{"open-product", "add-to-cart", "go-cart", "checkout", "set-address", "place-order"}},
		{ID: "find", Does: "Find a product by name and open it.", Steps: []string{"search", "open-product"}},
		{ID: "pay-cart", Does: "Pay for what is already in the cart: check out, give an address and pay.",
			Steps: []string{"checkout", "set-address", "place-order"}},
	},
}
