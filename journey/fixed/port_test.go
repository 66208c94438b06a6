package fixed

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/foldagent/foldagent/journey"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func strs(v any) []string {
	xs, _ := v.([]any)
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

func rowsOf(v any) []map[string]any {
	xs, _ := v.([]any)
	out := make([]map[string]any, 0, len(xs))
	for _, x := range xs {
		m, _ := x.(map[string]any)
		out = append(out, m)
	}
	return out
}

func rowByKey(rows []map[string]any, key, val string) map[string]any {
	for _, r := range rows {
		if r[key] == val {
			return r
		}
	}
	return nil
}

func TestPortToolsNamesOrderAndSchemas(t *testing.T) {
	app := newPortShop(t, journey.Options{}, "x")
	per := Serve(app.s, Options{})
	want := []string{"shop.journey.purchase", "shop.journey.vip", "shop.journey.tidy", "shop.whats_here", "shop.why", "shop.do_action", "shop.did_it_work"}
	if got := per.ToolNames(); !slices.Equal(got, want) {
		t.Fatalf("per-journey names %v, want %v", got, want)
	}
	single := Serve(app.s, Options{JourneyTools: Single})
	wantSingle := []string{"shop.journey", "shop.whats_here", "shop.why", "shop.do_action", "shop.did_it_work"}
	if got := single.ToolNames(); !slices.Equal(got, wantSingle) {
		t.Fatalf("single names %v, want %v", got, wantSingle)
	}
	required := map[string][]string{"shop.journey": {"journey"}, "shop.why": {"key"}, "shop.do_action": {"action"}, "shop.did_it_work": {"transitionId"}}
	for _, p := range []*Port{per, single} {
		for _, tool := range p.Tools() {
			if !toolNameRE.MatchString(tool.Name) || len(tool.Name) > 128 {
				t.Errorf("%q is not a valid MCP tool name", tool.Name)
			}
			var schema struct {
				Type       string                    `json:"type"`
				Properties map[string]map[string]any `json:"properties"`
				Required   []string                  `json:"required"`
				Additional *bool                     `json:"additionalProperties"`
			}
			if err := json.Unmarshal(tool.InputSchema, &schema); err != nil {
				t.Fatalf("%s: schema: %v", tool.Name, err)
			}
			if schema.Type != "object" || schema.Additional == nil || *schema.Additional {
				t.Errorf("%s: schema must be a closed object: %s", tool.Name, tool.InputSchema)
			}
			if !slices.Equal(schema.Required, required[tool.Name]) {
				t.Errorf("%s: required %v, want %v", tool.Name, schema.Required, required[tool.Name])
			}
			if strings.Contains(tool.Name, ".journey") {
				for _, k := range []string{"step", "input", "confirm", "decline", "instance"} {
					if _, ok := schema.Properties[k]; !ok {
						t.Errorf("%s lacks %s", tool.Name, k)
					}
				}
			}
		}
	}
	// The journey's does comes first, closed as a sentence before the
	// library's usage text.
	if d := per.Tools()[0].Description; !strings.HasPrefix(d, "Buy a product end to end. Call with no arguments") {
		t.Errorf("journey tool description must start with the journey's does, as a sentence: %q", d)
	}
	// Tools hands out copies: changing one changes nothing the port serves.
	ts := per.Tools()
	ts[0].InputSchema[0] = 'X'
	ts[0].Name = "mutated"
	if per.Tools()[0].Name != "shop.journey.purchase" || per.Tools()[0].InputSchema[0] != '{' {
		t.Fatal("Tools returned the port's own slices")
	}
}

func TestPortGatedSchemaWording(t *testing.T) {
	gated := Serve(newPortShop(t, journey.Options{RequireHumanApproval: true}, "x").s, Options{})
	plain := Serve(newPortShop(t, journey.Options{}, "x").s, Options{})
	if !gated.Gated() || plain.Gated() {
		t.Fatal("gating is session enforcement plus an agent source")
	}
	if !bytes.Contains(gated.ToolsJSON(), []byte(propConfirmGate)) || bytes.Contains(plain.ToolsJSON(), []byte(propConfirmGate)) {
		t.Fatal("the confirm wording must follow gating")
	}
	user := Serve(newPortShop(t, journey.Options{RequireHumanApproval: true}, "x").s, Options{Source: journey.ActorUser})
	if user.Gated() || !bytes.Equal(user.ToolsJSON(), plain.ToolsJSON()) {
		t.Fatal("a user-stamped port is not gated and keeps the plain wording")
	}
	// SkipConfirm is ignored when gated.
	if g := Serve(newPortShop(t, journey.Options{RequireHumanApproval: true}, "x").s, Options{SkipConfirm: true}); !g.confirm {
		t.Fatal("confirmation must be forced on when gated")
	}
}

