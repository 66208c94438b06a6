package agent

import (
	"context"
	"encoding/json"
	"runtime"
	"sync/atomic"
	"time"
)

// This file is how a call is tied to what its caller saw. A versioned host
// numbers its Models; every read the runtime serves and every Result
// carries the version it was taken at; and for a contract that declares
// watches, the runtime remembers each caller's last look (the version and
// the watched values of the last read or result it served that caller)
// and judges the caller's next call against it, by its capability's
// Freshness. The pieces each own one part of the state: lookBook the
// callers' looks, the host its recent Models by version (Versioned);
// sight composes them, and the runtime asks sight at each step of a call.

// Read is one read an agent was served: a projection's JSON and the
// version of the Model it was read from (0 on an unversioned host).
type Read struct {
	Value   json.RawMessage
	Version uint64
}

// Offer is the list of capabilities a Model offers, with the version of
// that Model (0 on an unversioned host).
type Offer struct {
	Capabilities []Descriptor
	Version      uint64
}

// sight is how a call is tied to what its caller saw: the host's
// versions, the callers' last looks, and the newest version a result has
// named to anyone. The runtime asks it to read the Model with its
// version, to remember a read or a result as a caller's look, to catch up
// with a version told, and to judge a call against its caller's look.
type sight[Model, P any] struct {
	versioned Versioned[Model] // nil on an unversioned host
	model     func() Model     // the host's Model: read on an unversioned host
	looks     *lookBook[Model] // nil unless the contract declares watches
	watches   []*watch[Model]  // the contract's
	// told is the newest version a result has named to any caller
	// (noteTold, catchUp).
	told atomic.Uint64
}

// readSnapshot reads the Model and its version as one pair.
func (sg *sight[Model, P]) readSnapshot(subject string) (m Model, v uint64, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &DefectError{Capability: subject, Stage: "model", Cause: panicError(p)}
		}
	}()
	if sg.versioned != nil {
		m, v = sg.versioned.VersionedModel()
		return m, v, nil
	}
	return sg.model(), 0, nil
}

// stamp reads the host's current version, or 0 on an unversioned host. It
// is nil on an unversioned host.
func (r *Runtime[Model, Msg, P]) versionNow() uint64 {
	_, v := r.sight.versioned.VersionedModel()
	return v
}

// ContextRead is Context with the version the projection was read at.
// With a caller in ctx (WithCaller), the read is that caller's new look.
// On a versioned host the value may be the encoding a call's Change
// already made of that version, shared: read it, never modify it.
func (r *Runtime[Model, Msg, P]) ContextRead(ctx context.Context) (Read, error) {
	if r.contract.context.p == nil {
		return Read{}, nil
	}
	if err := ctx.Err(); err != nil {
		return Read{}, &CancelledError{Capability: "context", cause: err}
	}
	model, version, err := r.sight.readSnapshot("context")
	if err != nil {
		return Read{}, err
	}
	var b json.RawMessage
	if version != 0 {
		// A call's change may have encoded this very version (change.go).
		b, err = r.context.at(model, version)
	} else {
		b, err = encodeProjection(r.contract.context.p, model, "context", "context")
	}
	if err != nil {
		return Read{}, err
	}
	r.sight.remember(ctx, model, version)
	return Read{Value: b, Version: version}, nil
}

// ResourceRead is ReadResource with the version the resource was read at.
// With a caller in ctx (WithCaller), the read is that caller's new look.
func (r *Runtime[Model, Msg, P]) ResourceRead(ctx context.Context, name string) (Read, error) {
	res, ok := r.contract.resByName[name]
	if !ok {
		return Read{}, &ResourceError{Resource: name}
	}
	if err := ctx.Err(); err != nil {
		return Read{}, &CancelledError{Capability: name, cause: err}
	}
	model, version, err := r.sight.readSnapshot(name)
	if err != nil {
		return Read{}, err
	}
	b, err := encodeProjection(res.projection.p, model, name, "resource")
	if err != nil {
		return Read{}, err
	}
	r.sight.remember(ctx, model, version)
	return Read{Value: b, Version: version}, nil
}

