package journey

import (
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"
)

// TestAskBookPart exercises the ask book alone: default mode keeps one
// open card per action and instance (a new one supersedes it) and a
// spent card leaves the book; enforced mode answers only through the
// person's door, in the order a card's life allows.
func TestAskBookPart(t *testing.T) {
	g := historyGraph(t)
	an := g.actionIndex["home.save"]
	clock := time.Unix(0, 0)
	book := func(enforced bool, expires time.Duration) (*askBook, *[]string) {
		b := newAskBook(Options{RequireHumanApproval: enforced, ApprovalExpiresAfter: expires})
		o := &observers{now: time.Now, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
		b.now, b.out = func() time.Time { return clock }, o
		var kinds []string
		o.OnAsk(func(e AskEvent) { kinds = append(kinds, e.Kind) })
		return &b, &kinds
	}
	deliver := func(b *askBook) {
		for _, f := range b.out.takeOutbox() {
			f()
		}
	}

	// Default mode.
	b, kinds := book(false, 0)
	first := b.mint(an, "", nil, ActorAgent, 0, Receipts{}, 8)
	second := b.mint(an, "", nil, ActorAgent, 0, Receipts{}, 8)
	b.spend(second.id, "home.save#1")
	deliver(b)
	if !first.superseded || first.inBook || second.inBook || second.answer != "approved" || len(b.list()) != 0 || b.openAsk[askKey{an.idx, ""}] != nil {
		t.Fatalf("default mode: first %+v second %+v", first, second)
	}
	if want := []string{"ask", "superseded", "ask", "used"}; !equalStrings(*kinds, want) {
		t.Fatalf("events %v, want %v", *kinds, want)
	}
	if _, err := b.answer(second.id, "ann", "approved"); !errors.Is(err, &Error{Reason: ReasonNotEnforced}) {
		t.Fatalf("the person's door in default mode: %v", err)
	}

	// Enforced mode: the door, then a card's life in order.
	for _, c := range []struct {
		name   string
		steps  []string // approve, decline, revoke, spend, age
		reason Reason   // refusal of the last step; "" when it passes
		fire   Reason   // standing() after the steps; "" when the yes holds
	}{
		{name: "unanswered", fire: ReasonApprovalRequired},
		{name: "approved", steps: []string{"approve"}},
		{name: "declined", steps: []string{"decline"}, fire: ReasonApprovalDeclined},
		{name: "approved twice", steps: []string{"approve", "approve"}, reason: ReasonAskAlreadyAnswered},
		{name: "revoked", steps: []string{"approve", "revoke"}, fire: ReasonApprovalRevoked},
		{name: "revoke unanswered", steps: []string{"revoke"}, reason: ReasonRevokeUnanswered, fire: ReasonApprovalRequired},
		{name: "spent", steps: []string{"approve", "spend"}, fire: ReasonApprovalSpent},
		{name: "spent, revoked", steps: []string{"approve", "spend", "revoke"}, reason: ReasonAskAlreadySpent, fire: ReasonApprovalSpent},
		{name: "a yes gone stale", steps: []string{"approve", "age"}, fire: ReasonApprovalStale},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, _ := book(true, time.Minute)
			clock = time.Unix(0, 0)
			a := b.mint(an, "i", map[string]any{"q": 1}, ActorAgent, 0, Receipts{}, 8)
			var err error
			for _, st := range c.steps {
				switch st {
				case "approve":
					_, err = b.answer(a.id, "ann", "approved")
				case "decline":
					_, err = b.answer(a.id, "ann", "declined")
				case "revoke":
					_, err = b.revoke(a.id, "ann")
				case "spend":
					b.spend(a.id, "home.save#1")
				case "age":
					clock = clock.Add(2 * time.Minute)
				}
			}
			if (c.reason == "") != (err == nil) || (err != nil && !errors.Is(err, &Error{Reason: c.reason})) {
				t.Fatalf("last step: %v, want %q", err, c.reason)
			}
			got := Reason("")
			if r := b.standing(a); r != nil {
				got = r.Reason
			}
			if got != c.fire {
				t.Fatalf("standing %q, want %q", got, c.fire)
			}
			if c.fire == "" && b.find(an, "i", map[string]any{"q": 1.0}) != a {
				t.Fatal("a standing yes is found for the same action, instance and input")
			}
			if b.find(an, "i", map[string]any{"q": 2.0}) != nil {
				t.Fatal("a different input finds no card")
			}
		})
	}
	b, _ = book(true, 0)
	if _, err := b.answer("ask#9", "ann", "approved"); !errors.Is(err, &Error{Reason: ReasonUnknownAsk}) {
		t.Fatalf("unknown card: %v", err)
	}
	if _, err := b.answer("ask#9", "", "approved"); !errors.Is(err, &Error{Reason: ReasonNeedsDecider}) {
		t.Fatalf("no decider: %v", err)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
