package shop

import (
	"fmt"
	"slices"
	"strings"
	"time"
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

// Order statuses.
const (
	AwaitingPayment = "awaiting-payment"
	Paid            = "paid"
	Refused         = "refused"
)

// Order is a placed order.
type Order struct {
	ID     string `json:"id"`
	Lines  []Line `json:"lines"`
	Total  int    `json:"total"`
	Status string `json:"status"`
	// Request is the invocation that placed it, which its payment's
	// answer carries back (so two orders in flight are told apart).
	Request string `json:"-"`
}

// Model is the store as a value: where the shopper is, what they found,
// the cart, the address and the orders. Update never changes a Model it
// is given; it returns a new one.
type Model struct {
	Page    string   // one of the Page constants
	Product string   // the SKU on the product page
	Results []string // SKUs the last search found
	Cart    []Line
	Address string
	Orders  []Order

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
// contract) sends are the requests; PaymentSucceeded and PaymentRefused
// come back from the payment server and are never exposed.
type (
	Search struct {
		Q string `json:"q" jsonschema:"words to look for in product names"`
	}
	OpenProduct struct {
		SKU string `json:"sku" jsonschema:"the SKU of the product to open"`
	}
	AddToCart struct {
		SKU string `json:"sku"`
		Qty int    `json:"qty"`
	}
	GoCart     struct{}
	GoCatalog  struct{}
	GoCheckout struct{}
	RemoveLine struct {
		SKU string `json:"sku" jsonschema:"the SKU of the cart line to remove"`
	}
	SetAddress struct {
		Address string `json:"address" jsonschema:"the delivery address"`
	}
	PlaceOrder struct {
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
		m.Page = PageCart
	case GoCatalog:
		m.Page = PageCatalog
	case GoCheckout:
		m.Page = PageCheckout
	case RemoveLine:
		m.Cart = slices.DeleteFunc(slices.Clone(m.Cart), func(l Line) bool { return l.SKU == msg.SKU })
	case SetAddress:
		m.Address = strings.TrimSpace(msg.Address)
	case PlaceOrder:
		if len(m.Cart) == 0 {
			return m, nil
		}
		o := Order{ID: fmt.Sprintf("order-%d", len(m.Orders)+1), Lines: slices.Clone(m.Cart), Status: AwaitingPayment, Request: msg.Request}
		refuse := false
		for _, l := range o.Lines {
			p, _ := Find(l.SKU)
			o.Total += p.Price * l.Qty
			refuse = refuse || l.SKU == "gift-card"
		}
		m.Orders = append(slices.Clone(m.Orders), o)
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
	}
	return m, nil
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
