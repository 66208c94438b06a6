//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fixedByteCeiling is what the two purchases may cost a model on the
// fixed tools, per transport, measured: stdio 35,080 B and HTTP 31,940 B
// in 30 calls and one tool list (from 35,790 and 32,646 B, 38,332 and
// 35,189 B, and before that 52,096 and 48,737 B in 32 calls), with about
// 1% for versions whose digits vary from run to run. Issue 42's budget is
// 20,000 B: not met yet, so the ceiling is a ratchet that stops the
// answers from growing back. fixedCalls is the calls.
var fixedByteCeiling = map[string]int64{"stdio": 35_450, "http": 32_300}

const (
	fixedByteGoal = 20_000
	fixedCalls    = 30
)

// startShopperHTTP is startShopper over streamable HTTP: the real binary
// headless with -mcp http, the person's keys through the same pipe.
func startShopperHTTP(t *testing.T, args ...string) *shopper {
	t.Helper()
	keys := filepath.Join(t.TempDir(), "keys")
	if err := syscall.Mkfifo(keys, 0o600); err != nil {
		t.Fatal(err)
	}
	url := runHTTPShop(t, append([]string{"-keys", keys}, args...)...)
	cctx, ccancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer ccancel()
	c := &counted{}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "shopper", Version: "1"}, nil).Connect(cctx,
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: countingTransport{bearer{"s3cret"}, c}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &shopper{t: t, cs: cs, keys: keys, bytes: c, transport: "http"}
}

// TestTheTwelveAnswersOfARealPurchase drives the real binary, over stdio
// and over HTTP, through the purchase issue 26 found twelve misleading
// answers in — a search, an unknown SKU, add-to-cart, the review before
// the address, an unchanged whats_here, the person's address, a paid
// order, a new round, a refused gift card, paying the first order again —
// and asserts each answer a model reads. Each transport runs the whole
// purchase twice; the transcripts, ids and versions aside, are
// byte-identical. It asserts the bytes the client received (the
// initialize, the tool list, every call, as the client reads them; the
// polls while the person decides are not counted, only the one read of
// their outcome) against fixedByteCeiling, and the calls a model makes.
func TestTheTwelveAnswersOfARealPurchase(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the real binary through two purchases, four times")
	}
	for _, tr := range []struct {
		name  string
		start func(*testing.T, ...string) *shopper
	}{{"stdio", startShopper}, {"http", startShopperHTTP}} {
		t.Run(tr.name, func(t *testing.T) {
			first := twelve(t, tr.start(t, "-pay-delay", "20ms"))
			second := twelve(t, tr.start(t, "-pay-delay", "20ms"))
			if len(first) != len(second) {
				t.Fatalf("the runs gave %d and %d answers", len(first), len(second))
			}
			for i := range first {
				if first[i] != second[i] {
					t.Fatalf("answer %d differs between runs:\n%s\n%s", i, first[i], second[i])
				}
			}
		})
	}
}

