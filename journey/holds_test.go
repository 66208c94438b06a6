package journey_test

import (
	"context"
	"testing"

	"github.com/foldagent/foldagent/journey"
)

// TestHoldsReaderMayCallBack: a holds reader runs once the session's lock
// is released, so it may read the session it describes (here, the value
// it reports is the session's own version, read from inside the reader);
// Available and Here both serve what it read.
func TestHoldsReaderMayCallBack(t *testing.T) {
	g, err := journey.NewGraph("h", journey.GraphDef{Pages: []journey.Page{{ID: "p", Actions: []journey.Action{
		{Name: "type", Does: "Type a draft"},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	s := g.MustNewSession(journey.Options{})
	if _, err := s.RegisterActions("p", journey.Registration{
		Handlers: map[string]journey.Handler{"type": func(context.Context, any) (any, error) { return nil, nil }},
		Holds:    map[string]func() any{"type": func() any { return map[string]any{"version": s.View().Version(), "rows": len(s.View().Transitions())} }},
	}); err != nil {
		t.Fatal(err)
	}
	s.Sync("p")
	want := s.View().Version()
	for name, rows := range map[string][]journey.ServedAction{"Available": s.View().Available(), "Here": s.View().Here().Actions} {
		if len(rows) != 1 {
			t.Fatalf("%s: %d rows", name, len(rows))
		}
		held, ok := rows[0].Holds.(map[string]any)
		if !ok || held["version"] != float64(want) && held["version"] != want {
			t.Fatalf("%s: holds %#v, want version %d", name, rows[0].Holds, want)
		}
	}
}
