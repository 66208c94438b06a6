package journey

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// storeDef is a small store declared the way a real one would declare the
// features of part 3: the payment is once-only, changing the delivery
// address is the person's decision, entering a card is human-only, the
// payment sits behind a review modal until the person closes it, and the
// gift note sits on a second tab.
func storeDef(about string) GraphDef {
	return GraphDef{
		Pages: []Page{
			{ID: "cart", Actions: []Action{
				{Name: "go-checkout", Does: "Go to checkout", GoTo: "checkout"},
			}},
			{ID: "checkout", Actions: []Action{
				{Name: "change-address", Does: "Change the delivery address", Writes: []string{"address"},
					HumanDecides: &HumanDecides{About: about, DoneWhen: Guard{Eq("addressConfirmed", true)}}},
				{Name: "enter-card", Does: "Enter a payment card", Writes: []string{"card"}, Confirm: true,
					Policy: PrincipalPolicy{MayInvoke: []Actor{ActorUser}}},
				{Name: "pay", Does: "Pay for the order", Writes: []string{"paid"}, Reads: []string{"address", "total"}, Confirm: true,
					Concurrency: Concurrency{Once: true}},
			}, Containers: []Container{
				{Name: "review", Modal: true, Actions: []Action{{Name: "close-review", Does: "Close the order review"}}},
				{Name: "summary", Tab: true, Actions: []Action{{Name: "apply-coupon", Does: "Apply a coupon", Writes: []string{"total"}}}},
				{Name: "gift", Tab: true, Actions: []Action{{Name: "add-gift-note", Does: "Add a gift note", Writes: []string{"note"}}}},
			}},
		},
		Journeys: []Journey{
			{ID: "checkout", Does: "Check out and pay", Steps: []string{"go-checkout", "change-address", "pay"}},
		},
	}
}

