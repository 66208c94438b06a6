package bind

import "testing"

// The queue of Model changes, alone: the first to queue applies, the
// others only queue; changes come out in order; a view of a Model version
// already taken is dropped (and counted as applied); done moves folded.
func TestChangesQueue(t *testing.T) {
	q := newChanges()
	n1, drain1 := q.push(change{v: view{model: 3}})
	n2, drain2 := q.push(change{v: view{model: 2}}) // older than 3: dropped
	n3, drain3 := q.push(change{v: view{model: 5}})
	if !drain1 || drain2 || drain3 || n1 != 1 || n2 != 2 || n3 != 3 {
		t.Fatalf("push: %d %v, %d %v, %d %v", n1, drain1, n2, drain2, n3, drain3)
	}
	if ok, _ := q.settled(); ok {
		t.Fatal("settled with three changes queued")
	}
	var got []uint64
	for {
		c, ok := q.next()
		if !ok {
			break
		}
		got = append(got, c.v.model)
		if done, _ := q.appliedThrough(1); c.v.model == 3 && done {
			t.Fatal("change 1 counted as applied before done")
		}
		q.done(c.v.model)
	}
	if len(got) != 2 || got[0] != 3 || got[1] != 5 {
		t.Fatalf("applied %v, want [3 5]", got)
	}
	if folded, _ := q.foldedAt(); folded != 5 {
		t.Fatalf("folded %d, want 5", folded)
	}
	if ok, n := q.settled(); !ok || n != 3 {
		t.Fatalf("settled = %v, %d", ok, n)
	}
	if _, drain := q.push(change{}); !drain {
		t.Fatal("after the queue ran dry, the next to queue does not apply it")
	}
}

// Whose a Model change is is decided once per change, whichever journey
// asks first, and a later change's decision does not answer an earlier
// one: each asks by the number its listener read.
func TestPeersDecideEachChangeOnce(t *testing.T) {
	p := newPeers()
	a, b := &waiter{id: "a"}, &waiter{id: "b"}
	p.add(a)
	p.add(b)
	first := func(*waiter) fit { return fitAny }
	steps := []struct {
		seq  uint64
		want *waiter
	}{
		{1, a},   // decided: the oldest fitting
		{1, a},   // asked again (another journey): the same answer
		{2, b},   // the next change: the next waiter
		{1, a},   // the first change asked late: still its own answer
		{3, nil}, // nobody waits
		{2, b},
	}
	for i, s := range steps {
		if got := p.take(s.seq, first); got != s.want {
			t.Fatalf("step %d: take(%d) = %v, want %v", i, s.seq, got, s.want)
		}
	}
}
