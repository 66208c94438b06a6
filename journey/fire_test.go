package journey

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestRefusalOrder walks one action through every gate, fixing one thing
// at a time: each fix must reveal the next code in the documented order.
// Every refusal writes exactly one gap row and moves neither the version
// nor the transition ledger.
func TestRefusalOrder(t *testing.T) {
	g := MustNewGraph("order", GraphDef{Pages: []Page{
		{ID: "p", Containers: []Container{{Name: "rows", Repeats: true, Instances: func(StateView) []string { return []string{"r1"} },
			Actions: []Action{{Name: "x", Does: "Do the thing", When: Guard{Eq("open", true)}, EnabledWhen: Guard{Eq("on", true)},
				Input: NoInput(), Confirm: true, Writes: []string{"w"}, Concurrency: Concurrency{SingleFlight: true}}}}}},
		{ID: "q"},
	}})
	s := g.MustNewSession(Options{Page: "q", State: map[string]any{"open": false, "on": false}})
	fire := func(id string, o FireOptions) FireResult { return s.Fire(context.Background(), id, o) }
	expectRefused := func(step string, r FireResult, want Reason) {
		t.Helper()
		if r.OK || r.Reason != want {
			t.Fatalf("%s: got ok=%v reason=%q, want %s", step, r.OK, r.Reason, want)
		}
	}
	bad := FireOptions{Input: map[string]any{"a": 1}}
	steps := []struct {
		name  string
		setup func()
		id    string
		opts  FireOptions
		want  Reason
	}{
		{"unknown", nil, "p.rows.y", bad, ReasonUnknownAction},
		{"off page", nil, "p.rows.x", bad, ReasonNotOnNode},
		{"no instance", func() { s.Sync("p") }, "p.rows.x", bad, ReasonInstanceRequired},
		{"guard", nil, "p.rows.x", FireOptions{Input: bad.Input, Instance: "r1"}, ReasonGuardFailed},
		{"payload", func() { s.UpdateState(map[string]any{"open": true}, "") }, "p.rows.x", FireOptions{Input: bad.Input, Instance: "r1"}, ReasonPayloadInvalid},
		{"disabled", nil, "p.rows.x", FireOptions{Instance: "r1"}, ReasonToolDisabled},
		{"unbound", func() { s.UpdateState(map[string]any{"on": true}, "") }, "p.rows.x", FireOptions{Instance: "r1"}, ReasonNotMaterialized},
	}
	for _, st := range steps {
		if st.setup != nil {
			st.setup()
		}
		v, nt, ng := s.View().Version(), len(s.View().Transitions()), len(s.View().Gaps())
		expectRefused(st.name, fire(st.id, st.opts), st.want)
		if s.View().Version() != v || len(s.View().Transitions()) != nt {
			t.Fatalf("%s: a refusal moved the version or minted a transition", st.name)
		}
		gaps := s.View().Gaps()
		if len(gaps) != ng+1 || gaps[ng].Reason != st.want || gaps[ng].Kind != GapFireRejected {
			t.Fatalf("%s: gap ledger %+v, want one new %s row", st.name, gaps[ng:], st.want)
		}
	}
	release := make(chan struct{})
	if _, err := s.RegisterActions("p", Registration{Instance: "r1", Handlers: map[string]Handler{"rows.x": func(context.Context, any) (any, error) {
		<-release
		return nil, nil
	}}}); err != nil {
		t.Fatal(err)
	}
	first := fire("p.rows.x", FireOptions{Instance: "r1", Confirm: true})
	if !first.OK || first.EffectStatus != EffectPending || first.Settlement != "awaiting-state" {
		t.Fatalf("first confirmed fire: %+v", first)
	}
	// Still pending: the single-flight gate comes before confirmation.
	r := fire("p.rows.x", FireOptions{Instance: "r1"})
	expectRefused("single flight", r, ReasonPriorFirePending)
	if r.PendingTransitionID != first.TransitionID || r.Scope != "action" {
		t.Fatalf("PRIOR_FIRE_PENDING carries %q/%q", r.PendingTransitionID, r.Scope)
	}
	close(release)
	s.UpdateState(map[string]any{"w": 1}, first.TransitionID)
	settle(t, s, first.TransitionID)
	v, ng := s.View().Version(), len(s.View().Gaps())
	pause := fire("p.rows.x", FireOptions{Instance: "r1"})
	if pause.OK || pause.Reason != "" || !pause.NeedsConfirm || pause.AskID == "" || pause.Receipts == nil {
		t.Fatalf("an unconfirmed high-effect agent fire should pause with an ask: %+v", pause)
	}
	if s.View().Version() != v || len(s.View().Gaps()) != ng {
		t.Fatal("a pause moved the version or wrote a gap row")
	}
	if r := fire("p.rows.x", FireOptions{Instance: "r1", Confirm: true}); !r.OK {
		t.Fatalf("confirmed fire refused: %+v", r)
	}
}