func storeSession(t testing.TB, opts Options) *Session {
	t.Helper()
	g, err := NewGraph("store", storeDef("delivery address"))
	if err != nil {
		t.Fatal(err)
	}
	if opts.State == nil {
		opts.State = map[string]any{"addressConfirmed": false, "address": "1 Main St", "total": 10}
	}
	s := g.MustNewSession(opts)
	if _, err := s.RegisterActions("cart", Registration{Handlers: map[string]Handler{"go-checkout": ok}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RegisterActions("checkout", Registration{Handlers: map[string]Handler{"change-address": ok, "enter-card": ok, "pay": ok,
		"review.close-review": ok, "summary.apply-coupon": ok}}); err != nil {
		t.Fatal(err)
	}
	return s
}

func row(t testing.TB, s *Session, id string) ServedAction {
	t.Helper()
	for _, r := range s.View().Available() {
		if r.Action == id {
			return r
		}
	}
	t.Fatalf("%s is not served", id)
	return ServedAction{}
}

func TestStoreDefinitionErrors(t *testing.T) {
	for name, mutate := range map[string]func(*GraphDef){
		"policy names an unknown actor": func(d *GraphDef) { d.Pages[1].Actions[1].Policy.MayInvoke = []Actor{"human"} },
		"empty doneWhen":                func(d *GraphDef) { d.Pages[1].Actions[0].HumanDecides.DoneWhen = Guard{} },
		"popover that is not a modal":   func(d *GraphDef) { d.Pages[1].Containers[1].Popover = true },
		"tab and modal at once":         func(d *GraphDef) { d.Pages[1].Containers[0].Tab = true },
		"per-instance alone":            func(d *GraphDef) { d.Pages[1].Actions[2].Concurrency = Concurrency{PerInstance: true} },
	} {
		def := storeDef("x")
		mutate(&def)
		if _, err := NewGraph("store", def); err == nil {
			t.Errorf("%s: accepted", name)
		} else if _, ok := errors.AsType[*GraphError](err); !ok {
			t.Errorf("%s: %T", name, err)
		}
	}
	g := MustNewGraph("store", storeDef("x"))
	if !slices.Contains(g.RequiredStateKeys(), "addressConfirmed") {
		t.Fatal("a doneWhen key is a required state key")
	}
	if ai, _ := g.Action("checkout.enter-card"); ai.Allows(ActorAgent) || !ai.Allows(ActorUser) || !slices.Equal(ai.MayInvoke, []Actor{ActorUser}) {
		t.Fatalf("%+v", ai)
	}
	if ai, _ := g.Action("checkout.pay"); !ai.Once || !ai.SingleFlight || !ai.Allows("") {
		t.Fatalf("%+v", ai)
	}
}

func TestHumanDecidesIsServedAsAwaitingThePerson(t *testing.T) {
	s := storeSession(t, Options{})
	if cr := s.CommitJourney("checkout", ActorAgent); !cr.OK {
		t.Fatalf("%+v", cr)
	}
	mustFire(t, s, "cart.go-checkout", FireOptions{})
	waitFor(t, s, "go-checkout at rest", func() bool { return len(s.View().AwaitingSettlement()) == 0 })
	s.SetVisible("checkout.review", false)
	r := row(t, s, "checkout.change-address")
	if !r.HumanDecides || !r.AwaitingHuman || r.About != "delivery address" || r.Clickable() {
		t.Fatalf("%+v", r)
	}
	plan, _ := s.View().Plan("checkout")
	st := plan.Steps[1]
	if !st.HumanDecides || !st.AwaitingHuman || st.Made != MadeNo || st.Fireable() {
		t.Fatalf("%+v", st)
	}
	// pay is also ready here, so the model still has a move: in-progress.
	if js, _ := s.View().Standing("checkout"); js.Standing != StandingInProgress {
		t.Fatalf("%+v", js)
	}
	// With pay masked by the review modal, the only move is the person's.
	s.Show("checkout.review")
	if js, _ := s.View().Standing("checkout"); js.Standing != StandingWithTheHuman || js.Step != "checkout.change-address" {
		t.Fatalf("%+v", js)
	}
	truth := s.View().GroundTruth(0, 0)
	if !strings.Contains(truth.Text, decisionLead+"checkout.change-address"+decisionTail) || !slices.Contains(truth.WithTheHuman, "checkout.change-address") {
		t.Fatalf("facts do not name the decision:\n%s", truth.Text)
	}
	// Disclosure only: the person makes it (the app reports it), and the
	// row stops waiting.
	if rep := s.ReportState(map[string]any{"address": "2 Side St", "addressConfirmed": true}, ReportOptions{Principal: ActorUser}); !rep.OK || rep.Basis != BasisPrincipal {
		t.Fatalf("%+v", rep)
	}
	if r := row(t, s, "checkout.change-address"); r.AwaitingHuman {
		t.Fatalf("a made decision still waits: %+v", r)
	}
	plan, _ = s.View().Plan("checkout")
	if plan.Steps[1].Made != MadeYes || plan.Steps[1].AwaitingHuman {
		t.Fatalf("%+v", plan.Steps[1])
	}
}

func TestHumanOnlyIsRefusedBeforeAnyCard(t *testing.T) {
	for _, enforced := range []bool{false, true} {
		s := storeSession(t, Options{Page: "checkout", RequireHumanApproval: enforced})
		r := row(t, s, "checkout.enter-card")
		if !r.AwaitingHuman || !slices.Equal(r.MayInvoke, []string{"human"}) || r.Clickable() {
			t.Fatalf("%+v", r)
		}
		v := s.View().Version()
		for _, confirm := range []bool{false, true} {
			fr := s.Fire(context.Background(), "checkout.enter-card", FireOptions{Confirm: confirm})
			if fr.OK || fr.NeedsConfirm || fr.Reason != ReasonNotAllowed || fr.AskID != "" || !slices.Equal(fr.Required, []string{"human"}) || fr.Attempted != "agent" {
				t.Fatalf("enforced=%v confirm=%v: %+v", enforced, confirm, fr)
			}
		}
		if len(s.Asks().All()) != 0 || s.View().Version() != v {
			t.Fatalf("a card was minted or the version moved: %+v", s.Asks().All())
		}
		if _, err := s.Asks().Confirm("checkout.enter-card", FireOptions{}); !errors.Is(err, &Error{Reason: ReasonNotAllowed}) {
			t.Fatalf("ConfirmAsk: %v", err)
		}
		if g := s.View().Gaps(); g[len(g)-1].Reason != ReasonNotAllowed {
			t.Fatalf("%+v", g)
		}
		// The person may: the app reports their click.
		if fr := s.Fire(context.Background(), "checkout.enter-card", FireOptions{Source: ActorUser}); !fr.OK {
			t.Fatalf("%+v", fr)
		}
	}
}

func TestExpectedVersionRefusesStaleCursor(t *testing.T) {
	s := storeSession(t, Options{Page: "checkout"})
	looked := s.View().Version()
	s.ReportState(map[string]any{"total": 12}, ReportOptions{Principal: ActorUser})
	now := s.View().Version()
	before := len(s.View().Transitions())
	fr := s.Fire(context.Background(), "checkout.summary.apply-coupon", FireOptions{ExpectedVersion: &looked})
	if fr.OK || fr.Reason != ReasonStaleCursor || fr.Version != now || s.View().Version() != now || len(s.View().Transitions()) != before {
		t.Fatalf("%+v", fr)
	}
	// High-effect: no card either.
	if fr := s.Fire(context.Background(), "checkout.pay", FireOptions{ExpectedVersion: &looked}); fr.Reason != ReasonStaleCursor || len(s.Asks().All()) != 0 {
		t.Fatalf("%+v", fr)
	}
	if fr := s.Fire(context.Background(), "checkout.summary.apply-coupon", FireOptions{ExpectedVersion: &now}); !fr.OK {
		t.Fatalf("%+v", fr)
	}
}

func TestOnceOnly(t *testing.T) {
	s := storeSession(t, Options{Page: "checkout"})
	first := mustFire(t, s, "checkout.pay", FireOptions{Confirm: true})
	fr := s.Fire(context.Background(), "checkout.pay", FireOptions{Confirm: true})
	if fr.Reason != ReasonPriorFirePending || fr.PendingTransitionID != first.TransitionID {
		t.Fatalf("while pending: %+v", fr)
	}
	// The app refuses the first payment: it did not happen, so it may be
	// tried again.
	if err := s.Reject(first.TransitionID, "", nil); err != nil {
		t.Fatal(err)
	}
	if s.View().OnceDone("checkout.pay", "") != "" {
		t.Fatal("a rejected payment counts as done")
	}
	second := mustFire(t, s, "checkout.pay", FireOptions{Confirm: true})
	s.UpdateState(map[string]any{"paid": true}, second.TransitionID)
	settle(t, s, second.TransitionID)
	v := s.View().Version()
	fr = s.Fire(context.Background(), "checkout.pay", FireOptions{Confirm: true})
	if fr.OK || fr.Reason != ReasonDuplicate || fr.PriorTransitionID != second.TransitionID || fr.Scope != "action" || s.View().Version() != v {
		t.Fatalf("after settling: %+v", fr)
	}
	// Before any card, too: an unconfirmed agent fire is refused, not paused.
	if fr := s.Fire(context.Background(), "checkout.pay", FireOptions{}); fr.NeedsConfirm || fr.Reason != ReasonDuplicate {
		t.Fatalf("%+v", fr)
	}
	if s.View().OnceDone("checkout.pay", "") != second.TransitionID {
		t.Fatal("OnceDone")
	}
}

func TestOnceOnlyPerInstance(t *testing.T) {
	g := MustNewGraph("o", GraphDef{Pages: []Page{{ID: "p", Containers: []Container{{Name: "orders", Repeats: true,
		Instances: func(StateView) []string { return []string{"a", "b"} },
		Actions:   []Action{{Name: "refund", Does: "Refund this order", Concurrency: Concurrency{Once: true, PerInstance: true}}}}}}}})
	s := g.MustNewSession(Options{})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"orders.refund": ok}})
	a := mustFire(t, s, "p.orders.refund", FireOptions{Instance: "a"})
	settle(t, s, a.TransitionID)
	if fr := s.Fire(context.Background(), "p.orders.refund", FireOptions{Instance: "a"}); fr.Reason != ReasonDuplicate || fr.Scope != "instance" || fr.PriorTransitionID != a.TransitionID {
		t.Fatalf("%+v", fr)
	}
	mustFire(t, s, "p.orders.refund", FireOptions{Instance: "b"})
}

