package journey

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestAskBookDefaultMode(t *testing.T) {
	s := boundShop(t, Options{Page: "checkout", State: map[string]any{"paymentReady": true}})
	var mu sync.Mutex
	var kinds []string
	s.OnAsk(func(e AskEvent) { mu.Lock(); kinds = append(kinds, e.Kind+":"+e.Ask.AskID); mu.Unlock() })
	fire := func(o FireOptions) FireResult { return s.Fire(context.Background(), "checkout.place-order", o) }

	v := s.View().Version()
	p1 := fire(FireOptions{Input: map[string]any{"note": "gift"}})
	if !p1.NeedsConfirm || p1.AskID != "ask#1" || p1.OK {
		t.Fatalf("%+v", p1)
	}
	rc := p1.Receipts
	if rc.WillDo.Does != "Place the order" || !slices.Equal(rc.WillDo.Writes, []string{"orders"}) || !slices.Equal(rc.WillDo.Reads, []string{"cart"}) ||
		rc.YouAreOn != "checkout" || rc.Version != v || rc.WillUse != nil || rc.Because == nil {
		t.Fatalf("receipts %+v", rc)
	}
	if len(s.View().Gaps()) != 0 || s.View().Version() != v || len(s.View().Pending()) != 0 {
		t.Fatal("a pause is not a refusal and fires nothing")
	}
	p2 := fire(FireOptions{})
	if p2.AskID != "ask#2" {
		t.Fatalf("%+v", p2)
	}
	if _, found := s.Asks().Get("ask#1"); found {
		t.Fatal("asking again supersedes the earlier card")
	}
	if asks := s.Asks().All(); len(asks) != 1 || asks[0].AskID != "ask#2" || asks[0].Answer != "" {
		t.Fatalf("book %+v", asks)
	}
	r := fire(FireOptions{Confirm: true})
	if !r.OK {
		t.Fatalf("%+v", r)
	}
	if tr, _ := s.View().Transition(r.TransitionID); tr.AskID != "ask#2" {
		t.Fatalf("the fire does not name the card it closed: %+v", tr)
	}
	if len(s.Asks().All()) != 0 {
		t.Fatal("in default mode the confirmed card leaves the book")
	}
	a, found := s.Asks().Get("ask#2")
	if !found || !a.Spent || a.Answer != "approved" || a.TransitionID != r.TransitionID {
		t.Fatalf("a spent card forwards to its fire: %+v", a)
	}
	// A decline closes the card.
	fire(FireOptions{})
	d, err := s.Asks().ReportDecline("checkout.place-order", FireOptions{})
	if err != nil || !d.Closed || d.AskID != "ask#3" || d.RecordedAs != "" {
		t.Fatalf("%+v %v", d, err)
	}
	if a, _ := s.Asks().Get("ask#3"); a.Answer != "declined" {
		t.Fatalf("%+v", a)
	}
	// The human doors belong to enforcement.
	if _, err := s.Asks().Approve("ask#3", "alice"); !errors.Is(err, &Error{Reason: ReasonNotEnforced}) {
		t.Fatalf("%v", err)
	}
	// A user's own click is not gated by confirmation.
	if r := fire(FireOptions{Source: ActorUser}); !r.OK {
		t.Fatalf("%+v", r)
	}
	if _, err := s.Asks().ReportDecline("nope", FireOptions{}); !errors.Is(err, &Error{Reason: ReasonUnknownAction}) {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"ask:ask#1", "superseded:ask#1", "ask:ask#2", "used:ask#2", "ask:ask#3", "declined:ask#3"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("ask events %v, want %v", kinds, want)
	}
}

