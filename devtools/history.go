package devtools

import "sync/atomic"

// Default bounds of the history.
const (
	// DefaultHistory is how many applied Messages are kept.
	DefaultHistory = 1000
	// DefaultKeyframeEvery is how many versions apart keyframes are.
	DefaultKeyframeEvery = 100
	// DefaultKeyframes is how many keyframes are kept.
	DefaultKeyframes = 16
)

// record is one applied Message as the recorder kept it: the Message and
// the Model it produced are the values themselves (Models are immutable
// snapshots), encoded only when a tool asks.
type record[Model, Msg any] struct {
	version uint64
	at      int64 // Unix nanoseconds
	msg     Msg
	model   Model
	prov    *origin
	cause   uint64 // the version whose command sent msg (door "cmd")
}

// keyframe is a Model kept to replay from.
type keyframe[Model any] struct {
	version uint64
	model   Model
}

// blockLen is how many records one block of the history holds.
const blockLen = 64

// claimed is added to a block's pins while the writer refills it.
const claimed = -1 << 40

// block holds the records blockLen*k to blockLen*(k+1)-1 of the
// sequence of records, written in order.
type block[Model, Msg any] struct {
	k    atomic.Uint64
	recs [blockLen]record[Model, Msg]
	// pins counts readers copying recs; the writer makes it negative
	// (claimed) while it takes the block over for newer records, and
	// takes over only a block no reader pins.
	pins atomic.Int64
}

func (b *block[Model, Msg]) pin() bool {
	if b.pins.Add(1) > 0 {
		return true
	}
	b.pins.Add(-1)
	return false
}

func (b *block[Model, Msg]) unpin() { b.pins.Add(-1) }

// history is the bounded window of records: the last cap Messages
// applied. One goroutine writes it (the host's, applying Messages), with
// no lock: it fills the place slot returns and commit publishes it with
// one atomic store. Tools read it from any goroutine: they copy what
// was published, pinning each block while they copy it, and the writer
// never rewrites a block a reader pins (it allocates another instead),
// so a reader never sees a record being written.
//
// Keyframes are not copied aside: every kept record holds its Model, so
// the keyframes (the starting Model and the Models of versions that are
// multiples of every, the newest maxFrame of them) are found among the
// records when a replay asks.
type history[Model, Msg any] struct {
	cap      uint64
	every    uint64
	maxFrame uint64
	initial  keyframe[Model] // the Model the recorder started from
	ring     []atomic.Pointer[block[Model, Msg]]
	n        atomic.Uint64 // records published

	// The writer's own.
	w    *block[Model, Msg] // the block being filled
	next uint64             // the sequence number of the next record
}

func newHistory[Model, Msg any](capacity, every, frames int, first Model, v uint64) *history[Model, Msg] {
	h := &history[Model, Msg]{cap: uint64(capacity), every: uint64(every), maxFrame: uint64(frames)}
	h.initial = keyframe[Model]{version: v, model: first}
	// One block more than the window needs: the newest is partly filled.
	h.ring = make([]atomic.Pointer[block[Model, Msg]], (capacity+blockLen-1)/blockLen+1)
	return h
}

// slot returns the place of the next record, for the writer to fill and
// then commit. A place filled and not committed (the writer panicked
// meanwhile) is filled again by the next call.
func (h *history[Model, Msg]) slot() *record[Model, Msg] {
	i := h.next % blockLen
	if i == 0 && (h.w == nil || h.w.k.Load() != h.next/blockLen) {
		h.w = h.install(h.next / blockLen)
	}
	return &h.w.recs[i]
}

// commit publishes the record slot returned.
func (h *history[Model, Msg]) commit() {
	h.next++
	h.n.Store(h.next)
}

// install puts a block for the records of block k into the ring: the
// block whose records have all left the window, when no reader pins it,
// else a new one.
func (h *history[Model, Msg]) install(k uint64) *block[Model, Msg] {
	place := &h.ring[k%uint64(len(h.ring))]
	b := place.Load()
	if b == nil || !b.pins.CompareAndSwap(0, claimed) {
		b = &block[Model, Msg]{}
		b.pins.Store(claimed)
	}
	b.k.Store(k)
	place.Store(b)
	b.pins.Add(-claimed)
	return b
}

