package shop_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/shop/shop"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
	"github.com/foldagent/foldagent/journey/fixed"
)

// waitPage waits, on the session's own notifications, until the cursor
// is on page.
func waitPage(t *testing.T, j *bind.Journey, page string) {
	t.Helper()
	moved := make(chan struct{}, 1)
	stop := j.Session().OnTransition(func(journey.Transition) {
		select {
		case moved <- struct{}{}:
		default:
		}
	})
	defer stop()
	timeout := time.After(5 * time.Second)
	for j.Session().Position().YouAreOn != page {
		select {
		case <-moved:
		case <-timeout:
			t.Fatalf("the cursor did not follow the Model to %s: %+v", page, j.Session().Position())
		}
	}
}

// open runs a store and binds the journey over its contract.
func open(t *testing.T, payDelay time.Duration) (*shop.Store, *bind.Journey) {
	t.Helper()
	st, err := shop.Start(payDelay)
	if err != nil {
		t.Fatal(err)
	}
	j, err := bind.New("shop", st.Runtime, st.Model, shop.Journey, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		j.Close()
		if err := st.Close(); err != nil {
			t.Error(err)
		}
	})
	return st, j
}

func result(t *testing.T, p *fixed.Port, name string, args map[string]any) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(p.Call(context.Background(), name, args).JSON(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func settle(t *testing.T, p *fixed.Port, r map[string]any) {
	t.Helper()
	id, ok := r["transitionId"].(string)
	if !ok {
		t.Fatalf("no fire: %v", r)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.WhenSettled(ctx, id); err != nil {
		t.Fatal(err)
	}
}

// buy walks the purchase journey for one product and returns the order
// fire's transition id after confirming it.
func buy(t *testing.T, p *fixed.Port, sku string) string {
	t.Helper()
	steps := []struct {
		step  string
		input map[string]any
	}{
		{"open-product", map[string]any{"sku": sku}},
		{"add-to-cart", map[string]any{"qty": 1}},
		{"go-cart", nil},
		{"checkout", nil},
		{"set-address", map[string]any{"address": "1 Main St"}},
	}
	result(t, p, "shop.journey.purchase", nil)
	for _, s := range steps {
		args := map[string]any{"step": s.step}
		if s.input != nil {
			args["input"] = s.input
		}
		r := result(t, p, "shop.journey.purchase", args)
		if r["ok"] != true {
			t.Fatalf("%s: %v", s.step, r)
		}
		settle(t, p, r)
	}
	r := result(t, p, "shop.journey.purchase", map[string]any{"step": "place-order"})
	if r["judgment"] != "needs-confirm" || r["performed"] != false {
		t.Fatalf("place-order must ask first: %v", r)
	}
	r = result(t, p, "shop.journey.purchase", map[string]any{"step": "place-order", "confirm": true})
	if r["ok"] != true || r["effectStatus"] != "pending" {
		t.Fatalf("confirmed order: %v", r)
	}
	return r["transitionId"].(string)
}

func TestPurchaseSettlesPaid(t *testing.T) {
	st, j := open(t, 20*time.Millisecond)
	p := fixed.Serve(j.Session(), fixed.Options{})
	id := buy(t, p, "dress-red")
	r := result(t, p, "shop.did_it_work", map[string]any{"transitionId": id})
	if r["judgment"] != "still-pending" && r["settled"] != true {
		t.Fatalf("did_it_work: %v", r)
	}
	settle(t, p, map[string]any{"transitionId": id})
	r = result(t, p, "shop.did_it_work", map[string]any{"transitionId": id})
	if r["settled"] != true || r["effectStatus"] != "performed" || r["outcome"] != "committed" || r["writesObserved"] != true {
		t.Fatalf("paid: %v", r)
	}
	if o := st.Orders(); len(o) != 1 || o[0].Status != "paid" || o[0].Total != 120 {
		t.Fatalf("orders: %+v", o)
	}
	r = result(t, p, "shop.journey.purchase", nil)
	if r["judgment"] != "done" {
		t.Fatalf("journey done: %v", r)
	}
}

func TestGiftCardPaymentIsRefusedByTheServer(t *testing.T) {
	st, j := open(t, 5*time.Millisecond)
	p := fixed.Serve(j.Session(), fixed.Options{})
	id := buy(t, p, "gift-card")
	settle(t, p, map[string]any{"transitionId": id})
	r := result(t, p, "shop.did_it_work", map[string]any{"transitionId": id})
	if r["settled"] != true || r["effectStatus"] != "refused" || r["outcome"] != "rejected" || r["judgment"] != "rejected" {
		t.Fatalf("refused: %v", r)
	}
	if o := st.Orders(); o[0].Status != "refused" {
		t.Fatalf("orders: %+v", o)
	}
	e, _ := r["error"].(map[string]any)
	if msg, _ := e["message"].(string); !json.Valid([]byte(msg)) || !strings.Contains(msg, "gift card") || !strings.Contains(msg, "PaymentRefused") {
		t.Fatalf("the refusal must carry the completing Message as data: %v", r)
	}
	// The contract recorded the order as dispatched, with its failure.
	var placed []agent.AuditEntry
	for _, e := range st.Audit.Entries() {
		if e.Capability == "place_order" {
			placed = append(placed, e)
		}
	}
	if len(placed) != 1 || placed[0].Transport != agent.InApp {
		t.Fatalf("audit: %+v", placed)
	}
}

func TestPlaceOrderIsGreyedUntilAnAddress(t *testing.T) {
	st, j := open(t, 0)
	// A person walks to checkout in the app with a dress in the cart; the
	// cursor follows the Model.
	for _, m := range []any{shop.OpenProduct{SKU: "dress-red"}, shop.AddToCart{SKU: "dress-red", Qty: 1}, shop.GoCart{}, shop.GoCheckout{}} {
		if err := st.Program.Dispatch(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	p := fixed.Serve(j.Session(), fixed.Options{})
	waitPage(t, j, "checkout")
	// place_order is unavailable in the contract without an address: the
	// session serves it switched off, and refuses it as such.
	r := result(t, p, "shop.do_action", map[string]any{"action": "place-order"})
	if r["reason"] != "TOOL_DISABLED" || r["askId"] != nil {
		t.Fatalf("%v", r)
	}
	if len(st.Audit.Entries()) != 0 {
		t.Fatalf("a refusal the session answered reached the contract: %+v", st.Audit.Entries())
	}
}
