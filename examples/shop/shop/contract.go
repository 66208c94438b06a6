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

// PayInput is what pay takes: the order to pay.
type PayInput struct {
	Order string `json:"order" jsonschema:"the id of the order under review" bounds:"maxLength=32"`
}

// AddInput is what add_to_cart takes: the product is the one open. The
// quantity is bounded in the contract (MaxQty), advertised in its schema
// and refused beyond on every route.
type AddInput struct {
	Qty int `json:"qty,omitempty" jsonschema:"how many to add; omitted means one" bounds:"minimum=1,maximum=99"`
}

// MaxQty is the most add_to_cart adds at once (AddInput's bounds tag).
const MaxQty = 99

func on(pages ...string) func(Model) bool {
	return func(m Model) bool { return slices.Contains(pages, m.Page) }
}

// notSo refuses a call because the store is not in the state it needs
// (agent.RefuseState): who asks does not matter.
func notSo(reason string) (agent.Decision, error) { return agent.RefuseState(reason), nil }

// What the store's calls depend on, named once and listed by each
// capability that builds its Message from it (see agent.Watch).
var (
	// OpenProductWatch is the product whose page is open.
	OpenProductWatch = agent.Watching("openProduct", func(m Model) string { return m.Product })
	// OrderUnderReviewWatch is the order being checked out, as the
	// review shows it.
	OrderUnderReviewWatch = agent.Watching("orderUnderReview", ReviewOf)
)

// Review is the order under review as the person and the agent see it:
// what pay pays for.
type Review struct {
	Order   string `json:"order"`
	Lines   []Line `json:"lines"`
	Total   int    `json:"total"`
	Address string `json:"address"`
}

// ReviewOf is the order under review in m; the zero Review when there is
// none.
func ReviewOf(m Model) Review {
	o, ok := m.CurrentOrder()
	if !ok {
		return Review{Lines: []Line{}}
	}
	return Review{Order: o.ID, Lines: orEmpty(o.Lines), Total: o.Total, Address: m.Address}
}

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
		// A SKU the store does not sell is missing, not forbidden.
		Exists: func(in OpenProduct, _ Model) (string, bool) {
			_, ok := Find(in.SKU)
			return "/sku", ok
		},
		Missing: "The store sells no product with that SKU; search with an empty query lists every SKU it sells.",
	})
	AddToCartCap = agent.ExposeMapped(mapped[AddInput, AddToCart]{
		Name: "add_to_cart", Description: "Put the open product in the cart.",
		Available: on(PageProduct),
		ToMessage: func(in AddInput, c call) AddToCart { return AddToCart{SKU: c.Model.Product, Qty: in.Qty} },
		// The product added is the one open when the call runs: it must
		// be the one the caller saw open.
		Watches: []agent.Watch[Model]{OpenProductWatch},
	})
	GoCartCap = agent.Expose(variant[GoCart]{
		Name: "go_to_cart", Description: "Go to the cart.",
		// Not while the order review is open over the checkout page.
		Available: func(m Model) bool { return m.Page == PageProduct || (m.Page == PageCheckout && !m.Review) },
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
		Exists: func(in RemoveLine, m Model) (string, bool) {
			return "/sku", slices.ContainsFunc(m.Cart, func(l Line) bool { return l.SKU == in.SKU })
		},
		Missing: "The cart holds no line with that SKU; read the cart for the lines it holds.",
	})
	// The delivery address is not here: changing it is the person's
	// decision, made in the app itself (SetAddress), and no agent, on any
	// route, is offered it. The journey says so (change-address).
	OpenReviewCap = agent.Expose(variant[OpenReview]{
		Name: "open_review", Description: "Open the review of the order being checked out, where it is paid.",
		// The review shows the delivery, so it opens once the person has
		// given the address; each requirement says what comes first.
		Requires: []agent.Requirement[Model]{
			{Holds: func(m Model) bool { return m.Page == PageCheckout && m.Current != "" }, Says: "The review opens at checkout: check out the cart first."},
			{Holds: func(m Model) bool { return m.AddressConfirmed }, Says: "The person gives the delivery address first."},
		},
	})
	CloseReviewCap = agent.Expose(variant[CloseReview]{
		Name: "close_review", Description: "Close the order review.",
		Available: func(m Model) bool { return m.Review },
	})
	// PayCap is asynchronous: the payment starts at once, and the call
	// completes when the payment server answers, paid or refused. It is
	// offered only from the open review of an order whose delivery
	// address the person has given; an order already paid is refused.
	PayCap = agent.ExposeMapped(mapped[PayInput, PayOrder]{
		Name: "pay", Description: "Pay for the order under review. Returns once the payment server has answered; a refused payment is reported as failed, with its reason.",
		Available: func(m Model) bool {
			return m.Page == PageCheckout && m.Review && m.Current != "" && m.AddressConfirmed
		},
		// Every refusal here is the state of the store, not who asks:
		// AgentStateError on every surface.
		Authorize: func(_ context.Context, in PayInput, c call) (agent.Decision, error) {
			o, ok := c.Model.CurrentOrder()
			switch {
			case !ok || o.ID != in.Order:
				return notSo("Only the order under review can be paid; its id is in the view's checkout.")
			case o.Status == Paid:
				return notSo("That order is already paid. A new order is made by checking out again.")
			case o.Status == Paying:
				return notSo("That order's payment is already under way.")
			}
			return agent.Allow, nil
		},
		ToMessage: func(in PayInput, c call) PayOrder { return PayOrder{Order: in.Order, Request: c.Invocation.ID} },
		// What is paid is the order under review as the caller saw it:
		// its lines, total and delivery address.
		Watches: []agent.Watch[Model]{OrderUnderReviewWatch},
		// The person approves every payment, in the app, shown the order
		// under review (the watched value): its lines, total and
		// delivery address.
		Approval: &agent.Approval[PayInput, Model, agent.NoPrincipal]{Summary: "Pay for the order under review."},
		Completion: agent.CompleteOn(
			agent.On(func(_ PayInput, got PaymentSucceeded, inv agent.Invocation) bool { return got.Request == inv.ID }),
		).FailOn(
			agent.On(func(_ PayInput, got PaymentRefused, inv agent.Invocation) bool { return got.Request == inv.ID }),
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
	// Checkout is the order being checked out, and Review whether its
	// review is open.
	Checkout *Order  `json:"checkout,omitempty"`
	Review   bool    `json:"review"`
	Orders   []Order `json:"orders"`
}

// ViewOf projects the Model to what an agent reads.
func ViewOf(m Model) View {
	v := View{Page: m.Page, Results: []Product{}, Cart: orEmpty(m.Cart), Address: m.Address, Orders: orEmpty(m.Orders)}
	if p, ok := Find(m.Product); ok && m.Page == PageProduct {
		v.Product = &p
	}
	if o, ok := m.CurrentOrder(); ok {
		v.Checkout, v.Review = &o, m.Review
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
			SearchCap, OpenProductCap, AddToCartCap, GoCartCap, GoCatalogCap, CheckoutCap, RemoveLineCap, OpenReviewCap, CloseReviewCap, PayCap,
		},
	})
}
