package shop_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// Issue 26: answers of the fixed tools that misled a model, each driven
// the way a model drives them (over MCP, in process) and asserted on what
// the model reads. Every scenario runs twice: the answers must be
// byte-identical, since they are a function of the calls made, not of
// timing.

// twice runs a scenario on two fresh stores and fails when the answers
// it returns differ by a byte.
func twice(t *testing.T, scenario func(t *testing.T) []map[string]any) {
	t.Helper()
	encode := func(ms []map[string]any) []string {
		out := make([]string, len(ms))
		for i, m := range ms {
			b, _ := json.Marshal(m)
			out[i] = string(b)
		}
		return out
	}
	first, second := encode(scenario(t)), encode(scenario(t))
	if !slices.Equal(first, second) {
		for i := range first {
			if i < len(second) && first[i] != second[i] {
				t.Fatalf("answer %d differs between runs:\n%s\n%s", i, first[i], second[i])
			}
		}
		t.Fatalf("the runs gave %d and %d answers", len(first), len(second))
	}
}

// Item 1: what a step wrote is readable. The search's results ride its
// own answer (valuesNow) and why {key: results} gives the value beside
// who wrote it, so "search the catalog" is not a loop.
func TestMCPSearchResultsAreReadable(t *testing.T) {
	twice(t, func(t *testing.T) []map[string]any {
		d := drive(t, 0, 5*time.Second)
		d.call("shop.journey.find", nil)
		r := d.call("shop.journey.find", map[string]any{"step": "search", "input": map[string]any{"q": "dress"}})
		vals, _ := r["valuesNow"].(map[string]any)
		res, _ := vals["results"].([]any)
		if r["ok"] != true || r["effectStatus"] != "performed" || len(res) == 0 {
			t.Fatalf("the search's answer must carry its results: %v", r)
		}
		for _, x := range res {
			if s, _ := x.(string); !strings.HasPrefix(s, "dress") {
				t.Fatalf("results %v", res)
			}
		}
		w := d.call("shop.why", map[string]any{"key": "results"})
		if v, _ := w["value"].([]any); !slices.Equal(v, res) {
			t.Fatalf("why {results} must carry the value: %v", w)
		}
		// A SKU read from the results opens its product.
		o := d.step("open-product", map[string]any{"sku": res[0]})
		if o["ok"] != true || o["youAreOn"] != "product" {
			t.Fatalf("open-product %v: %v", res[0], o)
		}
		// A step that declares no writes carries none.
		if _, ok := o["valuesNow"]; ok {
			t.Fatalf("open-product declares no writes: %v", o)
		}
		return []map[string]any{r, w, o}
	})
}

