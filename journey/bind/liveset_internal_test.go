package bind

import "testing"

// The live set, alone: each step's count, whether a waiter was woken, and
// what close hands back.
func TestLiveSetSteps(t *testing.T) {
	a, b := &Journey{}, &Journey{}
	l := newLiveSet()
	steps := []struct {
		name  string
		do    func() bool
		count int
		woken bool
	}{
		{"join a", func() bool { return l.join(a) }, 1, true},
		{"join b", func() bool { return l.join(b) }, 2, true},
		{"leave a", func() bool { l.leave(a); return true }, 1, true},
		{"leave a again", func() bool { l.leave(a); return true }, 1, false},
		{"close", func() bool { js, ok := l.close(); return ok && len(js) == 1 && js[0] == b }, 1, false},
		{"close again", func() bool { js, ok := l.close(); return !ok && js == nil }, 1, false},
		{"join after close", func() bool { return !l.join(a) }, 1, false},
	}
	for _, s := range steps {
		_, ch := l.count()
		if !s.do() {
			t.Fatalf("%s: did not answer as it should", s.name)
		}
		n, _ := l.count()
		woken := false
		select {
		case <-ch:
			woken = true
		default:
		}
		if n != s.count || woken != s.woken {
			t.Fatalf("%s: count %d, woken %v; want %d, %v", s.name, n, woken, s.count, s.woken)
		}
	}
	if !l.isClosed() {
		t.Fatal("the set is not closed after close")
	}
}
