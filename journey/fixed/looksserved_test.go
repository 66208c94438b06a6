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
