package fixed

import (
	"bytes"
	"context"
	"testing"

	"github.com/foldagent/foldagent/journey"
)

// A whats_here answer that never reached the model is not its last look:
// a change the person made before it is still flagged on the next answer
// (staleReads), as if the lost answer had never been asked.
func TestALostLookIsNotTheModelsLastLook(t *testing.T) {
	ctx := context.Background()
	answer := func(lose bool) CallResult {
		s := storeApp(t, "x", journey.Options{Page: "checkout"})
		p := Serve(s, Options{})
		p.Call(ctx, "store.whats_here", nil)
		s.ReportState(map[string]any{"address": "elsewhere"}, journey.ReportOptions{Principal: journey.ActorUser})
		if lose {
			p.Undelivered(p.Call(ctx, "store.whats_here", nil))
		}
		return p.Call(ctx, "store.whats_here", nil)
	}
	want := `"staleReads":["address"]`
	if delivered := answer(false); !bytes.Contains(delivered.JSON(), []byte(want)) {
		t.Fatalf("the person's change is not flagged at all: %s", delivered.JSON())
	}
	if got := answer(true); !bytes.Contains(got.JSON(), []byte(want)) {
		t.Fatalf("after a lost answer, the person's change is no longer flagged:\n%s", got.JSON())
	}
}

// whats_here {sinceVersion} naming the version of an answer that showed
// no rows (a refused do_action) is compared with the rows the model was
// last served, not with rows it never saw: the person opened the review
// over the page after the model's look, and the delta says so instead of
// "unchanged".
func TestSinceAnAnswerWithoutRowsComparesWithTheRowsServed(t *testing.T) {
	ctx := context.Background()
	s := storeApp(t, "x", journey.Options{Page: "checkout"})
	p := Serve(s, Options{})
	first := p.Call(ctx, "store.whats_here", nil)
	if !bytes.Contains(first.JSON(), []byte(`{"action":"checkout.review.close-review","does":"Close the order review","activation":"hidden"}`)) {
		t.Fatalf("the review is not hidden at first: %s", first.JSON())
	}
	s.Show("checkout.review") // the person opens the review
	refused := p.Call(ctx, "store.do_action", map[string]any{"action": "enter-card"})
	v, ok := refused.Get("version")
	if refused.Reason() != journey.ReasonNotAllowed || !ok {
		t.Fatalf("%s", refused.JSON())
	}
	delta := p.Call(ctx, "store.whats_here", map[string]any{"sinceVersion": v})
	full := p.Call(ctx, "store.whats_here", nil)
	if delta.Judgment() != full.Judgment() || delta.Judgment() != "one-ready-step" {
		t.Fatalf("the delta judges %q, the full answer %q:\n%s", delta.Judgment(), full.Judgment(), delta.JSON())
	}
	if !bytes.Contains(delta.JSON(), []byte(`"activation":"shown"`)) || !bytes.Contains(delta.JSON(), []byte(`"overlay":"checkout.review"`)) {
		t.Fatalf("the delta leaves out the review the person opened:\n%s", delta.JSON())
	}
}

// An answer looked twice (its call, then Fold's re-read at a later
// version) and lost is taken back to the look before its call; a look a
// later answer took stands.
func TestUnsawGoesBackToTheLookBeforeTheAnswer(t *testing.T) {
	at := func(v int64) CallResult {
		return resultOf(struct {
			Version int64 `json:"version"`
		}{v})
	}
	b := newLookBook()
	first := at(2)
	b.saw(&first)
	lost := at(5)
	b.saw(&lost)
	lost.set("version", int64(7)) // Fold reads the position again
	b.saw(&lost)
	b.unsaw(lost)
	if b.last() != 2 {
		t.Fatalf("after a lost answer the last look is %d, want 2", b.last())
	}
	lost = at(9)
	b.saw(&lost)
	later := at(11)
	b.saw(&later)
	b.unsaw(lost)
	if b.last() != 11 {
		t.Fatalf("a later answer's look was taken back: %d, want 11", b.last())
	}
}

// A port two models share (Share) cannot tell whose look it kept: after
// the person opened the review and the other model looked, this model's
// whats_here {sinceVersion} is not answered "unchanged" from the other
// model's look; the rows are served whole.
func TestASharedPortServesTheRowsWhole(t *testing.T) {
	ctx := context.Background()
	s := storeApp(t, "x", journey.Options{Page: "checkout"})
	p := Serve(s, Options{})
	p.Call(ctx, "store.whats_here", nil)                                              // model A
	s.Show("checkout.review")                                                         // the person opens the review
	p.Share()                                                                         // model B arrives
	p.Call(ctx, "store.whats_here", nil)                                              // model B's look
	refused := p.Call(ctx, "store.do_action", map[string]any{"action": "enter-card"}) // model A
	v, _ := refused.Get("version")
	delta := p.Call(ctx, "store.whats_here", map[string]any{"sinceVersion": v}) // model A
	if delta.Judgment() != "one-ready-step" || delta.Has("actionsUnchanged") || !bytes.Contains(delta.JSON(), []byte(`"overlay":"checkout.review"`)) {
		t.Fatalf("model A is answered from model B's look:\n%s", delta.JSON())
	}
}
