package shop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/foldagent/foldagent/journey"
)

// Product is one thing the store sells.
type Product struct {
	SKU   string `json:"sku"`
	Name  string `json:"name"`
	Price int    `json:"price"`
}

// Catalog is what the store sells. The payment server refuses any order
// holding a gift card.
var Catalog = []Product{
	{SKU: "dress-red", Name: "Red dress", Price: 120},
	{SKU: "dress-blue", Name: "Blue dress", Price: 95},
	{SKU: "gift-card", Name: "Gift card", Price: 50},
}

type skuInput struct {
	SKU string `json:"sku"`
}

type queryInput struct {
	Q string `json:"q"`
}

type qtyInput struct {
	Qty int `json:"qty,omitempty"`
}

type addressInput struct {
	Address string `json:"address"`
}

// Graph is the store's navigation graph, declared once.
var Graph = journey.MustNewGraph("shop", journey.GraphDef{
	Does: "A small clothing store.",
	Pages: []journey.Page{
		{ID: "catalog", Route: "/", Does: "The catalog", Actions: []journey.Action{
			{Name: "search", Does: "Search the catalog by name.", Writes: []string{"results"}, Input: journey.InputFor[queryInput]()},
			{Name: "open-product", Does: "Open a product's page.", GoTo: "product", Input: journey.InputFor[skuInput]()},
		}},
		{ID: "product", Route: "/products/:sku", Does: "One product", Actions: []journey.Action{
			{Name: "add-to-cart", Does: "Put this product in the cart.", Writes: []string{"cart", "cartCount"}, Input: journey.InputFor[qtyInput]()},
			{Name: "go-cart", Does: "Go to the cart.", GoTo: "cart", Input: journey.NoInput()},
			{Name: "back", Does: "Back to the catalog.", GoTo: "catalog", Input: journey.NoInput()},
		}},
		{ID: "cart", Route: "/cart", Does: "The cart", Actions: []journey.Action{
			{Name: "checkout", Does: "Go to checkout.", GoTo: "checkout", When: journey.Guard{journey.Gt("cartCount", 0)}, Input: journey.NoInput()},
			{Name: "shop-more", Does: "Back to the catalog.", GoTo: "catalog", Input: journey.NoInput()},
		}, Containers: []journey.Container{{Name: "lines", Repeats: true,
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
			Actions: []journey.Action{{Name: "remove", Does: "Take this line out of the cart.", Writes: []string{"cart", "cartCount"}, Input: journey.NoInput()}},
		}}},
		{ID: "checkout", Route: "/checkout", Does: "Checkout", Actions: []journey.Action{
			{Name: "set-address", Does: "Set the delivery address.", Writes: []string{"address", "addressSet"}, Input: journey.InputFor[addressInput]()},
			{Name: "place-order", Does: "Place the order and pay for it.", Confirm: true, Writes: []string{"order"}, Reads: []string{"cart", "address"},
				Input: journey.NoInput(), EnabledWhen: journey.Guard{journey.Eq("addressSet", true)},
				BlockedBecause: &journey.Blocked{Says: "Add a delivery address first.", ClearedBy: "user"},
				Concurrency:    journey.Concurrency{SingleFlight: true}},
			{Name: "back-to-cart", Does: "Back to the cart.", GoTo: "cart", Input: journey.NoInput()},
		}},
	},
	Journeys: []journey.Journey{
		{ID: "purchase", Does: "Buy a product: open it, add it to the cart, check out, give an address and pay.",
			Steps: []string{"open-product", "add-to-cart", "go-cart", "checkout", "set-address", "place-order"}},
		{ID: "find", Does: "Find a product by name and open it.", Steps: []string{"search", "open-product"}},
		{ID: "pay-cart", Does: "Pay for what is already in the cart: check out, give an address and pay.",
			Steps: []string{"checkout", "set-address", "place-order"}},
	},
})

