package journey

import (
	"context"
	"slices"
	"testing"
)

func TestSourcesPart(t *testing.T) {
	a, b := &containerNode{path: "a"}, &containerNode{path: "b"}
	var r sources
	if r.fresh([]*containerNode{a}, 0) || r.keys(a) != nil {
		t.Fatal("an empty book holds no read")
	}
	r.store([]*containerNode{a, b}, [][]string{{"x"}, nil}, 3)
	for _, tc := range []struct {
		name    string
		cs      []*containerNode
		version int64
		want    bool
	}{
		{"both read for 3", []*containerNode{a, b}, 3, true},
		{"none asked", nil, 9, true},
		{"read for another version", []*containerNode{a}, 4, false},
	} {
		if got := r.fresh(tc.cs, tc.version); got != tc.want {
			t.Errorf("%s: fresh %v, want %v", tc.name, got, tc.want)
		}
	}
	if !slices.Equal(r.keys(a), []string{"x"}) || r.keys(b) != nil {
		t.Fatalf("keys: %v %v", r.keys(a), r.keys(b))
	}
}

// An Instances source is read with the session's lock released: it may
// read the session (not the rows and plans that read it), and a source that moves the state while it is
// read is read again, so a fire judges instances read for the state it
// sees.
func TestInstancesSourceRunsOutsideTheLock(t *testing.T) {
	var s *Session
	reads, moved := 0, false
	g := MustNewGraph("src", GraphDef{Pages: []Page{
		{ID: "p", Containers: []Container{{Name: "rows", Repeats: true, Instances: func(v StateView) []string {
			reads++
			_ = s.View().Version() // would deadlock under the lock
			if !moved {
				moved = true
				s.UpdateState(map[string]any{"n": 2}, "") // the state moves while the source is read
			}
			if n, _ := v.Get("n"); n == 2.0 || n == 2 {
				return []string{"r1", "r2"}
			}
			return []string{"r1"}
		}, Actions: []Action{{Name: "open", Does: "Open a row."}}}}},
	}})
	s = g.MustNewSession(Options{State: map[string]any{"n": 1}})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"rows.open": ok}})
	r := s.Fire(context.Background(), "p.rows.open", FireOptions{Source: ActorUser, Instance: "r2"})
	if !r.OK {
		t.Fatalf("r2 exists once the state moved: %+v", r)
	}
	if reads < 2 {
		t.Fatalf("the source was read %d times: a read for a state that moved is read again", reads)
	}
}
