package agent

import "slices"

// An OfferTracker follows what the Model offers for one listener, paying
// after each Model change only for what can have changed: a capability
// that declares what its availability reads (Variant.AvailableReads) is
// re-checked only when one of those watched values moved, one with
// neither Available nor Requires never, and only the others, which
// declare nothing, every time. Each watch is read once per change,
// however many capabilities read it.
//
// It decides what is listed, never what is allowed: a call is always
// checked against the capability's hooks themselves.
//
// An OfferTracker is not safe for concurrent use; its listener calls Next
// from one goroutine at a time.
type OfferTracker interface {
	// Next reads the current Model once and returns the offer as one flag
	// per capability, in declaration order (Describe's), and whether it
	// differs from the offer the previous Next returned (always true the
	// first time). The set is the tracker's own: read it before the next
	// call and do not change it. A hook that fails leaves its capability
	// out and is reported as a *DefectError beside the set, as Available
	// reports it; a panicking host returns no set, and the previous offer
	// stands.
	Next() (set []bool, changed bool, err error)
}

// TrackSet returns an OfferTracker over a runtime that knows its offer
// only as a set (an AvailableSet): each Next reads the whole set and
// compares it with the previous one. It is what a hand-written runtime
// (a test's fake, say) answers for Served.TrackOffer; *Runtime tracks its
// offer by the watches its capabilities read instead. read is called
// from Next only, with the tracker's spare buffer.
func TrackSet(read func(dst []bool) ([]bool, error)) OfferTracker {
	return &setTrack{read: read}
}

type setTrack struct {
	read       func(dst []bool) ([]bool, error)
	set, spare []bool
	started    bool
}

func (t *setTrack) Next() ([]bool, bool, error) {
	next, err := t.read(t.spare)
	if next == nil {
		return nil, false, err
	}
	if t.started && slices.Equal(next, t.set) {
		t.spare = next
		return t.set, false, err
	}
	t.started = true
	t.set, t.spare = next, t.set
	return t.set, true, err
}

// TrackOffer returns a new OfferTracker over r's host and contract.
func (r *Runtime[Model, Msg, P]) TrackOffer() OfferTracker {
	t := &offerTrack[Model, Msg, P]{r: r, stamp: make([]uint64, len(r.contract.caps))}
	at := map[*watch[Model]]int{}
	for i, c := range r.contract.caps {
		switch {
		case c.available == nil && len(c.requires) == 0:
			// Offered whatever the Model: checked once, on the first Next.
		case len(c.reads) == 0:
			t.always = append(t.always, alwaysCheck[Model]{i: i, available: c.available, requires: c.requires})
		default:
			for _, w := range c.reads {
				k, seen := at[w]
				if !seen {
					k = len(t.watches)
					at[w] = k
					t.watches = append(t.watches, trackedWatch[Model]{w: w, subject: c.name})
				}
				t.watches[k].readers = append(t.watches[k].readers, i)
			}
		}
	}
	return t
}

type offerTrack[Model, Msg, P any] struct {
	r       *Runtime[Model, Msg, P]
	set     []bool
	started bool
	always  []alwaysCheck[Model] // capabilities that declare no reads
	watches []trackedWatch[Model]
	stamp   []uint64 // per capability: the round it was last checked in
	round   uint64
}

// trackedWatch is one watch an availability reads, with its value at the
// last Next and the capabilities that read it.
type trackedWatch[Model any] struct {
	w       *watch[Model]
	subject string // a capability reading it, named by a defect
	last    any
	known   bool // last holds a value read without a defect
	readers []int
}

func (t *offerTrack[Model, Msg, P]) Next() ([]bool, bool, error) {
	model, err := t.r.readModel("")
	if err != nil {
		return nil, false, err
	}
	t.round++
	if !t.started {
		t.started = true
		t.set = make([]bool, len(t.r.contract.caps))
		for i := range t.watches {
			t.watches[i].read(model)
		}
		var defect error
		for i := range t.set {
			t.check(i, model, &defect)
		}
		return t.set, true, defect
	}
	changed := false
	var defect error
	for i := range t.watches {
		tw := &t.watches[i]
		moved, err := tw.read(model)
		if err != nil && defect == nil {
			defect = err
		}
		if !moved {
			continue
		}
		for _, c := range tw.readers {
			changed = t.check(c, model, &defect) || changed
		}
	}
	for k := 0; k < len(t.always); {
		k = t.checkAlways(k, model, &changed, &defect)
	}
	return t.set, changed, defect
}

// alwaysCheck is a capability that declares no reads, with its hooks at
// hand: these are the checks every change pays for, however many.
type alwaysCheck[Model any] struct {
	i         int
	available func(Model) bool
	requires  []Requirement[Model]
}

// checkAlways re-checks t.always[from:] and returns where it stopped: at
// the end, or just past a hook that panicked, whose capability it leaves
// out and reports as a defect. One deferred recover covers the whole run
// rather than one per hook.
func (t *offerTrack[Model, Msg, P]) checkAlways(from int, model Model, changed *bool, defect *error) (next int) {
	k := from
	defer func() {
		if v := recover(); v != nil {
			i := t.always[k].i
			if *defect == nil {
				*defect = &DefectError{Capability: t.r.contract.caps[i].name, Stage: "available", Cause: panicError(v)}
			}
			*changed = t.set[i] || *changed
			t.set[i] = false
			next = k + 1
		}
	}()
	for ; k < len(t.always); k++ {
		a := &t.always[k]
		on := a.offered(model)
		*changed = on != t.set[a.i] || *changed
		t.set[a.i] = on
	}
	return k
}

// offered is isOffered's verdict without its recovery: a hook that
// panics panics through it, to checkAlways.
func (a *alwaysCheck[Model]) offered(model Model) bool {
	if a.available != nil && !a.available(model) {
		return false
	}
	for _, r := range a.requires {
		if !r.Holds(model) {
			return false
		}
	}
	return true
}

// check re-checks capability i against model, once per round, and
// reports whether its flag changed.
func (t *offerTrack[Model, Msg, P]) check(i int, model Model, defect *error) bool {
	if t.stamp[i] == t.round {
		return false
	}
	t.stamp[i] = t.round
	ok, _, err := t.r.contract.caps[i].isOffered(model)
	if err != nil && *defect == nil {
		*defect = err
	}
	on := ok && err == nil
	was := t.set[i]
	t.set[i] = on
	return on != was
}

// read reads the watch from model and reports whether its value moved
// since the last read. A read that fails counts as moved, so its readers
// are checked (and report the defect themselves if they read the same).
func (tw *trackedWatch[Model]) read(model Model) (moved bool, err error) {
	v, err := tw.w.value(model, tw.subject)
	if err != nil {
		tw.last, tw.known = nil, false
		return true, err
	}
	moved = !tw.known || v != tw.last
	tw.last, tw.known = v, true
	return moved, nil
}
