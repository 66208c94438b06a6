package shop

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/foldagent/foldagent/agent"
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

// Find returns the product with the SKU.
func Find(sku string) (Product, bool) {
	i := slices.IndexFunc(Catalog, func(p Product) bool { return p.SKU == sku })
	if i < 0 {
		return Product{}, false
	}
	return Catalog[i], true
}

// Pages of the store: where the Model is.
const (
	PageCatalog  = "catalog"
	PageProduct  = "product"
	PageCart     = "cart"
	PageCheckout = "checkout"
)

// Line is one line of the cart.
type Line struct {
	SKU string `json:"sku"`
	Qty int    `json:"qty"`
}

// Order statuses. An order is made when the shopper goes to checkout, and
// paid from the review there; a refused payment can be tried again, a
// paid order cannot be paid twice.
const (
	AwaitingPayment = "awaiting-payment"
	Paying          = "paying"
	Paid            = "paid"
	Refused         = "refused"
)

// Order is a placed order.
type Order struct {
	ID     string `json:"id"`
	Lines  []Line `json:"lines"`
	Total  int    `json:"total"`
	Status string `json:"status"`
	// Request is the invocation that pays it, which its payment's
	// answer carries back (so two orders in flight are told apart).
	Request string `json:"-"`
}

// Model is the store as a value: where the shopper is, what they found,
// the cart, the delivery address, the order being checked out and whether
// its review is open, and the orders. Update never changes a Model it is
// given; it returns a new one.
type Model struct {
	Page    string   // one of the Page constants
	Product string   // the SKU on the product page
	Results []string // SKUs the last search found
	Cart    []Line
	// Address is the delivery address; AddressConfirmed is set when the
	// person gives it (SetAddress). Only the person changes it.
	Address          string
	AddressConfirmed bool
	// Current is the id of the order being checked out, made by
	// GoCheckout; empty before the first checkout.
	Current string
	// Review is whether the order review is open over the checkout page:
	// the payment is made from it.
	Review bool
	Orders []Order
	// Asked are the agents' calls waiting for the person's approval,
	// oldest first: the app shows them, and the person answers each
	// (agent.ApprovalAnswer). The runtime adds and withdraws them.
	Asked []agent.ApprovalRequest

	// PayDelay is how long the payment server takes to answer.
	PayDelay time.Duration
}

// New returns the store on its catalog page. payDelay is how long the
// payment server takes to answer; zero means 600 ms.
func New(payDelay time.Duration) Model {
	if payDelay <= 0 {
		payDelay = 600 * time.Millisecond
	}
	return Model{Page: PageCatalog, PayDelay: payDelay}
}

// CartCount is how many items the cart holds.
func (m Model) CartCount() int {
	n := 0
	for _, l := range m.Cart {
		n += l.Qty
	}
	return n
}

// CurrentOrder is the order being checked out, if any.
func (m Model) CurrentOrder() (Order, bool) {
	i := slices.IndexFunc(m.Orders, func(o Order) bool { return o.ID == m.Current })
	if m.Current == "" || i < 0 {
		return Order{}, false
	}
	return m.Orders[i], true
}

// LastPaid is the newest paid order, if any.
func (m Model) LastPaid() (Order, bool) {
	for i := len(m.Orders) - 1; i >= 0; i-- {
		if m.Orders[i].Status == Paid {
			return m.Orders[i], true
		}
	}
	return Order{}, false
}

// The store's Messages. Those a shopper (or an agent, through the
// contract) sends are the requests; SetAddress is the person's own, sent
// by the terminal app and never exposed to an agent; PaymentSucceeded and
// PaymentRefused come back from the payment server and are never exposed.
type (
	Search struct {
		Q string `json:"q" jsonschema:"words to look for in product names" bounds:"maxLength=100"`
	}
	OpenProduct struct {
		SKU string `json:"sku" jsonschema:"the SKU of the product to open" bounds:"maxLength=64"`
	}
	AddToCart struct {
		SKU string `json:"sku"`
		Qty int    `json:"qty"`
	}
	GoCart     struct{}
	GoCatalog  struct{}
	GoCheckout struct{}
	RemoveLine struct {
		SKU string `json:"sku" jsonschema:"the SKU of the cart line to remove" bounds:"maxLength=64"`
	}
	SetAddress struct {
		Address string `json:"address"`
	}
	OpenReview  struct{}
	CloseReview struct{}
	PayOrder    struct {
		Order   string `json:"order"`
		Request string `json:"request"`
	}
	PaymentSucceeded struct {
		Order   string `json:"order"`
		Total   int    `json:"total"`
		Request string `json:"request"`
	}
	PaymentRefused struct {
		Order   string `json:"order"`
		Reason  string `json:"reason"`
		Request string `json:"request"`
	}
)