func TestAskBookEnforced(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var cmu sync.Mutex
	now := func() time.Time { cmu.Lock(); defer cmu.Unlock(); return clock }
	advance := func(d time.Duration) { cmu.Lock(); clock = clock.Add(d); cmu.Unlock() }
	s := boundShop(t, Options{Page: "checkout", State: map[string]any{"paymentReady": true}, RequireHumanApproval: true, ApprovalExpiresAfter: time.Minute, Now: now})
	fire := func(o FireOptions) FireResult { return s.Fire(context.Background(), "checkout.place-order", o) }
	gift := map[string]any{"note": "gift"}
	expect := func(r FireResult, want Reason, ask string) {
		t.Helper()
		if r.OK || r.Reason != want || (ask != "" && r.AskID != ask) {
			t.Fatalf("got %+v, want %s on %s", r, want, ask)
		}
	}

	v := s.View().Version()
	r := fire(FireOptions{Input: gift, Confirm: true})
	expect(r, ReasonApprovalRequired, "ask#1")
	if r.Receipts == nil || r.Receipts.WillUse == nil || r.Receipts.WillUse.Input.(map[string]any)["note"] != "gift" {
		t.Fatalf("enforced receipts carry what the yes binds: %+v", r.Receipts)
	}
	if s.View().Version() != v || len(s.View().Gaps()) != 1 || s.View().Gaps()[0].Reason != ReasonApprovalRequired {
		t.Fatal("APPROVAL_REQUIRED is a refusal: a gap row, no version")
	}
	expect(fire(FireOptions{Input: gift}), ReasonApprovalRequired, "ask#1") // identical re-ask reuses the id
	expect(fire(FireOptions{Input: map[string]any{"note": "other"}}), ReasonApprovalRequired, "ask#2")

	d, _ := s.Asks().ReportDecline("checkout.place-order", FireOptions{Input: gift})
	if d.RecordedAs != "your-report" || d.Closed || d.AskID != "ask#1" {
		t.Fatalf("%+v", d)
	}
	if a, _ := s.Asks().Get("ask#1"); a.Answer != "" || !a.RelayedDecline {
		t.Fatalf("a relayed decline closes nothing: %+v", a)
	}

	doorCases := []struct {
		name string
		do   func() error
		want Reason
	}{
		{"no decider", func() error { _, err := s.Asks().Approve("ask#1", ""); return err }, ReasonNeedsDecider},
		{"unknown ask", func() error { _, err := s.Asks().Approve("ask#99", "alice"); return err }, ReasonUnknownAsk},
		{"near miss", func() error { _, err := s.Asks().Approve("ASK#1", "alice"); return err }, ReasonUnknownAsk},
		{"revoke unanswered", func() error { _, err := s.Asks().Revoke("ask#1", "alice"); return err }, ReasonRevokeUnanswered},
	}
	for _, c := range doorCases {
		if err := c.do(); !errors.Is(err, &Error{Reason: c.want}) {
			t.Fatalf("%s: %v, want %s", c.name, err, c.want)
		}
	}
	if _, err := s.Asks().Approve("ask#1", "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Asks().Approve("ask#1", "alice"); !errors.Is(err, &Error{Reason: ReasonAskAlreadyAnswered}) {
		t.Fatal(err)
	}
	expect(fire(FireOptions{Input: map[string]any{"note": "other"}, AskID: "ask#1"}), ReasonApprovalMismatch, "ask#1")
	if r := fire(FireOptions{Input: map[string]any{"note": "other"}, AskID: "ask#1"}); r.Differs != "input" {
		t.Fatalf("differs %q", r.Differs)
	}
	ok := fire(FireOptions{Input: gift}) // found by action+instance+input
	if !ok.OK {
		t.Fatalf("%+v", ok)
	}
	if a, _ := s.Asks().Get("ask#1"); !a.Spent || a.TransitionID != ok.TransitionID {
		t.Fatalf("%+v", a)
	}
	expect(fire(FireOptions{Input: gift, AskID: "ask#1"}), ReasonApprovalSpent, "ask#1")
	if _, err := s.Asks().Revoke("ask#1", "alice"); !errors.Is(err, &Error{Reason: ReasonAskAlreadySpent}) {
		t.Fatal(err)
	}
	s.UpdateState(map[string]any{"orders": 1}, ok.TransitionID)
	if st := settle(t, s, ok.TransitionID); st.Outcome != OutcomeCommitted {
		t.Fatalf("%+v", st)
	}

	// Declined, revoked and stale yeses.
	if _, err := s.Asks().Decline("ask#2", "bob"); err != nil {
		t.Fatal(err)
	}
	expect(fire(FireOptions{Input: map[string]any{"note": "other"}, AskID: "ask#2"}), ReasonApprovalDeclined, "ask#2")
	r = fire(FireOptions{Input: map[string]any{"note": "third"}})
	expect(r, ReasonApprovalRequired, "")
	third := r.AskID
	s.Asks().Approve(third, "alice")
	if _, err := s.Asks().Revoke(third, "alice"); err != nil {
		t.Fatal(err)
	}
	expect(fire(FireOptions{Input: map[string]any{"note": "third"}, AskID: third}), ReasonApprovalRevoked, third)
	r = fire(FireOptions{Input: map[string]any{"note": "fourth"}})
	fourth := r.AskID
	s.Asks().Approve(fourth, "alice")
	advance(2 * time.Minute)
	expect(fire(FireOptions{Input: map[string]any{"note": "fourth"}, AskID: fourth}), ReasonApprovalStale, fourth)
	if a, _ := s.Asks().Get(fourth); !a.Stale {
		t.Fatalf("%+v", a)
	}
	// Capability before authority: switched off means no ask.
	before := len(s.Asks().All())
	s.UpdateState(map[string]any{"paymentReady": false}, "")
	expect(fire(FireOptions{Input: map[string]any{"note": "fifth"}}), ReasonToolDisabled, "")
	if len(s.Asks().All()) != before {
		t.Fatal("a switched-off control minted an ask")
	}
}

func TestApprovalMismatchOnAction(t *testing.T) {
	g := MustNewGraph("g", GraphDef{Pages: []Page{{ID: "p", Containers: []Container{{Name: "rows", Repeats: true, Actions: []Action{
		{Name: "a", Does: "A", Confirm: true}, {Name: "b", Does: "B", Confirm: true}}}}}}})
	s := g.MustNewSession(Options{RequireHumanApproval: true})
	s.RegisterActions("p", Registration{Instance: "r1", Handlers: map[string]Handler{"rows.a": ok, "rows.b": ok}})
	s.RegisterActions("p", Registration{Instance: "r2", Handlers: map[string]Handler{"rows.a": ok, "rows.b": ok}})
	r := s.Fire(context.Background(), "p.rows.a", FireOptions{Instance: "r1"})
	s.Asks().Approve(r.AskID, "alice")
	cases := []struct {
		action, instance string
		input            any
		differs          string
	}{
		{"p.rows.b", "r1", nil, "action"},
		{"p.rows.a", "r2", nil, "instance"},
		{"p.rows.a", "r1", map[string]any{"x": 1}, "input"},
		{"p.rows.a", "r2", map[string]any{"x": 1}, "both"},
	}
	for _, c := range cases {
		got := s.Fire(context.Background(), c.action, FireOptions{Instance: c.instance, Input: c.input, AskID: r.AskID})
		if got.Reason != ReasonApprovalMismatch || got.Differs != c.differs {
			t.Fatalf("%+v: got %s/%s", c, got.Reason, got.Differs)
		}
	}
	if got := s.Fire(context.Background(), "p.rows.a", FireOptions{Instance: "r1", AskID: r.AskID}); !got.OK {
		t.Fatalf("%+v", got)
	}
}