func TestRefusalFields(t *testing.T) {
	t.Run("UNKNOWN_ACTION lists the served ids", func(t *testing.T) {
		s := boundShop(t, Options{State: map[string]any{"cartCount": 0}})
		r := s.Fire(context.Background(), "teleport", FireOptions{})
		if r.Reason != ReasonUnknownAction || !slices.Equal(r.Available, []string{"catalog.add-to-cart", "catalog.go-product", "login"}) {
			t.Fatalf("%+v", r)
		}
		g := s.View().Gaps()[0]
		if g.Request != "teleport" || g.Action != "" {
			t.Fatalf("gap row keeps the request only as data: %+v", g)
		}
	})
	t.Run("NOT_ON_NODE names the page", func(t *testing.T) {
		s := boundShop(t, Options{})
		r := s.Fire(context.Background(), "checkout.pay", FireOptions{})
		if r.Reason != ReasonNotOnNode || r.Node != "catalog" || r.Action != "checkout.pay" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("GUARD_FAILED carries per-condition evidence", func(t *testing.T) {
		s := boundShop(t, Options{State: map[string]any{"cartCount": 0}})
		r := s.Fire(context.Background(), "catalog.go-checkout", FireOptions{})
		want := []Condition{{Key: "cartCount", Op: OpGt, Threshold: float64(0), ActualSummary: "0", Result: false}}
		if r.Reason != ReasonGuardFailed || !slices.Equal(r.Evidence, want) {
			t.Fatalf("%+v", r)
		}
		if ev := s.View().Gaps()[0].Evidence; !slices.Equal(ev, want) {
			t.Fatalf("gap evidence %+v", ev)
		}
	})
	t.Run("PAYLOAD_INVALID carries expects", func(t *testing.T) {
		s := boundShop(t, Options{})
		r := s.Fire(context.Background(), "catalog.add-to-cart", FireOptions{Input: map[string]any{"sku": 3}})
		if r.Reason != ReasonPayloadInvalid || len(r.Issues) == 0 || len(r.Expects) == 0 {
			t.Fatalf("%+v", r)
		}
		if want := `{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer"}},"required":["sku"],"additionalProperties":false}`; string(r.Expects) != want {
			t.Fatalf("expects %s\nwant    %s (properties in field order)", r.Expects, want)
		}
		var schema map[string]any
		if err := json.Unmarshal(r.Expects, &schema); err != nil || schema["type"] != "object" {
			t.Fatalf("expects is not the schema: %s", r.Expects)
		}
		if req, _ := schema["required"].([]any); len(req) != 1 || req[0] != "sku" {
			t.Fatalf("derived schema requires %v, want [sku]", schema["required"])
		}
		s.Sync("product")
		r = s.Fire(context.Background(), "product.back", FireOptions{Input: map[string]any{"x": 1}})
		if r.Reason != ReasonPayloadInvalid || string(r.Expects) != `"none"` {
			t.Fatalf("none contract: %+v", r)
		}
		if r := s.Fire(context.Background(), "product.back", FireOptions{Input: map[string]any{}}); !r.OK {
			t.Fatalf("a blank input to a none contract is erased, not refused: %+v", r)
		}
		// back claims catalog and declares no writes, so it committed at
		// once and the cursor moved optimistically: add-to-cart is offered
		// again, and a missing required property is refused.
		if p := s.View().Position(); p.YouAreOn != "catalog" {
			t.Fatalf("cursor on %q after a committed navigation claim", p.YouAreOn)
		}
		if r := s.Fire(context.Background(), "catalog.add-to-cart", FireOptions{}); r.Reason != ReasonPayloadInvalid || !strings.Contains(r.Issues[0], "sku") {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("TOOL_DISABLED by enabledWhen carries evidence and blockedBecause", func(t *testing.T) {
		s := boundShop(t, Options{Page: "checkout", State: map[string]any{"paymentReady": false}})
		r := s.Fire(context.Background(), "checkout.place-order", FireOptions{Confirm: true})
		if r.Reason != ReasonToolDisabled || !r.Retriable || len(r.Evidence) != 1 || r.Evidence[0].Key != "paymentReady" ||
			r.BlockedBecause == nil || r.BlockedBecause.Says != "Add a card first" {
			t.Fatalf("%+v", r)
		}
		if len(s.Asks().All()) != 0 {
			t.Fatal("a switched-off control minted an ask: capability comes before authority")
		}
	})
	t.Run("TOOL_DISABLED by SetEnabled carries the busy label and no evidence", func(t *testing.T) {
		s := boundShop(t, Options{})
		h, _ := s.RegisterActions("catalog", Registration{})
		if err := h.SetEnabled("add-to-cart", false); err != nil {
			t.Fatal(err)
		}
		if err := h.SetBusy("add-to-cart", "Saving your draft…"); err != nil {
			t.Fatal(err)
		}
		r := s.Fire(context.Background(), "catalog.add-to-cart", FireOptions{Input: map[string]any{"sku": "a"}})
		if r.Reason != ReasonToolDisabled || r.Evidence != nil || r.Busy != "Saving your draft…" {
			t.Fatalf("%+v", r)
		}
		row := s.View().Available()[0]
		if row.Enabled == nil || *row.Enabled || row.Busy != "Saving your draft…" {
			t.Fatalf("row %+v", row)
		}
		h.Unregister()
		if r := s.Fire(context.Background(), "catalog.add-to-cart", FireOptions{Input: map[string]any{"sku": "a"}}); !r.OK {
			t.Fatalf("after unregistering the switch-off, the fire should pass: %+v", r)
		}
	})
	t.Run("NOT_MATERIALIZED gates agents only", func(t *testing.T) {
		s := shopGraph(t).MustNewSession(Options{})
		if r := s.Fire(context.Background(), "catalog.go-product", FireOptions{}); r.Reason != ReasonNotMaterialized {
			t.Fatalf("agent: %+v", r)
		}
		for _, p := range []Actor{ActorUser, ActorSystem} {
			s := shopGraph(t).MustNewSession(Options{})
			r := s.Fire(context.Background(), "catalog.go-product", FireOptions{Source: p})
			if !r.OK || r.Materialized == nil || *r.Materialized {
				t.Fatalf("%s self-report should be recorded, unmaterialized: %+v", p, r)
			}
		}
		s = shopGraph(t).MustNewSession(Options{AllowUnmaterializedFires: true})
		r := s.Fire(context.Background(), "catalog.go-product", FireOptions{})
		if !r.OK || r.Executed == nil || *r.Executed || r.EffectStatus != EffectUnobservable {
			t.Fatalf("tour: %+v", r)
		}
		if g := s.View().Gaps(); len(g) != 1 || g[0].Kind != GapUnmaterializedFire {
			t.Fatalf("a tour writes an unmaterialized-fire gap row: %+v", g)
		}
	})
	t.Run("INSTANCE codes", func(t *testing.T) {
		s := boundShop(t, Options{Page: "checkout"})
		if _, err := s.RegisterActions("checkout", Registration{Instance: "line-1", Handlers: map[string]Handler{"lines.remove": ok}}); err != nil {
			t.Fatal(err)
		}
		r := s.Fire(context.Background(), "checkout.lines.remove", FireOptions{})
		if r.Reason != ReasonInstanceRequired || !slices.Equal(r.Instances, []string{"line-1"}) || r.InstancesTotal != 1 {
			t.Fatalf("%+v", r)
		}
		r = s.Fire(context.Background(), "checkout.lines.remove", FireOptions{Instance: "line-9"})
		if r.Reason != ReasonInstanceUnknown || r.Verdict != "unsupported" {
			t.Fatalf("%+v", r)
		}
		r = s.Fire(context.Background(), "checkout.lines.remove", FireOptions{Instance: "line-1"})
		if !r.OK {
			t.Fatalf("%+v", r)
		}
		if tr, _ := s.View().Transition(r.TransitionID); tr.Instance != "line-1" {
			t.Fatalf("instance not recorded: %+v", tr)
		}
	})
}

func TestUnevaluableGuard(t *testing.T) {
	g := MustNewGraph("g", GraphDef{Pages: []Page{{ID: "p", Actions: []Action{
		{Name: "a", Does: "A", When: Guard{Eq("known", 1), Eq("missing", 2)}},
		{Name: "b", Does: "B", When: Guard{Eq("missing", 2)}},
		{Name: "c", Does: "C", When: Guard{Eq("known", 2), Eq("missing", 2)}},
	}}}})
	s := g.MustNewSession(Options{State: map[string]any{"known": 1}})
	for _, id := range []string{"a", "b", "c"} {
		if _, err := s.RegisterActions("p", Registration{Handlers: map[string]Handler{id: ok}}); err != nil {
			t.Fatal(err)
		}
	}
	rows := s.View().Available()
	if len(rows) != 2 || rows[0].Action != "p.a" || rows[1].Action != "p.b" {
		t.Fatalf("served %+v: want a and b (c fails on an evaluable key)", rows)
	}
	for _, r := range rows {
		if !slices.Equal(r.GuardUnevaluated, []string{"missing"}) {
			t.Fatalf("%s: guardUnevaluated %v", r.Action, r.GuardUnevaluated)
		}
	}
	r := s.Fire(context.Background(), "p.a", FireOptions{})
	if !r.OK || !slices.Equal(r.GuardUnevaluated, []string{"missing"}) {
		t.Fatalf("a partly unevaluable guard must not refuse: %+v", r)
	}
	r = s.Fire(context.Background(), "p.c", FireOptions{})
	if r.Reason != ReasonGuardFailed || len(r.Evidence) != 1 || r.Evidence[0].Key != "known" || !slices.Equal(r.GuardUnevaluated, []string{"missing"}) {
		t.Fatalf("evidence must hold only evaluable conditions: %+v", r)
	}
}

func TestGuardOperators(t *testing.T) {
	cases := []struct {
		c     Cond
		value any
		want  bool
	}{
		{Eq("k", 3), 3, true}, {Eq("k", 3), 3.0, true}, {Eq("k", "3"), 3, false}, {Eq("k", nil), nil, true},
		{Ne("k", ""), "", false}, {Ne("k", ""), "x", true},
		{Gt("k", 2), 3, true}, {Gt("k", 3), 3, false}, {Gte("k", 3), 3, true}, {Lt("k", 3), 2, true}, {Lte("k", 3), 4, false},
		{Gt("k", "b"), "c", true}, {Gt("k", 2), "3", false},
		{In("k", []string{"a", "b"}), "b", true}, {In("k", []int{1, 2}), 3, false},
		{NotIn("k", []string{"a"}), "b", true}, {NotIn("k", []string{"a"}), "a", false},
		{Eq("k", []string{"x"}), []any{"x"}, true}, {Eq("k", map[string]any{"a": 1}), map[string]int{"a": 1}, true},
	}
	for _, c := range cases {
		g, err := compileGuard(Guard{c.c}, "t")
		if err != nil {
			t.Fatal(err)
		}
		v, _ := normalize(c.value)
		pass, unev := evalQuick(g, map[string]any{"k": v})
		if pass != c.want || unev != nil {
			t.Errorf("%v %v %v with %v = %v, want %v", c.c.Key, c.c.Op, c.c.Value, c.value, pass, c.want)
		}
	}
}

func TestSettlementOfRefusesImpossibleIDsAtOnce(t *testing.T) {
	s := boundShop(t, Options{})
	sync := s.Sync("checkout")
	for _, id := range []string{"nope#1", "", "sync:checkout#" + "99"} {
		if _, err := s.SettlementOf(context.Background(), id); !errors.Is(err, &Error{Reason: ReasonUnknownTransition}) {
			t.Fatalf("SettlementOf(%q) = %v", id, err)
		}
	}
	trs := s.View().Transitions()
	syncID := trs[len(trs)-1].ID
	if !strings.HasPrefix(syncID, "sync:checkout#") || !sync.Changed {
		t.Fatalf("last row %q", syncID)
	}
	if _, err := s.SettlementOf(context.Background(), syncID); err == nil {
		t.Fatal("a sync row has no settlement")
	}
	if _, _, err := s.View().SettlementIfKnown(syncID); err == nil {
		t.Fatal("SettlementIfKnown accepted a sync row")
	}
}

func TestInstanceRegistrationBindsPageActionsToo(t *testing.T) {
	s := shopGraph(t).MustNewSession(Options{Page: "checkout"})
	if _, err := s.RegisterActions("checkout", Registration{Instance: "line-2", Handlers: map[string]Handler{"lines.remove": ok, "to-catalog": ok}}); err != nil {
		t.Fatal(err)
	}
	if r := s.Fire(context.Background(), "checkout.to-catalog", FireOptions{}); !r.OK || r.Materialized != nil {
		t.Fatalf("a page action bound by an instance registration: %+v", r)
	}
	s.Sync("checkout")
	if r := s.Fire(context.Background(), "checkout.lines.remove", FireOptions{Instance: "line-2"}); !r.OK || r.Materialized != nil {
		t.Fatalf("%+v", r)
	}
	if _, err := s.RegisterActions("checkout", Registration{Instance: "line-3"}); err != nil {
		t.Fatal(err)
	}
	// line-3 mounted nothing: it is not an instance, and line-2's handler
	// does not run for another instance.
	if r := s.Fire(context.Background(), "checkout.lines.remove", FireOptions{Instance: "line-3"}); r.Reason != ReasonInstanceUnknown {
		t.Fatalf("%+v", r)
	}
}

func TestSessionAndRegistrationErrorsChangeNothing(t *testing.T) {
	g := shopGraph(t)
	if _, err := g.NewSession(Options{Page: "moon"}); !errors.Is(err, &Error{Reason: ReasonUnknownPage}) {
		t.Fatalf("%v", err)
	}
	if _, err := g.NewSession(Options{State: map[string]any{"bad": make(chan int)}}); !errors.Is(err, &Error{Reason: ReasonUncloneableDelta}) {
		t.Fatalf("%v", err)
	}
	s := g.MustNewSession(Options{})
	v := s.View().Version()
	if _, err := s.RegisterActions("moon", Registration{}); !errors.Is(err, &Error{Reason: ReasonUnknownPage}) {
		t.Fatalf("%v", err)
	}
	// checkout.pay is declared, but not on catalog.
	if _, err := s.RegisterActions("catalog", Registration{Handlers: map[string]Handler{"add-to-cart": ok, "checkout.pay": ok}}); !errors.Is(err, &Error{Reason: ReasonUnknownActionRegister}) {
		t.Fatalf("%v", err)
	}
	if s.View().Version() != v || s.View().Available()[0].Materialized == nil {
		t.Fatal("a refused registration bound something")
	}
	h, _ := s.RegisterActions("catalog", Registration{})
	if err := h.SetEnabled("checkout.pay", false); err == nil {
		t.Fatal("SetEnabled accepted an action the page does not offer")
	}
	if s.View().StructureVersion() != 0 {
		t.Fatalf("structure version %d after nothing was bound", s.View().StructureVersion())
	}
	if err := h.SetBusy("login", "Signing in…"); err != nil || s.View().StructureVersion() != 1 {
		t.Fatalf("%v %d", err, s.View().StructureVersion())
	}
}
