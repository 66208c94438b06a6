package devtools

import "sync"

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
	prov    origin
}

// keyframe is a Model kept to replay from.
type keyframe[Model any] struct {
	version uint64
	model   Model
}

// history is the bounded ring of records and of keyframes. The recorder
// writes it on the host's update goroutine; tools read it under mu.
type history[Model, Msg any] struct {
	mu       sync.Mutex
	ring     []record[Model, Msg] // grows to cap, then wraps
	start    int                  // the oldest record once full
	cap      int
	every    uint64
	next     uint64            // the version of the next keyframe
	frames   []keyframe[Model] // oldest first, at most maxFrames
	maxFrame int
	initial  keyframe[Model] // the Model the recorder started from
	dropped  uint64          // records that left the window
}

func newHistory[Model, Msg any](capacity, every, frames int, first Model, v uint64) *history[Model, Msg] {
	h := &history[Model, Msg]{cap: capacity, every: uint64(every), maxFrame: frames}
	h.next = (v/h.every + 1) * h.every
	h.ring = make([]record[Model, Msg], 0, capacity)
	h.initial = keyframe[Model]{version: v, model: first}
	h.frames = append(h.frames, h.initial)
	return h
}

// add keeps r, forgetting the oldest record when full, and keeps its Model
// as a keyframe every h.every versions. It runs for every applied
// Message: it divides only when it takes a keyframe.
func (h *history[Model, Msg]) add(r record[Model, Msg]) {
	h.mu.Lock()
	if len(h.ring) < h.cap {
		h.ring = append(h.ring, r)
	} else {
		h.ring[h.start] = r
		if h.start++; h.start == h.cap {
			h.start = 0
		}
		h.dropped++
	}
	if r.version >= h.next { // a multiple of h.every reached, or passed
		if r.version%h.every == 0 {
			h.keyframe(r)
		}
		h.next = (r.version/h.every + 1) * h.every
	}
	h.mu.Unlock()
}

// keyframe keeps r's Model as a keyframe; h.mu is held.
func (h *history[Model, Msg]) keyframe(r record[Model, Msg]) {
	if len(h.frames) >= h.maxFrame {
		copy(h.frames, h.frames[1:])
		h.frames = h.frames[:len(h.frames)-1]
	}
	h.frames = append(h.frames, keyframe[Model]{version: r.version, model: r.model})
}

// snapshot returns the records, oldest first, and the keyframes.
func (h *history[Model, Msg]) snapshot() ([]record[Model, Msg], []keyframe[Model]) {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]record[Model, Msg], 0, len(h.ring))
	out = append(out, h.ring[h.start:]...)
	out = append(out, h.ring[:h.start]...)
	return out, append([]keyframe[Model](nil), h.frames...)
}

// modelAt returns the Model of version v while the history keeps it: the
// starting Model, or a record's.
func (h *history[Model, Msg]) modelAt(v uint64) (Model, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if v == h.initial.version {
		return h.initial.model, true
	}
	if r, ok := h.find(v); ok {
		return r.model, true
	}
	var zero Model
	return zero, false
}

// find returns the record of version v; h.mu is held. Versions are
// consecutive in the ring, so it is found by offset.
func (h *history[Model, Msg]) find(v uint64) (record[Model, Msg], bool) {
	if len(h.ring) == 0 {
		return record[Model, Msg]{}, false
	}
	oldest := h.ring[h.start].version
	if v < oldest || v-oldest >= uint64(len(h.ring)) {
		return record[Model, Msg]{}, false
	}
	r := h.ring[(h.start+int(v-oldest))%len(h.ring)]
	return r, r.version == v
}

// window returns the oldest and newest versions kept.
func (h *history[Model, Msg]) window() (oldest, newest uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.ring) == 0 {
		return h.initial.version, h.initial.version
	}
	return h.ring[h.start].version, h.ring[(h.start+len(h.ring)-1)%len(h.ring)].version
}