// Options configure a store. The zero value works.
type Options struct {
	// PayDelay is how long the payment server takes to answer; zero
	// means 600 ms, longer than an MCP server's default settle ceiling,
	// so a model sees the order pending and asks did_it_work.
	PayDelay time.Duration
	// Session options (RequireHumanApproval, …); State is set by the
	// store.
	Session journey.Options
}

// Line is one line of the cart.
type Line struct {
	SKU string `json:"sku"`
	Qty int    `json:"qty"`
}

// Order is a placed order.
type Order struct {
	ID     string `json:"id"`
	Lines  []Line `json:"lines"`
	Total  int    `json:"total"`
	Status string `json:"status"` // awaiting-payment, paid, refused
}

// Store is the running store: its model and the session it reports to.
type Store struct {
	Session *journey.Session

	payDelay time.Duration
	mu       sync.Mutex
	product  string
	cart     []Line
	address  string
	orders   []*Order
	payments sync.WaitGroup
}

// New opens a store and binds every action.
func New(opts Options) (*Store, error) {
	so := opts.Session
	so.State = map[string]any{"cartCount": 0, "cartSkus": []any{}, "addressSet": false}
	s, err := Graph.NewSession(so)
	if err != nil {
		return nil, err
	}
	st := &Store{Session: s, payDelay: opts.PayDelay}
	if st.payDelay == 0 {
		st.payDelay = 600 * time.Millisecond
	}
	regs := map[string]map[string]journey.Handler{
		"catalog":  {"search": st.search, "open-product": st.openProduct},
		"product":  {"add-to-cart": st.addToCart, "go-cart": st.navigate("cart"), "back": st.navigate("catalog")},
		"cart":     {"checkout": st.navigate("checkout"), "shop-more": st.navigate("catalog"), "lines.remove": st.remove},
		"checkout": {"set-address": st.setAddress, "place-order": st.placeOrder, "back-to-cart": st.navigate("cart")},
	}
	for page, hs := range regs {
		if _, err := s.RegisterActions(page, journey.Registration{Handlers: hs}); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// Wait blocks until every payment already handed to the payment server
// has been answered. (A place-order handler runs after its fire returns;
// to wait for one order, wait on its transition id with the session's
// SettlementOf.)
func (st *Store) Wait() { st.payments.Wait() }

// Orders returns copies of the placed orders.
func (st *Store) Orders() []Order {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]Order, len(st.orders))
	for i, o := range st.orders {
		out[i] = *o
		out[i].Lines = slices.Clone(o.Lines)
	}
	return out
}

// decode reads a handler's input into its Go shape. The session has
// already checked it against the schema derived from that shape.
func decode[T any](in any) T {
	var v T
	if b, err := json.Marshal(in); err == nil {
		_ = json.Unmarshal(b, &v)
	}
	return v
}

func product(sku string) (Product, bool) {
	i := slices.IndexFunc(Catalog, func(p Product) bool { return p.SKU == sku })
	if i < 0 {
		return Product{}, false
	}
	return Catalog[i], true
}

func (st *Store) report(ctx context.Context, delta map[string]any) {
	id, _ := journey.TransitionIDFrom(ctx)
	st.Session.UpdateState(delta, id)
}

func (st *Store) search(ctx context.Context, in any) (any, error) {
	q := strings.ToLower(decode[queryInput](in).Q)
	found := []any{}
	var list []Product
	for _, p := range Catalog {
		if strings.Contains(strings.ToLower(p.Name), q) {
			found = append(found, p.SKU)
			list = append(list, p)
		}
	}
	st.report(ctx, map[string]any{"results": found})
	return list, nil
}

// openProduct opens a product's page. A SKU the store does not sell is
// refused (the fire comes to rest rejected, and the navigation it
// claimed is walked back): the store never shows a page it cannot fill.
func (st *Store) openProduct(ctx context.Context, in any) (any, error) {
	sku := decode[skuInput](in).SKU
	p, ok := product(sku)
	if !ok {
		// p is the zero Product here: returned beside the error, it is
		// not something the fire produced, and the session keeps it out
		// of the fire's data.
		return p, fmt.Errorf("no product %q", sku)
	}
	st.mu.Lock()
	st.product = sku
	st.mu.Unlock()
	st.Session.Sync("/products/" + sku)
	return p, nil
}

