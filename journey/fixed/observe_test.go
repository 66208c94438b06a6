package fixed

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/journey"
)

type observedKey struct{}

// The observer sees every answer as the model gets it, with the call's
// context, and its own copy: what it does to the copy changes nothing
// the model reads, and its panic is a recorded defect, not a lost answer.
func TestObserveSeesEveryAnswer(t *testing.T) {
	type seen struct {
		ctx  string
		tool string
		args map[string]any
		json []byte
	}
	var got []seen
	panicking := false
	app := newPortShop(t, journey.Options{}, "x")
	p := Serve(app.s, Options{Observe: func(ctx context.Context, tool string, args map[string]any, r CallResult) {
		got = append(got, seen{ctx.Value(observedKey{}).(string), tool, args, r.JSON()})
		r.Set("ok", "tampered")
		if args != nil {
			args["action"] = "tampered"
		}
		if panicking {
			panic("observer broke")
		}
	}})
	ctx := context.WithValue(context.Background(), observedKey{}, "caller-1")
	var answers [][]byte
	action := map[string]any{"action": "no-such-action"}
	for _, call := range []struct {
		tool string
		args map[string]any
	}{{"shop.whats_here", nil}, {"shop.do_action", action}, {"shop.nope", nil}} {
		answers = append(answers, p.Call(ctx, call.tool, call.args).JSON())
	}
	if action["action"] != "no-such-action" || got[1].args["action"] != "tampered" {
		t.Fatalf("the observer must get its own copy of the arguments: caller's %v, observer's %v", action, got[1].args)
	}
	if len(got) != 3 || got[0].tool != "shop.whats_here" || got[1].tool != "shop.do_action" || got[2].tool != "shop.nope" {
		t.Fatalf("observed: %+v", got)
	}
	for i, g := range got {
		if g.ctx != "caller-1" || !bytes.Equal(g.json, answers[i]) || bytes.Contains(answers[i], []byte("tampered")) {
			t.Fatalf("answer %d: observed %s (ctx %q), model got %s", i, g.json, g.ctx, answers[i])
		}
	}
	if !strings.Contains(string(answers[1]), `"ok":false`) {
		t.Fatalf("an unknown action must be refused: %s", answers[1])
	}
	panicking = true
	if r := p.Call(ctx, "shop.whats_here", nil); !r.OK() {
		t.Fatalf("a panicking observer must not cost the answer: %s", r.JSON())
	}
	if d := app.s.Defects(); len(d) != 1 || !strings.Contains(d[0].Where, "port observer shop.whats_here") {
		t.Fatalf("defects: %+v", d)
	}
}
