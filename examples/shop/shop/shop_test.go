package shop_test

import (
	"context"
	"encoding/json"
	"github.com/foldagent/foldagent/journey/fixed"
	"testing"
	"time"

	"github.com/foldagent/foldagent/examples/shop/shop"
)

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
	st, err := shop.New(shop.Options{PayDelay: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p := fixed.Serve(st.Session, fixed.Options{})
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
	st, err := shop.New(shop.Options{PayDelay: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p := fixed.Serve(st.Session, fixed.Options{})
	id := buy(t, p, "gift-card")
	settle(t, p, map[string]any{"transitionId": id})
	r := result(t, p, "shop.did_it_work", map[string]any{"transitionId": id})
	if r["settled"] != true || r["effectStatus"] != "refused" || r["outcome"] != "rejected" || r["judgment"] != "rejected" {
		t.Fatalf("refused: %v", r)
	}
	if o := st.Orders(); o[0].Status != "refused" {
		t.Fatalf("orders: %+v", o)
	}
}

func TestPlaceOrderIsGreyedUntilAnAddress(t *testing.T) {
	st, err := shop.New(shop.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Session.Sync("checkout")
	p := fixed.Serve(st.Session, fixed.Options{})
	r := result(t, p, "shop.do_action", map[string]any{"action": "place-order"})
	if r["reason"] != "TOOL_DISABLED" || r["askId"] != nil {
		t.Fatalf("%v", r)
	}
}
