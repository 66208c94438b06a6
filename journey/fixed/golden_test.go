package fixed

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/foldagent/foldagent/journey"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/answers.golden from the answers served now")

// goldenAnswers is every answer of the scripted conversations the port
// tests drive (both journey tool modes, the store with and without
// required approval, the 57-journey fixture's whats_here), one per line.
func goldenAnswers(t *testing.T) []byte {
	t.Helper()
	var out bytes.Buffer
	line := func(b []byte) {
		out.Write(b)
		out.WriteByte('\n')
	}
	for _, mode := range []JourneyTools{PerJourney, Single} {
		tools, results := conversation(t, "hostile <&> \u2028", mode)
		line(tools)
		for _, r := range results {
			line(r)
		}
	}
	for _, opts := range []journey.Options{{}, {RequireHumanApproval: true}} {
		_, results := storeConversation(t, "hostile", opts)
		for _, r := range results {
			line(r.JSON())
		}
	}
	for _, b := range extraAnswers(t) {
		line(b)
	}
	p := Serve(fixture57Session(t, fixture57Journeys), Options{})
	line(p.ToolsJSON())
	first := p.Call(context.Background(), "bigapp.whats_here", nil)
	line(first.JSON())
	line(p.Call(context.Background(), "bigapp.whats_here", map[string]any{"sinceVersion": first.String("version")}).JSON())
	line(p.Call(context.Background(), "bigapp.whats_here", map[string]any{"routeTo": "page-3"}).JSON())
	return out.Bytes()
}

// TestAnswersGolden holds the wire still: the answers of the scripted
// conversations are compared byte for byte with those recorded before the
// answers became typed structs (go test -run TestAnswersGolden
// -update-golden rewrites the record, for a change meant to move it).
func TestAnswersGolden(t *testing.T) {
	got := goldenAnswers(t)
	path := filepath.Join("testdata", "answers.golden")
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range min(len(gl), len(wl)) {
		if !bytes.Equal(gl[i], wl[i]) {
			t.Fatalf("answer %d moved:\n got %s\nwant %s", i, gl[i], wl[i])
		}
	}
	if len(gl) != len(wl) {
		t.Fatalf("%d answers, recorded %d", len(gl), len(wl))
	}
}

// extraAnswers are the arms the conversations above do not reach: an
// unknown tool, a gated decline relayed, a journey kept while another's precondition fails, a new round,
// a delta with rows gone.
func extraAnswers(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	ctx := context.Background()
	app := newPortShop(t, journey.Options{}, "x")
	app.stepwise.Store(true)
	p := Serve(app.s, Options{})
	// Each fire's handler runs only once its answer is taken, and the
	// next call waits for it to come to rest: the answers are the same on
	// every run.
	call := func(name string, args map[string]any, before ...func(CallResult)) CallResult {
		r := p.Call(ctx, name, args)
		out = append(out, r.JSON())
		if id := r.TransitionID(); id != "" {
			for _, f := range before {
				f(r)
			}
			app.gate <- struct{}{}
			settleTest(t, p, id)
		}
		return r
	}
	call("shop.nope", nil)
	first := call("shop.whats_here", nil)
	v, _ := first.Get("version")
	call("shop.journey.purchase", nil)
	call("shop.journey.vip", nil)
	call("shop.journey.purchase", map[string]any{"step": "open-product", "input": map[string]any{"sku": "a"}})
	call("shop.whats_here", map[string]any{"sinceVersion": v})
	call("shop.whats_here", map[string]any{"sinceVersion": 0, "routeTo": "checkout"})
	call("shop.whats_here", map[string]any{"routeTo": "product"})
	r := call("shop.do_action", map[string]any{"action": "add-to-cart", "input": map[string]any{"sku": "a"}})
	call("shop.did_it_work", map[string]any{"transitionId": r.TransitionID()})
	r = call("shop.do_action", map[string]any{"action": "back"})
	call("shop.did_it_work", map[string]any{"transitionId": r.TransitionID()})
	call("shop.journey.tidy", nil)
	call("shop.journey.tidy", nil)

	gated := newPortShop(t, journey.Options{RequireHumanApproval: true}, "y")
	gated.stepwise.Store(true)
	gp := Serve(gated.s, Options{})
	gcall := func(name string, args map[string]any) CallResult {
		r := gp.Call(ctx, name, args)
		out = append(out, r.JSON())
		if id := r.TransitionID(); id != "" {
			gated.gate <- struct{}{}
			settleTest(t, gp, id)
		}
		return r
	}
	gcall("shop.do_action", map[string]any{"action": "login"})
	gated.s.UpdateState(map[string]any{"cartCount": 1, "cardOK": true}, "")
	gated.s.Sync("checkout")
	ask := gcall("shop.do_action", map[string]any{"action": "place-order"})
	gcall("shop.do_action", map[string]any{"action": "place-order", "decline": true})
	gcall("shop.did_it_work", map[string]any{"transitionId": ask.String("askId")})
	gcall("shop.did_it_work", map[string]any{})
	gcall("shop.why", map[string]any{})
	return out
}