func TestServeToAgentPanicsOnDefinitionMistakes(t *testing.T) {
	for name, f := range map[string]func(){
		"nil session":  func() { Serve(nil, Options{}) },
		"unknown mode": func() { Serve(newPortShop(t, journey.Options{}, "x").s, Options{JourneyTools: "many"}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestEncodeToolNameIsReversible(t *testing.T) {
	for _, in := range []string{"shop.journey.purchase", "my shop!.do it", "_enc_x", "a_b", "ünï.😀", "x\u0000y"} {
		enc := encodeToolName(in)
		if !toolNameRE.MatchString(enc) {
			t.Errorf("%q encodes to invalid %q", in, enc)
		}
		dec, ok := decodeToolName(enc)
		if !ok || dec != in {
			t.Errorf("%q -> %q -> %q (%v)", in, enc, dec, ok)
		}
	}
	if got := encodeToolName("shop.why"); got != "shop.why" {
		t.Errorf("a valid name must pass unchanged, got %q", got)
	}
	if got := encodeToolName("my shop!.do it"); got != "_enc_my_u0020shop_u0021.do_u0020it" {
		t.Errorf("got %q", got)
	}
	if _, ok := decodeToolName("_enc_bad_q"); ok {
		t.Error("a broken escape must not decode")
	}
}

func TestPortUnknownTool(t *testing.T) {
	app := newPortShop(t, journey.Options{}, "x")
	single := Serve(app.s, Options{JourneyTools: Single})
	for _, name := range []string{"shop.journey.purchase", "shop.nope", ""} {
		r := callTest(t, single, name, nil)
		if r["ok"] != false || r["judgment"] != "error" || r["reason"] != "UNKNOWN_TOOL" {
			t.Fatalf("%q: %v", name, r)
		}
		if !slices.Equal(strs(r["tools"]), single.ToolNames()) {
			t.Fatalf("UNKNOWN_TOOL must list the tools that exist: %v", r["tools"])
		}
		if _, has := r["youAreOn"]; has {
			t.Fatal("UNKNOWN_TOOL carries no position")
		}
	}
	per := Serve(app.s, Options{})
	if r := callTest(t, per, "shop.journey", map[string]any{"journey": "purchase"}); r["reason"] != "UNKNOWN_TOOL" {
		t.Fatalf("the single tool is unknown in per-journey mode: %v", r)
	}
}

func TestPortWhatsHere(t *testing.T) {
	app := newPortShop(t, journey.Options{}, "HOSTILE")
	p := Serve(app.s, Options{})
	r := callTest(t, p, "shop.whats_here", nil)
	if r["ok"] != true || r["youAreOn"] != "catalog" || r["judgment"] != "needs-choice" {
		t.Fatalf("whats_here: %v", r)
	}
	if ids := rowsOf(r["journeys"]); len(ids) != 2 || ids[0]["journey"] != "purchase" || ids[1]["journey"] != "vip" {
		t.Fatalf("journeys startable here: %v", r["journeys"])
	}
	vip := rowByKey(rowsOf(r["journeys"]), "journey", "vip")
	if vip["feasible"] != false || vip["standing"] != "blocked" {
		t.Fatalf("a failing precondition is feasible:false: %v", vip)
	}
	if _, has := rowByKey(rowsOf(r["journeys"]), "journey", "purchase")["feasible"]; has {
		t.Fatal("feasible is presence-only (false)")
	}
	if r["journeysElsewhere"] != 1.0 || r["journeysElsewhereMeans"] != elsewhereMeans {
		t.Fatalf("journeysElsewhere: %v %v", r["journeysElsewhere"], r["journeysElsewhereMeans"])
	}
	facts, _ := r["facts"].(string)
	if !strings.HasPrefix(facts, "FACTS FROM THE APP (authoritative).") || !strings.Contains(facts, "No actions have been performed") {
		t.Fatalf("facts: %q", facts)
	}
	open := rowByKey(rowsOf(r["actions"]), "action", "catalog.open-product")
	if open["goesTo"] != "product" || open["expects"] == nil {
		t.Fatalf("open-product row: %v", open)
	}
	if _, has := open["enabled"]; has {
		t.Fatal("a clickable control carries no enabled key")
	}

	// routeTo: hops, already here, unknown page.
	r = callTest(t, p, "shop.whats_here", map[string]any{"routeTo": "checkout"})
	route, _ := r["routeTo"].(map[string]any)
	hops := rowsOf(route["hops"])
	if len(hops) != 3 || hops[0]["action"] != "catalog.open-product" || hops[2]["to"] != "checkout" || route["means"] != routeMeans {
		t.Fatalf("routeTo checkout: %v", route)
	}
	route = callTest(t, p, "shop.whats_here", map[string]any{"routeTo": "catalog"})["routeTo"].(map[string]any)
	if route["alreadyHere"] != true {
		t.Fatalf("routeTo here: %v", route)
	}
	route = callTest(t, p, "shop.whats_here", map[string]any{"routeTo": "nowhere"})["routeTo"].(map[string]any)
	if route["reason"] != "UNKNOWN_PAGE" || route["to"] != "nowhere" || len(strs(route["pages"])) != 4 {
		t.Fatalf("routeTo unknown page: %v", route)
	}

	// Move to the product page inside the purchase journey; the open
	// journey stays listed even though its entry is not offered here.
	base := int64(callTest(t, p, "shop.whats_here", nil)["version"].(float64))
	callTest(t, p, "shop.journey.purchase", nil)
	fr := callTest(t, p, "shop.journey.purchase", map[string]any{"step": "open-product", "input": map[string]any{"sku": "d1"}})
	settleTest(t, p, fr["transitionId"].(string))
	r = callTest(t, p, "shop.whats_here", nil)
	if r["youAreOn"] != "product" {
		t.Fatalf("cursor: %v", r["youAreOn"])
	}
	pj := rowByKey(rowsOf(r["journeys"]), "journey", "purchase")
	if pj == nil || pj["open"] != true {
		t.Fatalf("the open journey must stay listed: %v", r["journeys"])
	}
	add := rowByKey(rowsOf(r["actions"]), "action", "product.add-to-cart")
	if add["holds"] != "HOSTILE" {
		t.Fatalf("holds rides the row as data: %v", add)
	}
	// sinceVersion: only rows that changed since that look, the gone ones
	// named, facts narrowed.
	r = callTest(t, p, "shop.whats_here", map[string]any{"sinceVersion": float64(base)})
	if r["sinceVersion"] != float64(base) {
		t.Fatalf("delta marker: %v", r)
	}
	if gone := strs(r["actionsGone"]); !slices.Equal(gone, []string{"catalog.open-product", "catalog.search", "login"}) {
		t.Fatalf("actionsGone: %v", gone)
	}
	if n := len(rowsOf(r["actions"])); n != 3 {
		t.Fatalf("new rows: %d", n)
	}
	now := int64(r["version"].(float64))
	r = callTest(t, p, "shop.whats_here", map[string]any{"sinceVersion": float64(now)})
	if len(rowsOf(r["actions"])) != 0 || len(rowsOf(r["journeys"])) != 0 || r["actionsGone"] != nil {
		t.Fatalf("nothing changed, nothing listed: %v", r)
	}
	if f, _ := r["facts"].(string); !strings.Contains(f, "since version") {
		t.Fatalf("facts narrowed: %q", f)
	}
}

func TestPortWhatsHereStamps(t *testing.T) {
	app := newPortShop(t, journey.Options{Page: "checkout"}, "BUSY-LABEL")
	p := Serve(app.s, Options{})
	rows := rowsOf(callTest(t, p, "shop.whats_here", nil)["actions"])
	po := rowByKey(rows, "action", "checkout.place-order")
	if po["highEffect"] != true || po["enabled"] != false || po["blockedBecause"] == nil {
		t.Fatalf("place-order stamps: %v", po)
	}
	if bb := po["blockedBecause"].(map[string]any); bb["says"] != "Add a card first" {
		t.Fatalf("blockedBecause is the app's data: %v", bb)
	}
	if ub := rowsOf(po["unblockedBy"]); len(ub) != 0 {
		t.Fatalf("nothing declares writing cardOK: %v", ub)
	}
	sc := rowByKey(rows, "action", "checkout.set-card")
	if sc["busy"] != "BUSY-LABEL" {
		t.Fatalf("busy: %v", sc)
	}
	app.s.Sync("cart")
	app.s.UpdateState(map[string]any{"cartCount": 1}, "")
	rows = rowsOf(callTest(t, p, "shop.whats_here", nil)["actions"])
	rm := rowByKey(rows, "action", "cart.lines.remove")
	if got := strs(rm["instances"]); len(got) != 1 || got[0] != "line-BUSY-LABEL" {
		t.Fatalf("instances: %v", rm)
	}
	// An unbound control is materialized:false; a guard over an absent
	// key is served with guardUnevaluated.
	g := journey.MustNewGraph("m", journey.GraphDef{Pages: []journey.Page{{ID: "a", Actions: []journey.Action{
		{Name: "x", Does: "Do x", When: journey.Guard{journey.Eq("missing", 1)}},
	}}}})
	mp := Serve(g.MustNewSession(journey.Options{State: map[string]any{}}), Options{})
	x := rowsOf(callTest(t, mp, "m.whats_here", nil)["actions"])[0]
	if x["materialized"] != false || !slices.Equal(strs(x["guardUnevaluated"]), []string{"missing"}) {
		t.Fatalf("stamps: %v", x)
	}
}

func TestPortJourneyArms(t *testing.T) {
	app := newPortShop(t, journey.Options{}, "x")
	// Every arm read whole: rows a previous answer gave unchanged are
	// served again (TestPortSaysEachSentenceOnce covers leaving them out).
	p := Serve(app.s, Options{Repeat: true})
	r := callTest(t, p, "shop.journey.purchase", nil)
	if r["ok"] != true || r["frame"] != "open" || r["judgment"] != "one-ready-step" || r["howToAct"] != readyHow {
		t.Fatalf("open: %v", r)
	}
	ready := rowsOf(r["readySteps"])
	if len(ready) != 1 || ready[0]["step"] != "catalog.open-product" || ready[0]["goesTo"] != "product" || ready[0]["expects"] == nil {
		t.Fatalf("readySteps: %v", ready)
	}
	later := rowsOf(r["laterSteps"])
	if len(later) != 5 || later[0]["status"] != "off-node" || !slices.Equal(strs(later[0]["on"]), []string{"product"}) {
		t.Fatalf("laterSteps: %v", later)
	}
	r = callTest(t, p, "shop.journey.purchase", map[string]any{"step": "fly"})
	if r["reason"] != "UNKNOWN_STEP" || r["judgment"] != "error" || len(strs(r["steps"])) != 6 {
		t.Fatalf("UNKNOWN_STEP: %v", r)
	}
	// Switching to a journey whose precondition fails keeps the frame.
	r = callTest(t, p, "shop.journey.vip", nil)
	if r["judgment"] != "blocked" || r["keptFrame"] != "purchase" || r["evidence"] == nil {
		t.Fatalf("blocked switch: %v", r)
	}
	if f, _ := app.s.View().Frame(); f.JourneyID != "purchase" {
		t.Fatal("the open frame must be kept")
	}
	// A payload that breaks the contract is rejected with expects.
	r = callTest(t, p, "shop.journey.purchase", map[string]any{"step": "open-product", "input": map[string]any{"sku": 7}})
	if r["judgment"] != "rejected" || r["reason"] != "PAYLOAD_INVALID" || r["expects"] == nil || r["issues"] == nil {
		t.Fatalf("PAYLOAD_INVALID: %v", r)
	}
	// Walk the journey; the high-effect step pauses.
	step := func(name string, in any, extra map[string]any) map[string]any {
		args := map[string]any{"step": name}
		if in != nil {
			args["input"] = in
		}
		for k, v := range extra {
			args[k] = v
		}
		r := callTest(t, p, "shop.journey.purchase", args)
		if id, ok := r["transitionId"].(string); ok {
			settleTest(t, p, id)
		}
		return r
	}
	step("open-product", map[string]any{"sku": "d1"}, nil)
	r = step("add-to-cart", map[string]any{"sku": "d1"}, nil)
	if r["did"] != "product.add-to-cart" || r["effectStatus"] != "pending" {
		t.Fatalf("add-to-cart: %v", r)
	}
	step("go-cart", nil, nil)
	step("checkout", nil, nil)
	r = callTest(t, p, "shop.journey.purchase", nil)
	later = rowsOf(r["laterSteps"])
	po := rowByKey(later, "step", "checkout.place-order")
	if po["enabled"] != false || po["status"] != "ready" {
		t.Fatalf("a switched-off step waits with enabled:false: %v", po)
	}
	step("set-card", nil, nil)
	r = step("place-order", nil, nil)
	if r["judgment"] != "needs-confirm" || r["performed"] != false || r["why"] != nothingDone || r["askId"] == nil || r["receipts"] == nil || r["step"] != "checkout.place-order" {
		t.Fatalf("needs-confirm: %v", r)
	}
	if _, has := r["transitionId"]; has {
		t.Fatal("a pause never carries a transitionId")
	}
	r = callTest(t, p, "shop.journey.purchase", nil)
	if ah := rowsOf(r["awaitingHuman"]); len(ah) != 1 || ah[0]["step"] != "checkout.place-order" {
		t.Fatalf("awaitingHuman: %v", r)
	}
	r = callTest(t, p, "shop.journey.purchase", map[string]any{"step": "place-order", "confirm": true})
	if r["ok"] != true || r["effectStatus"] != "pending" || r["settleWith"] == nil {
		t.Fatalf("confirmed: %v", r)
	}
	id := r["transitionId"].(string)
	paid := <-app.pay
	if paid != id {
		t.Fatalf("payment for %s, fired %s", paid, id)
	}
	app.s.UpdateState(map[string]any{"order": "o-1"}, id)
	r = callTest(t, p, "shop.journey.purchase", nil)
	if r["judgment"] != "done" || r["frame"] != "completed" || r["standing"] != "done" {
		t.Fatalf("done: %v", r)
	}
}

func TestPortJourneyEntryNotMaterialized(t *testing.T) {
	g := journey.MustNewGraph("m", journey.GraphDef{Pages: []journey.Page{{ID: "a", Actions: []journey.Action{{Name: "x", Does: "Do x"}}}},
		Journeys: []journey.Journey{{ID: "j", Does: "Do j", Steps: []string{"x"}}}})
	p := Serve(g.MustNewSession(journey.Options{}), Options{})
	r := callTest(t, p, "m.journey.j", nil)
	if r["judgment"] != "error" || r["reason"] != "ENTRY_NOT_MATERIALIZED" || r["step"] != "a.x" {
		t.Fatalf("%v", r)
	}
	r = callTest(t, p, "m.do_action", map[string]any{"action": "x"})
	if r["judgment"] != "rejected" || r["reason"] != "NOT_MATERIALIZED" || r["why"] != notMaterialized {
		t.Fatalf("%v", r)
	}
}

func TestPortSingleJourneyTool(t *testing.T) {
	app := newPortShop(t, journey.Options{}, "x")
	p := Serve(app.s, Options{JourneyTools: Single})
	r := callTest(t, p, "shop.journey", nil)
	if r["reason"] != "JOURNEY_REQUIRED" || !slices.Equal(strs(r["journeys"]), []string{"purchase", "vip"}) || r["journeysElsewhere"] != 1.0 {
		t.Fatalf("JOURNEY_REQUIRED: %v", r)
	}
	r = callTest(t, p, "shop.journey", map[string]any{"journey": "nope"})
	if r["reason"] != "UNKNOWN_JOURNEY" || r["journey"] != "nope" || !slices.Equal(strs(r["journeys"]), []string{"purchase", "vip"}) {
		t.Fatalf("UNKNOWN_JOURNEY: %v", r)
	}
	r = callTest(t, p, "shop.journey", map[string]any{"journey": "purchase"})
	if r["ok"] != true || r["journey"] != "purchase" || r["frame"] != "open" {
		t.Fatalf("open: %v", r)
	}
}

func TestPortDoAction(t *testing.T) {
	app := newPortShop(t, journey.Options{}, "x")
	p := Serve(app.s, Options{})
	r := callTest(t, p, "shop.do_action", nil)
	if r["reason"] != "ACTION_REQUIRED" || len(strs(r["actions"])) != 3 {
		t.Fatalf("ACTION_REQUIRED: %v", r)
	}
	// A name the graph lacks: no why.
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "teleport"})
	if r["reason"] != "UNKNOWN_ACTION" || r["why"] != nil || !slices.Equal(strs(r["actions"]), []string{"catalog.open-product", "catalog.search", "login"}) {
		t.Fatalf("unknown name: %v", r)
	}
	// On another page.
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "place-order"})
	if r["reason"] != "UNKNOWN_ACTION" || r["why"] != notOnThisPage || r["action"] != "checkout.place-order" || !slices.Equal(strs(r["on"]), []string{"checkout"}) {
		t.Fatalf("elsewhere: %v", r)
	}
	// On this page, its conditions unmet, with per-condition evidence.
	app.s.Sync("cart")
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "cart.checkout"})
	ev := rowsOf(r["evidence"])
	if r["why"] != conditionsNot || len(ev) != 1 || ev[0]["key"] != "cartCount" || ev[0]["result"] != false {
		t.Fatalf("conditions unmet: %v", r)
	}
	// Refusals from the session are rejected with their typed reason.
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "remove"})
	if r["judgment"] != "rejected" || r["reason"] != "INSTANCE_REQUIRED" || len(strs(r["instances"])) != 1 {
		t.Fatalf("INSTANCE_REQUIRED: %v", r)
	}
	// A switched-off high-effect control is refused TOOL_DISABLED before
	// any ask is minted, with retriable and the busy label.
	app.s.Sync("checkout")
	asks := len(app.s.Asks().All())
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "place-order"})
	if r["reason"] != "TOOL_DISABLED" || r["retriable"] != true || r["askId"] != nil || r["blockedBecause"] == nil || !strings.HasPrefix(r["why"].(string), disabledWhy) {
		t.Fatalf("TOOL_DISABLED: %v", r)
	}
	if len(app.s.Asks().All()) != asks {
		t.Fatal("no card may be minted for a switched-off control")
	}
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "place-order", "decline": true})
	if r["reason"] != "TOOL_DISABLED" {
		t.Fatalf("decline of a switched-off control is refused too: %v", r)
	}
	// set-card is busy, and still fires.
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "set-card"})
	if r["ok"] != true || r["judgment"] != "navigate-or-wait" || r["effectStatus"] != "pending" {
		t.Fatalf("set-card: %v", r)
	}
	sw1 := r["settleWith"].(map[string]any)
	if sw1["tool"] != "shop.did_it_work" || sw1["arg"] != "transitionId" || !strings.Contains(r["howToSettle"].(string), "shop.did_it_work") {
		t.Fatalf("settleWith: %v", r)
	}
	settleTest(t, p, r["transitionId"].(string))
	// needs-confirm, then decline.
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "place-order"})
	if r["judgment"] != "needs-confirm" || r["action"] != "checkout.place-order" || r["does"] != "Place the order and pay" || r["howToAct"] != confirmHow {
		t.Fatalf("needs-confirm: %v", r)
	}
	// One instruction, not two that contradict: where confirm: true is
	// how the human's yes is relayed, nothing says it is not their answer.
	if why, _ := r["why"].(string); strings.Contains(why, "confirm") {
		t.Fatalf("why contradicts howToAct: %q / %q", why, r["howToAct"])
	}
	askID := r["askId"].(string)
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "place-order", "decline": true})
	if r["judgment"] != "declined" || r["askId"] != askID || r["why"] != declinedWhy {
		t.Fatalf("declined: %v", r)
	}
	if a, _ := app.s.Asks().Get(askID); a.Answer != "declined" {
		t.Fatalf("the ask book must record the refusal: %+v", a)
	}
	// Confirmed: fires; the second fire is held by the first (single
	// flight) and refused before any card.
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "place-order", "confirm": true})
	if r["ok"] != true {
		t.Fatalf("confirmed: %v", r)
	}
	first := r["transitionId"].(string)
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "place-order"})
	if r["reason"] != "PRIOR_FIRE_PENDING" || r["pendingTransitionId"] != first || r["why"] != priorPending {
		t.Fatalf("PRIOR_FIRE_PENDING: %v", r)
	}
	rows := rowsOf(callTest(t, p, "shop.whats_here", nil)["actions"])
	if po := rowByKey(rows, "action", "checkout.place-order"); po["priorFireUnsettled"] != first {
		t.Fatalf("priorFireUnsettled: %v", po)
	}
	// settleWith is a fresh object each time.
	r1 := p.Call(context.Background(), "shop.do_action", map[string]any{"action": "login"})
	r2 := p.Call(context.Background(), "shop.do_action", map[string]any{"action": "login"})
	a1, _ := r1.Get("settleWith")
	a2, _ := r2.Get("settleWith")
	c1 := a1.(CallResult)
	c1.Set("tool", "changed")
	if a2.(CallResult).String("tool") != "shop.did_it_work" {
		t.Fatal("settleWith objects must not be shared")
	}
	<-app.pay
}

