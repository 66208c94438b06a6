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
