package fixed

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/journey"
)

// A port serves one conversation: a sentence that explains a field is
// said by the first answer that needs it, not again; the facts header is
// said in full once, then in its short form. Repeat says them
// every time.
func TestPortSaysEachSentenceOnce(t *testing.T) {
	for _, repeat := range []bool{false, true} {
		app := newPortShop(t, journey.Options{}, "x")
		p := Serve(app.s, Options{Repeat: repeat})
		first := callTest(t, p, "shop.whats_here", nil)
		second := callTest(t, p, "shop.whats_here", nil)
		if first["journeysElsewhereMeans"] != elsewhereMeans {
			t.Fatalf("repeat %v: the first answer explains journeysElsewhere: %v", repeat, first)
		}
		if _, again := second["journeysElsewhereMeans"]; again != repeat || second["journeysElsewhere"] != first["journeysElsewhere"] {
			t.Fatalf("repeat %v: the second answer says journeysElsewhereMeans: %v, want %v: %v", repeat, again, repeat, second)
		}
		f1, _ := first["facts"].(string)
		f2, _ := second["facts"].(string)
		head1, rest1, _ := strings.Cut(f1, "\n")
		head2, rest2, _ := strings.Cut(f2, "\n")
		if !strings.HasPrefix(head1, factsLead) || head1 == factsShort || rest1 != rest2 {
			t.Fatalf("repeat %v: facts %q then %q", repeat, f1, f2)
		}
		if short := head2 == factsShort; short == repeat || (repeat && head2 != head1) {
			t.Fatalf("repeat %v: the second facts header is %q", repeat, head2)
		}
		// The brief, word for word the last one, is not given again.
		if _, again := second["brief"]; first["brief"] == nil || again != repeat || (second["briefUnchanged"] == true) == repeat {
			t.Fatalf("repeat %v: the second brief %v (unchanged %v)", repeat, second["brief"], second["briefUnchanged"])
		}
		// A journey's ready steps say how to fire one the first time.
		j1 := callTest(t, p, "shop.journey.purchase", nil)
		j2 := callTest(t, p, "shop.journey.purchase", nil)
		if _, again := j2["howToAct"]; j1["howToAct"] != readyHow || again != repeat {
			t.Fatalf("repeat %v: howToAct %v, then %v", repeat, j1["howToAct"], j2["howToAct"])
		}
		// A ready step's input schema is given once; then as-before.
		e1, e2 := rowsOf(j1["readySteps"])[0]["expects"], rowsOf(j2["readySteps"])[0]["expects"]
		if _, schema := e1.(map[string]any); !schema || (repeat && mustJSONText(e2) != mustJSONText(e1)) ||
			(!repeat && (e2 != "as-before" || j2["expectsAsBeforeMeans"] != asBeforeMeans)) {
			t.Fatalf("repeat %v: expects %v, then %v", repeat, e1, e2)
		}
		// The later steps still waiting as the last answer said are
		// counted, not listed again.
		n1, n2 := len(rowsOf(j1["laterSteps"])), len(rowsOf(j2["laterSteps"]))
		if unchanged, _ := j2["laterStepsUnchanged"].(float64); n1 == 0 || (repeat && (n2 != n1 || unchanged != 0)) ||
			(!repeat && (n2 != 0 || int(unchanged) != n1 || j2["laterStepsUnchangedMeans"] != laterUnchangedMeans)) {
			t.Fatalf("repeat %v: laterSteps %d rows, then %d and %v unchanged", repeat, n1, n2, j2["laterStepsUnchanged"])
		}
	}
}

// Whats_here since a version is never larger than the full answer it
// stands in for, on a small page where rows are few: the delta is a
// saving, not a second copy.
func TestSinceVersionIsNeverLargerThanTheFullAnswer(t *testing.T) {
	app := newPortShop(t, journey.Options{}, "x")
	full := Serve(app.s, Options{Repeat: true})
	delta := Serve(app.s, Options{Repeat: true})
	look := func(p *Port, args map[string]any) (map[string]any, int) {
		b := p.Call(t.Context(), "shop.whats_here", args).JSON()
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m, len(b)
	}
	base, _ := look(delta, nil)
	look(full, nil)
	// Each fire is brought to rest before the looks, so both see one
	// version.
	fired := func(args map[string]any) {
		r := callTest(t, delta, "shop.do_action", args)
		id, _ := r["transitionId"].(string)
		if id == "" {
			t.Fatalf("%v: %v", args, r)
		}
		settleTest(t, delta, id)
	}
	steps := []func(){
		func() {}, // nothing moved
		func() { fired(map[string]any{"action": "login"}) },
		func() { app.s.UpdateState(map[string]any{"vip": true}, "") },
		func() { fired(map[string]any{"action": "open-product", "input": map[string]any{"sku": "a"}}) },
	}
	for i, step := range steps {
		step()
		since, n := look(delta, map[string]any{"sinceVersion": base["version"]})
		whole, m := look(full, nil)
		if since["version"] != whole["version"] {
			t.Fatalf("step %d: the two looks saw versions %v and %v", i, since["version"], whole["version"])
		}
		t.Logf("step %d: since %d B, full %d B", i, n, m)
		if n > m {
			t.Errorf("step %d: since %v is %d bytes, the full answer %d:\n%s\n%s", i, base["version"], n, m, mustJSONText(since), mustJSONText(whole))
		}
	}
}

// laterAnswer is a journey answer with only its later rows, for laterDelta.
type laterAnswer struct {
	Journey    string     `json:"journey"`
	LaterSteps []laterRow `json:"laterSteps"`
}

// A later row is left out only when the answer the model was last given
// had it so: a re-read before delivery (Fold) compares with that answer,
// not with the one it replaces, which the model never saw.
func TestLaterRowsUnchangedAreThoseTheModelWasGiven(t *testing.T) {
	app := newPortShop(t, journey.Options{}, "x")
	p := Serve(app.s, Options{})
	answer := func(fold bool, rows ...laterRow) (listed []string, unchanged any) {
		r := resultOf(laterAnswer{Journey: "purchase", LaterSteps: rows})
		p.told.laterDelta(&r, fold)
		v, _ := r.Get("laterSteps")
		for _, row := range v.([]CallResult) {
			listed = append(listed, row.String("step")+" "+row.String("status"))
		}
		unchanged, _ = r.Get("laterStepsUnchanged")
		return listed, unchanged
	}
	a := laterRow{Step: "a", Status: journey.StepOffNode}
	b1, b2 := laterRow{Step: "b", Status: journey.StepOffNode}, laterRow{Step: "b", Status: journey.StepReady}
	c := laterRow{Step: "c", Status: journey.StepReady}
	if listed, n := answer(false, a, b1); len(listed) != 2 || n != nil {
		t.Fatalf("the first answer lists every row: %v, %v unchanged", listed, n)
	}
	if listed, n := answer(false, a, b2, c); mustJSONText(listed) != `["b ready","c ready"]` || n != 1 {
		t.Fatalf("the second: %v, %v unchanged", listed, n)
	}
	// Folded before delivery: the same rows, compared with the first
	// answer, are listed again.
	if listed, n := answer(true, a, b2, c); mustJSONText(listed) != `["b ready","c ready"]` || n != 1 {
		t.Fatalf("the fold: %v, %v unchanged", listed, n)
	}
	// The next answer compares with the folded one.
	if listed, n := answer(false, a, b2, c); len(listed) != 0 || n != 3 {
		t.Fatalf("the third: %v, %v unchanged", listed, n)
	}
}
