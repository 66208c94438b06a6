package teahost

import "testing"

type node struct {
	Name string
	Next *node
	Tags map[string][]int
	any  any
}

func TestFingerprint(t *testing.T) {
	a := map[string][]int{}
	b := map[string][]int{}
	for i, k := range []string{"x", "y", "z", "w"} {
		a[k] = []int{i}
	}
	for i, k := range []string{"w", "z", "y", "x"} {
		b[k] = []int{3 - i}
	}
	if fingerprint(a) != fingerprint(b) {
		t.Fatal("equal maps built in different orders fingerprint differently")
	}
	n := &node{Name: "n", Tags: a, any: 3}
	n.Next = n // a cycle must terminate
	before := fingerprint(n)
	if fingerprint(n) != before {
		t.Fatal("fingerprint is not stable")
	}
	a["x"][0] = 99 // deep change through pointer, map and slice
	if fingerprint(n) == before {
		t.Fatal("a change deep inside the value did not change the fingerprint")
	}
	before = fingerprint(n)
	n.any = "3" // unexported interface field, different dynamic type
	if fingerprint(n) == before {
		t.Fatal("a change of an unexported interface field did not change the fingerprint")
	}
	if fingerprint([]string{"ab", "c"}) == fingerprint([]string{"a", "bc"}) {
		t.Fatal("string boundaries are not part of the fingerprint")
	}
}
