package journey

import (
	"testing"
)

// TestVerifyFuncMayCallBack: a VerifyFunc runs once the session's lock is
// released, on a copy of the state as the fire came to rest, so it may
// read the session (here it reads the session's own state and version);
// its verdict is applied to the settlement, and a state change made after
// the fire came to rest does not reach the copy it read.
func TestVerifyFuncMayCallBack(t *testing.T) {
	var s *Session
	seen := -1
	g := MustNewGraph("g", GraphDef{Pages: []Page{{ID: "p", Actions: []Action{
		{Name: "a", Does: "A", Writes: []string{"k"}, VerifyFunc: func(v StateView) bool {
			_ = s.View().Version() // a call back into the session
			n, _ := v.Get("k")
			f, _ := n.(float64) // the state view holds JSON numbers
			seen = int(f)
			return s.View().State()["k"] != nil && seen == 2
		}},
	}}}})
	s = g.MustNewSession(Options{State: map[string]any{}})
	s.RegisterActions("p", Registration{Handlers: map[string]Handler{"a": ok}})
	for _, c := range []struct {
		k    int
		want VerifyVerdict
	}{{1, VerifyNotHeld}, {2, VerifyHeld}} {
		r := mustFire(t, s, "p.a", FireOptions{})
		s.UpdateState(map[string]any{"k": c.k}, r.TransitionID)
		st := settle(t, s, r.TransitionID)
		if st.VerifyHeld != c.want || seen != c.k {
			t.Fatalf("k=%d: verify read %d, verdict %q, want %q (%+v)", c.k, seen, st.VerifyHeld, c.want, st)
		}
	}
}