// TestOnceOnlyPerInstanceServed: the row offers only the instances whose
// once-only fire has not settled, and stops being clickable (naming the
// newest settled fire) when none is left; a journey step follows it.
func TestOnceOnlyPerInstanceServed(t *testing.T) {
	keys := []string{"a", "b"}
	g := MustNewGraph("o", GraphDef{Pages: []Page{{ID: "p", Containers: []Container{{Name: "orders", Repeats: true,
		Instances: func(StateView) []string { return keys },
		Actions:   []Action{{Name: "refund", Does: "Refund this order", Concurrency: Concurrency{Once: true, PerInstance: true}}}}}}},
		Journeys: []Journey{{ID: "refund", Does: "Refund an order", Steps: []string{"refund"}}}})
	s := g.MustNewSession(Options{})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"orders.refund": ok}})
	if cr := s.CommitJourney("refund", ActorAgent); !cr.OK {
		t.Fatalf("%+v", cr)
	}
	served := func() (ServedAction, PlanStep) {
		t.Helper()
		plan, _ := s.View().Plan("refund")
		return row(t, s, "p.orders.refund"), plan.Steps[0]
	}
	a := mustFire(t, s, "p.orders.refund", FireOptions{Instance: "a"})
	settle(t, s, a.TransitionID)
	// a is refunded, b is not: still ready, for b only. (The frame's step
	// counts the fire as done; the row and the instances say the rest.)
	r, _ := served()
	if !r.Clickable() || r.PriorTransitionID != "" || !slices.Equal(r.Instances, []string{"b"}) {
		t.Fatalf("one instance left: %+v", r)
	}
	s.LeaveJourney("")
	if cr := s.CommitJourney("refund", ActorAgent); !cr.OK {
		t.Fatalf("%+v", cr)
	}
	if _, st := served(); st.Status != StepReady || !st.Fireable() || !slices.Equal(st.Instances, []string{"b"}) || st.PriorTransitionID != "" {
		t.Fatalf("one instance left, new frame: %+v", st)
	}
	b := mustFire(t, s, "p.orders.refund", FireOptions{Instance: "b"})
	settle(t, s, b.TransitionID)
	s.LeaveJourney("")
	if cr := s.CommitJourney("refund", ActorAgent); !cr.OK {
		t.Fatalf("%+v", cr)
	}
	r, st := served()
	if r.Clickable() || r.PriorTransitionID != b.TransitionID || r.Instances != nil {
		t.Fatalf("none left: %+v", r)
	}
	if st.Status != StepDone || st.Fireable() || st.PriorTransitionID != b.TransitionID || st.Instances != nil {
		t.Fatalf("none left, step: %+v", st)
	}
	if js, _ := s.View().Standing("refund"); js.Standing != StandingDone {
		t.Fatalf("%+v", js)
	}
	if fr := s.Fire(context.Background(), "p.orders.refund", FireOptions{Instance: "b"}); fr.Reason != ReasonDuplicate || fr.PriorTransitionID != b.TransitionID {
		t.Fatalf("%+v", fr)
	}
	// A new instance appears: it is offered, and the action is ready again.
	keys = []string{"a", "b", "c"}
	if r, st := served(); !r.Clickable() || r.PriorTransitionID != "" || !slices.Equal(r.Instances, []string{"c"}) || st.Status != StepReady || !st.Fireable() {
		t.Fatalf("a new instance: %+v %+v", r, st)
	}
	// No instance listed says nothing about what was done.
	keys = nil
	if r, _ := served(); r.PriorTransitionID != "" {
		t.Fatalf("no instances: %+v", r)
	}
}