// Offered is Available with the version of the Model it read, and with a
// caller in ctx (WithCaller) the list is that caller's new look. As for
// Available, a panicking hook leaves its capability out and is reported
// as a *DefectError beside the list.
func (r *Runtime[Model, Msg, P]) Offered(ctx context.Context) (Offer, error) {
	model, version, err := r.sight.readSnapshot("")
	if err != nil {
		return Offer{}, err
	}
	out, defect := r.offeredBy(model)
	r.sight.remember(ctx, model, version)
	return Offer{Capabilities: out, Version: version}, defect
}

// Version returns the version of the current Model: 0 on an unversioned
// host.
func (r *Runtime[Model, Msg, P]) Version() uint64 {
	if r.sight.versioned == nil {
		return 0
	}
	return r.versionNow()
}

// remember records model, of version, as the look of ctx's caller.
func (sg *sight[Model, P]) remember(ctx context.Context, model Model, version uint64) {
	if sg.looks == nil {
		return
	}
	if caller := CallerFrom(ctx); caller != "" {
		sg.looks.put(caller, look[Model]{version: version, model: model, known: true})
	}
}

// resultLook is what a result showed its caller. A result names the
// version its Message made, but that version's Model also holds whatever
// other callers' Messages changed before it, which the result did not
// show: counting it as a look at that whole Model would let the caller's
// next call through on a watched value it never saw (the shop's
// add_to_cart adding the product another agent opened). So a result is a
// look only at what it carried: of each watched value, the value at the
// result's version when the caller's view of it was current as its
// Message was applied (or its own Message set it), and otherwise what the
// caller knew before the call (its prior look), which the next call is
// judged against. For a call that waited for its completion, changes
// between its Message and the completing fact count as its own (the
// reports its Message caused arrive then): that window is the one place a
// result counts what another caller did.
type resultLook[Model any] struct {
	// pre is the version update took the call's Message at (its Message
	// made pre+1); hasPre is false when that is not known.
	pre    uint64
	hasPre bool
	// prior is the caller's look before the call when it was a read;
	// values, when the prior look was itself a result, is what that
	// result showed (flattened, so that looks never chain). Neither is set
	// for a caller that had not looked.
	prior    look[Model]
	hasPrior bool
	values   map[*watch[Model]]any
}

// rememberResult records a result at version as the look of its caller:
// a look only at what the result showed (resultLook). pre is the version
// just before update took the call's Message, when known. The result's
// Model is taken from the history when it is published already, and left
// to be found there when the caller next calls otherwise.
func (sg *sight[Model, P]) rememberResult(seen callerLook[Model], version, pre uint64, hasPre bool) {
	if sg.looks == nil || version == 0 || seen.caller == "" {
		return
	}
	var res *resultLook[Model]
	if !hasPre || version != pre+1 || !seen.ok || seen.last.res != nil || seen.last.version != pre {
		// Another Message came between what the caller saw and what its
		// result names (the usual case, where the caller saw the very
		// version its Message was applied to and the result names the
		// next, is a whole look: every value is one the caller saw or
		// its own Message set).
		res = &resultLook[Model]{pre: pre, hasPre: hasPre}
	}
	if res != nil && seen.ok {
		if seen.last.res == nil {
			res.prior, res.hasPrior = seen.last, true
		} else {
			res.values = sg.flatten(seen.last)
		}
	}
	l := look[Model]{version: version, res: res}
	if m, v := sg.versioned.VersionedModel(); v == version {
		l.model, l.known = m, true // nothing was applied since: the usual case
	} else {
		l.model, l.known = sg.versioned.ModelAt(version)
	}
	sg.looks.putAt(seen.caller, seen.entry, l)
}

// flatten returns what a result's look showed of every watched value,
// leaving out those it did not show.
func (sg *sight[Model, P]) flatten(l look[Model]) map[*watch[Model]]any {
	out := make(map[*watch[Model]]any, len(sg.watches))
	for _, w := range sg.watches {
		if v, ok, err := sg.shown(l, w, ""); ok && err == nil {
			out[w] = v
		}
	}
	return out
}

