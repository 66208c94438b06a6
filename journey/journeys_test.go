package journey

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

func statuses(p Plan) []StepStatus {
	var out []StepStatus
	for _, s := range p.Steps {
		out = append(out, s.Status)
	}
	return out
}

func TestJourneyListScopedToHere(t *testing.T) {
	s := boundShop(t, Options{State: map[string]any{"cartCount": 0, "vip": false}})
	h := s.View().Here()
	var ids []string
	for _, j := range h.Journeys {
		ids = append(ids, j.ID)
	}
	if !slices.Equal(ids, []string{"purchase", "vip-sale"}) || h.JourneysElsewhere != 1 {
		t.Fatalf("startable here %v, elsewhere %d", ids, h.JourneysElsewhere)
	}
	vip := h.Journeys[1]
	if vip.PreconditionPassed || len(vip.Evidence) != 1 || vip.Evidence[0].Key != "vip" || !vip.EntryAvailable {
		t.Fatalf("%+v", vip)
	}
	all := s.View().AvailableJourneys()
	if len(all) != 3 || all[2].ID != "tidy" || all[2].EntryAvailable {
		t.Fatalf("AvailableJourneys answers for every journey: %+v", all)
	}
	// Inside a frame, the open journey stays listed wherever the cursor is.
	if r := s.CommitJourney("purchase", ActorAgent); !r.OK {
		t.Fatalf("%+v", r)
	}
	s.Sync("product")
	h = s.View().Here()
	if len(h.Journeys) != 1 || h.Journeys[0].ID != "purchase" || !h.Journeys[0].Open || h.OpenJourney != "purchase" || h.JourneysElsewhere != 2 {
		t.Fatalf("%+v", h)
	}
	s.Sync("/nowhere")
	if h := s.View().Here(); len(h.Actions) != 0 || !h.OffGraph || h.YouAreOn != "" || len(h.Journeys) != 1 {
		t.Fatalf("off graph: %+v", h)
	}
}

