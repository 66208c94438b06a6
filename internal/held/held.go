package held

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/foldagent/foldagent/internal/bound"
)

// Defaults of the held calls, the same in every adapter.
const (
	// DefaultPatience is when a call still waiting (for the person's
	// approval, for a completion) answers its client as held: safely
	// before the 60 seconds common HTTP and agent clients (the official
	// MCP TypeScript client among them) wait by default.
	DefaultPatience = 50 * time.Second
	// DefaultKeepOutcome is how long a held call's outcome is kept, from
	// the moment it ended, for its caller to read.
	DefaultKeepOutcome = 15 * time.Minute
	// DefaultMaxHeldPerIdentity bounds the held calls one identity has at
	// once, running or with an outcome kept.
	DefaultMaxHeldPerIdentity = 16
	// DefaultMaxHeld bounds the held calls of one book.
	DefaultMaxHeld = 1024
)

// ErrClosed is why a call was not admitted: the book is closed. (At a
// bound, Admit returns the bound's *bound.Refusal.)
var ErrClosed = errors.New("held: the book is closed")

// Options configure a Book; the zero value takes every default.
type Options struct {
	// KeepOutcome is how long an ended call's outcome is kept; zero or
	// negative uses DefaultKeepOutcome.
	KeepOutcome time.Duration
	// MaxHeldPerIdentity and MaxHeld bound the calls kept: zero uses the
	// default, negative sets no bound.
	MaxHeldPerIdentity, MaxHeld int
	// Now is the clock; nil uses time.Now.
	Now func() time.Time
}

// Call is what the book keeps of one held call. An adapter embeds it in
// its own entry and makes it with Book.NewCall.
type Call struct {
	// ID is unguessable: 128 random bits, in hex.
	ID string
	// Owner is the identity key of the caller; Name and Args (canonical
	// JSON) name the call, so that asking the same again rejoins it.
	Owner, Name, Args string
	// Created is when the call was made.
	Created time.Time
	// Done is closed once the call has ended (Book.Finish).
	Done chan struct{}

	// Guarded by the book's lock.
	rejoinable bool
	ended      time.Time
	kept       bool
}

// HeldCall returns c: an entry embedding Call satisfies Entry through it.
func (c *Call) HeldCall() *Call { return c }

// Ended returns when the call ended, or the zero time while it runs.
// Call it under the book's lock (Book.Do).
func (c *Call) Ended() time.Time { return c.ended }

// Kept reports whether the call is in the book, holding a place. Call it
// under the book's lock (Book.Do).
func (c *Call) Kept() bool { return c.kept }

// Entry is an adapter's entry: a pointer to a struct embedding Call.
type Entry interface {
	comparable
	HeldCall() *Call
}

// Book keeps the held calls of one adapter instance. It is safe for
// concurrent use.
type Book[E Entry] struct {
	keep   time.Duration
	now    func() time.Time
	places *bound.Counter

	mu     sync.Mutex
	byID   map[string]E
	closed bool
}

// NewBook returns an empty book.
func NewBook[E Entry](o Options) *Book[E] {
	b := &Book[E]{keep: o.KeepOutcome, now: o.Now, byID: make(map[string]E),
		places: bound.NewCounter(
			bound.Limit{Name: "MaxHeldPerIdentity", Max: bound.Resolve(o.MaxHeldPerIdentity, DefaultMaxHeldPerIdentity)},
			bound.Limit{Name: "MaxHeld", Max: bound.Resolve(o.MaxHeld, DefaultMaxHeld)},
			bound.DefaultRetryAfter)}
	if b.keep <= 0 {
		b.keep = DefaultKeepOutcome
	}
	if b.now == nil {
		b.now = time.Now
	}
	return b
}

// Keep is how long an ended call's outcome is kept.
func (b *Book[E]) Keep() time.Duration { return b.keep }

// Now reads the book's clock.
func (b *Book[E]) Now() time.Time { return b.now() }

