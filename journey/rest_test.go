package journey

import (
	"context"
	"testing"
)

// A state report can settle a fire while its handler still runs; the fire
// is at rest only once the handler returned, so a waiter reads what it
// produced (a fold once answered without the handler's data).
func TestAFireIsAtRestOnlyOnceItsHandlerReturned(t *testing.T) {
	g := MustNewGraph("store", GraphDef{Pages: []Page{{ID: "home", Actions: []Action{
		{Name: "quick", Does: "Do the quick thing", Writes: []string{"q"}},
	}}}})
	s := g.MustNewSession(Options{State: map[string]any{}})
	reported, release := make(chan struct{}), make(chan struct{})
	if _, err := s.RegisterActions("home", Registration{Handlers: map[string]Handler{
		"quick": func(ctx context.Context, _ any) (any, error) {
			id, _ := TransitionIDFrom(ctx)
			s.UpdateState(map[string]any{"q": 1}, id)
			close(reported)
			<-release
			return map[string]any{"receipt": "r-q"}, nil
		},
	}}); err != nil {
		t.Fatal(err)
	}
	res := s.Fire(context.Background(), "home.quick", FireOptions{})
	if !res.OK || res.TransitionID == "" {
		t.Fatalf("fire = %+v", res)
	}
	<-reported
	done, err := s.Settled(res.TransitionID)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
		t.Fatal("at rest while the handler still runs")
	default:
	}
	close(release)
	st, err := s.SettlementOf(context.Background(), res.TransitionID)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := st.Produced.(map[string]any); d["receipt"] != "r-q" {
		t.Fatalf("settlement = %+v; want the handler's data", st)
	}
}