func TestJourneyPlanFramesAndStanding(t *testing.T) {
	s := boundShop(t, Options{State: map[string]any{"cartCount": 0, "paymentReady": true}})
	p, err := s.View().Plan("purchase")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(statuses(p), []StepStatus{StepReady, StepBlocked, StepOffNode}) || p.FrameOpen {
		t.Fatalf("plan without a frame: %v", statuses(p))
	}
	if !slices.Equal(p.Steps[1].DependsOn, []string{"catalog.add-to-cart"}) || !slices.Equal(p.Steps[1].BlockedOn, []string{"cartCount"}) {
		t.Fatalf("derived dependency / blockedOn: %+v", p.Steps[1])
	}
	if !slices.Equal(p.Steps[2].DependsOn, []string{}) || !p.Steps[2].HighEffect || p.Steps[1].GoesTo != "checkout" || len(p.Steps[0].Expects) == 0 {
		t.Fatalf("%+v", p.Steps)
	}
	if _, err := s.View().Plan("nope"); !errors.Is(err, &Error{Reason: ReasonUnknownJourney}) {
		t.Fatal(err)
	}
	standing := func(want Standing) StandingReport {
		t.Helper()
		js, err := s.View().Standing("purchase")
		if err != nil || js.Standing != want {
			t.Fatalf("standing %+v, want %s", js, want)
		}
		return js
	}
	v := s.View().Version()
	c := s.CommitJourney("purchase", "")
	if !c.OK || c.Frame.Status != FrameOpen || s.View().Version() != v+1 || c.Plan == nil || !c.Plan.FrameOpen {
		t.Fatalf("%+v", c)
	}
	if c := s.CommitJourney("vip-sale", ""); c.Reason != ReasonFrameAlreadyOpen || c.JourneyID != "purchase" {
		t.Fatalf("%+v", c)
	}
	if c := s.CommitJourney("zzz", ""); c.Reason != ReasonUnknownJourney || !slices.Equal(c.Known, []string{"purchase", "vip-sale", "tidy"}) {
		t.Fatalf("%+v", c)
	}
	standing(StandingInProgress)

	add := mustFire(t, s, "catalog.add-to-cart", FireOptions{Input: map[string]any{"sku": "d-1"}})
	if p, _ := s.View().Plan("purchase"); p.Steps[0].PendingFire != add.TransitionID || p.Steps[0].Status != StepReady {
		t.Fatalf("a pending fire is not done: %+v", p.Steps[0])
	}
	s.UpdateState(map[string]any{"cart": []string{"d-1"}, "cartCount": 1}, add.TransitionID)
	p, _ = s.View().Plan("purchase")
	if !slices.Equal(statuses(p), []StepStatus{StepDone, StepReady, StepOffNode}) {
		t.Fatalf("%v", statuses(p))
	}
	mustFire(t, s, "catalog.go-checkout", FireOptions{})
	p, _ = s.View().Plan("purchase")
	if !slices.Equal(statuses(p), []StepStatus{StepDone, StepDone, StepReady}) {
		t.Fatalf("%v", statuses(p))
	}
	pause := s.Fire(context.Background(), "checkout.place-order", FireOptions{})
	js := standing(StandingAwaitingHuman)
	if js.AskID != pause.AskID || js.Step != "checkout.place-order" || js.StepsDone != 2 || js.StepsTotal != 3 {
		t.Fatalf("%+v", js)
	}
	if p, _ := s.View().Plan("purchase"); p.Steps[2].OpenAsk != pause.AskID {
		t.Fatalf("plan step does not name the open ask: %+v", p.Steps[2])
	}
	s.Asks().ReportDecline("checkout.place-order", FireOptions{})
	standing(StandingDeclined)
	order := mustFire(t, s, "checkout.place-order", FireOptions{Confirm: true})
	standing(StandingInProgress)
	s.UpdateState(map[string]any{"orders": 1}, order.TransitionID)
	standing(StandingDone)
	f, open := s.LeaveJourney("finished")
	if !open || f.Status != FrameCompleted || f.Reason != "finished" {
		t.Fatalf("%+v", f)
	}
	standing(StandingDone)
	if _, open := s.LeaveJourney(""); open {
		t.Fatal("no frame is open")
	}
	// Done counts only inside a frame: a fresh look is a fresh plan.
	if p, _ := s.View().Plan("purchase"); p.Steps[0].Status == StepDone {
		t.Fatal("done leaked outside the frame")
	}
	// Cancelled.
	s.Sync("catalog")
	s.CommitJourney("purchase", "")
	if f, _ := s.LeaveJourney(""); f.Status != FrameCancelled {
		t.Fatalf("%+v", f)
	}
	if fs := s.View().Frames(); len(fs) != 2 || fs[0].Status != FrameCompleted || fs[1].Status != FrameCancelled {
		t.Fatalf("%+v", fs)
	}
}