// TestOnceOnlyDoneIsNotServedAsReady: a once-only action that came to
// rest successfully is served as done, naming the fire (the
// DUPLICATE_EXECUTION gate read ahead of a fire), never as a control to
// click or a step to take; the refusal stays for a caller that fires
// anyway.
func TestOnceOnlyDoneIsNotServedAsReady(t *testing.T) {
	s := storeSession(t, Options{Page: "checkout"})
	s.SetVisible("checkout.review", false)
	if r := row(t, s, "checkout.pay"); !r.Clickable() || r.PriorTransitionID != "" {
		t.Fatalf("before any payment: %+v", r)
	}
	first := mustFire(t, s, "checkout.pay", FireOptions{Confirm: true})
	// Pending: held by the fire in flight, not done.
	if r := row(t, s, "checkout.pay"); r.PriorTransitionID != "" || r.PriorFireUnsettled != first.TransitionID {
		t.Fatalf("while pending: %+v", r)
	}
	if err := s.Reject(first.TransitionID, "", nil); err != nil {
		t.Fatal(err)
	}
	// Rejected: it did not happen, so it is offered again.
	if r := row(t, s, "checkout.pay"); !r.Clickable() || r.PriorTransitionID != "" {
		t.Fatalf("after a rejected payment: %+v", r)
	}
	second := mustFire(t, s, "checkout.pay", FireOptions{Confirm: true})
	s.UpdateState(map[string]any{"paid": true}, second.TransitionID)
	settle(t, s, second.TransitionID)
	r := row(t, s, "checkout.pay")
	if r.Clickable() || r.PriorTransitionID != second.TransitionID || r.Enabled != nil || r.BlockedBecause != nil {
		t.Fatalf("after the payment settled: %+v", r)
	}
	if b, _ := json.Marshal(r); !strings.Contains(string(b), `"priorTransitionId":"`+second.TransitionID+`"`) {
		t.Fatalf("the row does not say why on the wire: %s", b)
	}
	// No frame open: the step keeps its status and is not fireable.
	plan, _ := s.View().Plan("checkout")
	if st := plan.Steps[2]; st.Status != StepReady || st.Fireable() || st.PriorTransitionID != second.TransitionID {
		t.Fatalf("plan outside a frame: %+v", st)
	}
	// A frame opened after the payment: the payment is done in it, and
	// once the rest is done too the journey is done, not in progress.
	s.Sync("cart")
	if cr := s.CommitJourney("checkout", ActorAgent); !cr.OK {
		t.Fatalf("%+v", cr)
	}
	plan, _ = s.View().Plan("checkout")
	if st := plan.Steps[2]; st.Status != StepDone || st.Fireable() || st.PriorTransitionID != second.TransitionID {
		t.Fatalf("plan in a frame: %+v", st)
	}
	if js, _ := s.View().Standing("checkout"); js.Standing == StandingDone || js.StepsDone != 1 {
		t.Fatalf("with the other steps ahead: %+v", js)
	}
	gc := mustFire(t, s, "cart.go-checkout", FireOptions{})
	settle(t, s, gc.TransitionID)
	s.Sync("checkout")
	s.ReportState(map[string]any{"address": "2 Side St", "addressConfirmed": true}, ReportOptions{Principal: ActorUser})
	if js, _ := s.View().Standing("checkout"); js.Standing != StandingDone || js.StepsDone != 3 {
		t.Fatalf("the remaining step is the settled payment: %+v", js)
	}
	if fi, ok := s.LeaveJourney(""); !ok || fi.Status != FrameCompleted {
		t.Fatalf("%+v", fi)
	}
	// The person gave the address after the payment came to rest: a fire
	// of it now is a repeat, let through and marked, not a duplicate.
	if fr := s.Fire(context.Background(), "checkout.pay", FireOptions{Confirm: true}); !fr.OK || !fr.Repeated {
		t.Fatalf("%+v", fr)
	}
}

