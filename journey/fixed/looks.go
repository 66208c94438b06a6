package fixed

import (
	"slices"
	"sync"
	"sync/atomic"
)

// lookBook is what a port remembers of the model's looks: the rows recent
// whats_here answers served (for sinceVersion deltas, the last maxLooks),
// and the version of the last result that showed the model rows, against
// which rows are flagged staleReads/staleWrites. It is safe for
// concurrent use.
type lookBook struct {
	mu    sync.Mutex
	looks []servedLook
	// seen is the version of the last look (-1 before the first).
	seen int64
	// shared is set when several models share the port (Share): a kept
	// look may be another model's, so none is a delta's start.
	shared atomic.Bool
}

func newLookBook() *lookBook { return &lookBook{seen: -1} }

// lookMark is the model's last look before an answer that is a look:
// set once, by the first saw of that answer (a Fold looks again).
type lookMark struct {
	set     bool
	version int64
}

// saw records the version of a result that showed the model rows (a
// whats_here, a journey frame): its last look. A refusal or a settlement
// names a version too, but shows no rows, so it is not a look. r keeps
// the look it replaced, for unsaw.
func (b *lookBook) saw(r *CallResult) {
	v, ok := r.Get("version")
	n, isInt := v.(int64)
	if !ok || !isInt {
		return
	}
	b.mu.Lock()
	if !r.lookedAfter.set {
		r.lookedAfter = lookMark{set: true, version: b.seen}
	}
	if n > b.seen {
		b.seen = n
	}
	b.mu.Unlock()
}

// unsaw takes back the look r recorded: r never reached the model
// (Port.Undelivered). A look taken since (a later answer's) stands.
func (b *lookBook) unsaw(r CallResult) {
	v, _ := r.Get("version")
	n, isInt := v.(int64)
	if !isInt || !r.lookedAfter.set {
		return
	}
	b.mu.Lock()
	if b.seen == n && r.lookedAfter.version < n {
		b.seen = r.lookedAfter.version
	}
	b.mu.Unlock()
}

// last is the version of the model's last look, -1 before any.
func (b *lookBook) last() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.seen
}

// before is the look served at or before since: a later change is
// shown, an earlier one was already seen. Nil when none is kept.
func (b *lookBook) before(since int64) *servedLook {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.looks) - 1; i >= 0; i-- {
		if b.looks[i].version <= since {
			// A copy: the slice is shifted under the lock once it is
			// full. The maps are never written after a look is stored.
			l := b.looks[i]
			return &l
		}
	}
	return nil
}

// keep stores what was served at a version, once per version, dropping
// the oldest beyond maxLooks.
func (b *lookBook) keep(look servedLook) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n := len(b.looks); n == 0 || b.looks[n-1].version != look.version {
		b.looks = append(b.looks, look)
		if len(b.looks) > maxLooks {
			b.looks = slices.Delete(b.looks, 0, len(b.looks)-maxLooks)
		}
	}
}