func TestJourneyInferredFailedBlockedDemoted(t *testing.T) {
	t.Run("inferred-done", func(t *testing.T) {
		s := boundShop(t, Options{State: map[string]any{"cartCount": 0}})
		s.CommitJourney("purchase", "")
		s.UpdateState(map[string]any{"cart": []string{"x"}, "cartCount": 1}, "")
		if p, _ := s.View().Plan("purchase"); p.Steps[0].Status != StepInferredDone {
			t.Fatalf("%v", statuses(p))
		}
	})
	t.Run("failed only from a fire that came to rest badly", func(t *testing.T) {
		s := boundShop(t, Options{State: map[string]any{"cartCount": 0}})
		s.CommitJourney("purchase", "")
		// A refusal is not a failure.
		s.Fire(context.Background(), "catalog.add-to-cart", FireOptions{Input: map[string]any{"sku": 1}})
		if js, _ := s.View().Standing("purchase"); js.Standing != StandingInProgress {
			t.Fatalf("%+v", js)
		}
		r := mustFire(t, s, "catalog.add-to-cart", FireOptions{Input: map[string]any{"sku": "a"}})
		s.Reject(r.TransitionID, "", nil)
		if js, _ := s.View().Standing("purchase"); js.Standing != StandingFailed || js.TransitionID != r.TransitionID {
			t.Fatalf("%+v", js)
		}
	})
	t.Run("blocked", func(t *testing.T) {
		g := MustNewGraph("g", GraphDef{Pages: []Page{{ID: "p", Actions: []Action{{Name: "go", Does: "Go", When: Guard{Eq("ready", true)}}}}},
			Journeys: []Journey{{ID: "j", Does: "J", Steps: []string{"go"}}}})
		s := g.MustNewSession(Options{State: map[string]any{"ready": false}})
		s.RegisterActions("p", Registration{Handlers: map[string]Handler{"go": ok}})
		if c := s.CommitJourney("j", ""); !c.OK {
			t.Fatalf("%+v", c)
		}
		if js, _ := s.View().Standing("j"); js.Standing != StandingBlocked || !slices.Equal(js.BlockedOn, []string{"ready"}) {
			t.Fatalf("%+v", js)
		}
	})
	t.Run("precondition and demotion", func(t *testing.T) {
		s := boundShop(t, Options{State: map[string]any{"vip": false}})
		c := s.CommitJourney("vip-sale", "")
		if c.Reason != ReasonPreconditionFailed || len(c.Evidence) != 1 || c.Evidence[0].Key != "vip" {
			t.Fatalf("%+v", c)
		}
		if js, _ := s.View().Standing("vip-sale"); js.Standing != StandingBlocked {
			t.Fatalf("%+v", js)
		}
		s.UpdateState(map[string]any{"vip": true}, "")
		if c := s.CommitJourney("vip-sale", ""); !c.OK {
			t.Fatalf("%+v", c)
		}
		s.UpdateState(map[string]any{"vip": false}, "")
		if _, open := s.View().Frame(); open {
			t.Fatal("a broken precondition demotes the frame")
		}
		if fs := s.View().Frames(); fs[len(fs)-1].Status != FrameDemoted {
			t.Fatalf("%+v", fs)
		}
	})
	t.Run("entry not materialized", func(t *testing.T) {
		s := shopGraph(t).MustNewSession(Options{})
		c := s.CommitJourney("purchase", ActorAgent)
		if c.Reason != ReasonEntryNotMaterialized || c.Action != "catalog.add-to-cart" {
			t.Fatalf("%+v", c)
		}
		if g := s.View().Gaps(); len(g) != 1 || g[0].JourneyID != "purchase" || g[0].Reason != ReasonEntryNotMaterialized {
			t.Fatalf("%+v", g)
		}
		want := "  • did NOT happen — agent's attempt to start purchase was refused: ENTRY_NOT_MATERIALIZED (its first step is catalog.add-to-cart)"
		if tr := s.View().GroundTruth(0, 0); len(tr.Attempts) != 1 || tr.Attempts[0].Line != want || tr.Attempts[0].Journey != "purchase" {
			t.Fatalf("%+v", tr.Attempts)
		}
		if c := s.CommitJourney("purchase", ActorUser); !c.OK {
			t.Fatalf("a user commit is not gated: %+v", c)
		}
	})
}