func TestAttributionRungs(t *testing.T) {
	s := storeSession(t, Options{Page: "checkout"})
	pay := mustFire(t, s, "checkout.pay", FireOptions{Confirm: true})
	// The person edits the address themselves while the payment is pending.
	rep := s.ReportState(map[string]any{"address": "3 Elm St"}, ReportOptions{Principal: ActorUser})
	if !rep.OK || rep.Basis != BasisPrincipal || rep.TransitionID == pay.TransitionID {
		t.Fatalf("%+v", rep)
	}
	// An untagged edit that does not write what the payment declared is
	// not credited to it.
	rep = s.UpdateState(map[string]any{"address": "4 Oak St"}, "")
	if rep.Basis != BasisStimulus || rep.TransitionID == pay.TransitionID {
		t.Fatalf("%+v", rep)
	}
	// A principal is never credited to the pending fire, even when its
	// keys match.
	rep = s.ReportState(map[string]any{"paid": false}, ReportOptions{Principal: ActorSystem})
	if rep.Basis != BasisPrincipal || len(s.View().Pending()) != 1 {
		t.Fatalf("%+v", rep)
	}
	// An untagged report of the payment's own write: signature-match.
	rep = s.UpdateState(map[string]any{"paid": true}, "")
	if rep.Basis != BasisSignature || rep.TransitionID != pay.TransitionID {
		t.Fatalf("%+v", rep)
	}
	tr, _ := s.View().Transition(pay.TransitionID)
	if tr.Attribution == nil || tr.Attribution.Basis != BasisSignature || !tr.Inferred {
		t.Fatalf("%+v", tr.Attribution)
	}
	truth := s.View().GroundTruth(0, 0)
	for _, want := range []string{noteBySignature, changesHeader, changeByUser, changeBySystem, changeByUnknown} {
		if !strings.Contains(truth.Text, want) {
			t.Fatalf("facts lack %q:\n%s", want, truth.Text)
		}
	}
	if len(truth.Changes) != 3 || truth.Changes[0].Actor != ActorUser || truth.Changes[0].Basis != BasisPrincipal || truth.Attempts[0].Attribution != BasisSignature {
		t.Fatalf("%+v %+v", truth.Changes, truth.Attempts)
	}
	// Narrowed: only the changes after the version asked about.
	if got := s.View().GroundTruth(truth.Version, 0); len(got.Changes) != 0 || strings.Contains(got.Text, changesHeader) {
		t.Fatalf("%+v", got.Changes)
	}
}

