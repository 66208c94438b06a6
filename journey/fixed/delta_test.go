package fixed

import (
	"context"
	"testing"

	"github.com/foldagent/foldagent/journey"
)

// TestWhatsHereDeltaNeverLarger: a whats_here with sinceVersion is never
// more bytes than the full answer it replaces, asked at the same moment.
// On a small page the delta's own words (the echo of sinceVersion, the
// unchanged actions named, the unchanged sentence) once cost more than
// the rows they left out (1,137 bytes against 1,130). The state key
// changed here is one no row reads or writes, so both answers carry the
// same rows' stale flags (none).
func TestWhatsHereDeltaNeverLarger(t *testing.T) {
	g := journey.MustNewGraph("tiny", journey.GraphDef{Pages: []journey.Page{{ID: "home", Actions: []journey.Action{
		{Name: "a", Does: "A."},
		{Name: "b", Does: "B."},
		{Name: "c", Does: "C."},
	}}}})
	s := g.MustNewSession(journey.Options{State: map[string]any{"n": 0}})
	p := Serve(s, Options{})
	ctx := context.Background()
	full := func() []byte { return p.Call(ctx, "tiny.whats_here", nil).JSON() }
	delta := func(v any) []byte {
		return p.Call(ctx, "tiny.whats_here", map[string]any{"sinceVersion": v}).JSON()
	}
	check := func(what string, v any) {
		t.Helper()
		d, f := delta(v), full()
		if len(d) > len(f) {
			t.Errorf("%s: the delta is %d bytes, the full answer %d\ndelta: %s\nfull:  %s", what, len(d), len(f), d, f)
		}
	}
	// A conversation under way: the rows' does and the sentence saying
	// what their absence means were given once (once.go), so neither
	// answer compared pays for them.
	callTest(t, p, "tiny.whats_here", nil)
	v := callTest(t, p, "tiny.whats_here", nil)["version"]
	check("nothing changed", v)
	p.Call(ctx, "tiny.do_action", map[string]any{"action": "a"})
	check("after a fire", v)
	s.UpdateState(map[string]any{"n": 1}, "")
	check("after a report", v)
	now := callTest(t, p, "tiny.whats_here", nil)["version"]
	check("since now", now)
	check("since zero", 0)
}

// TestWhatsHereDeltaServedWhenSmaller: on the 57-journey fixture the
// delta is the smaller answer, and it is the one served.
func TestWhatsHereDeltaServedWhenSmaller(t *testing.T) {
	p := Serve(fixture57Session(t, fixture57Journeys), Options{})
	ctx := context.Background()
	v := callTest(t, p, "bigapp.whats_here", nil)["version"]
	p.Call(ctx, "bigapp.do_action", map[string]any{"action": "step-a-0"})
	d := p.Call(ctx, "bigapp.whats_here", map[string]any{"sinceVersion": v})
	f := p.Call(ctx, "bigapp.whats_here", nil)
	if !d.Has("sinceVersion") || len(d.JSON()) >= len(f.JSON()) {
		t.Fatalf("delta %d bytes (echo %v), full %d", len(d.JSON()), d.Has("sinceVersion"), len(f.JSON()))
	}
}