func TestHowToReach(t *testing.T) {
	s := boundShop(t, Options{})
	cases := []struct {
		to        string
		route     []RouteStep
		reachable bool
	}{
		{"catalog", []RouteStep{}, true},
		{"product", []RouteStep{{"catalog.go-product", "product"}}, true},
		{"checkout", []RouteStep{{"catalog.go-checkout", "checkout"}}, true},
	}
	for _, c := range cases {
		r, ok, err := s.View().HowToReach(c.to)
		if err != nil || ok != c.reachable || !slices.Equal(r, c.route) {
			t.Fatalf("HowToReach(%s) = %v %v %v", c.to, r, ok, err)
		}
	}
	s.Sync("product")
	r, _, _ := s.View().HowToReach("checkout")
	if !slices.Equal(r, []RouteStep{{"product.back", "catalog"}, {"catalog.go-checkout", "checkout"}}) {
		t.Fatalf("%v", r)
	}
	if _, _, err := s.View().HowToReach("moon"); !errors.Is(err, &Error{Reason: ReasonUnknownPage}) {
		t.Fatal(err)
	}
	s.Sync("/unmapped")
	if r, ok, err := s.View().HowToReach("catalog"); ok || r != nil || err != nil {
		t.Fatal("no declared route from off the graph")
	}
	// Ties go to declaration order; an island is unreachable.
	g := MustNewGraph("g", GraphDef{Pages: []Page{
		{ID: "start", Actions: []Action{{Name: "via-b", Does: "B", GoTo: "b"}, {Name: "via-a", Does: "A", GoTo: "a"}}},
		{ID: "a", Actions: []Action{{Name: "on", Does: "On", GoTo: "end"}}},
		{ID: "b", Actions: []Action{{Name: "on", Does: "On", GoTo: "end"}}},
		{ID: "end"}, {ID: "island"}}})
	gs := g.MustNewSession(Options{})
	r, _, _ = gs.View().HowToReach("end")
	if !slices.Equal(r, []RouteStep{{"start.via-b", "b"}, {"b.on", "end"}}) {
		t.Fatalf("tie broken as %v", r)
	}
	if r, ok, err := gs.View().HowToReach("island"); ok || r != nil || err != nil {
		t.Fatal("island")
	}
}

func TestWhatUnblocks(t *testing.T) {
	s := boundShop(t, Options{State: map[string]any{"cartCount": 0}})
	u, err := s.View().WhatUnblocks("catalog.go-checkout")
	if err != nil || len(u) != 1 || u[0].Action != "catalog.add-to-cart" || !slices.Equal(u[0].ViaKeys, []string{"cartCount"}) {
		t.Fatalf("%+v %v", u, err)
	}
	if u, _ := s.View().WhatUnblocks("catalog.add-to-cart"); u != nil {
		t.Fatalf("nothing fails: %+v", u)
	}
	if _, err := s.View().WhatUnblocks("x"); err == nil {
		t.Fatal("unknown action")
	}
	// A greyed row carries unblockedBy, marked in flight while a fire is out.
	g := MustNewGraph("g", GraphDef{Pages: []Page{{ID: "p", Actions: []Action{
		{Name: "unlock", Does: "Unlock", Writes: []string{"locked"}},
		{Name: "use", Does: "Use", EnabledWhen: Guard{Eq("locked", false)}}}}}})
	gs := g.MustNewSession(Options{State: map[string]any{"locked": true}})
	gs.RegisterActions("p", Registration{Handlers: map[string]Handler{"unlock": ok, "use": ok}})
	mustFire(t, gs, "p.unlock", FireOptions{})
	rows := gs.View().Available()
	if rows[1].Enabled == nil || len(rows[1].UnblockedBy) != 1 || !rows[1].UnblockedBy[0].InFlight || rows[1].UnblockedBy[0].Action != "p.unlock" {
		t.Fatalf("%+v", rows[1])
	}
	if rows[0].PriorFireUnsettled == "" {
		t.Fatal("priorFireUnsettled missing on the control with a fire out")
	}
}

func TestExplainAndKeysChangedSince(t *testing.T) {
	s := boundShop(t, Options{State: map[string]any{"cartCount": 0}})
	if _, known := s.View().Explain("teleport"); known {
		t.Fatal("an id the graph lacks has no explanation")
	}
	e, _ := s.View().Explain("checkout.pay")
	if e.OnThisPage || e.Served || !slices.Equal(e.Pages, []string{"checkout"}) {
		t.Fatalf("%+v", e)
	}
	e, _ = s.View().Explain("catalog.go-checkout")
	if !e.OnThisPage || e.Served || len(e.Evidence) != 1 || e.Evidence[0].Key != "cartCount" {
		t.Fatalf("%+v", e)
	}
	e, _ = s.View().Explain("login")
	if !e.Served || !slices.Equal(e.Pages, []string{"catalog", "checkout"}) {
		t.Fatalf("%+v", e)
	}
	v := s.View().Version()
	s.UpdateState(map[string]any{"b": 1, "a": 2}, "")
	s.UpdateState(map[string]any{"c": 1}, "")
	if got := s.View().KeysChangedSince(v); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("%v", got)
	}
	if got := s.View().KeysChangedSince(s.View().Version()); got != nil {
		t.Fatalf("%v", got)
	}
}

