//go:build calltrace

package fixed

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/foldagent/foldagent/internal/calltrace"
	"github.com/foldagent/foldagent/journey"
)

// TestTraceDoAction records the functions of this module one do_action
// call enters, from the port's entry (CallJSON, what journeymcp calls
// for a tools/call) to the answer's bytes (JSON), and writes them to
// $CALLTRACE_OUT. It is built only with the calltrace tag, and records
// something only in the instrumented copy scripts/trace-do-action runs it
// in. The call is the plain case: a served action that fires and is
// recorded, its handler held back so the answer is the same on every run.
func TestTraceDoAction(t *testing.T) {
	out := os.Getenv("CALLTRACE_OUT")
	if out == "" {
		t.Skip("run through scripts/trace-do-action, which sets CALLTRACE_OUT")
	}
	app := newPortShop(t, journey.Options{}, "hostile")
	app.stepwise.Store(true)
	defer close(app.gate)
	p := Serve(app.s, Options{})
	ctx := context.Background()
	p.Call(ctx, "shop.whats_here", nil) // the model looked before it acted
	args := json.RawMessage(`{"action":"search","input":{"q":"tea"}}`)

	calltrace.Start()
	r := p.CallJSON(ctx, "shop.do_action", args)
	answer := r.JSON()
	entries := calltrace.Stop()

	if !r.OK() || r.String("did") != "catalog.search" {
		t.Fatalf("the call did not fire: %s", answer)
	}
	if len(entries) == 0 {
		t.Fatal("nothing recorded: the module was not instrumented")
	}
	b, err := json.Marshal(map[string]any{"answer": json.RawMessage(answer), "entries": entries})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
