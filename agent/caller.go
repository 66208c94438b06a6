package agent

import (
	"context"
	"slices"
	"sync"
)

type callerKey struct{}

// WithCaller returns a context that names the caller of the reads and
// calls made with it: an adapter's key for one agent (an MCP session id,
// or an identity where there is no session; an A2A or Agent Native
// identity; a WebMCP page). Prefix it with the adapter's name so that two
// adapters on one runtime never share a key.
//
// The runtime remembers, per caller, the version and the watched values of
// the last read or result it served that caller (its last look), and
// judges the caller's next call to a capability that declares watches
// against it (see Watch and Freshness). Reads and calls made with no
// caller are not remembered, and a call with no caller and no cited
// version is not judged: the application's own code sees the Model
// directly. An empty caller is no caller.
func WithCaller(ctx context.Context, caller string) context.Context {
	if caller == "" {
		return ctx
	}
	return context.WithValue(ctx, callerKey{}, caller)
}

// CallerFrom returns the caller WithCaller named, or "".
func CallerFrom(ctx context.Context) string {
	s, _ := ctx.Value(callerKey{}).(string)
	return s
}

// look is what one read or result showed a caller: the version it was
// taken at and, once known, the Model of that version. A look keeps the
// Model rather than the watched values, so that remembering a look costs
// no encoding: the values are read only when a call is judged against a
// look whose version is not the current one. The Model is an immutable
// snapshot (see Host), so keeping it is safe; what it costs is that a
// remembered caller keeps that snapshot alive.
type look[Model any] struct {
	_       incomparable // never compared: no equality function compiled
	version uint64
	model   Model
	known   bool // model is the Model of version; false until it is
	// res is set for a result's look, which is a look only at what the
	// result showed (see resultLook); nil for a read.
	res *resultLook[Model]
}

// lookBook keeps the last look of each caller, at most max callers; the
// one looked at least recently is forgotten first. A forgotten caller is
// judged as one that has not looked yet: it is refused and reads again,
// never let through on state it did not see.
type lookBook[Model any] struct {
	mu    sync.Mutex
	max   int
	seq   uint64
	byKey map[string]*lookEntry[Model]
}

type lookEntry[Model any] struct {
	look[Model]
	used    uint64
	evicted bool // forgotten by evict: an update to it goes nowhere
}

// maxCallers bounds the callers a runtime remembers.
const maxCallers = 4096

func newLookBook[Model any](max int) *lookBook[Model] {
	return &lookBook[Model]{max: max, byKey: make(map[string]*lookEntry[Model])}
}

// get returns the caller's last look, and its entry, which putAt can
// update without finding it again.
func (b *lookBook[Model]) get(caller string) (look[Model], *lookEntry[Model], bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.byKey[caller]
	if !ok {
		return look[Model]{}, nil, false
	}
	b.seq++
	e.used = b.seq
	return e.look, e, true
}

// putAt is put for a caller whose entry get returned: the usual case,
// a call's result after its caller's look was read.
func (b *lookBook[Model]) putAt(caller string, e *lookEntry[Model], l look[Model]) {
	b.mu.Lock()
	if e == nil || e.evicted {
		b.mu.Unlock()
		b.put(caller, l)
		return
	}
	defer b.mu.Unlock()
	b.seq++
	if l.version >= e.version {
		e.look = l
	}
	e.used = b.seq
}

// put records l as the caller's last look, unless the caller has since
// looked at a later version (two answers to one caller may be written in
// either order).
func (b *lookBook[Model]) put(caller string, l look[Model]) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	if e, ok := b.byKey[caller]; ok {
		if l.version >= e.version {
			e.look = l
		}
		e.used = b.seq
		return
	}
	if len(b.byKey) >= b.max {
		b.evict()
	}
	b.byKey[caller] = &lookEntry[Model]{look: l, used: b.seq}
}

// evict forgets the least recently used eighth of the callers, so that a
// full book pays for a scan once per many new callers.
func (b *lookBook[Model]) evict() {
	n := max(b.max/8, 1)
	// As ints: the count of looks never nears 2⁶³, and sorting ints
	// shares the code every Go program links for them (the browser
	// page's download).
	used := make([]int, 0, len(b.byKey))
	for _, e := range b.byKey {
		used = append(used, int(e.used))
	}
	slices.Sort(used)
	cut := uint64(used[n-1])
	for k, e := range b.byKey {
		if e.used <= cut {
			e.evicted = true
			delete(b.byKey, k)
		}
	}
}
