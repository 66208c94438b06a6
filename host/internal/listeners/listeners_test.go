package listeners

import (
	"slices"
	"testing"
)

func TestRegistryOrderAndUnsubscribe(t *testing.T) {
	var r Registry[func() string]
	var got []string
	collect := func() []string {
		got = nil
		r.Each(func(f func() string) { got = append(got, f()) })
		return got
	}
	offA := r.Add(func() string { return "a" })
	r.Add(func() string { return "b" })
	if !slices.Equal(collect(), []string{"a", "b"}) {
		t.Fatalf("got %v", got)
	}
	offA()
	offA() // idempotent
	if !slices.Equal(collect(), []string{"b"}) {
		t.Fatalf("after unsubscribe: %v", got)
	}
}

// A listener removed during a walk is not called later in that walk, and
// one added during a walk waits for the next.
func TestRegistryChangesDuringAWalk(t *testing.T) {
	var r Registry[func()]
	var calls []string
	var offB func()
	r.Add(func() {
		calls = append(calls, "a")
		offB()
		r.Add(func() { calls = append(calls, "c") })
	})
	offB = r.Add(func() { calls = append(calls, "b") })
	r.Each(func(f func()) { f() })
	if !slices.Equal(calls, []string{"a"}) {
		t.Fatalf("first walk: %v", calls)
	}
	calls = nil
	r.Each(func(f func()) { f() })
	if !slices.Equal(calls, []string{"a", "c"}) { // the c added by this walk waits for the next
		t.Fatalf("second walk: %v", calls)
	}
}
