package shop

import (
	"context"
	"slices"
	"time"

	"github.com/foldagent/foldagent/agent"
)

type (
	variant[M any]    = agent.Variant[M, Model, agent.NoPrincipal]
	mapped[In, M any] = agent.Mapped[In, M, Model, agent.NoPrincipal]
	call              = agent.Call[Model, agent.NoPrincipal]
)

// AddInput is what add_to_cart takes: the product is the one open.
type AddInput struct {
	Qty int `json:"qty,omitempty" jsonschema:"how many to add; omitted means one"`
}

func on(pages ...string) func(Model) bool {
	return func(m Model) bool { return slices.Contains(pages, m.Page) }
}

func refuse(reason string) (agent.Decision, error) { return agent.RefuseBecause(reason), nil }

// The store's capabilities, declared once. The journey (Journey) names
// them by these handles, so renaming one here renames it everywhere.
var (
	SearchCap = agent.Expose(variant[Search]{
		Name: "search", Description: "Search the catalog by product name.", ReadOnly: true,
		Available: on(PageCatalog),
	})
	OpenProductCap = agent.Expose(variant[OpenProduct]{
		Name: "open_product", Description: "Open a product's page, by its SKU.",
		Available: on(PageCatalog),
		Authorize: func(_ context.Context, in OpenProduct, _ call) (agent.Decision, error) {
			if _, ok := Find(in.SKU); !ok {
				return refuse("The store does not sell a product with that SKU; search the catalog for one it does.")
			}
			return agent.Allow, nil
		},
	})
	AddToCartCap = agent.ExposeMapped(mapped[AddInput, AddToCart]{
		Name: "add_to_cart", Description: "Put the open product in the cart.",
		Available: on(PageProduct),
		ToMessage: func(in AddInput, c call) AddToCart { return AddToCart{SKU: c.Model.Product, Qty: in.Qty} },
	})
	GoCartCap = agent.Expose(variant[GoCart]{
		Name: "go_to_cart", Description: "Go to the cart.",
		Available: on(PageProduct, PageCheckout),
	})
	GoCatalogCap = agent.Expose(variant[GoCatalog]{
		Name: "go_to_catalog", Description: "Go back to the catalog.",
		Available: on(PageProduct, PageCart),
	})
	CheckoutCap = agent.Expose(variant[GoCheckout]{
		Name: "checkout", Description: "Go from the cart to checkout.",
		Available: func(m Model) bool { return m.Page == PageCart && len(m.Cart) > 0 },
	})
	RemoveLineCap = agent.Expose(variant[RemoveLine]{
		Name: "remove_from_cart", Description: "Take a line out of the cart, by its SKU.", Destructive: true,
		Available: on(PageCart),
		Authorize: func(_ context.Context, in RemoveLine, c call) (agent.Decision, error) {
			if !slices.ContainsFunc(c.Model.Cart, func(l Line) bool { return l.SKU == in.SKU }) {
				return refuse("The cart holds no line with that SKU.")
			}
			return agent.Allow, nil
		},
	})
	SetAddressCap = agent.Expose(variant[SetAddress]{
		Name: "set_address", Description: "Set the delivery address.",
		Available: on(PageCheckout),
		Authorize: func(_ context.Context, in SetAddress, _ call) (agent.Decision, error) {
			if len(in.Address) == 0 || len(in.Address) > 200 {
				return refuse("A delivery address must be given, in at most 200 characters.")
			}
			return agent.Allow, nil
		},
	})
	// PlaceOrderCap is asynchronous: the order is placed at once, and the
	// call completes when the payment server answers, paid or refused.
	PlaceOrderCap = agent.ExposeMapped(mapped[agent.NoInput, PlaceOrder]{
		Name: "place_order", Description: "Place the order for the cart and pay for it. Returns once the payment server has answered; a refused payment is reported as failed, with its reason.",
		Available: func(m Model) bool { return m.Page == PageCheckout && m.Address != "" && len(m.Cart) > 0 },
		ToMessage: func(_ agent.NoInput, c call) PlaceOrder { return PlaceOrder{Request: c.Invocation.ID} },
		Completion: agent.CompleteOn(
			agent.On(func(_ agent.NoInput, got PaymentSucceeded, inv agent.Invocation) bool { return got.Request == inv.ID }),
		).FailOn(
			agent.On(func(_ agent.NoInput, got PaymentRefused, inv agent.Invocation) bool { return got.Request == inv.ID }),
		).Within(30 * time.Second),
	})
)

// View is the context an agent reads: the store as the shopper sees it.
type View struct {
	Page    string    `json:"page"`
	Product *Product  `json:"product,omitempty"`
	Results []Product `json:"results"`
	Cart    []Line    `json:"cart"`
	Address string    `json:"address"`
	Orders  []Order   `json:"orders"`
}

// ViewOf projects the Model to what an agent reads.
func ViewOf(m Model) View {
	v := View{Page: m.Page, Results: []Product{}, Cart: orEmpty(m.Cart), Address: m.Address, Orders: orEmpty(m.Orders)}
	if p, ok := Find(m.Product); ok && m.Page == PageProduct {
		v.Product = &p
	}
	for _, sku := range m.Results {
		p, _ := Find(sku)
		v.Results = append(v.Results, p)
	}
	return v
}

func orEmpty[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// Contract is the store's agent contract: the capabilities above and the
// view as context. Both ways of serving the store (dynamic tools, fixed
// journey tools) serve this one contract.
func Contract() *agent.Contract[Model, agent.NoPrincipal] {
	return agent.Make(agent.Definition[Model, agent.NoPrincipal]{
		Context: agent.Project(ViewOf),
		Capabilities: []agent.Capability[Model, agent.NoPrincipal]{
			SearchCap, OpenProductCap, AddToCartCap, GoCartCap, GoCatalogCap, CheckoutCap, RemoveLineCap, SetAddressCap, PlaceOrderCap,
		},
	})
}
