package fixed

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/foldagent/foldagent/journey"
	"sync/atomic"
	"testing"
	"time"
)

// shopTest is the port tests' own shop: catalog -> product -> cart ->
// checkout, a high-effect place-order, an asynchronous payment.
func shopDef() journey.GraphDef {
	return journey.GraphDef{
		Pages: []journey.Page{
			{ID: "catalog", Route: "/", Actions: []journey.Action{
				{Name: "open-product", Does: "Open a product page", GoTo: "product", Input: journey.InputFor[sKU]()},
				{Name: "search", Does: "Search the catalog", Writes: []string{"results"}, Input: journey.InputFor[query]()},
			}},
			{ID: "product", Route: "/products/:id", Actions: []journey.Action{
				{Name: "add-to-cart", Does: "Add this product to the cart", Writes: []string{"cart"}, Input: journey.InputFor[sKU]()},
				{Name: "go-cart", Does: "Go to the cart", GoTo: "cart"},
				{Name: "back", Does: "Back to the catalog", GoTo: "catalog", Input: journey.NoInput()},
			}},
			{ID: "cart", Route: "/cart", Actions: []journey.Action{
				{Name: "checkout", Does: "Go to checkout", GoTo: "checkout", When: journey.Guard{journey.Gt("cartCount", 0)}},
			}, Containers: []journey.Container{{Name: "lines", Repeats: true, Actions: []journey.Action{
				{Name: "remove", Does: "Remove this line", Writes: []string{"cart"}},
			}}}},
			{ID: "checkout", Route: "/checkout", Actions: []journey.Action{
				{Name: "set-card", Does: "Enter a payment card", Writes: []string{"card"}},
				{Name: "place-order", Does: "Place the order and pay", Confirm: true, Writes: []string{"order"},
					EnabledWhen: journey.Guard{journey.Eq("cardOK", true)}, BlockedBecause: &journey.Blocked{Says: "Add a card first", ClearedBy: "user"},
					Concurrency: journey.Concurrency{SingleFlight: true}},
			}},
		},
		Actions: []journey.RootAction{{Action: journey.Action{Name: "login", Does: "Sign in", Writes: []string{"user"}}, On: []string{"catalog", "checkout"}}},
		Journeys: []journey.Journey{
			{ID: "purchase", Does: "Buy a product end to end", Steps: []string{"open-product", "add-to-cart", "go-cart", "checkout", "set-card", "place-order"}},
			{ID: "vip", Does: "Shop the VIP room", Steps: []string{"search"}, When: journey.Guard{journey.Eq("vip", true)}},
			{ID: "tidy", Does: "Remove a line from the cart", Steps: []string{"remove"}},
		},
	}
}

type sKU struct {
	SKU string `json:"sku"`
}

type query struct {
	Q string `json:"q"`
}

// shopApp is a session of shopTest with handlers that behave like an
// app: they report their state changes by transition id.
type shopApp struct {
	s   *journey.Session
	pay chan string // place-order fires waiting for the payment server
	// With stepwise set, every handler waits for a token on gate before
	// it runs, so a test sees each fire's synchronous result before the
	// app reacts (results are then the same on every run).
	stepwise atomic.Bool
	gate     chan struct{}
}

func newPortShop(t testing.TB, opts journey.Options, hostile string) *shopApp {
	t.Helper()
	g, err := journey.NewGraph("shop", shopDef())
	if err != nil {
		t.Fatal(err)
	}
	if opts.State == nil {
		opts.State = map[string]any{"cartCount": 0, "cardOK": false, "vip": false, "note": hostile}
	}
	s := g.MustNewSession(opts)
	app := &shopApp{s: s, pay: make(chan string, 8), gate: make(chan struct{})}
	wrap := func(hs map[string]journey.Handler) map[string]journey.Handler {
		for k, h := range hs {
			hs[k] = func(ctx context.Context, in any) (any, error) {
				if app.stepwise.Load() {
					<-app.gate
				}
				return h(ctx, in)
			}
		}
		return hs
	}
	report := func(delta map[string]any) journey.Handler {
		return func(ctx context.Context, in any) (any, error) {
			id, _ := journey.TransitionIDFrom(ctx)
			s.UpdateState(delta, id)
			return nil, nil
		}
	}
	must := func(_ *journey.Handle, err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.RegisterActions("catalog", journey.Registration{Handlers: wrap(map[string]journey.Handler{
		"open-product": func(ctx context.Context, in any) (any, error) { return map[string]any{"title": hostile}, nil },
		"search": func(ctx context.Context, in any) (any, error) {
			id, _ := journey.TransitionIDFrom(ctx)
			s.UpdateState(map[string]any{"results": []any{hostile}}, id)
			return []any{hostile}, nil
		},
		"login": report(map[string]any{"user": hostile}),
	})}))
	must(s.RegisterActions("product", journey.Registration{Handlers: wrap(map[string]journey.Handler{
		"add-to-cart": func(ctx context.Context, in any) (any, error) {
			id, _ := journey.TransitionIDFrom(ctx)
			s.UpdateState(map[string]any{"cart": []any{in}, "cartCount": 1}, id)
			return nil, nil
		},
		"go-cart": ok2, "back": ok2,
	}), Holds: map[string]func() any{"add-to-cart": func() any { return hostile }}}))
	must(s.RegisterActions("cart", journey.Registration{Handlers: wrap(map[string]journey.Handler{"checkout": ok2})}))
	must(s.RegisterActions("cart", journey.Registration{Instance: "line-" + hostile, Handlers: wrap(map[string]journey.Handler{"lines.remove": report(map[string]any{"cart": []any{}})})}))
	must(s.RegisterActions("checkout", journey.Registration{Handlers: wrap(map[string]journey.Handler{
		"set-card": report(map[string]any{"card": hostile, "cardOK": true}),
		"place-order": func(ctx context.Context, in any) (any, error) {
			id, _ := journey.TransitionIDFrom(ctx)
			app.pay <- id
			return nil, nil
		},
		"login": report(map[string]any{"user": hostile}),
	}), Busy: map[string]string{"set-card": hostile}}))
	return app
}

func ok2(context.Context, any) (any, error) { return nil, nil }

// call runs a port call and decodes its JSON, the way a host sees it.
func callTest(t testing.TB, p *Port, name string, args map[string]any) map[string]any {
	t.Helper()
	r := p.Call(context.Background(), name, args)
	var m map[string]any
	if err := json.Unmarshal(r.JSON(), &m); err != nil {
		t.Fatalf("%s: result is not JSON: %v\n%s", name, err, r.JSON())
	}
	if _, ok := m["ok"].(bool); !ok {
		t.Fatalf("%s: no ok: %s", name, r.JSON())
	}
	if _, ok := m["judgment"].(string); !ok {
		t.Fatalf("%s: no judgment: %s", name, r.JSON())
	}
	if m["reason"] != "UNKNOWN_TOOL" {
		if _, ok := m["youAreOn"]; !ok {
			t.Fatalf("%s: no youAreOn: %s", name, r.JSON())
		}
		if _, ok := m["version"].(float64); !ok {
			t.Fatalf("%s: no version: %s", name, r.JSON())
		}
	}
	return m
}

func settleTest(t testing.TB, p *Port, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.WhenSettled(ctx, id); err != nil {
		t.Fatalf("WhenSettled(%s): %v", id, err)
	}
}

var errPortTest = errors.New("test")
