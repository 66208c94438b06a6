package loop

import (
	"reflect"
	"runtime"
	"sync/atomic"
)

// recentLen is how many versions ModelAt keeps.
const recentLen = 128

// history publishes the current Model with its version and keeps the
// last recentLen versions for ModelAt. One goroutine writes (the one
// applying Messages, or New before Run); any may read.
//
// Models are written into slabs of consecutive versions, and a slab
// whose versions have all left the window is refilled with new ones
// rather than left to the garbage collector: publishing a Model then
// writes into memory that was written a few hundred Messages ago (still
// in the processor's cache) instead of a fresh allocation per Message
// or per slab, which under a steady stream of Messages kept the heap,
// the collector and the page faults of new memory busy.
//
// A reader pins the slab it reads (a count on the slab), and the writer
// refills only a slab that no reader pins, claiming it for the time it
// takes to install it: the pin and the claim exclude each other, so a
// reader never sees a record being rewritten, and what a reader pinned
// is checked (its versions, its newest) before it is read.
type history[Model any] struct {
	// cur is the slab holding the newest version.
	cur   atomic.Pointer[slab[Model]]
	shift uint   // a slab holds 1<<shift versions
	mask  uint64 // 1<<shift - 1
	// ring holds the slabs of the window, slab k at k%len(ring).
	ring []atomic.Pointer[slab[Model]]

	// The writer's own.
	w     *slab[Model] // == cur
	slot  int          // w's place in ring
	spare []*slab[Model]
}

// slab holds the versions k<<shift to (k+1)<<shift - 1, written in order.
type slab[Model any] struct {
	k      atomic.Uint64
	newest atomic.Uint64 // the newest version written here
	recs   []versioned[Model]
	// pins counts readers reading recs; the writer makes it negative
	// (claimed) while it refills the slab, and refills only an unpinned
	// one. It has a cache line of its own, so that readers on other
	// processors pinning it do not take the line newest is on from the
	// writer at every Message.
	_    [64]byte
	pins atomic.Int64
	_    [56]byte
}

// versioned is a Model with its version.
type versioned[Model any] struct {
	model   Model
	version uint64
}

// claimed is added to a slab's pins while the writer refills it.
const claimed = -1 << 40

// pin makes s safe to read until unpin, unless the writer is refilling
// it (then it reports false and s must not be read).
func (s *slab[Model]) pin() bool {
	if s.pins.Add(1) > 0 {
		return true
	}
	s.pins.Add(-1)
	return false
}

func (s *slab[Model]) unpin() { s.pins.Add(-1) }

// slabBytes is about how much memory one slab takes; it holds between
// 1<<minSlabShift and 1<<maxSlabShift versions, powers of two that divide
// recentLen.
const (
	slabBytes    = 4096
	minSlabShift = 3
	maxSlabShift = 6
	// maxSpare bounds the slabs kept for refilling beyond the window.
	maxSpare = 2
)

func (h *history[Model]) init() {
	size := max(int(reflect.TypeFor[versioned[Model]]().Size()), 1)
	h.shift = maxSlabShift
	for h.shift > minSlabShift && size<<h.shift > slabBytes {
		h.shift--
	}
	h.mask = 1<<h.shift - 1
	// A slab leaves the window only once a newer one replaces it in the
	// ring: one more slab than the window holds, since the newest is
	// partly filled.
	h.ring = make([]atomic.Pointer[slab[Model]], recentLen>>h.shift+1)
}

// own returns the newest Model; only the writer calls it.
func (h *history[Model]) own() Model {
	return h.w.recs[h.w.newest.Load()&h.mask].model
}

// following returns the version publish gives the next Model; only the
// writer calls it.
func (h *history[Model]) following() uint64 {
	return h.w.newest.Load() + 1
}

// publish makes m the newest Model, one version after the last (1 for
// the first), and returns its version.
func (h *history[Model]) publish(m Model) uint64 {
	s := h.w
	var v uint64 = 1
	if s != nil {
		v = s.newest.Load() + 1
	}
	k := v >> h.shift
	if s != nil && s.k.Load() == k {
		rec := &s.recs[v&h.mask]
		rec.model, rec.version = m, v
		s.newest.Store(v)
		return v
	}
	slot := int(k % uint64(len(h.ring)))
	if s != nil {
		if slot = h.slot + 1; slot == len(h.ring) {
			slot = 0
		}
	}
	n := h.claim()
	n.k.Store(k)
	rec := &n.recs[v&h.mask]
	rec.model, rec.version = m, v
	n.newest.Store(v)
	// The slab this one replaces leaves the window: it is refilled once
	// no reader holds it.
	if old := h.ring[slot].Swap(n); old != nil {
		if len(h.spare) == maxSpare {
			copy(h.spare, h.spare[1:])
			h.spare = h.spare[:maxSpare-1]
		}
		h.spare = append(h.spare, old)
	}
	// Published before the claim ends, so that no reader sees this
	// version through a stale pointer before cur says it is the newest.
	h.cur.Store(n)
	n.pins.Add(-claimed)
	h.w, h.slot = n, slot
	return v
}

// claim returns a slab for the writer to fill, claimed: a spare no
// reader pins, or a new one.
func (h *history[Model]) claim() *slab[Model] {
	for i, s := range h.spare {
		if s.pins.CompareAndSwap(0, claimed) {
			h.spare = append(h.spare[:i], h.spare[i+1:]...)
			return s
		}
	}
	s := &slab[Model]{recs: make([]versioned[Model], h.mask+1)}
	s.pins.Store(claimed)
	return s
}

// latest returns the newest Model and its version; the pair read was
// the newest at some moment during the call. It is small enough to be
// inlined into Model and VersionedModel: the retry a failed pin needs
// lives in latestAgain.
func (h *history[Model]) latest() (Model, uint64) {
	s := h.cur.Load()
	if s.pins.Add(1) > 0 {
		v := s.newest.Load()
		m := s.recs[v&h.mask].model
		s.pins.Add(-1)
		return m, v
	}
	s.pins.Add(-1)
	return h.latestAgain()
}

// latestAgain is latest after a failed pin: a slab is claimed only while
// the writer installs it, so the pin is retried, yielding the processor
// between tries.
func (h *history[Model]) latestAgain() (Model, uint64) {
	for {
		runtime.Gosched()
		s := h.cur.Load()
		if s.pin() {
			v := s.newest.Load()
			m := s.recs[v&h.mask].model
			s.unpin()
			return m, v
		}
	}
}

// at returns the Model of version v if it is one of the newest
// recentLen.
func (h *history[Model]) at(v uint64) (Model, bool) {
	var zero Model
	newest := h.cur.Load().newest.Load()
	if v == 0 || v > newest || newest-v >= recentLen {
		return zero, false
	}
	k := v >> h.shift
	s := h.ring[k%uint64(len(h.ring))].Load()
	if s == nil || !s.pin() {
		return zero, false // being refilled: v has left the window
	}
	defer s.unpin()
	if s.k.Load() != k || s.newest.Load() < v {
		return zero, false
	}
	return s.recs[v&h.mask].model, true
}