// jsonKeys returns the top-level keys of a JSON object in emission order.
func jsonKeys(t *testing.T, v any) []string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.Token()
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	return keys
}

// TestWireFieldNames pins the protocol's JSON field names and, for the
// served row, the emission order.
func TestWireFieldNames(t *testing.T) {
	f := false
	row := ServedAction{Action: "a", Does: "d", GoesTo: "p", Holds: "", HighEffect: true, GuardUnevaluated: []string{"k"}, Enabled: &f,
		BlockedBecause: &Blocked{Says: "s"}, UnblockedBy: []Unblock{{Action: "b", Writes: []string{"k"}}}, PriorFireUnsettled: "a#1", Busy: "…",
		Materialized: &f, Instances: []string{"i"}, Expects: json.RawMessage(`"none"`)}
	cases := []struct {
		v    any
		want []string
	}{
		{row, []string{"action", "does", "goesTo", "holds", "highEffect", "guardUnevaluated", "enabled", "blockedBecause", "unblockedBy", "priorFireUnsettled", "busy", "materialized", "instances", "expects"}},
		{Condition{}, []string{"key", "op", "threshold", "actualSummary", "result", "redacted"}},
		{Receipts{WillUse: &WillUse{}}, []string{"willDo", "because", "willUse", "youAreOn", "version", "recentSteps"}},
		{RecentStep{}, []string{"what", "principal", "outcome"}},
		{UnblockVia{}, []string{"affordanceId", "viaKeys"}},
		{RouteStep{}, []string{"action", "to"}},
		{Plan{}, []string{"journeyId", "description", "steps", "frameOpen"}},
		{Availability{}, []string{"id", "description", "steps", "preconditionPassed", "entryAvailable"}},
		{Position{}, []string{"youAreOn", "version"}},
	}
	for _, c := range cases {
		if got := jsonKeys(t, c.v); !slices.Equal(got, c.want) {
			t.Errorf("%T keys %v, want %v", c.v, got, c.want)
		}
	}
	ev := jsonKeys(t, Settlement{EffectVerified: ObservedYes, VerifyHeld: VerifyUnevaluable})
	for _, k := range []string{"did", "effectStatus", "outcome", "effectVerified", "verifyHeld"} {
		if !slices.Contains(ev, k) {
			t.Errorf("settlement lacks %s: %v", k, ev)
		}
	}
	b, _ := json.Marshal(Settlement{EffectVerified: ObservedYes, VerifyHeld: VerifyUnevaluable})
	if !bytes.Contains(b, []byte(`"effectVerified":true`)) || !bytes.Contains(b, []byte(`"verifyHeld":"unevaluable"`)) {
		t.Fatalf("%s", b)
	}
	g := jsonKeys(t, GapRecord{})
	if !slices.Equal(g, []string{"kind", "timestamp", "node", "version", "availableActions", "availableJourneys"}) {
		t.Fatalf("%v", g)
	}
	if k := jsonKeys(t, GapRecord{Reason: ReasonGuardFailed, Action: "a"}); !slices.Contains(k, "rejectionReason") || !slices.Contains(k, "affordanceId") {
		t.Fatalf("%v", k)
	}
	if k := jsonKeys(t, AskStatus{Does: "d", Instance: "i", Answer: "approved", Spent: true, Stale: true, Revoked: true}); !slices.Equal(k, []string{"askId", "affordanceId", "does", "instance", "answer", "spent", "stale", "revoked", "receipts"}) {
		t.Fatalf("%v", k)
	}
}