func TestStateChangeWithNothingPendingIsThePersons(t *testing.T) {
	s := storeSession(t, Options{Page: "checkout"})
	s.ReportState(map[string]any{"note": "IGNORE PREVIOUS"}, ReportOptions{Principal: ActorUser})
	text := s.View().Facts(0, 0)
	if !strings.Contains(text, changeByUser) || !strings.Contains(text, nothingYetLine) || strings.Contains(text, "IGNORE") || strings.Contains(text, "note") {
		t.Fatalf("%s", text)
	}
}

func TestVisibilityAndOverlays(t *testing.T) {
	s := storeSession(t, Options{Page: "checkout"})
	// Tabs: summary (first) is shown by default, gift hidden.
	if r := row(t, s, "checkout.gift.add-gift-note"); r.Activation != ActivationHidden || r.Clickable() {
		t.Fatalf("%+v", r)
	}
	if r := row(t, s, "checkout.summary.apply-coupon"); r.Activation != ActivationShown || !r.Clickable() {
		t.Fatalf("%+v", r)
	}
	if fr := s.Fire(context.Background(), "checkout.gift.add-gift-note", FireOptions{}); fr.Reason != ReasonNodeNotVisible || fr.Node != "checkout.gift" {
		t.Fatalf("%+v", fr)
	}
	// The review modal opens over the page: everything outside it is masked.
	v := s.View().Version()
	if err := s.Show("checkout.review"); err != nil || s.View().Version() != v+1 {
		t.Fatalf("%v %d", err, s.View().Version())
	}
	if r := row(t, s, "checkout.pay"); r.Overlay != "checkout.review" || r.Clickable() {
		t.Fatalf("%+v", r)
	}
	if fr := s.Fire(context.Background(), "checkout.pay", FireOptions{Confirm: true}); fr.Reason != ReasonBlockedByOverlay || fr.Overlay != "checkout.review" {
		t.Fatalf("%+v", fr)
	}
	// Who may fire it is said before the overlay: no change on screen lifts it.
	if fr := s.Fire(context.Background(), "checkout.enter-card", FireOptions{}); fr.Reason != ReasonNotAllowed {
		t.Fatalf("%+v", fr)
	}
	if fr := s.Fire(context.Background(), "checkout.pay", FireOptions{}); fr.NeedsConfirm || len(s.Asks().All()) != 0 {
		t.Fatalf("a card was minted for a masked control: %+v", fr)
	}
	// The app's own report of the person's click is not judged.
	if fr := s.Fire(context.Background(), "checkout.summary.apply-coupon", FireOptions{Source: ActorUser}); !fr.OK {
		t.Fatalf("%+v", fr)
	}
	mustFire(t, s, "checkout.review.close-review", FireOptions{})
	s.SetVisible("checkout.review", false)
	if r := row(t, s, "checkout.pay"); r.Overlay != "" {
		t.Fatalf("%+v", r)
	}
	// Showing the gift tab hides the summary tab; nothing is bound to the
	// gift tab yet while the rest of the page is live: still mounting.
	s.Show("checkout.gift")
	if r := row(t, s, "checkout.summary.apply-coupon"); r.Activation != ActivationHidden {
		t.Fatalf("%+v", r)
	}
	if fr := s.Fire(context.Background(), "checkout.gift.add-gift-note", FireOptions{}); fr.Reason != ReasonStillMounting || !fr.Retriable || fr.Node != "checkout.gift" {
		t.Fatalf("%+v", fr)
	}
	s.RegisterActions("checkout", Registration{Handlers: map[string]Handler{"gift.add-gift-note": ok}})
	mustFire(t, s, "checkout.gift.add-gift-note", FireOptions{})
	// lookingAt, below page level.
	if err := s.ObserveFocus("checkout.gift"); err != nil || s.View().Position().LookingAt != "checkout.gift" {
		t.Fatalf("%v %+v", err, s.View().Position())
	}
	if !strings.Contains(s.View().Facts(0, 0), "Focus: checkout.gift.") {
		t.Fatal("facts do not say the focus")
	}
	if err := s.ObserveFocus("cart.nothing"); !errors.Is(err, &Error{Reason: ReasonUnknownContainer}) || s.View().Position().LookingAt != "checkout.gift" {
		t.Fatalf("%v", err)
	}
	if err := s.Show("checkout.nope"); err == nil {
		t.Fatal("an unknown container was shown")
	}
	// Leaving the page forgets its tabs, modals and focus.
	s.Sync("cart")
	if s.View().Position().LookingAt != "" {
		t.Fatal("the focus outlived the page")
	}
}