func (st *Store) navigate(page string) journey.Handler {
	return func(context.Context, any) (any, error) {
		st.Session.Sync(page)
		return nil, nil
	}
}

func (st *Store) cartDelta() map[string]any {
	lines := make([]any, len(st.cart))
	skus := make([]any, len(st.cart))
	n := 0
	for i, l := range st.cart {
		lines[i] = map[string]any{"sku": l.SKU, "qty": l.Qty}
		skus[i] = l.SKU
		n += l.Qty
	}
	return map[string]any{"cart": lines, "cartSkus": skus, "cartCount": n}
}

func (st *Store) addToCart(ctx context.Context, in any) (any, error) {
	qty := decode[qtyInput](in).Qty
	if qty <= 0 {
		qty = 1
	}
	st.mu.Lock()
	sku := st.product
	if i := slices.IndexFunc(st.cart, func(l Line) bool { return l.SKU == sku }); i >= 0 {
		st.cart[i].Qty += qty
	} else {
		st.cart = append(st.cart, Line{SKU: sku, Qty: qty})
	}
	delta := st.cartDelta()
	st.mu.Unlock()
	st.report(ctx, delta)
	return nil, nil
}

func (st *Store) remove(ctx context.Context, _ any) (any, error) {
	id, _ := journey.TransitionIDFrom(ctx)
	t, _ := st.Session.Transition(id)
	st.mu.Lock()
	st.cart = slices.DeleteFunc(st.cart, func(l Line) bool { return l.SKU == t.Instance })
	delta := st.cartDelta()
	st.mu.Unlock()
	st.report(ctx, delta)
	return nil, nil
}

func (st *Store) setAddress(ctx context.Context, in any) (any, error) {
	addr := strings.TrimSpace(decode[addressInput](in).Address)
	if addr == "" {
		return nil, errors.New("the address is empty")
	}
	st.mu.Lock()
	st.address = addr
	st.mu.Unlock()
	st.report(ctx, map[string]any{"address": addr, "addressSet": true})
	return nil, nil
}

// placeOrder records the order and hands the payment to the payment
// server, which answers after PayDelay: paid (the order comes to rest,
// performed) or refused (the fire is rejected). Until then the fire is
// pending and the store has work open for it.
func (st *Store) placeOrder(ctx context.Context, _ any) (any, error) {
	id, _ := journey.TransitionIDFrom(ctx)
	st.mu.Lock()
	if len(st.cart) == 0 {
		st.mu.Unlock()
		return nil, errors.New("the cart is empty")
	}
	o := &Order{ID: fmt.Sprintf("order-%d", len(st.orders)+1), Lines: slices.Clone(st.cart), Status: "awaiting-payment"}
	refuse := false
	for _, l := range o.Lines {
		p, _ := product(l.SKU)
		o.Total += p.Price * l.Qty
		refuse = refuse || l.SKU == "gift-card"
	}
	st.orders = append(st.orders, o)
	st.mu.Unlock()
	work := st.Session.BeginWork("charging the card", id)
	st.payments.Add(1)
	go func() {
		defer st.payments.Done()
		time.Sleep(st.payDelay)
		st.mu.Lock()
		if refuse {
			o.Status = "refused"
			st.mu.Unlock()
			work.Done(nil)
			// The payment server's own reason rides as data, so a
			// model can read why rather than only that it failed.
			st.Session.RejectBecause(id, journey.OutcomeRejected, "the payment server does not accept orders holding a gift card")
			return
		}
		o.Status = "paid"
		st.cart = nil
		delta := st.cartDelta()
		delta["order"] = map[string]any{"id": o.ID, "total": o.Total, "status": o.Status}
		st.mu.Unlock()
		work.Done(nil)
		st.Session.UpdateState(delta, id)
	}()
	return map[string]any{"orderId": o.ID, "total": o.Total}, nil
}