// shown returns the value of w that look l showed its caller, and false
// when it showed none (a look whose Model the history no longer holds, or
// a result that showed nothing of w to a caller that had not looked).
func (sg *sight[Model, P]) shown(l look[Model], w *watch[Model], subject string) (any, bool, error) {
	res := l.res
	if res == nil {
		l, ok := sg.resolve(l)
		if !ok {
			return nil, false, nil
		}
		v, err := w.value(l.model, subject)
		return v, err == nil, err
	}
	var prior any
	hasPrior := false
	switch {
	case res.values != nil:
		prior, hasPrior = res.values[w]
	case res.hasPrior:
		var err error
		if prior, hasPrior, err = sg.shown(res.prior, w, subject); err != nil {
			return nil, false, err
		}
	}
	if !res.hasPre {
		return prior, hasPrior, nil
	}
	// What the caller's own Message did to w: the value before it, after
	// it, and at the result's version.
	var vals [3]any
	for i, version := range [3]uint64{res.pre, res.pre + 1, l.version} {
		m, ok := sg.versioned.ModelAt(version)
		if i == 2 && l.known {
			m, ok = l.model, true
		}
		if !ok {
			return prior, hasPrior, nil
		}
		v, err := w.value(m, subject)
		if err != nil {
			return nil, false, err
		}
		vals[i] = v
	}
	before, own, now := vals[0], vals[1], vals[2]
	// Known when the caller's view of w was current as its Message was
	// applied, or its own Message set w. Past pre+1 (a call that waited
	// for its completion) the changes are taken as the call's own
	// consequences (reports its Message caused, applied later, such as a
	// save's); the completing fact names that version.
	if before != own || hasPrior && prior == before {
		return now, true, nil
	}
	return prior, hasPrior, nil
}

// resolve finds a look's Model in the history when the look was a
// result's version whose Model was not yet published when it was taken.
func (sg *sight[Model, P]) resolve(l look[Model]) (look[Model], bool) {
	if l.known {
		return l, true
	}
	l.model, l.known = sg.versioned.ModelAt(l.version)
	return l, l.known
}

// judge decides whether a call of capab, about to run on model (of
// version), may proceed given what its caller saw. It returns the names
// of the watches that moved when the call proceeds anyway (StaleDisclose, or
// StaleRequireAck after the caller read again), and a *StaleViewError when it
// may not. A call with no caller and no cited version is not judged.
func (sg *sight[Model, P]) judge(seen callerLook[Model], capab *capability[Model, P], inv Invocation, model Model, version uint64) ([]string, error) {
	if len(capab.watches) == 0 || sg.looks == nil {
		return nil, nil
	}
	cited := inv.SeenVersion
	if seen.caller == "" && cited == 0 {
		return nil, nil
	}
	last, hasLast := seen.last, seen.ok
	if hasLast && last.res == nil {
		// A result's look is judged by what it showed (shown), which
		// copes with Models the history no longer holds.
		last, hasLast = sg.resolve(last)
	}
	base, hasBase := last, hasLast
	// A cited version is the base unless it is the caller's last look:
	// that look says what the caller saw of it, unless the caller cites
	// a version it was shown whole (a Result at it showed only part).
	if cited != 0 && (!hasLast || last.version != cited || inv.SeenWhole && last.res != nil) {
		base = look[Model]{version: cited}
		base, hasBase = sg.resolve(base)
	}
	stale := func(moved []string, seen uint64, unseen bool) error {
		return &StaleViewError{Capability: capab.name, Type: capab.tag, Moved: moved, Version: version, Seen: seen, Unseen: unseen, Policy: capab.freshness}
	}
	if !hasBase {
		moved := capab.watchNames()
		if capab.freshness == StaleDisclose {
			return moved, nil
		}
		if capab.freshness == StaleRequireAck && cited != 0 && hasLast && last.res == nil && last.version == version {
			return moved, nil // the caller read the current state since
		}
		return nil, stale(moved, cited, true)
	}
	if base.res == nil && base.version == version {
		return nil, nil
	}
	moved, err := sg.moved(capab, base, model)
	if err != nil {
		return nil, err
	}
	if len(moved) == 0 {
		return nil, nil
	}
	switch capab.freshness {
	case StaleDisclose:
		return moved, nil
	case StaleRequireAck:
		if cited != 0 && hasLast && last.version != cited {
			// The caller has read again since the version it cites: that
			// read acknowledged whatever moved before it.
			sinceRead, err := sg.moved(capab, last, model)
			if err != nil {
				return nil, err
			}
			if len(sinceRead) == 0 {
				return moved, nil
			}
		}
	}
	return nil, stale(moved, base.version, false)
}

// moved names capab's watches whose value on model differs from what
// base showed, or that base did not show.
func (sg *sight[Model, P]) moved(capab *capability[Model, P], base look[Model], model Model) ([]string, error) {
	var moved []string
	for _, w := range capab.watches {
		now, err := w.value(model, capab.name)
		if err != nil {
			return nil, err
		}
		then, ok, err := sg.shown(base, w, capab.name)
		if err != nil {
			return nil, err
		}
		if !ok || now != then {
			moved = append(moved, w.name)
		}
	}
	return moved, nil
}

