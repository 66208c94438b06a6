package shop_test

import (
	"context"
	"encoding/json"
	"github.com/foldagent/foldagent/journey/fixed"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/shop/shop"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
	"github.com/foldagent/foldagent/journey/journeymcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// driver drives a store over MCP, in process, with the Go SDK's client:
// the same bytes a model's host would send and read.
type driver struct {
	t     *testing.T
	st    *shop.Store
	j     *bind.Journey
	port  *fixed.Port
	cs    *mcp.ClientSession
	sizes map[string]int // last result's size per tool
}

func drive(t *testing.T, payDelay time.Duration, settleWithin time.Duration) *driver {
	t.Helper()
	return driveWith(t, payDelay, settleWithin, true)
}

// driveWith is drive, with the person approving every payment (approve)
// or left to the test.
func driveWith(t *testing.T, payDelay time.Duration, settleWithin time.Duration, approve bool) *driver {
	t.Helper()
	st, j := openWith(t, payDelay, approve)
	port := fixed.Serve(j.Session(), fixed.Options{})
	srv, err := journeymcp.NewServer(port, &journeymcp.Options{SettleWithin: settleWithin})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ct, sst := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, sst, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "driver", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &driver{t: t, st: st, j: j, port: port, cs: cs, sizes: map[string]int{}}
}

func (d *driver) call(name string, args map[string]any) map[string]any {
	d.t.Helper()
	res, err := d.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		d.t.Fatalf("%s: %v", name, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	d.sizes[name] = len(text)
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		d.t.Fatalf("%s: %v", name, err)
	}
	return m
}

func (d *driver) step(step string, input map[string]any) map[string]any {
	d.t.Helper()
	args := map[string]any{"step": step}
	if input != nil {
		args["input"] = input
	}
	return d.call("shop.journey.purchase", args)
}

// wait waits until a fire is at rest, through the port's own door.
func (d *driver) wait(id string) {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := d.port.WhenSettled(ctx, id); err != nil {
		d.t.Fatal(err)
	}
}

func rows(r map[string]any, key string) []map[string]any {
	list, _ := r[key].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, x := range list {
		m, _ := x.(map[string]any)
		out = append(out, m)
	}
	return out
}

func row(r map[string]any, key, field, id string) map[string]any {
	for _, m := range rows(r, key) {
		if m[field] == id {
			return m
		}
	}
	return nil
}

// giveAddress is the person giving the delivery address in the app.
func (d *driver) giveAddress() {
	d.t.Helper()
	giveAddress(d.t, d.st, d.j, "1 Main St")
}

// toReview has the person give the address and opens the order review.
func (d *driver) toReview() {
	d.t.Helper()
	d.giveAddress()
	r := d.step("open-review", nil)
	if r["ok"] != true {
		d.t.Fatalf("open-review: %v", r)
	}
	if r["effectStatus"] == "pending" {
		d.wait(r["transitionId"].(string))
	}
}

// toCheckout walks the purchase journey up to the checkout page.
func (d *driver) toCheckout(sku string) {
	d.t.Helper()
	d.call("shop.journey.purchase", nil)
	for _, s := range []struct {
		step  string
		input map[string]any
	}{{"open-product", map[string]any{"sku": sku}}, {"add-to-cart", map[string]any{"qty": 1}}, {"go-cart", nil}, {"checkout", nil}} {
		r := d.step(s.step, s.input)
		if r["ok"] != true {
			d.t.Fatalf("%s: %v", s.step, r)
		}
		if r["effectStatus"] == "pending" {
			// Past a short ceiling on a loaded machine: wait it out.
			d.wait(r["transitionId"].(string))
		}
	}
}

// After open-review commits, the same result must offer pay: the frame is
// computed from the surface the fire produced (the review shown), not
// from the one before it.
func TestMCPFrameIsComputedFromTheStateTheFireProduced(t *testing.T) {
	d := drive(t, 0, 5*time.Second)
	d.toCheckout("dress-red")
	d.giveAddress()
	r := d.step("open-review", nil)
	if r["effectStatus"] != "performed" || r["outcome"] != "committed" {
		t.Fatalf("open-review did not settle within the ceiling: %v", r)
	}
	if r["judgment"] != "one-ready-step" || row(r, "readySteps", "step", "checkout.review.order.pay") == nil {
		t.Fatalf("pay must be ready once the review is open: %v", r)
	}
	if po := row(r, "laterSteps", "step", "checkout.review.order.pay"); po != nil {
		t.Fatalf("pay still listed as waiting: %v", po)
	}
	if _, stale := r["stateReported"]; stale {
		t.Fatalf("a settled frame says its state is not reported: %v", r)
	}
	for _, list := range []string{"readySteps", "laterSteps"} {
		for _, m := range rows(r, list) {
			if _, ok := m["priorFireUnsettled"]; ok {
				t.Fatalf("a settled step is listed unsettled: %v", m)
			}
		}
	}
	// The plain call after it agrees.
	again := d.call("shop.journey.purchase", nil)
	if again["judgment"] != r["judgment"] || again["howToAct"] != r["howToAct"] {
		t.Fatalf("the next call disagrees with the fire's result:\n%v\n%v", r, again)
	}
}

// A synchronous port result (no server ceiling) cannot know the state the
// fire will produce, so it says so; Fold computes the frame again once the
// fire is at rest.
func TestPortSaysWhenTheStateIsNotYetReported(t *testing.T) {
	d := drive(t, 300*time.Millisecond, -1)
	d.toCheckoutWithoutWaiting(t)
	d.toReview()
	// The payment answers after 300 ms: the order is unsettled when the
	// frame is read.
	r := d.port.Call(context.Background(), "shop.journey.purchase", map[string]any{"step": "pay", "instance": "order-1", "confirm": true})
	if !r.OK() || r.TransitionID() == "" {
		t.Fatalf("%s", r.JSON())
	}
	// stateMeans was said with the first unsettled frame of this
	// conversation, once; stateReported says it here.
	if v, _ := r.Get("stateReported"); v != false {
		t.Fatalf("an unsettled fire's frame must say its state is not reported: %s", r.JSON())
	}
	if !strings.Contains(r.String("howToAct"), "did_it_work") {
		t.Fatalf("howToAct must point at did_it_work while waiting: %s", r.JSON())
	}
	if d.port.Fold(&r) {
		t.Fatalf("Fold folded a fire still in flight: %s", r.JSON())
	}
	d.wait(r.TransitionID())
	if !d.port.Fold(&r) || r.Has("stateReported") || r.Has("howToSettle") || r.Judgment() != "done" || r.String("frame") != "completed" {
		t.Fatalf("Fold must compute the frame again: %s", r.JSON())
	}
}

func (d *driver) toCheckoutWithoutWaiting(t *testing.T) {
	t.Helper()
	d.call("shop.journey.purchase", nil)
	for _, s := range []struct {
		step  string
		input map[string]any
	}{{"open-product", map[string]any{"sku": "dress-red"}}, {"add-to-cart", nil}, {"go-cart", nil}, {"checkout", nil}} {
		r := d.step(s.step, s.input)
		if id, _ := r["transitionId"].(string); id != "" {
			d.wait(id)
		}
	}
}

// open-product with a SKU the store does not sell is refused by the
// store's handler: the fire comes to rest refused, its claimed navigation
// is walked back, the step is not done, and its row says the app refused
// it. Nothing the handler returned beside its error is reported as data.
func TestMCPUnknownSKUIsRefusedAndNeverArrives(t *testing.T) {
	d := drive(t, 0, 5*time.Second)
	d.call("shop.journey.purchase", nil)
	r := d.step("open-product", map[string]any{"sku": "no-such-sku"})
	id, _ := r["transitionId"].(string)
	if r["effectStatus"] != "refused" || r["youAreOn"] != "catalog" || r["arrival"] == "observed" {
		t.Fatalf("an unknown SKU must be refused and not arrive: %v", r)
	}
	// The contract's refusal, as a reason code, a plain sentence and
	// structured data: never a JSON document inside a string.
	e, _ := r["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	if e["reason"] != "REJECTED" || data["_tag"] != "AgentNotFoundError" || data["path"] != "/sku" ||
		e["message"] != "The store sells no product with that SKU; search with an empty query lists every SKU it sells." {
		t.Fatalf("error: %v", r["error"])
	}
	if _, ok := r["data"]; ok {
		t.Fatalf("the value a refusing handler returned is reported as data: %v", r["data"])
	}
	// Every status says the same thing, and nothing speaks of an arrival
	// that was walked back.
	if r["ok"] != false || r["judgment"] != "rejected" || r["reason"] != "REJECTED" || r["why"] != e["message"] {
		t.Fatalf("a refused step must say so in every field: %v", r)
	}
	for _, k := range []string{"arrival", "arrivalMeans", "toNode", "toNodeClaimed"} {
		if _, ok := r[k]; ok {
			t.Errorf("a refused step reports %s: %v", k, r[k])
		}
	}
	if w := d.call("shop.did_it_work", map[string]any{"transitionId": id}); w["judgment"] != "rejected" || w["arrival"] != nil ||
		w["error"].(map[string]any)["message"] != e["message"] {
		t.Fatalf("did_it_work on a refused step: %v", w)
	}
	if m := row(r, "readySteps", "step", "catalog.open-product"); m == nil || m["lastFireRejected"] != id {
		t.Fatalf("the refused step must be offered again, marked: %v", r)
	}
	if r["lastFireRejectedMeans"] == nil {
		t.Fatalf("a marked row needs its sentence: %v", r)
	}
	tr, _ := d.j.Session().View().Transition(id)
	if tr.Outcome == journey.OutcomeCommitted || tr.Produced != nil {
		t.Fatalf("the session recorded the refused fire as %+v", tr)
	}
	st, _, _ := d.j.Session().View().SettlementIfKnown(id)
	if st.EffectStatus != journey.EffectRefused {
		t.Fatalf("settlement %+v", st)
	}
	// The next step is not offered as if the product page had opened.
	next := d.step("add-to-cart", nil)
	if next["ok"] == true {
		t.Fatalf("add-to-cart fired on a page that never opened: %v", next)
	}
	if d.call("shop.whats_here", nil)["youAreOn"] != "catalog" {
		t.Fatal("the cursor left the catalog")
	}
}

// The synchronous answer of a navigating fire says the arrival is claimed,
// never observed: only the app's own sync observes it.
func TestPortReportsANavigationAsClaimedBeforeItIsObserved(t *testing.T) {
	_, j := open(t, 0)
	p := fixed.Serve(j.Session(), fixed.Options{})
	r := p.Call(context.Background(), "shop.do_action", map[string]any{"action": "open-product", "input": map[string]any{"sku": "dress-red"}})
	if r.String("arrival") != "claimed" || r.String("arrivalMeans") == "" {
		t.Fatalf("%s", r.JSON())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.WhenSettled(ctx, r.String("transitionId")); err != nil {
		t.Fatal(err)
	}
	if !p.Fold(&r) || r.String("arrival") != "observed" || r.String("youAreOn") != "product" {
		t.Fatalf("%s", r.JSON())
	}
}

// The payment server's refusal reaches did_it_work with its reason as
// data, and the journey marks pay as refused the last time, so a bounded
// driver does not pay a second time.
func TestMCPPaymentRefusalCarriesItsReasonAndMarksTheStep(t *testing.T) {
	d := drive(t, 400*time.Millisecond, 5*time.Millisecond)
	d.toCheckout("gift-card")
	d.toReview()
	r := d.call("shop.journey.purchase", map[string]any{"step": "pay", "instance": "order-1"})
	id, _ := r["transitionId"].(string)
	if r["effectStatus"] != "pending" || id == "" {
		t.Fatalf("the order must answer pending past the ceiling: %v", r)
	}
	if m := row(d.call("shop.whats_here", nil), "actions", "action", "checkout.review.order.pay"); m == nil || m["priorFireUnsettled"] != id {
		t.Fatalf("an unsettled order must be marked on its row: %v", m)
	}
	d.wait(id)
	w := d.call("shop.did_it_work", map[string]any{"transitionId": id})
	e, _ := w["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	msg, _ := data["message"].(map[string]any)
	if w["judgment"] != "rejected" || e["reason"] != "APP_FAILED" || data["tag"] != "PaymentRefused" || !strings.Contains(msg["reason"].(string), "gift card") {
		t.Fatalf("the refusal's reason must ride as data: %v", w)
	}
	j := d.call("shop.journey.purchase", nil)
	m := row(j, "readySteps", "step", "checkout.review.order.pay")
	if m == nil {
		m = row(j, "laterSteps", "step", "checkout.review.order.pay")
	}
	if m == nil || m["lastFireRejected"] != id || m["priorFireUnsettled"] != nil {
		t.Fatalf("pay must carry lastFireRejected and nothing unsettled: %v", j)
	}
	if j["standing"] != "failed" {
		t.Fatalf("standing %v", j["standing"])
	}
	if m := row(d.call("shop.whats_here", nil), "actions", "action", "checkout.review.order.pay"); m["priorFireUnsettled"] != nil {
		t.Fatalf("a settled order still listed unsettled: %v", m)
	}
	// A driver that stops at the mark pays once, not twice.
	if n := len(d.st.Orders()); n != 1 {
		t.Fatalf("%d orders", n)
	}
}

// Journeys never opened are not in progress; the journey you are inside is
// listed in declaration order, not appended after the page's own.
func TestMCPJourneyListStandingAndOrder(t *testing.T) {
	d := drive(t, 0, 5*time.Second)
	w := d.call("shop.whats_here", nil)
	for _, j := range rows(w, "journeys") {
		if j["standing"] != "not-started" {
			t.Fatalf("a journey never opened: %v", j)
		}
	}
	d.toCheckout("dress-red")
	if r := d.call("shop.do_action", map[string]any{"action": "back-to-cart"}); r["youAreOn"] != "cart" {
		t.Fatalf("%v", r)
	}
	// On the cart: pay-cart starts here; purchase (declared first) is open.
	w = d.call("shop.whats_here", nil)
	var ids []string
	for _, j := range rows(w, "journeys") {
		ids = append(ids, j["journey"].(string))
	}
	if !slices.Equal(ids, []string{"purchase", "pay-cart"}) {
		t.Fatalf("journeys %v, want declaration order [purchase pay-cart]", ids)
	}
	if p := row(w, "journeys", "journey", "purchase"); p["standing"] != "in-progress" || p["open"] != true {
		t.Fatalf("%v", p)
	}
	if p := row(w, "journeys", "journey", "pay-cart"); p["standing"] != "not-started" {
		t.Fatalf("%v", p)
	}
}

// whats_here {sinceVersion} answers with what changed since that version.
func TestMCPSinceVersionNarrowsToTheDelta(t *testing.T) {
	d := drive(t, 0, 5*time.Second)
	full := d.call("shop.whats_here", nil)
	fullSize := d.sizes["shop.whats_here"]
	r := d.call("shop.do_action", map[string]any{"action": "search", "input": map[string]any{"q": "dress"}})
	if r["judgment"] != "done" {
		t.Fatalf("%v", r)
	}
	delta := d.call("shop.whats_here", map[string]any{"sinceVersion": r["version"]})
	if delta["sinceVersion"] == nil || len(rows(delta, "actions")) != 0 || len(rows(delta, "journeys")) != 0 {
		t.Fatalf("nothing on the page changed since the search, yet: %v", delta)
	}
	if d.sizes["shop.whats_here"] >= fullSize {
		t.Fatalf("delta %d B is not smaller than the full reply %d B", d.sizes["shop.whats_here"], fullSize)
	}
	// A change is shown: opening a journey moves its standing.
	d.call("shop.journey.find", nil)
	delta = d.call("shop.whats_here", map[string]any{"sinceVersion": full["version"]})
	js := rows(delta, "journeys")
	if len(js) != 1 || js[0]["journey"] != "find" || len(rows(delta, "actions")) != 0 {
		t.Fatalf("want only the find row: %v", delta)
	}
}

// heldTranscript pays order-1 over the fixed tools while the person is
// left to answer in the app, and returns what the model read.
func heldTranscript(t *testing.T, approve bool) []string {
	t.Helper()
	d := driveWith(t, 20*time.Millisecond, 5*time.Millisecond, false)
	d.toCheckout("dress-red")
	d.toReview()
	r := d.call("shop.journey.purchase", map[string]any{"step": "pay", "instance": "order-1"})
	id, _ := r["transitionId"].(string)
	if id == "" {
		t.Fatalf("pay: %v", r)
	}
	// The app holds the payment for the person: the fire is awaiting the
	// human, with the card's id, and the card answers did_it_work.
	var held map[string]any
	// Polled over the protocol, as an agent learns a fire's state: no
	// event of the journey session reaches an MCP client.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		held = d.call("shop.did_it_work", map[string]any{"transitionId": id})
		if held["judgment"] == "awaiting-human" || time.Now().After(deadline) {
			break
		}
	}
	askID, _ := held["askId"].(string)
	asked := d.st.Model().Asked
	if held["judgment"] != "awaiting-human" || held["performed"] != false || len(asked) != 1 || askID != asked[0].ID {
		t.Fatalf("a held payment: %v (asked %+v)", held, asked)
	}
	card := d.call("shop.did_it_work", map[string]any{"transitionId": askID})
	if card["judgment"] != "awaiting-human" || card["howToAct"] != held["howToAct"] {
		t.Fatalf("the card: %v", card)
	}
	if err := d.st.Program.Dispatch(context.Background(), answerOf(asked[0], approve)); err != nil {
		t.Fatal(err)
	}
	d.wait(id)
	// The payment's state change settles the fire, and ends its work,
	// before its handler has returned the completing Message (issue 26's
	// twelfth): the transcript is read once the work is done and, when
	// approved, the handler's answer (the completion, as data) is in.
	var done map[string]any
	// Polled over the protocol, as above.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		done = d.call("shop.did_it_work", map[string]any{"transitionId": id})
		if done["stillWorking"] == nil && (!approve || done["data"] != nil) || time.Now().After(deadline) {
			break
		}
	}
	after := d.call("shop.did_it_work", map[string]any{"transitionId": askID})
	if approve {
		if done["settled"] != true || done["judgment"] != "done" || done["data"] == nil || after["did"] != done["did"] || after["settled"] != true {
			t.Fatalf("approved: fire %v; card %v", done, after)
		}
		if o := d.st.Orders(); len(o) != 1 || o[0].Status != shop.Paid {
			t.Fatalf("orders %+v", o)
		}
	} else {
		e, _ := done["error"].(map[string]any)
		data, _ := e["data"].(map[string]any)
		if done["judgment"] != "rejected" || data["_tag"] != "AgentDeclinedError" || after["judgment"] != "declined" {
			t.Fatalf("declined: fire %v; card %v", done, after)
		}
		if o := d.st.Orders(); len(o) != 1 || o[0].Status == shop.Paid {
			t.Fatalf("orders %+v", o)
		}
	}
	// Ids are minted at random per run (approval ids with a count of the
	// process's requests); everything else must repeat.
	ids := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|approval-[0-9a-f]{16}-[0-9]+`)
	var out []string
	for _, m := range []map[string]any{held, card, done, after} {
		delete(m, "version")
		b, _ := json.Marshal(m)
		out = append(out, ids.ReplaceAllString(string(b), "<id>"))
	}
	return out
}

// A payment the contract holds for the person's approval is, on the fixed
// tools, a card in the session's ask book: the fire is awaiting the
// human, did_it_work on the card's id answers it, and once the person
// answers in the app the card is spent by the payment (approved) or
// closed declined, with nothing paid. The answers are the same twice.
func TestFixedToolsServeThePersonsApproval(t *testing.T) {
	for _, approve := range []bool{true, false} {
		first, second := heldTranscript(t, approve), heldTranscript(t, approve)
		if !slices.Equal(first, second) {
			t.Fatalf("approve=%v: the answers differ between runs:\n%v\n%v", approve, first, second)
		}
	}
}

// answerOf is the person's answer to the card q: approved or declined.
func answerOf(q agent.ApprovalRequest, approve bool) agent.ApprovalAnswer {
	if approve {
		return q.Approve("the person")
	}
	return q.Decline("the person", "")
}