func TestPortDidItWork(t *testing.T) {
	app := newPortShop(t, journey.Options{Page: "checkout"}, "x")
	app.s.UpdateState(map[string]any{"cardOK": true}, "")
	p := Serve(app.s, Options{})
	r := callTest(t, p, "shop.did_it_work", nil)
	if r["reason"] != "TRANSITION_ID_REQUIRED" || r["why"] != transitionRequired {
		t.Fatalf("%v", r)
	}
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "place-order"})
	askID := r["askId"].(string)
	// Paused by askId: awaiting the human.
	r = callTest(t, p, "shop.did_it_work", map[string]any{"transitionId": askID})
	if r["judgment"] != "awaiting-human" || r["performed"] != false || r["settled"] != false || r["did"] != "checkout.place-order" || r["howToAct"] != pausedAwaiting {
		t.Fatalf("awaiting-human: %v", r)
	}
	for _, k := range []string{"effectStatus", "outcome", "effectVerified", "receipts"} {
		if _, has := r[k]; has {
			t.Fatalf("the ask arm carries no %s", k)
		}
	}
	// Unknown ids, including near-miss ask ids, list every open question.
	for _, bad := range []string{"nope#1", "ask", "ASK#1", " " + askID, "sync:checkout#1"} {
		r = callTest(t, p, "shop.did_it_work", map[string]any{"transitionId": bad})
		if r["reason"] != "UNKNOWN_TRANSITION" {
			t.Fatalf("%q: %v", bad, r)
		}
		ah := rowsOf(r["awaitingHuman"])
		if len(ah) != 1 || ah[0]["askId"] != askID || ah[0]["action"] != "checkout.place-order" || r["pending"] == nil || r["awaitingSettlement"] == nil {
			t.Fatalf("open questions: %v", r)
		}
	}
	// Confirmed: pending, still-pending with stillWorking, then the spent
	// ask forwards to the fire it authorized.
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "place-order", "confirm": true})
	id := r["transitionId"].(string)
	<-app.pay
	w := app.s.BeginWork("charging", id)
	r = callTest(t, p, "shop.did_it_work", map[string]any{"transitionId": id})
	if r["judgment"] != "still-pending" || r["settled"] != false || r["howToAct"] != stillPending || r["stillWorking"] != true {
		t.Fatalf("still-pending: %v", r)
	}
	if _, done, err := p.SettledAnswer(id); done || err != nil {
		t.Fatalf("SettledAnswer in flight: %v %v", done, err)
	}
	r = callTest(t, p, "shop.did_it_work", map[string]any{"transitionId": "nope"})
	if !slices.Contains(strs(r["pending"]), id) || !slices.Contains(strs(r["awaitingSettlement"]), id) {
		t.Fatalf("UNKNOWN_TRANSITION lists the pending fire: %v", r)
	}
	app.s.UpdateState(map[string]any{"order": "o-1"}, id)
	r = callTest(t, p, "shop.did_it_work", map[string]any{"transitionId": id})
	if r["settled"] != true || r["effectStatus"] != "performed" || r["outcome"] != "committed" || r["effectVerified"] != true || r["writesObserved"] != true || r["stillWorking"] != true || r["judgment"] != "done" {
		t.Fatalf("settled: %v", r)
	}
	w.Done(nil)
	fwd := callTest(t, p, "shop.did_it_work", map[string]any{"transitionId": askID})
	if fwd["settled"] != true || fwd["did"] != "checkout.place-order" {
		t.Fatalf("a spent ask forwards to its fire: %v", fwd)
	}
	// The server rejects the order later: the receipt stands, outcomeNow
	// rides beside it.
	if err := app.s.Reject(id, "", nil); err != nil {
		t.Fatal(err)
	}
	r = callTest(t, p, "shop.did_it_work", map[string]any{"transitionId": id})
	if r["outcome"] != "committed" || r["outcomeNow"] != "rolled-back" || r["howToAct"] != outcomeMoved || r["judgment"] != "rejected" {
		t.Fatalf("outcomeNow: %v", r)
	}
	// did_it_work minus its envelope equals SettledAnswer.
	facts, done, err := p.SettledAnswer(id)
	if err != nil || !done {
		t.Fatalf("SettledAnswer: %v %v", done, err)
	}
	raw := p.Call(context.Background(), "shop.did_it_work", map[string]any{"transitionId": id})
	for _, k := range []string{"ok", "judgment", "settled", "did", "youAreOn", "offGraph", "version"} {
		raw.Delete(k)
	}
	if !bytes.Equal(raw.JSON(), facts.JSON()) {
		t.Fatalf("did_it_work minus envelope\n%s\n!= SettledAnswer\n%s", raw.JSON(), facts.JSON())
	}
	if _, _, err := p.SettledAnswer("nope#9"); err == nil {
		t.Fatal("SettledAnswer must refuse an impossible id at once")
	}
	if _, err := p.WhenSettled(context.Background(), "nope#9"); err == nil {
		t.Fatal("WhenSettled must refuse an impossible id at once")
	}
}

