package listeners

import (
	"sync"
	"sync/atomic"
)

// Registry holds listeners copy-on-write. Notification walks an immutable
// slice loaded with one atomic read, so adding or removing a listener —
// from any goroutine, including from inside a listener that is being
// called — never blocks the update goroutine and never disturbs a walk in
// progress. The zero Registry is empty and ready to use.
type Registry[F any] struct {
	mu   sync.Mutex // serializes writers only
	list atomic.Pointer[[]*entry[F]]
}

// entry is one registration. live is cleared by unsubscribe before the
// entry leaves the list, so a walk that loaded the list earlier skips it:
// once unsubscribe has returned, the listener is not started again.
type entry[F any] struct {
	fn   F
	live atomic.Bool
}

// Add registers fn and returns its idempotent unsubscribe function.
func (r *Registry[F]) Add(fn F) (unsubscribe func()) {
	e := &entry[F]{fn: fn}
	e.live.Store(true)
	r.mu.Lock()
	old := r.snapshot()
	next := make([]*entry[F], len(old), len(old)+1)
	copy(next, old)
	next = append(next, e)
	r.list.Store(&next)
	r.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			e.live.Store(false)
			r.mu.Lock()
			defer r.mu.Unlock()
			old := r.snapshot()
			next := make([]*entry[F], 0, len(old))
			for _, x := range old {
				if x != e {
					next = append(next, x)
				}
			}
			r.list.Store(&next)
		})
	}
}

// Each calls call with every listener registered when the walk starts, in
// registration order, skipping one unsubscribed meanwhile.
func (r *Registry[F]) Each(call func(F)) {
	for _, e := range r.snapshot() {
		if e.live.Load() {
			call(e.fn)
		}
	}
}

// Entry is one registration, as Snapshot returns it.
type Entry[F any] = entry[F]

// Snapshot returns the registrations at this moment, in order, for a walk
// that must be able to stop and resume (after a contained panic, say). It
// is Each taken apart: the walk calls Func of every entry that is still
// Live when its turn comes.
func (r *Registry[F]) Snapshot() []*Entry[F] { return r.snapshot() }

// Live reports whether the listener is still registered.
func (e *entry[F]) Live() bool { return e.live.Load() }

// Func returns the listener.
func (e *entry[F]) Func() F { return e.fn }

func (r *Registry[F]) snapshot() []*entry[F] {
	if p := r.list.Load(); p != nil {
		return *p
	}
	return nil
}