// appliedAt records, on the host's update goroutine, the version the host
// was at just before update took the call's Message: the Message's own
// Model is the next version.
//
// It is written before the delivery verdict is reported and read after the
// verdict is received, and the report (a channel send or an atomic state
// change) orders the two.
type appliedAt struct {
	pre uint64
	set bool
	// delivered is the caller's WhenDelivered hook; nil when none.
	delivered func(uint64)
}

func (a *appliedAt) mark(v uint64) {
	a.pre, a.set = v, true
	if a.delivered != nil {
		a.delivered(v + 1)
	}
}

// after returns the version the call's Message produced, if known.
func (a *appliedAt) after() (uint64, bool) {
	if a == nil || !a.set {
		return 0, false
	}
	return a.pre + 1, true
}

// catchUpBound bounds how long a call waits for the host to apply a
// version its caller was already told of: update takes a Message the
// moment its delivery is reported, so the wait is short unless the host
// has stopped, in which case the call runs on the Model there is.
const catchUpBound = 2 * time.Second

// catchUp returns a snapshot at least as new as ctx's caller's last look
// and as every version a result has named to any caller. A result's
// version is the one its Message makes, reported as update takes the
// Message, so a call can arrive before update has returned: run on the
// older snapshot, it would be judged against a state its caller had
// already moved past (its own open_product not yet applied, add_to_cart
// not offered), or against one another agent was already told had moved
// on — an answer that would depend on the scheduler. The wait ends when
// the host publishes that version, when ctx ends, or after catchUpBound.
func (sg *sight[Model, P]) catchUp(ctx context.Context, seen callerLook[Model], subject string, model Model, version uint64) (Model, uint64, error) {
	// Any caller's result, not only this one's: a result returned to
	// another agent before this call began names a Model this call must
	// not read an older one than.
	target := sg.told.Load()
	if seen.ok && seen.last.version > target {
		target = seen.last.version
	}
	if target <= version {
		return model, version, nil
	}
	deadline := time.Now().Add(catchUpBound)
	for spins := 0; ; spins++ {
		if spins < 64 {
			runtime.Gosched()
		} else {
			time.Sleep(50 * time.Microsecond)
		}
		m, v, err := sg.readSnapshot(subject)
		if err != nil {
			return model, version, err
		}
		if v >= target {
			return m, v, nil
		}
		if err := ctx.Err(); err != nil {
			return model, version, &CancelledError{Capability: subject, cause: err}
		}
		if time.Now().After(deadline) {
			return m, v, nil
		}
	}
}

// callerLook is a call's caller and that caller's last look, read once per
// call (catchUp and judge both use it).
type callerLook[Model any] struct {
	caller string
	last   look[Model]
	entry  *lookEntry[Model]
	ok     bool
}

// lookOf reads ctx's caller's last look; the zero callerLook when the
// runtime keeps no looks or the call names no caller.
func (sg *sight[Model, P]) lookOf(ctx context.Context) callerLook[Model] {
	if sg.looks == nil {
		return callerLook[Model]{}
	}
	caller := CallerFrom(ctx)
	if caller == "" {
		return callerLook[Model]{}
	}
	last, entry, ok := sg.looks.get(caller)
	return callerLook[Model]{caller: caller, last: last, entry: entry, ok: ok}
}

// CatchUp waits until the host's Model is at least as new as every
// version a result has named to any caller, so that a read made after it
// (an adapter's tool list, say) never shows a Model older than one an
// agent was already told of. It returns when the host publishes that
// version, when ctx ends (with ctx's error), or after a short bound (the
// host is stalled: the read then shows what there is). On an unversioned
// host it returns at once. Call it from a request's goroutine, never
// from a listener on the host's update goroutine, which publishes.
func (r *Runtime[Model, Msg, P]) CatchUp(ctx context.Context) error {
	if r.sight.versioned == nil {
		return nil
	}
	m, v, err := r.sight.readSnapshot("")
	if err != nil || r.sight.told.Load() <= v {
		return err
	}
	_, _, err = r.sight.catchUp(ctx, callerLook[Model]{}, "", m, v)
	return err
}