// Payment is work Update asks the host to run off its update goroutine:
// the payment server's answer, after the delay, as a Message.
type Payment func() any

// Update applies one Message. It returns the new Model and, for a placed
// order, the payment to run.
func Update(m Model, msg any) (Model, Payment) {
	switch msg := msg.(type) {
	case Search:
		q := strings.ToLower(msg.Q)
		var found []string
		for _, p := range Catalog {
			if strings.Contains(strings.ToLower(p.Name), q) {
				found = append(found, p.SKU)
			}
		}
		m.Results = found
	case OpenProduct:
		if _, ok := Find(msg.SKU); ok {
			m.Page, m.Product = PageProduct, msg.SKU
		}
	case AddToCart:
		if msg.Qty <= 0 {
			msg.Qty = 1
		}
		cart := slices.Clone(m.Cart)
		if i := slices.IndexFunc(cart, func(l Line) bool { return l.SKU == msg.SKU }); i >= 0 {
			cart[i].Qty += msg.Qty
		} else {
			cart = append(cart, Line(msg))
		}
		m.Cart = cart
	case GoCart:
		m.Page, m.Review = PageCart, false
	case GoCatalog:
		m.Page, m.Review = PageCatalog, false
	case GoCheckout:
		if len(m.Cart) == 0 {
			return m, nil
		}
		m.Page, m.Review = PageCheckout, false
		m.Orders = slices.Clone(m.Orders)
		o := Order{ID: fmt.Sprintf("order-%d", len(m.Orders)+1)}
		i := slices.IndexFunc(m.Orders, func(o Order) bool { return o.ID == m.Current })
		if i >= 0 && (m.Orders[i].Status == AwaitingPayment || m.Orders[i].Status == Refused) {
			o.ID = m.Orders[i].ID // the order not paid yet follows the cart
		} else {
			i = -1
		}
		o.Lines, o.Status = slices.Clone(m.Cart), AwaitingPayment
		for _, l := range o.Lines {
			p, _ := Find(l.SKU)
			o.Total += p.Price * l.Qty
		}
		if i >= 0 {
			m.Orders[i] = o
		} else {
			m.Orders = append(m.Orders, o)
		}
		m.Current = o.ID
	case RemoveLine:
		m.Cart = slices.DeleteFunc(slices.Clone(m.Cart), func(l Line) bool { return l.SKU == msg.SKU })
	case SetAddress:
		if a := strings.TrimSpace(msg.Address); a != "" && len(a) <= MaxAddress {
			m.Address, m.AddressConfirmed = a, true
		}
	case OpenReview:
		if m.Page == PageCheckout && m.Current != "" {
			m.Review = true
		}
	case CloseReview:
		m.Review = false
	case PayOrder:
		o, ok := m.CurrentOrder()
		if !ok || o.ID != msg.Order || !m.AddressConfirmed || (o.Status != AwaitingPayment && o.Status != Refused) {
			return m, nil
		}
		o.Status, o.Request = Paying, msg.Request
		m.Orders = setOrder(m.Orders, o)
		refuse := slices.ContainsFunc(o.Lines, func(l Line) bool { return l.SKU == "gift-card" })
		delay := m.PayDelay
		return m, func() any {
			time.Sleep(delay) // the payment server's own latency
			if refuse {
				return PaymentRefused{Order: o.ID, Request: o.Request, Reason: "the payment server does not accept orders holding a gift card"}
			}
			return PaymentSucceeded{Order: o.ID, Total: o.Total, Request: o.Request}
		}
	case PaymentSucceeded:
		m.Orders = setStatus(m.Orders, msg.Order, Paid)
		m.Cart = nil
	case PaymentRefused:
		m.Orders = setStatus(m.Orders, msg.Order, Refused)
	case agent.ApprovalAsked:
		m.Asked = append(slices.Clone(m.Asked), msg.Request)
	case agent.ApprovalWithdrawn:
		m.Asked = slices.DeleteFunc(slices.Clone(m.Asked), func(q agent.ApprovalRequest) bool { return q.ID == msg.ID })
	}
	return m, nil
}

// MaxAddress is the longest delivery address the store keeps.
const MaxAddress = 200

func setOrder(orders []Order, o Order) []Order {
	out := slices.Clone(orders)
	for i := range out {
		if out[i].ID == o.ID {
			out[i] = o
		}
	}
	return out
}

func setStatus(orders []Order, id, status string) []Order {
	out := slices.Clone(orders)
	for i := range out {
		if out[i].ID == id {
			out[i].Status = status
		}
	}
	return out
}