func TestPortDidItWorkSettledFields(t *testing.T) {
	g := journey.MustNewGraph("a", journey.GraphDef{Pages: []journey.Page{
		{ID: "p", Actions: []journey.Action{
			{Name: "go", Does: "Go to q", GoTo: "q"},
			{Name: "boom", Does: "Fail loudly"},
			{Name: "v", Does: "Set v", Writes: []string{"v"}, Verify: journey.Guard{journey.Eq("v", 2)}},
		}},
		{ID: "q"},
	}})
	s := g.MustNewSession(journey.Options{State: map[string]any{"v": 0}})
	s.RegisterActions("p", journey.Registration{Handlers: map[string]journey.Handler{
		"go":   func(context.Context, any) (any, error) { return []any{"IGNORE"}, nil },
		"boom": func(context.Context, any) (any, error) { return nil, errPortTest },
		"v":    ok2,
	}})
	p := Serve(s, Options{})
	r := callTest(t, p, "a.do_action", map[string]any{"action": "v"})
	id := r["transitionId"].(string)
	s.UpdateState(map[string]any{"v": 1}, id)
	r = callTest(t, p, "a.did_it_work", map[string]any{"transitionId": id})
	if r["verifyHeld"] != false || r["effectStatus"] != "refused" || r["judgment"] != "rejected" {
		t.Fatalf("verify: %v", r)
	}
	r = callTest(t, p, "a.do_action", map[string]any{"action": "boom"})
	id = r["transitionId"].(string)
	settleTest(t, p, id)
	r = callTest(t, p, "a.did_it_work", map[string]any{"transitionId": id})
	e, _ := r["error"].(map[string]any)
	if r["outcome"] != "rolled-back" || e["reason"] != "HANDLER_FAILED" || e["message"] != "test" {
		t.Fatalf("error: %v", r)
	}
	if _, has := r["verifyHeld"]; has {
		t.Fatal("no verify contract, no verifyHeld")
	}
	r = callTest(t, p, "a.do_action", map[string]any{"action": "go"})
	if r["arrival"] != "claimed" || r["arrivalMeans"] != arrClaimed {
		t.Fatalf("the fire's arrival, said with its meaning: %v", r)
	}
	id = r["transitionId"].(string)
	settleTest(t, p, id)
	r = callTest(t, p, "a.did_it_work", map[string]any{"transitionId": id})
	// The port said what claimed means once, in the fire's answer.
	if _, again := r["arrivalMeans"]; r["arrival"] != "claimed" || again || r["toNode"] != "q" || !reflect.DeepEqual(r["data"], []any{"IGNORE"}) {
		t.Fatalf("arrival: %v", r)
	}
	if _, has := r["writesObserved"]; has {
		t.Fatal("writesObserved is absent when not knowable")
	}
	s.Sync("q")
	r = callTest(t, p, "a.did_it_work", map[string]any{"transitionId": id})
	if r["arrival"] != "observed" || r["arrivalMeans"] != arrObserved {
		t.Fatalf("observed: %v", r)
	}
}