// twelve is one purchase; it returns the transcript, normalized.
func twelve(t *testing.T, s *shopper) []string {
	step := func(journey, st string, input map[string]any, more ...any) map[string]any {
		t.Helper()
		args := map[string]any{"step": st}
		if input != nil {
			args["input"] = input
		}
		for i := 0; i+1 < len(more); i += 2 {
			args[more[i].(string)] = more[i+1]
		}
		return s.call("shop.journey."+journey, args)
	}
	do := func(action string) {
		t.Helper()
		if r := s.call("shop.do_action", map[string]any{"action": action}); r["ok"] != true {
			t.Fatalf("%s: %v", action, r)
		}
	}
	// toCheckout takes the purchase's steps to checkout from the journey
	// answer just read (a model does not open the journey again to learn
	// what that answer already listed).
	toCheckout := func(sku string) {
		t.Helper()
		for _, st := range []struct {
			step  string
			input map[string]any
		}{{"open-product", map[string]any{"sku": sku}}, {"add-to-cart", map[string]any{"qty": 1}}, {"go-cart", nil}, {"checkout", nil}} {
			r := step("purchase", st.step, st.input)
			// Item 3: a step's effect is observed in its own answer,
			// every time, never left to a later report.
			if r["ok"] != true || r["effectStatus"] != "performed" || r["effectVerified"] == false || r["writesObserved"] == false {
				t.Fatalf("%s: %v", st.step, r)
			}
		}
	}
	// settled waits, answering the person's approval with y, until the
	// payment id is at rest with the app's completion in, and returns
	// did_it_work's last answer. The completion (data, the app's
	// PaymentSucceeded) joins a settled answer when the payment's call
	// returns, which can come just after the state change that brought
	// the payment to rest: a poll in between reads the same answer
	// without data (left in issue 26's note; the wait makes the
	// transcript the final answer's).
	settled := func(id string) map[string]any {
		t.Helper()
		return s.until("shop.did_it_work", map[string]any{"transitionId": id}, func(r map[string]any) bool {
			if r["judgment"] == "awaiting-human" {
				s.types("y")
			}
			return r["settled"] == true && (r["judgment"] == "rejected" || r["data"] != nil)
		})
	}
	mark := len(s.transcript)
	// The model lists the tools once: the fixed tools never change.
	atList := s.bytes.n.Load()
	tools, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.read = append(s.read, fmt.Sprintf("connect %d B, tools/list %d B", atList, s.bytes.n.Load()-atList))
	if len(tools.Tools) == 0 {
		t.Fatal("no tools listed")
	}

	// Item 1: what the search wrote is in its answer, and why carries it.
	s.call("shop.journey.find", nil)
	found := step("find", "search", map[string]any{"q": "dress"})
	vals, _ := found["valuesNow"].(map[string]any)
	if res, _ := vals["results"].([]any); found["ok"] != true || len(res) == 0 {
		t.Fatalf("item 1, the search's results: %v", found)
	}
	if w := s.call("shop.why", map[string]any{"key": "results"}); mustJSON(t, w["value"]) != mustJSON(t, vals["results"]) {
		t.Fatalf("item 1, why {results}: %v", w)
	}

	// Item 2: an unknown SKU is a refusal with a code and our sentence.
	if opened := s.call("shop.journey.purchase", nil); find(list(opened["readySteps"]), "step", "catalog.open-product") == nil {
		t.Fatalf("the purchase opened: %v", opened)
	}
	unknown := step("purchase", "open-product", map[string]any{"sku": "no-such-sku"})
	e, _ := unknown["error"].(map[string]any)
	if msg, _ := e["message"].(string); unknown["ok"] != false || unknown["judgment"] != "rejected" || e["reason"] == nil || msg == "" || json.Valid([]byte(msg)) || strings.Contains(msg, "{") {
		t.Fatalf("item 2, an unknown SKU: %v", unknown)
	}
	// The refusal's answer offers the step again, naming the refusal and
	// its reason code as data: the model goes on from it.
	if again := find(list(unknown["readySteps"]), "step", "catalog.open-product"); again == nil || again["lastFireRejected"] != unknown["transitionId"] || again["lastFireRejectedReason"] != e["reason"] {
		t.Fatalf("item 2, the step offered again: %v", unknown)
	}

	toCheckout("dress-red")

	// Item 4: the review before the address points at the app's reason.
	blocked := step("purchase", "open-review", nil)
	why, _ := blocked["why"].(string)
	if b, _ := blocked["blockedBecause"].(map[string]any); blocked["ok"] != false || b["says"] == nil || strings.Contains(why, "nothing here knows") {
		t.Fatalf("item 4, open-review before the address: %v", blocked)
	}

	// Item 7: nothing changed is said as such.
	full := s.call("shop.whats_here", nil)
	if same := s.call("shop.whats_here", map[string]any{"sinceVersion": full["version"]}); same["judgment"] != "unchanged" || len(list(same["actions"])) != 0 {
		t.Fatalf("item 7, whats_here since an unchanged version: %v", same)
	}

	// The person gives the address; the agent opens the review and pays.
	s.types("a1 Main St\r")
	s.until("shop.journey.purchase", nil, func(r map[string]any) bool { return addressDecision(r) == nil })
	if r := step("purchase", "open-review", nil); r["ok"] != true {
		t.Fatalf("open-review: %v", r)
	}
	// Item 10: the payment is asked once, on the person's screen: the
	// ready row says so before the call, the call fires at once (no
	// needs-confirm in the chat), and its answer says it waits for the
	// person.
	pay := step("purchase", "pay", nil, "instance", "order-1")
	how, _ := pay["howToSettle"].(string)
	if pay["judgment"] == "needs-confirm" || pay["effectStatus"] != "pending" || !strings.Contains(how, "the person") || strings.Contains(how, "the app is still working") {
		t.Fatalf("item 10, the payment asked on screen: %v", pay)
	}
	paidID, _ := pay["transitionId"].(string)
	if paid := settled(paidID); paid["effectStatus"] != "performed" || paid["outcome"] != "committed" {
		t.Fatalf("the payment: %v", paid)
	}

	// Item 5: a finished purchase says how to start again, and asked
	// again it opens a new round.
	done := s.call("shop.journey.purchase", nil)
	if how, _ := done["howToAct"].(string); done["frame"] != "completed" || done["startWith"] != "catalog.open-product" || !strings.Contains(how, "startWith") {
		t.Fatalf("item 5, the finished purchase: %v", done)
	}
	for _, a := range []string{"close-review", "back-to-cart", "shop-more"} {
		do(a)
	}
	again := s.call("shop.journey.purchase", nil)
	if again["frame"] != "open" || again["newRound"] != true || find(list(again["readySteps"]), "step", "catalog.open-product") == nil {
		t.Fatalf("item 5, the purchase asked again: %v", again)
	}
	toCheckout("gift-card")
	review := step("purchase", "open-review", nil)
	// Item 6: the second round's payment is order-2's, not done by
	// order-1's.
	if r := find(list(review["readySteps"]), "step", "checkout.review.order.pay"); r == nil || mustJSON(t, r["instances"]) != `["order-2"]` {
		t.Fatalf("item 6, order-2's payment: %v", review)
	}
	if r := find(list(review["laterSteps"]), "step", "checkout.review.order.pay"); r != nil && r["status"] == "done" {
		t.Fatalf("item 6, the payment listed done: %v", review)
	}

	// Item 8: the gift card's refusal, a code and our sentence in every
	// place the model reads it.
	refusedID, _ := step("purchase", "pay", nil, "instance", "order-2")["transitionId"].(string)
	refused := settled(refusedID)
	re, _ := refused["error"].(map[string]any)
	if sentence, _ := re["message"].(string); refused["ok"] != false || refused["judgment"] != "rejected" || refused["effectStatus"] != "refused" || re["reason"] != "APP_FAILED" || sentence == "" || strings.Contains(sentence, "gift card") || strings.Contains(sentence, "{") {
		t.Fatalf("item 8, the refused payment: %v", refused)
	}
	// The model looked at whats_here before: it asks for what changed
	// since, as the tool's description says.
	here := s.call("shop.whats_here", map[string]any{"sinceVersion": full["version"]})
	if facts, _ := here["facts"].(string); !strings.Contains(facts, "APP_FAILED") || strings.Contains(facts, "gift card") {
		t.Fatalf("item 8, the facts: %v", here["facts"])
	}
	if brief, _ := here["brief"].(string); strings.Contains(brief, "Ready for you now: checkout.review.order.pay") {
		t.Fatalf("item 8, the brief: %v", brief)
	}

	// Item 9: order-1 paid is a duplicate, not unknown.
	dup := s.call("shop.do_action", map[string]any{"action": "pay", "instance": "order-1", "confirm": true})
	if dup["ok"] != false || dup["reason"] != "DUPLICATE_EXECUTION" || dup["priorTransitionId"] != paidID || dup["why"] == nil {
		t.Fatalf("item 9, paying order-1 again: %v", dup)
	}

	// Item 12: what is left differs only in ids, versions and times.
	var out []string
	for _, r := range s.transcript[mark:] {
		out = append(out, normalized(t, r))
	}
	n, ceiling := s.bytes.n.Load(), fixedByteCeiling[s.transport]
	t.Logf("%s, what each part read:\n%s", s.transport, strings.Join(s.read, "\n"))
	t.Logf("%s: %d B received in %d calls and one tool list (ceiling %d B; issue 42's goal %d B)", s.transport, n, s.calls, ceiling, fixedByteGoal)
	if n > ceiling || s.calls != fixedCalls {
		t.Errorf("%s: %d B in %d calls, want at most %d B in %d calls", s.transport, n, s.calls, ceiling, fixedCalls)
	}
	return out
}

var (
	uuids    = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	fireIDs  = regexp.MustCompile(`#[0-9]+\b`)
	perRunAt = []string{"version", "sinceVersion", "at", "request", "transitionId", "askId", "priorTransitionId", "lastFireRejected"}
)

// normalized is an answer as JSON with what differs from run to run by
// design (ids minted per run, versions that count the app's own
// Messages, clock readings) replaced by placeholders. The until loops'
// repeated polls are not part of a transcript: only their last answer is.
func normalized(t *testing.T, r map[string]any) string {
	t.Helper()
	var scrub func(v any) any
	scrub = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			out := make(map[string]any, len(v))
			for k, x := range v {
				if slices.Contains(perRunAt, k) || strings.HasSuffix(k, "Version") || strings.HasSuffix(k, "At") {
					out[k] = "<" + k + ">"
					continue
				}
				out[k] = scrub(x)
			}
			return out
		case []any:
			out := make([]any, len(v))
			for i, x := range v {
				out[i] = scrub(x)
			}
			return out
		case string:
			return fireIDs.ReplaceAllString(uuids.ReplaceAllString(v, "<id>"), "#<n>")
		}
		return v
	}
	return mustJSON(t, scrub(r))
}