// view is what a tool reads of the history at one moment.
type view[Model, Msg any] struct {
	recs    []record[Model, Msg] // oldest first
	frames  []keyframe[Model]    // oldest first
	dropped uint64               // records that left the window before recs
	initial keyframe[Model]
}

// snapshot returns the kept records, oldest first, and the keyframes.
func (h *history[Model, Msg]) snapshot() view[Model, Msg] {
	n := h.n.Load()
	s := n - min(n, h.cap)
	recs := make([]record[Model, Msg], 0, n-s)
	for s < n {
		k := s / blockLen
		end := min(n, (k+1)*blockLen)
		b := h.ring[k%uint64(len(h.ring))].Load()
		if b != nil && b.pin() {
			if b.k.Load() == k {
				recs = append(recs, b.recs[s%blockLen:end-k*blockLen]...)
				b.unpin()
				s = end
				continue
			}
			b.unpin()
		}
		// The writer has taken this block over since n was read: its
		// records, and the older ones read, have left the window.
		recs, s = recs[:0], end
	}
	return view[Model, Msg]{recs: recs, frames: h.frames(recs), dropped: n - uint64(len(recs)), initial: h.initial}
}

// frames returns the keyframes recs hold: the starting Model and the
// Models of the versions that are multiples of h.every, the newest
// h.maxFrame of all those taken so far, oldest first.
func (h *history[Model, Msg]) frames(recs []record[Model, Msg]) []keyframe[Model] {
	newest := h.initial.version
	if len(recs) > 0 {
		newest = recs[len(recs)-1].version
	}
	// The keyframes taken so far: the starting Model, then one per
	// multiple of every up to newest.
	taken := 1 + newest/h.every - h.initial.version/h.every
	var out []keyframe[Model]
	var from uint64 // the oldest version among the newest maxFrame taken
	if taken <= h.maxFrame {
		out = append(out, h.initial)
	} else {
		from = (newest/h.every - h.maxFrame + 1) * h.every
	}
	for _, r := range recs {
		if r.version%h.every == 0 && r.version >= from && r.version > h.initial.version {
			out = append(out, keyframe[Model]{version: r.version, model: r.model})
		}
	}
	return out
}

// read returns the record with sequence number s, while it is kept.
func (h *history[Model, Msg]) read(s, n uint64) (record[Model, Msg], bool) {
	var r record[Model, Msg]
	if s >= n || n-s > h.cap {
		return r, false
	}
	k := s / blockLen
	b := h.ring[k%uint64(len(h.ring))].Load()
	if b == nil || !b.pin() {
		return r, false
	}
	defer b.unpin()
	if b.k.Load() != k {
		return r, false
	}
	return b.recs[s%blockLen], true
}

// modelAt returns the Model of version v while the history keeps it: the
// starting Model, or a record's.
func (h *history[Model, Msg]) modelAt(v uint64) (Model, bool) {
	var zero Model
	if v == h.initial.version {
		return h.initial.model, true
	}
	r, ok := h.find(v)
	if !ok {
		return zero, false
	}
	return r.model, true
}

// find returns the record of version v. Versions are consecutive in the
// history, so it is found by its offset from the newest.
func (h *history[Model, Msg]) find(v uint64) (record[Model, Msg], bool) {
	n := h.n.Load()
	newest, ok := h.read(n-1, n)
	if !ok || v > newest.version || newest.version-v >= n {
		return record[Model, Msg]{}, false
	}
	r, ok := h.read(n-1-(newest.version-v), n)
	return r, ok && r.version == v
}

// window returns the oldest and newest versions kept.
func (h *history[Model, Msg]) window() (oldest, newest uint64) {
	n := h.n.Load()
	if n == 0 {
		return h.initial.version, h.initial.version
	}
	first, ok1 := h.read(n-min(n, h.cap), n)
	last, ok2 := h.read(n-1, n)
	if !ok1 || !ok2 {
		v := h.snapshot()
		if len(v.recs) == 0 {
			return h.initial.version, h.initial.version
		}
		return v.recs[0].version, v.recs[len(v.recs)-1].version
	}
	return first.version, last.version
}
