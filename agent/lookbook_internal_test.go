package agent

import "testing"

// A result written through an entry the book has since forgotten is not
// lost: the caller's look is recorded again.
func TestPutAtAForgottenEntryRecordsTheLookAgain(t *testing.T) {
	b := newLookBook[int](2)
	b.put("A", look[int]{version: 1})
	_, eA, ok := b.get("A")
	if !ok || eA == nil {
		t.Fatal("A's look not found")
	}
	b.put("B", look[int]{version: 2})
	b.put("C", look[int]{version: 3}) // the book is full: A, least recent, goes
	if _, _, ok := b.get("A"); ok {
		t.Fatal("A was not forgotten")
	}
	b.putAt("A", eA, look[int]{version: 4})
	if l, _, ok := b.get("A"); !ok || l.version != 4 {
		t.Fatalf("A's look after putAt: %+v, %v", l, ok)
	}
	// Through a live entry, an older version does not replace a newer one.
	_, eA, _ = b.get("A")
	b.putAt("A", eA, look[int]{version: 3})
	if l, _, _ := b.get("A"); l.version != 4 {
		t.Fatalf("an older look replaced a newer one: %+v", l)
	}
}