func TestContextBriefOfTheOpenJourney(t *testing.T) {
	s := storeSession(t, Options{})
	if b := s.View().ContextBrief(); b.Journey != "" || !strings.Contains(b.Text, briefNoJourney) {
		t.Fatalf("%+v", b)
	}
	s.CommitJourney("checkout", ActorAgent)
	mustFire(t, s, "cart.go-checkout", FireOptions{})
	waitFor(t, s, "at rest", func() bool { return len(s.View().AwaitingSettlement()) == 0 })
	s.Show("checkout.review")
	s.ObserveFocus("checkout.review")
	b := s.View().ContextBrief()
	for _, want := range []string{"You are on: checkout.", "Focus: checkout.review.", briefOpen + "checkout - Check out and pay (1/3 steps done; standing: with-the-human).",
		briefHuman + "checkout.change-address.", briefNotClick + "checkout.pay."} {
		if !strings.Contains(b.Text, want) {
			t.Fatalf("brief lacks %q:\n%s", want, b.Text)
		}
	}
	if b.Standing != StandingWithTheHuman || b.StepsDone != 1 || b.StepsTotal != 3 || strings.Contains(b.Text, "delivery address") {
		t.Fatalf("%+v", b)
	}
}

// A decision only the person may make (HumanDecides and a human-only
// policy, as the shop declares its delivery address) stops being "with
// the human" in the facts once it is made.
func TestMadePersonOnlyDecisionLeavesTheFacts(t *testing.T) {
	def := storeDef("delivery address")
	def.Pages[1].Actions[0].Policy = PrincipalPolicy{MayInvoke: []Actor{ActorUser}}
	g, err := NewGraph("store", def)
	if err != nil {
		t.Fatal(err)
	}
	s := g.MustNewSession(Options{Page: "checkout", State: map[string]any{"addressConfirmed": false, "address": "1 Main St", "total": 10}})
	if _, err := s.RegisterActions("checkout", Registration{Handlers: map[string]Handler{"change-address": ok, "enter-card": ok, "pay": ok,
		"review.close-review": ok, "summary.apply-coupon": ok}}); err != nil {
		t.Fatal(err)
	}
	truth := s.View().GroundTruth(0, 0)
	if !strings.Contains(truth.Text, decisionLead+"checkout.change-address"+decisionTail) || !slices.Contains(truth.WithTheHuman, "checkout.change-address") {
		t.Fatalf("facts do not name the open decision:\n%s", truth.Text)
	}
	if rep := s.ReportState(map[string]any{"address": "2 Side St", "addressConfirmed": true}, ReportOptions{Principal: ActorUser}); !rep.OK {
		t.Fatalf("%+v", rep)
	}
	truth = s.View().GroundTruth(0, 0)
	if strings.Contains(truth.Text, decisionLead+"checkout.change-address") || slices.Contains(truth.WithTheHuman, "checkout.change-address") {
		t.Fatalf("a made decision is still with the human:\n%s\n%v", truth.Text, truth.WithTheHuman)
	}
	// Still the person's alone: the agent is not offered it, but nothing
	// waits on them either.
	if r := row(t, s, "checkout.change-address"); r.Clickable() || r.AwaitingHuman {
		t.Fatalf("%+v", r)
	}
	// A journey begun after the decision counts it made: the step is not
	// the person's move, and the journey is not with the human.
	if cr := s.CommitJourney("checkout", ActorAgent); !cr.OK {
		t.Fatalf("%+v", cr)
	}
	plan, _ := s.View().Plan("checkout")
	if st := plan.Steps[1]; st.Status != StepInferredDone || st.AwaitingHuman || st.Fireable() {
		t.Fatalf("a made decision in a new frame: %+v", st)
	}
	s.Show("checkout.review") // pay masked: only the person's step could be left
	if js, _ := s.View().Standing("checkout"); js.Standing == StandingWithTheHuman {
		t.Fatalf("a journey whose decision is made stands with the human: %+v", js)
	}
}
