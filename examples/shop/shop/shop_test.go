package shop_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/shop/shop"
	"github.com/foldagent/foldagent/internal/journeytest"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
	"github.com/foldagent/foldagent/journey/fixed"
)

// waitPage waits until the cursor is on page.
func waitPage(t *testing.T, j *bind.Journey, page string) {
	t.Helper()
	journeytest.WaitFor(t, j.Session(), "the cursor to follow the Model to "+page, func() bool { return j.Session().View().Position().YouAreOn == page })
}

// open runs a store and binds the journey over its contract.
func open(t *testing.T, payDelay time.Duration) (*shop.Store, *bind.Journey) {
	t.Helper()
	return openWith(t, payDelay, true)
}

// openWith is open, with the person approving every payment (approve) or
// left to the test.
func openWith(t *testing.T, payDelay time.Duration, approve bool) (*shop.Store, *bind.Journey) {
	t.Helper()
	st, err := shop.Start(payDelay)
	if err != nil {
		t.Fatal(err)
	}
	j, err := bind.New("shop", st.Runtime, st.Model, shop.Journey, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stop := func() {}
	if approve {
		stop = approves(st)
	}
	t.Cleanup(func() {
		stop()
		j.Close()
		if err := st.Close(); err != nil {
			t.Error(err)
		}
	})
	return st, j
}

// approves is the person at the store, approving each payment an agent
// asks for as it appears in the app (these tests are about the journey,
// not the approval; examples/shop's terminal tests answer by keys). It
// returns what stops them.
func approves(st *shop.Store) (stop func()) {
	changed := make(chan struct{}, 1)
	unsub := st.Program.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		answered := map[string]bool{}
		for {
			select {
			case <-quit:
				return
			case <-changed:
			}
			for _, q := range st.Model().Asked {
				if !answered[q.ID] {
					answered[q.ID] = true
					_ = st.Program.Dispatch(context.Background(), q.Approve("the person"))
				}
			}
		}
	}()
	return func() { unsub(); close(quit); <-done }
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

// waitModel waits until the store's Model satisfies cond.
func waitModel(t *testing.T, st *shop.Store, what string, cond func(shop.Model) bool) {
	t.Helper()
	moved := make(chan struct{}, 1)
	defer st.Program.Subscribe(func() {
		select {
		case moved <- struct{}{}:
		default:
		}
	})()
	timeout := time.After(5 * time.Second)
	for !cond(st.Model()) {
		select {
		case <-moved:
		case <-timeout:
			t.Fatalf("%s: not within 5 s", what)
		}
	}
}

// waitState waits until the state view holds want at key.
func waitState(t *testing.T, j *bind.Journey, key string, want any) {
	t.Helper()
	journeytest.WaitFor(t, j.Session(), "the state view's "+key, func() bool { return j.Session().View().State()[key] == want })
}

// giveAddress is the person giving the delivery address in the app: the
// app's own Message, as the terminal app sends it when they press enter.
// It returns once the journey has seen the change.
func giveAddress(t *testing.T, st *shop.Store, j *bind.Journey, address string) {
	t.Helper()
	if err := st.Program.Dispatch(context.Background(), shop.SetAddress{Address: address}); err != nil {
		t.Fatal(err)
	}
	waitState(t, j, "address", address)
}

// buy walks the purchase journey for one product (the person giving the
// address when the journey waits on them) and returns the payment fire's
// transition id after confirming it.
func buy(t *testing.T, st *shop.Store, j *bind.Journey, p *fixed.Port, sku string) string {
	t.Helper()
	step := func(s string, input map[string]any, more ...any) map[string]any {
		t.Helper()
		args := map[string]any{"step": s}
		if input != nil {
			args["input"] = input
		}
		for i := 0; i+1 < len(more); i += 2 {
			args[more[i].(string)] = more[i+1]
		}
		return result(t, p, "shop.journey.purchase", args)
	}
	result(t, p, "shop.journey.purchase", nil)
	for _, s := range []struct {
		step  string
		input map[string]any
	}{{"open-product", map[string]any{"sku": sku}}, {"add-to-cart", map[string]any{"qty": 1}}, {"go-cart", nil}, {"checkout", nil}} {
		r := step(s.step, s.input)
		if r["ok"] != true {
			t.Fatalf("%s: %v", s.step, r)
		}
		settle(t, p, r)
	}
	if r := result(t, p, "shop.journey.purchase", nil); !waitsOnTheAddress(r, false) || len(r["readySteps"].([]any)) != 0 {
		t.Fatalf("the journey must wait on the person's address: %v", r)
	}
	giveAddress(t, st, j, "1 Main St")
	if r := step("open-review", nil); r["ok"] != true {
		t.Fatalf("open-review: %v", r)
	} else {
		settle(t, p, r)
	}
	order := j.Session().View().State()["checkoutOrder"]
	// The person approves the payment on their screen: that is the one
	// question, so the step fires at once, pending, without needs-confirm.
	r := step("pay", nil, "instance", order)
	if r["ok"] != true || r["effectStatus"] != "pending" || r["judgment"] == "needs-confirm" {
		t.Fatalf("the payment: %v", r)
	}
	return r["transitionId"].(string)
}

func TestPurchaseSettlesPaid(t *testing.T) {
	st, j := openWith(t, 20*time.Millisecond, false)
	p := fixed.Serve(j.Session(), fixed.Options{})
	id := buy(t, st, j, p, "dress-red")
	// The app holds the payment for the person: until they answer, the
	// answer is the same however long one waits, and nothing is paid.
	journeytest.WaitFor(t, j.Session(), "the payment to be held for the person", func() bool { return j.Session().Asks().Held(id) != "" })
	for range 2 {
		r := result(t, p, "shop.did_it_work", map[string]any{"transitionId": id})
		if r["judgment"] != "awaiting-human" || r["performed"] != false || r["settled"] != false || r["askId"] != j.Session().Asks().Held(id) {
			t.Fatalf("held payment: %v", r)
		}
	}
	if o := st.Orders(); len(o) != 1 || o[0].Status == "paid" {
		t.Fatalf("paid before the person answered: %+v", o)
	}
	waitModel(t, st, "the request on the person's screen", func(m shop.Model) bool { return len(m.Asked) > 0 })
	asked := st.Model().Asked
	if len(asked) != 1 || asked[0].Capability != "pay" {
		t.Fatalf("the person's screen must show the one payment: %+v", asked)
	}
	if err := st.Program.Dispatch(context.Background(), asked[0].Approve("the person")); err != nil {
		t.Fatal(err)
	}
	settle(t, p, map[string]any{"transitionId": id})
	r := result(t, p, "shop.did_it_work", map[string]any{"transitionId": id})
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
	id := buy(t, st, j, p, "gift-card")
	settle(t, p, map[string]any{"transitionId": id})
	r := result(t, p, "shop.did_it_work", map[string]any{"transitionId": id})
	if r["settled"] != true || r["effectStatus"] != "refused" || r["outcome"] != "rejected" || r["judgment"] != "rejected" {
		t.Fatalf("refused: %v", r)
	}
	if o := st.Orders(); o[0].Status != "refused" {
		t.Fatalf("orders: %+v", o)
	}
	// The app's refusal: a code, our sentence, and its completing
	// Message as data, never a JSON document inside a string.
	e, _ := r["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	if msg, _ := data["message"].(map[string]any); e["reason"] != "APP_FAILED" || data["tag"] != "PaymentRefused" || !strings.Contains(fmt.Sprint(msg["reason"]), "gift card") ||
		strings.Contains(e["message"].(string), "gift card") || json.Valid([]byte(e["message"].(string))) {
		t.Fatalf("the refusal must carry the completing Message as data: %v", r)
	}
	// The contract recorded the order as dispatched, with its failure.
	// The person approved it first: the held entry comes before, and the
	// dispatched one names their answer.
	var placed, held []agent.AuditEntry
	for _, e := range st.Audit.Entries() {
		switch {
		case e.Capability == "pay" && e.Decision == agent.DecisionHeld:
			held = append(held, e)
		case e.Capability == "pay":
			placed = append(placed, e)
		}
	}
	if len(placed) != 1 || placed[0].Transport != bind.JourneyTransport || len(held) != 1 || held[0].Invocation != placed[0].Invocation ||
		placed[0].Approval == nil || placed[0].Approval.Answer != agent.WithdrawnApproved || placed[0].Approval.By != "the person" {
		t.Fatalf("audit: %+v %+v", held, placed)
	}
}

// toCheckoutAsPerson walks a person to checkout in the app with one
// product in the cart; the cursor follows the Model.
func toCheckoutAsPerson(t *testing.T, st *shop.Store, j *bind.Journey, sku string) {
	t.Helper()
	for _, m := range []any{shop.OpenProduct{SKU: sku}, shop.AddToCart{SKU: sku, Qty: 1}, shop.GoCart{}, shop.GoCheckout{}} {
		if err := st.Program.Dispatch(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	waitPage(t, j, "checkout")
	waitState(t, j, "checkoutOrder", "order-1")
}

// waitsOnTheAddress reports whether a journey frame lists the address
// change as the person's, made or not.
func waitsOnTheAddress(r map[string]any, made bool) bool {
	for _, x := range asList(r["withTheHuman"]) {
		if m := x.(map[string]any); m["step"] == "checkout.change-address" && m["humanDecides"] == true && m["made"] == made {
			return true
		}
	}
	return false
}

func asList(x any) []any { l, _ := x.([]any); return l }

func served(t *testing.T, p *fixed.Port, action string) map[string]any {
	t.Helper()
	for _, x := range result(t, p, "shop.whats_here", nil)["actions"].([]any) {
		if m := x.(map[string]any); m["action"] == action {
			return m
		}
	}
	return nil
}

// The payment sits in the order review: while the review is closed it is
// served hidden and an agent's fire is refused NODE_NOT_VISIBLE; once
// open, it is greyed until the person has given the address, and the
// review masks the rest of the page. The session answers all of it: the
// contract is never reached.
func TestPayIsBehindTheReviewAndGreyedUntilTheAddress(t *testing.T) {
	st, j := open(t, 0)
	toCheckoutAsPerson(t, st, j, "dress-red")
	p := fixed.Serve(j.Session(), fixed.Options{})
	if row := served(t, p, "checkout.review.order.pay"); row == nil || row["activation"] != "hidden" {
		t.Fatalf("pay must be served hidden while the review is closed: %v", row)
	}
	r := result(t, p, "shop.do_action", map[string]any{"action": "pay", "instance": "order-1"})
	if r["reason"] != "NODE_NOT_VISIBLE" || r["askId"] != nil {
		t.Fatalf("pay behind the closed review: %v", r)
	}
	r = result(t, p, "shop.do_action", map[string]any{"action": "open-review"})
	if b, _ := r["blockedBecause"].(map[string]any); r["reason"] != "TOOL_DISABLED" || b["clearedBy"] != "user" {
		t.Fatalf("the review opens once the person has given the address: %v", r)
	}
	giveAddress(t, st, j, "1 Main St")
	r = result(t, p, "shop.do_action", map[string]any{"action": "open-review"})
	if r["ok"] != true {
		t.Fatalf("open-review: %v", r)
	}
	settle(t, p, r)
	if row := served(t, p, "checkout.review.order.pay"); row["activation"] != "shown" || row["enabled"] == false {
		t.Fatalf("pay must be shown and clickable in the open review: %v", row)
	}
	r = result(t, p, "shop.do_action", map[string]any{"action": "back-to-cart"})
	if r["reason"] != "BLOCKED_BY_OVERLAY" || r["overlay"] != "checkout.review" {
		t.Fatalf("the open review must mask the page: %v", r)
	}
	for _, e := range st.Audit.Entries() {
		if e.Capability != "open_review" || e.Outcome != agent.OutcomeDispatched {
			t.Fatalf("a refusal the session answered reached the contract: %+v", e)
		}
	}
	// Closing the review (the person, in the app) hides pay again.
	if err := st.Program.Dispatch(context.Background(), shop.CloseReview{}); err != nil {
		t.Fatal(err)
	}
	journeytest.WaitFor(t, j.Session(), "closing the review in the app to hide pay", func() bool {
		return served(t, p, "checkout.review.order.pay")["activation"] == "hidden"
	})
}

// Changing the delivery address is the person's decision: the agent is
// served it awaiting the person and refused PRINCIPAL_NOT_ALLOWED, no
// route offers it to the agent, and the person's own change in the app is
// recorded as theirs and makes the decision.
func TestAddressIsThePersonsDecision(t *testing.T) {
	st, j := open(t, 0)
	toCheckoutAsPerson(t, st, j, "dress-red")
	p := fixed.Serve(j.Session(), fixed.Options{})
	row := served(t, p, "checkout.change-address")
	if row == nil || row["awaitingHuman"] != true || row["humanDecides"] != true || row["about"] != "delivery-address" {
		t.Fatalf("change-address must be served awaiting the person: %v", row)
	}
	if mi, _ := row["mayInvoke"].([]any); len(mi) != 1 || mi[0] != "human" {
		t.Fatalf("mayInvoke: %v", row)
	}
	r := result(t, p, "shop.do_action", map[string]any{"action": "change-address", "input": map[string]any{"address": "1 Main St"}})
	if r["reason"] != "PRINCIPAL_NOT_ALLOWED" || r["askId"] != nil {
		t.Fatalf("an agent's address change: %v", r)
	}
	for _, d := range shop.Contract().Describe().Capabilities {
		if strings.Contains(d.Name, "address") {
			t.Fatalf("the contract offers the address to an agent: %s", d.Name)
		}
	}
	giveAddress(t, st, j, "1 Main St")
	var mine []journey.Transition
	for _, tr := range j.Session().View().Transitions() {
		if tr.Kind == journey.KindStimulus && slices.Contains(tr.Keys, "address") {
			mine = append(mine, tr)
		}
	}
	if len(mine) != 1 || mine[0].Actor != journey.ActorUser || mine[0].Attribution == nil || mine[0].Attribution.Basis != journey.BasisPrincipal {
		t.Fatalf("the person's change must be recorded as theirs: %+v", mine)
	}
	// Made, it waits on nobody: the step is done in the frame, not with
	// the person.
	fr := result(t, p, "shop.journey.pay-cart", nil)
	done := false
	for _, x := range asList(fr["laterSteps"]) {
		if m := x.(map[string]any); m["step"] == "checkout.change-address" && m["status"] == "inferred-done" {
			done = true
		}
	}
	if waitsOnTheAddress(fr, true) || waitsOnTheAddress(fr, false) || !done || fr["standing"] == "with-the-human" {
		t.Fatalf("the person's decision is made, yet: %v", fr)
	}
}

// The payment is once-only per order: a second payment of a paid order is
// refused DUPLICATE_EXECUTION naming the payment that settled, before the
// contract is reached; the next order is paid as usual. Over the dynamic
// route the same contract says it: pay is offered only from the open
// review, and a paid order is refused.
func TestPaymentIsOncePerOrder(t *testing.T) {
	st, j := open(t, 5*time.Millisecond)
	p := fixed.Serve(j.Session(), fixed.Options{})
	first := buy(t, st, j, p, "dress-red")
	settle(t, p, map[string]any{"transitionId": first})
	r := result(t, p, "shop.do_action", map[string]any{"action": "pay", "instance": "order-1", "confirm": true})
	if r["reason"] != "DUPLICATE_EXECUTION" || r["priorTransitionId"] != first {
		t.Fatalf("a second payment of order-1: %v", r)
	}
	// The dynamic route: the contract refuses the paid order itself.
	// It is the state of the world, not who is asking: AgentStateError.
	_, err := st.Runtime.DispatchUnknown(context.Background(), "pay", json.RawMessage(`{"order":"order-1"}`), agent.Invocation{})
	var stateErr *agent.StateError
	if !errors.As(err, &stateErr) || stateErr.Tag() != agent.TagState {
		t.Fatalf("paying order-1 twice: %v (%T), want an AgentStateError", err, err)
	}
	// An order that is not the one under review is the same kind of no.
	_, err = st.Runtime.DispatchUnknown(context.Background(), "pay", json.RawMessage(`{"order":"order-9"}`), agent.Invocation{})
	if !errors.As(err, &stateErr) {
		t.Fatalf("paying an order not under review: %v (%T), want an AgentStateError", err, err)
	}
	// The only refusals the contract recorded are those two: the fixed
	// route's duplicate never reached it.
	refused := 0
	for _, e := range st.Audit.Entries() {
		if e.Capability == "pay" && e.Decision != agent.DecisionDispatched && e.Decision != agent.DecisionHeld {
			refused++
		}
	}
	if refused != 2 {
		t.Fatalf("%d refused payments reached the contract, want 2: %+v", refused, st.Audit.Entries())
	}
	// A new order.
	for _, a := range []struct {
		action string
		input  map[string]any
	}{{"close-review", nil}, {"back-to-cart", nil}, {"shop-more", nil}, {"open-product", map[string]any{"sku": "dress-blue"}}, {"add-to-cart", nil}, {"go-cart", nil}, {"checkout", nil}} {
		r := result(t, p, "shop.do_action", map[string]any{"action": a.action, "input": a.input})
		if r["ok"] != true {
			t.Fatalf("%s: %v", a.action, r)
		}
		settle(t, p, r)
	}
	if avail, _ := st.Runtime.Available(); slices.ContainsFunc(avail, func(d agent.Descriptor) bool { return d.Name == "pay" }) {
		t.Fatal("pay is offered while the review is closed")
	}
	settle(t, p, result(t, p, "shop.do_action", map[string]any{"action": "open-review"}))
	r = result(t, p, "shop.do_action", map[string]any{"action": "pay", "instance": "order-2", "confirm": true})
	if r["ok"] != true {
		t.Fatalf("the next order must be payable: %v", r)
	}
	settle(t, p, r)
	if o := st.Orders(); len(o) != 2 || o[0].Status != shop.Paid || o[1].Status != shop.Paid || o[1].Total != 95 {
		t.Fatalf("orders: %+v", o)
	}
}