// Item 7: whats_here {sinceVersion} with nothing changed says so: its
// judgment never counts rows it does not carry.
func TestMCPSinceVersionUnchangedAgreesWithItsRows(t *testing.T) {
	twice(t, func(t *testing.T) []map[string]any {
		d := drive(t, 0, 5*time.Second)
		full := d.call("shop.whats_here", nil)
		same := d.call("shop.whats_here", map[string]any{"sinceVersion": full["version"]})
		if same["judgment"] != "unchanged" || len(rows(same, "actions")) != 0 || same["howToAct"] == nil {
			t.Fatalf("nothing changed, yet: %v", same)
		}
		var ids []string
		for _, a := range rows(full, "actions") {
			ids = append(ids, a["action"].(string))
		}
		if got, _ := json.Marshal(same["actionsUnchanged"]); string(got) != mustJSON(ids) {
			t.Fatalf("actionsUnchanged %s, want %s", got, mustJSON(ids))
		}
		// Once something changed, the judgment counts the page again,
		// and the rows left out are still named.
		d.step("open-product", map[string]any{"sku": "dress-red"})
		moved := d.call("shop.whats_here", map[string]any{"sinceVersion": full["version"]})
		if moved["judgment"] == "unchanged" || len(rows(moved, "actions")) == 0 {
			t.Fatalf("the page changed: %v", moved)
		}
		return []map[string]any{full, same, moved}
	})
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// Item 4: open-review before the address is switched off for a reason the
// app declared; the answer points at it (blockedBecause.says) and never
// says nothing knows what would change it.
func TestMCPBlockedStepPointsAtTheAppsReason(t *testing.T) {
	twice(t, func(t *testing.T) []map[string]any {
		d := drive(t, 0, 5*time.Second)
		d.toCheckout("dress-red")
		r := d.step("open-review", nil)
		b, _ := r["blockedBecause"].(map[string]any)
		why, _ := r["why"].(string)
		if r["ok"] != false || r["reason"] != "TOOL_DISABLED" || b["says"] != "The person gives the delivery address first." || b["clearedBy"] != "user" {
			t.Fatalf("open-review before the address: %v", r)
		}
		if strings.Contains(why, "nothing here knows") || !strings.Contains(why, "blockedBecause.says") || !strings.Contains(why, "person") {
			t.Fatalf("why must point at the app's reason and who clears it: %q", why)
		}
		// The app's text rides data only.
		if strings.Contains(why, b["says"].(string)) {
			t.Fatalf("application text in a sentence: %q", why)
		}
		return []map[string]any{r}
	})
}

// Item 9: paying order-1 again once order-2 is checked out is the
// duplicate it is, naming the payment that settled, not an unknown
// instance.
func TestMCPPayingAPaidOrderAgainIsADuplicate(t *testing.T) {
	twice(t, func(t *testing.T) []map[string]any {
		d := drive(t, 0, 5*time.Second)
		d.toCheckout("dress-red")
		d.toReview()
		paid := d.call("shop.journey.purchase", map[string]any{"step": "pay", "instance": "order-1", "confirm": true})
		id, _ := paid["transitionId"].(string)
		if id == "" {
			t.Fatalf("pay: %v", paid)
		}
		d.wait(id)
		for _, a := range []string{"close-review", "back-to-cart", "shop-more"} {
			if r := d.call("shop.do_action", map[string]any{"action": a}); r["ok"] != true {
				t.Fatalf("%s: %v", a, r)
			}
		}
		d.toCheckout("dress-blue")
		if r := d.step("open-review", nil); r["ok"] != true {
			t.Fatalf("open-review: %v", r)
		}
		again := d.call("shop.do_action", map[string]any{"action": "pay", "instance": "order-1", "confirm": true})
		if again["ok"] != false || again["reason"] != "DUPLICATE_EXECUTION" || again["priorTransitionId"] != id || again["why"] == nil {
			t.Fatalf("paying order-1 again: %v", again)
		}
		// A key that never was an order is still unknown, and says so.
		never := d.call("shop.do_action", map[string]any{"action": "pay", "instance": "order-9", "confirm": true})
		if never["reason"] != "INSTANCE_UNKNOWN" || never["why"] == nil {
			t.Fatalf("order-9: %v", never)
		}
		if n := len(d.st.Orders()); n != 2 {
			t.Fatalf("%d orders", n)
		}
		return []map[string]any{again, never}
	})
}

// Items 5 and 6: a finished purchase says how to buy again, and the next
// round's payment is not counted done by the order paid the first time.
func TestMCPFinishedPurchaseSaysHowToBuyAgain(t *testing.T) {
	twice(t, func(t *testing.T) []map[string]any {
		d := drive(t, 0, 5*time.Second)
		d.toCheckout("dress-red")
		d.toReview()
		paid := d.call("shop.journey.purchase", map[string]any{"step": "pay", "instance": "order-1", "confirm": true})
		if paid["ok"] != true || paid["effectStatus"] != "performed" {
			t.Fatalf("pay did not settle within the ceiling: %v", paid)
		}
		if paid["judgment"] != "done" || paid["frame"] != "completed" || paid["startWith"] != "catalog.open-product" ||
			!strings.Contains(paid["howToAct"].(string), "startWith") {
			t.Fatalf("a finished purchase must say how to start again: %v", paid)
		}
		for _, a := range []string{"close-review", "back-to-cart", "shop-more"} {
			if r := d.call("shop.do_action", map[string]any{"action": a}); r["ok"] != true {
				t.Fatalf("%s: %v", a, r)
			}
		}
		// Called again, the journey opens a new round: its first step is
		// ready, and the payment is not done, naming the order paid the
		// round before.
		again := d.call("shop.journey.purchase", nil)
		if again["frame"] != "open" || again["newRound"] != true || again["newRoundMeans"] == nil || again["judgment"] != "one-ready-step" || row(again, "readySteps", "step", "catalog.open-product") == nil {
			t.Fatalf("a new round: %v", again)
		}
		pay := row(again, "laterSteps", "step", "checkout.review.order.pay")
		if pay == nil || pay["status"] == "done" || pay["priorInstance"] != "order-1" || pay["priorInstanceMeans"] == nil {
			t.Fatalf("the new round's payment: %v", pay)
		}
		// Through the second checkout, order-2 is the one to pay.
		d.toCheckout("dress-blue")
		review := d.step("open-review", nil)
		ready := row(review, "readySteps", "step", "checkout.review.order.pay")
		if ready == nil || mustJSON(ready["instances"]) != `["order-2"]` {
			t.Fatalf("order-2 must be payable: %v", review)
		}
		for _, m := range rows(review, "laterSteps") {
			if m["step"] == "checkout.review.order.pay" {
				t.Fatalf("pay listed as waiting: %v", m)
			}
		}
		// Whether the payment's handler had returned when its state
		// change settled the fire is timing (issue 26's twelfth, not this
		// test's): those keys are left out of the comparison.
		for _, k := range []string{"stillWorking", "stillWorkingMeans", "data"} {
			delete(paid, k)
		}
		return []map[string]any{paid, again, review}
	})
}

// Item 8: the payment server's refusal of a gift card reads as a code and
// our sentence in the answer, in did_it_work and in the facts, with the
// app's own report as data only; the brief does not offer the refused
// payment as simply ready.
func TestMCPGiftCardRefusalIsACodeAndASentence(t *testing.T) {
	twice(t, func(t *testing.T) []map[string]any {
		d := drive(t, 0, 5*time.Second)
		d.toCheckout("gift-card")
		d.toReview()
		r := d.call("shop.journey.purchase", map[string]any{"step": "pay", "instance": "order-1", "confirm": true})
		id, _ := r["transitionId"].(string)
		if r["effectStatus"] != "refused" {
			t.Fatalf("the payment must come to rest refused within the ceiling: %v", r)
		}
		e, _ := r["error"].(map[string]any)
		data, _ := e["data"].(map[string]any)
		msg, _ := data["message"].(map[string]any)
		sentence, _ := e["message"].(string)
		if r["ok"] != false || r["judgment"] != "rejected" || r["reason"] != "APP_FAILED" || e["reason"] != "APP_FAILED" || r["why"] != sentence {
			t.Fatalf("the answer: %v", r)
		}
		if data["tag"] != "PaymentRefused" || !strings.Contains(msg["reason"].(string), "gift card") {
			t.Fatalf("the app's report must ride as data: %v", e)
		}
		if sentence == "" || strings.Contains(sentence, "gift card") || strings.Contains(sentence, "{") {
			t.Fatalf("the sentence must be ours, with no app text: %q", sentence)
		}
		// The refused payment is offered again, marked, and the answer
		// does not invite firing it again.
		if m := row(r, "readySteps", "step", "checkout.review.order.pay"); m == nil || m["lastFireRejected"] != id ||
			!strings.Contains(r["howToAct"].(string), "refused by the app when last fired") {
			t.Fatalf("the frame after the refusal: %v", r)
		}
		w := d.call("shop.did_it_work", map[string]any{"transitionId": id})
		if we, _ := w["error"].(map[string]any); mustJSON(we) != mustJSON(e) || w["ok"] != false || w["judgment"] != "rejected" {
			t.Fatalf("did_it_work says otherwise: %v", w)
		}
		here := d.call("shop.whats_here", nil)
		facts, _ := here["facts"].(string)
		brief, _ := here["brief"].(string)
		if !strings.Contains(facts, "checkout.review.order.pay (the app refused it: APP_FAILED - ") || strings.Contains(facts, "gift card") {
			t.Fatalf("the facts line must name the code with a sentence: %s", facts)
		}
		if strings.Contains(brief, "Ready for you now: checkout.review.order.pay") ||
			!strings.Contains(brief, "Refused by the app the last time it was fired") || !strings.Contains(brief, "checkout.review.order.pay (APP_FAILED)") {
			t.Fatalf("the brief offers the refused payment as ready: %s", brief)
		}
		// Whether the payment's handler had returned when the refusal
		// settled the fire is timing (issue 26's twelfth, not this
		// test's), and ids minted per run (the payment request) are not
		// the answer's: both are left out of the comparison.
		for _, m := range []map[string]any{r, w} {
			delete(m, "stillWorking")
			delete(m, "stillWorkingMeans")
		}
		delete(msg, "request")
		delete(w["error"].(map[string]any)["data"].(map[string]any)["message"].(map[string]any), "request")
		return []map[string]any{r, w, here}
	})
}