// NewCall makes the Call of a call about to start, for an entry to
// embed; it is not in the book until Admit. A call that is not
// rejoinable (a task, named by its id) is never found by Rejoin.
func (b *Book[E]) NewCall(owner, name, args string, rejoinable bool) Call {
	return Call{ID: NewID(), Owner: owner, Name: name, Args: args, Created: b.now(),
		Done: make(chan struct{}), rejoinable: rejoinable}
}

// Admit puts e in the book, unless the book is closed (ErrClosed) or
// e's owner or the book is at its bound (the *bound.Refusal); then
// nothing is kept. Outcomes kept past KeepOutcome are forgotten first.
func (b *Book[E]) Admit(e E) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return ErrClosed
	}
	b.sweepLocked()
	c := e.HeldCall()
	if err := b.places.Take(c.Owner); err != nil {
		return err
	}
	b.byID[c.ID] = e
	c.kept = true
	return nil
}

// sweepLocked forgets the outcomes kept longer than keep. b.mu is held.
func (b *Book[E]) sweepLocked() {
	now := b.now()
	for _, e := range b.byID {
		if c := e.HeldCall(); !c.ended.IsZero() && now.Sub(c.ended) >= b.keep {
			b.forgetLocked(c)
		}
	}
}

func (b *Book[E]) forgetLocked(c *Call) {
	if !c.kept {
		return
	}
	delete(b.byID, c.ID)
	c.kept = false
	b.places.Give(c.Owner)
}

// Find returns owner's call id, or the zero E: another identity's id is
// not found, exactly as an id that never was.
func (b *Book[E]) Find(owner, id string) E {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	if e, ok := b.byID[id]; ok && e.HeldCall().Owner == owner {
		return e
	}
	var zero E
	return zero
}

// Rejoin returns owner's oldest rejoinable call of name with the same
// arguments whose outcome has not been delivered, or the zero E.
func (b *Book[E]) Rejoin(owner, name, args string) E {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	var found E
	var oldest *Call
	for _, e := range b.byID {
		c := e.HeldCall()
		if c.rejoinable && c.Owner == owner && c.Name == name && c.Args == args &&
			(oldest == nil || c.Created.Before(oldest.Created)) {
			found, oldest = e, c
		}
	}
	return found
}

// Delivered marks e's outcome answered to its caller asking again: the
// same call is a new one from now on, while the outcome stays readable by
// id until it is forgotten.
func (b *Book[E]) Delivered(e E) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e.HeldCall().rejoinable = false
}

// Forget takes e out of the book now, giving back its place.
func (b *Book[E]) Forget(e E) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.forgetLocked(e.HeldCall())
}

// Do runs f under the book's lock, which guards the entry's own fields.
func (b *Book[E]) Do(f func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f()
}

// Finish ends e: under the book's lock it records the end and runs
// record (which sets the entry's outcome), then closes Done, waking the
// call's waiters. Call it once per call.
func (b *Book[E]) Finish(e E, record func()) {
	c := e.HeldCall()
	b.mu.Lock()
	c.ended = b.now()
	if record != nil {
		record()
	}
	b.mu.Unlock()
	close(c.Done)
}

// List returns owner's calls that match (nil: all), oldest first (by
// creation, then id). match runs under the book's lock.
func (b *Book[E]) List(owner string, match func(E) bool) []E {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	var out []E
	for _, e := range b.byID {
		if e.HeldCall().Owner == owner && (match == nil || match(e)) {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(x, y E) int {
		a, c := x.HeldCall(), y.HeldCall()
		if n := a.Created.Compare(c.Created); n != 0 {
			return n
		}
		return cmp.Compare(a.ID, c.ID)
	})
	return out
}

// Close refuses every later Admit and returns the calls still running,
// for the adapter to end (their outcomes stay until forgotten).
func (b *Book[E]) Close() []E {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	var running []E
	for _, e := range b.byID {
		if e.HeldCall().ended.IsZero() {
			running = append(running, e)
		}
	}
	return running
}

// Count reports how many calls the book keeps.
func (b *Book[E]) Count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.byID)
}

// NewID returns an unguessable id: 128 random bits, in hex.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}
