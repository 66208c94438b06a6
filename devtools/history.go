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

// block holds the records of versions blockLen*k to blockLen*(k+1)-1,
// written in order.
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

// history is the bounded window of records: the last cap versions
// applied. A record lives at the place its version names (block
// version/blockLen, slot version%blockLen), so that a reader finds a
// version without asking the writer.
//
// One goroutine writes it (the host's, applying Messages), with no lock:
// it fills the place slot returns, version last, and commit says the
// version is there. Tools read it from any goroutine: they copy the
// versions up to the newest one published, pinning each block while they
// copy it, and the writer never rewrites a block a reader pins (it
// allocates another instead), so a reader never sees a record being
// written. Under AttachLoop the recorder writes each record before the
// Program publishes its version, so the version the Program publishes is
// what tells readers the record is there (published), and commit costs
// no atomic write; an adapter feeding Add publishes each version here
// (newest).
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
	first    atomic.Uint64 // the first version recorded; 0 before any
	newest   atomic.Uint64 // the newest version committed (published == nil)
	frozen   atomic.Uint64 // the newest version readers read, once detached
	// published returns the newest version the host has published, when
	// the recorder writes each record before the host publishes it.
	published func() uint64

	w     *block[Model, Msg] // the writer's: the block being filled
	wk    uint64             // the writer's: w's k
	begun bool               // the writer's: first is set
}

func newHistory[Model, Msg any](capacity, every, frames int, first Model, v uint64) *history[Model, Msg] {
	h := &history[Model, Msg]{cap: uint64(capacity), every: uint64(every), maxFrame: uint64(frames)}
	h.initial = keyframe[Model]{version: v, model: first}
	// One block more than the window needs: the newest is partly filled.
	h.ring = make([]atomic.Pointer[block[Model, Msg]], (capacity+blockLen-1)/blockLen+1)
	return h
}

// slot returns the place of version v's record, for the writer to fill,
// version last, and then commit. Until the version is written, the place
// holds 0 or a version a whole ring older, so a record the writer left
// unfinished (the recorder panicked) is never read as v's.
func (h *history[Model, Msg]) slot(v uint64) *record[Model, Msg] {
	if h.w != nil && h.wk == v/blockLen {
		return &h.w.recs[v%blockLen]
	}
	h.wk = v / blockLen
	h.w = h.install(h.wk)
	return &h.w.recs[v%blockLen]
}

// commit says the record of version v, filled, is there.
func (h *history[Model, Msg]) commit(v uint64) {
	if !h.begun && v != 0 { // 0 is no host's version of an applied Message
		h.begun = true
		h.first.Store(v)
	}
	if h.published == nil {
		h.newest.Store(v)
	}
}

// freeze makes readers read no version after v: the recorder is detached
// and records nothing after it.
func (h *history[Model, Msg]) freeze(v uint64) { h.frozen.CompareAndSwap(0, max(v, 1)) }

// install puts a block for the versions of block k into the ring: the
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

// bounds returns the versions a reader may read: first to newest, the
// last cap of those recorded; ok is false when there are none.
func (h *history[Model, Msg]) bounds() (first, oldest, newest uint64, ok bool) {
	switch newest = h.frozen.Load(); {
	case newest != 0:
	case h.published != nil:
		newest = h.published()
	default:
		newest = h.newest.Load()
	}
	first = h.first.Load()
	if first == 0 || newest < first {
		return first, 0, 0, false
	}
	oldest = max(first, newest-min(newest, h.cap-1))
	return first, oldest, newest, true
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
	first, v, newest, ok := h.bounds()
	if !ok {
		return view[Model, Msg]{frames: h.frames(nil), initial: h.initial}
	}
	recs := make([]record[Model, Msg], 0, newest-v+1)
	for v <= newest {
		k := v / blockLen
		end := min(newest+1, (k+1)*blockLen)
		b := h.ring[k%uint64(len(h.ring))].Load()
		if b != nil && b.pin() {
			if b.k.Load() == k {
				recs = appendRecords(recs, b.recs[v%blockLen:end-k*blockLen], v)
				b.unpin()
				v = end
				continue
			}
			b.unpin()
		}
		// The writer has taken this block over since the bounds were
		// read: its records, and the older ones read, have left the
		// window.
		recs, v = recs[:0], end
	}
	dropped := newest + 1 - first
	if len(recs) > 0 {
		dropped = recs[0].version - first
	}
	return view[Model, Msg]{recs: recs, frames: h.frames(recs), dropped: dropped, initial: h.initial}
}

// appendRecords appends the records of from that hold the versions they
// should (v onwards): a place whose record was never completed (the
// recorder panicked) is left out.
func appendRecords[Model, Msg any](recs, from []record[Model, Msg], v uint64) []record[Model, Msg] {
	for i := range from {
		if from[i].version == v+uint64(i) {
			recs = append(recs, from[i])
		}
	}
	return recs
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

// modelAt returns the Model of version v while the history keeps it: the
// starting Model, or a record's.
func (h *history[Model, Msg]) modelAt(v uint64) (Model, bool) {
	var zero Model
	if v == h.initial.version {
		return h.initial.model, true
	}
	_, oldest, newest, ok := h.bounds()
	if !ok || v < oldest || v > newest {
		return zero, false
	}
	k := v / blockLen
	b := h.ring[k%uint64(len(h.ring))].Load()
	if b == nil || !b.pin() {
		return zero, false
	}
	defer b.unpin()
	if r := &b.recs[v%blockLen]; b.k.Load() == k && r.version == v {
		return r.model, true
	}
	return zero, false
}

// window returns the oldest and newest versions kept.
func (h *history[Model, Msg]) window() (oldest, newest uint64) {
	if _, oldest, newest, ok := h.bounds(); ok {
		return oldest, newest
	}
	return h.initial.version, h.initial.version
}
