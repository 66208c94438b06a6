package teahost

import (
	"reflect"
	"sync"
	"testing"
	"time"
)

type cnode struct {
	Name string
	Next *cnode
}

type inner struct{ tags []string }

type deepModel struct {
	items  []*cnode
	byName map[string]*cnode
	any    any
	inner  inner
	arr    [2][]int
	fn     func() int
	timer  *time.Timer
	mu     *sync.Mutex
	plain  struct{ A, B int }
	store  *lockedStore
}

// lockedStore is state a Cmd writes under its own lock.
type lockedStore struct {
	mu   sync.Mutex
	data []int
}

func TestCopyModelSharesNothingWritable(t *testing.T) {
	a := &cnode{Name: "a"}
	b := &cnode{Name: "b", Next: a}
	a.Next = b // a cycle
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	m := deepModel{
		items:  []*cnode{a, b},
		byName: map[string]*cnode{"a": a},
		any:    []int{1, 2},
		inner:  inner{tags: []string{"x"}},
		arr:    [2][]int{{1}, {2}},
		fn:     func() int { return 7 },
		timer:  timer,
		mu:     &sync.Mutex{},
		plain:  struct{ A, B int }{1, 2},
		store:  &lockedStore{data: []int{1}},
	}
	c := copyModel(m)
	if p := diffPath(reflect.ValueOf(m), reflect.ValueOf(c)); p != "" {
		t.Fatalf("the copy differs from the model at %s", p)
	}
	// Write through every kind of reference the original holds.
	m.items[0].Name = "A"
	m.items[1] = nil
	m.byName["z"] = nil
	m.any.([]int)[0] = 9
	m.inner.tags[0] = "y"
	m.arr[1][0] = 5
	if c.items[0].Name != "a" || c.items[1] == nil || len(c.byName) != 1 ||
		c.any.([]int)[0] != 1 || c.inner.tags[0] != "x" || c.arr[1][0] != 2 {
		t.Fatalf("a write into the model reached its copy: %+v", c)
	}
	// Aliasing and the cycle survive: the map and the slice name one cnode,
	// and that cnode's Next leads back to it.
	if c.byName["a"] != c.items[0] || c.items[0].Next.Next != c.items[0] || c.items[0] == a {
		t.Fatal("the copy lost the model's aliasing, or shares its nodes")
	}
	// Library state and functions are shared, not duplicated.
	// The store is written under its own lock, by its owner: shared.
	m.store.mu.Lock()
	m.store.data[0] = 2
	m.store.mu.Unlock()
	if c.timer != timer || c.mu != m.mu || c.fn() != 7 || c.store != m.store || c.store.data[0] != 2 {
		t.Fatal("a timer, mutex, locked store or function was not shared with the copy")
	}
}

func TestCopyModelPlainValueIsTheValue(t *testing.T) {
	type flat struct {
		N int
		S string
	}
	if refsOf(reflect.TypeFor[flat]()) {
		t.Fatal("a struct of ints and strings is said to refer to memory")
	}
	if got := copyModel(flat{1, "x"}); got != (flat{1, "x"}) {
		t.Fatalf("copyModel = %+v", got)
	}
}

func TestDiffPathNamesTheField(t *testing.T) {
	m := deepModel{items: []*cnode{{Name: "a"}}, byName: map[string]*cnode{}}
	c := copyModel(m)
	m.items[0].Name = "b"
	if p := diffPath(reflect.ValueOf(m), reflect.ValueOf(c)); p != "(*.items[0]).Name" {
		t.Fatalf("diffPath = %q", p)
	}
}