func TestPortEnforced(t *testing.T) {
	app := newPortShop(t, journey.Options{Page: "checkout", RequireHumanApproval: true}, "x")
	app.s.UpdateState(map[string]any{"cardOK": true}, "")
	p := Serve(app.s, Options{SkipConfirm: true})
	r := callTest(t, p, "shop.do_action", map[string]any{"action": "place-order"})
	if r["judgment"] != "needs-confirm" || r["howToAct"] != confirmGate {
		t.Fatalf("gated pause: %v", r)
	}
	askID := r["askId"].(string)
	// Asking again reuses the open card.
	if r2 := callTest(t, p, "shop.do_action", map[string]any{"action": "place-order"}); r2["askId"] != askID {
		t.Fatalf("re-ask: %v", r2)
	}
	// confirm alone is not the person's answer.
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "place-order", "confirm": true})
	if r["judgment"] != "needs-confirm" || r["reason"] != "APPROVAL_REQUIRED" || r["askId"] != askID || r["performed"] != false {
		t.Fatalf("confirm without approval: %v", r)
	}
	// The relayed decline is recorded and closes nothing.
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "place-order", "decline": true})
	if r["judgment"] != "declined" || r["recordedAs"] != "your-report" || r["why"] != relayedWhy {
		t.Fatalf("relayed decline: %v", r)
	}
	if r := callTest(t, p, "shop.did_it_work", map[string]any{"transitionId": askID}); r["judgment"] != "awaiting-human" {
		t.Fatalf("the card stays open: %v", r)
	}
	if _, err := app.s.Asks().Approve(askID, "ana"); err != nil {
		t.Fatal(err)
	}
	if r := callTest(t, p, "shop.did_it_work", map[string]any{"transitionId": askID}); r["judgment"] != "approved-not-yet-done" || r["howToAct"] != pausedApproved {
		t.Fatalf("approved: %v", r)
	}
	// Without confirm the approved card is shown, nothing fires.
	if r := callTest(t, p, "shop.do_action", map[string]any{"action": "place-order"}); r["judgment"] != "needs-confirm" || r["askId"] != askID {
		t.Fatalf("approved but unconfirmed: %v", r)
	}
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "place-order", "confirm": true})
	if r["ok"] != true || r["transitionId"] == nil {
		t.Fatalf("approved and confirmed: %v", r)
	}
	<-app.pay
	r = callTest(t, p, "shop.do_action", map[string]any{"action": "login"})
	if r["ok"] != true {
		t.Fatalf("a low-effect action fires: %v", r)
	}
}

