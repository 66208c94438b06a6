package agent

import (
	"encoding/binary"
	"slices"
	"unsafe"
)

// An OfferTracker follows what the Model offers for one listener, paying
// after each Model change only for what can have changed: a capability
// that declares what its availability reads (Variant.AvailableReads) is
// re-checked only when one of those watched values moved, one with
// neither Available nor Requires never, and only the others, which
// declare nothing, every time. Each watch is read once per change,
// however many capabilities read it, and so is each set of hooks that
// declares nothing, however many capabilities share it: capabilities
// whose Available is the same function value (and whose Requires hold
// the same functions) are checked with one call. On a versioned host, a
// Next that finds the version it last checked (no hook having failed)
// checks nothing.
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
	shared := map[hooksKey]int{}
	for i, c := range r.contract.caps {
		switch {
		case c.available == nil && len(c.requires) == 0:
			// Offered whatever the Model: checked once, on the first Next.
		case len(c.reads) == 0:
			t.addAlways(shared, i, c.available, c.requires)
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
	// version is the version of the Model last checked (0 on an
	// unversioned host), and clean says no hook failed on it: Next on
	// the same version again checks nothing.
	version uint64
	clean   bool
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
	model, version, err := t.r.sight.readSnapshot("")
	if err != nil {
		return nil, false, err
	}
	if t.started && version != 0 && version == t.version && t.clean {
		// The same version is the same Model, and hooks read the Model
		// alone: nothing a hook reads can have moved.
		return t.set, false, nil
	}
	t.round++
	set, changed, err := t.next(model)
	t.version, t.clean = version, err == nil
	return set, changed, err
}

// next is Next for a Model it has not checked yet.
func (t *offerTrack[Model, Msg, P]) next(model Model) ([]bool, bool, error) {
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

// alwaysCheck is the capabilities that declare no reads and share their
// hooks: the same Available function value and the same Requires
// functions, in the same order (as capabilities declared with one
// helper, Available: signedIn, do). These are the checks every change
// pays for, one call of the hooks however many capabilities share them;
// the capabilities' flags are written only when the verdict moved.
type alwaysCheck[Model any] struct {
	caps      []int // the capabilities, in declaration order
	available func(Model) bool
	requires  []Requirement[Model]
	on, known bool // the verdict written into the capabilities' flags
}

// hooksKey identifies a capability's hooks by the closures they are:
// two function values that are one closure run the same code over the
// same variables, so they answer alike for one Model (a hook depends on
// the Model alone). Two closures made from one function literal are
// told apart, since each is its own closure.
type hooksKey struct {
	available uintptr
	requires  string
}

func hooksKeyOf[Model any](available func(Model) bool, requires []Requirement[Model]) hooksKey {
	k := hooksKey{available: closureOf(available)}
	var b []byte
	for _, r := range requires {
		b = binary.LittleEndian.AppendUint64(b, uint64(closureOf(r.Holds)))
	}
	k.requires = string(b)
	return k
}

// closureOf returns the address of the closure f refers to (0 for nil).
// A Go function value is a pointer to its closure, and the closure does
// not move while the capability holding it lives.
func closureOf[Model any](f func(Model) bool) uintptr {
	return uintptr(*(*unsafe.Pointer)(unsafe.Pointer(&f)))
}

// addAlways adds capability i, which declares no reads, to the check of
// the capabilities that share its hooks, or to a new one.
func (t *offerTrack[Model, Msg, P]) addAlways(shared map[hooksKey]int, i int, available func(Model) bool, requires []Requirement[Model]) {
	k := hooksKeyOf(available, requires)
	if g, ok := shared[k]; ok {
		t.always[g].caps = append(t.always[g].caps, i)
		return
	}
	shared[k] = len(t.always)
	t.always = append(t.always, alwaysCheck[Model]{caps: []int{i}, available: available, requires: requires})
}

// checkAlways re-checks t.always[from:] and returns where it stopped: at
// the end, or just past hooks that panicked, whose capabilities it leaves
// out and reports as a defect. One deferred recover covers the whole run
// rather than one per hook.
func (t *offerTrack[Model, Msg, P]) checkAlways(from int, model Model, changed *bool, defect *error) (next int) {
	k := from
	defer func() {
		if v := recover(); v != nil {
			a := &t.always[k]
			if *defect == nil {
				*defect = &DefectError{Capability: t.r.contract.caps[a.caps[0]].name, Stage: "available", Cause: panicError(v)}
			}
			*changed = t.settle(a, false) || *changed
			next = k + 1
		}
	}()
	for ; k < len(t.always); k++ {
		a := &t.always[k]
		*changed = t.settle(a, a.offered(model)) || *changed
	}
	return k
}

// settle writes the verdict on into a's capabilities' flags, unless it
// is the verdict they hold already, and reports whether a flag changed.
func (t *offerTrack[Model, Msg, P]) settle(a *alwaysCheck[Model], on bool) (changed bool) {
	if a.known && a.on == on {
		return false
	}
	a.on, a.known = on, true
	for _, i := range a.caps {
		changed = changed || t.set[i] != on
		t.set[i] = on
	}
	return changed
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
