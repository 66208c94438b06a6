package loop

import "testing"

// The writer refills slabs that have left the window, so a long run of
// versions goes through a fixed set of them; a slab a reader has pinned
// is never refilled, however long the reader holds it.
func TestHistoryRefillsOnlyUnpinnedSlabs(t *testing.T) {
	var h history[int]
	h.init()
	h.publish(0) // version 1, in slab 0
	held := h.cur.Load()
	if !held.pin() {
		t.Fatal("could not pin the newest slab")
	}
	slabs := map[*slab[int]]bool{}
	for i := 1; i < 5000; i++ {
		if v := h.publish(i); v != uint64(i+1) {
			t.Fatalf("publish %d returned version %d", i, v)
		}
		slabs[h.cur.Load()] = true
	}
	if held.k.Load() != 0 || held.newest.Load() != h.mask || held.recs[1].model != 0 || held.recs[1].version != 1 {
		t.Fatalf("a pinned slab was refilled: k=%d newest=%d", held.k.Load(), held.newest.Load())
	}
	held.unpin()
	if most := len(h.ring) + maxSpare + 2; len(slabs) > most {
		t.Errorf("5000 versions went through %d slabs; refilling should keep it to %d", len(slabs), most)
	}
	if m, v := h.latest(); m != 4999 || v != 5000 {
		t.Errorf("latest = %d at %d, want 4999 at 5000", m, v)
	}
	for v := uint64(5000); v > 5000-recentLen; v-- {
		if m, ok := h.at(v); !ok || m != int(v-1) {
			t.Fatalf("at(%d) = %d, %v", v, m, ok)
		}
	}
	if _, ok := h.at(5000 - recentLen); ok {
		t.Error("at answered for a version outside the window")
	}
}