func TestPortSourceAndSkipConfirm(t *testing.T) {
	app := newPortShop(t, journey.Options{Page: "checkout"}, "x")
	app.s.UpdateState(map[string]any{"cardOK": true}, "")
	user := Serve(app.s, Options{Source: journey.ActorUser})
	r := callTest(t, user, "shop.do_action", map[string]any{"action": "place-order"})
	if r["judgment"] != "needs-confirm" || r["askId"] == nil {
		t.Fatalf("a user-stamped port still confirms: %v", r)
	}
	r = callTest(t, user, "shop.do_action", map[string]any{"action": "place-order", "confirm": true})
	if r["ok"] != true {
		t.Fatalf("%v", r)
	}
	id := r["transitionId"].(string)
	<-app.pay
	if tr, _ := app.s.View().Transition(id); tr.Actor != journey.ActorUser {
		t.Fatalf("source stamp: %s", tr.Actor)
	}
	app.s.UpdateState(map[string]any{"order": 1}, id)
	skip := Serve(app.s, Options{SkipConfirm: true})
	r = callTest(t, skip, "shop.do_action", map[string]any{"action": "place-order"})
	if r["ok"] != true || r["transitionId"] == nil {
		t.Fatalf("SkipConfirm fires at once: %v", r)
	}
	<-app.pay
}

func TestPortWhy(t *testing.T) {
	app := newPortShop(t, journey.Options{}, "x")
	p := Serve(app.s, Options{})
	r := callTest(t, p, "shop.why", nil)
	if r["reason"] != "KEY_REQUIRED" || r["why"] != keyRequired {
		t.Fatalf("%v", r)
	}
	fr := callTest(t, p, "shop.do_action", map[string]any{"action": "login"})
	settleTest(t, p, fr["transitionId"].(string))
	r = callTest(t, p, "shop.why", map[string]any{"key": "user"})
	slice, _ := r["why"].(map[string]any)
	steps := rowsOf(slice["steps"])
	if r["ok"] != true || r["key"] != "user" || len(steps) != 1 || steps[0]["action"] != "login" || steps[0]["principal"] != "agent" {
		t.Fatalf("why: %v", r)
	}
}

// Only the pending arm carries howToSettle and settleWith: a fire at rest
// when it returns points at no poll.
func TestPortSettledAtReturnCarriesNoSettleDoor(t *testing.T) {
	g := journey.MustNewGraph("m", journey.GraphDef{Pages: []journey.Page{{ID: "a", Actions: []journey.Action{{Name: "x", Does: "Do x"}}}}})
	p := Serve(g.MustNewSession(journey.Options{AllowUnmaterializedFires: true}), Options{})
	r := callTest(t, p, "m.do_action", map[string]any{"action": "x"})
	if r["ok"] != true || r["judgment"] != "done" || r["effectStatus"] != "unobservable" || r["materialized"] != false || r["executed"] != false {
		t.Fatalf("%v", r)
	}
	if _, has := r["howToSettle"]; has {
		t.Fatal("howToSettle rides the pending arm only")
	}
	if _, has := r["settleWith"]; has {
		t.Fatal("settleWith rides the pending arm only")
	}
	r = callTest(t, p, "m.did_it_work", map[string]any{"transitionId": r["transitionId"].(string)})
	if r["settled"] != true || r["materialized"] != false || r["why"] != nothingRan {
		t.Fatalf("a tour is graded as nothing performed: %v", r)
	}
}
