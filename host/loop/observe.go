package loop

import (
	"context"
	"errors"
	"sync/atomic"
)

// Source says by which door a Message entered a Program.
type Source uint8

// The doors. Every Message a Program applies entered by one of them.
const (
	// FromDispatch: Dispatch or DispatchTracked, with the caller's context
	// (Applied.Ctx), which says who called when the caller marked it (an
	// agent runtime's caller, a developer tool's mark).
	FromDispatch Source = iota + 1
	// FromCmd: a Cmd's send; Applied.Cause names the version whose update
	// (or Init, version 1) returned the Cmd.
	FromCmd
	// FromPanic: Options.PanicMsg, made of a contained panic.
	FromPanic
)

// inputKey marks a dispatch context as the person's input (WithInput).
type inputKey struct{}

// WithInput returns a context whose dispatches are the person's input:
// an application's UI dispatches each key, click, paste or window event
// with it, so that a recorder (see [Program.Record]) tells the person's
// acts from the application's own dispatches, which are not the person's:
// it reads the mark with IsInput(Applied.Ctx), when it asks. It changes
// nothing else: the Message is dispatched as with ctx, and a Program
// reads no mark.
func WithInput(ctx context.Context) context.Context {
	return context.WithValue(ctx, inputKey{}, true)
}

// IsInput reports whether ctx was marked by WithInput.
func IsInput(ctx context.Context) bool {
	return ctx != nil && ctx.Value(inputKey{}) != nil
}

// String names the door: "dispatch", "cmd" or "panic".
func (s Source) String() string {
	switch s {
	case FromDispatch:
		return "dispatch"
	case FromCmd:
		return "cmd"
	case FromPanic:
		return "panic"
	}
	return "unknown"
}

// Applied is what a recorder (see [Program.Record]) learns of one applied
// Message: the version it gave the Model, the Message, the Model it
// produced, and the door it entered by.
type Applied[Model, Msg any] struct {
	Version uint64
	Msg     Msg
	Model   Model
	Source  Source
	// Ctx is the context the Message was dispatched with (FromDispatch);
	// nil for the other doors. Only its values are meant to be read.
	Ctx context.Context
	// Cause is the version whose update returned the Cmd that sent the
	// Message (FromCmd; 1 for Init's Cmd); 0 otherwise.
	Cause uint64
}

// ErrRecording is returned by Record when a recorder is already attached.
var ErrRecording = errors.New("loop: a recorder is already attached to this Program")

// recording is the recorder attached to a Program, if any.
type recording[Model, Msg any] struct {
	fn func(*Applied[Model, Msg])
}

// origin is where a queued Message came from, kept beside it only while a
// recorder is attached.
type origin struct {
	src   Source
	ctx   context.Context
	cause uint64
}

// Record attaches rec, which is then called with every Message the
// Program applies, on the goroutine applying it, with the Model it
// produced and that Model's version, right before the Model is published
// (Model and VersionedModel still return the one before), so that what
// rec keeps of a version is there by the time anyone can read the
// version, and before the Subscribe and Observe listeners. The Applied
// it is given is the Program's, reused for the next Message: rec copies
// what it keeps and must not hold on to the pointer. It must be short and
// must not block (hand long work to another goroutine); a panic in it is
// contained and reported as a listener's. A Message queued before
// Record was called is reported with the door it entered by unknown (Source
// 0). Only one recorder may be attached at a time: a second call returns
// [ErrRecording]. stop detaches it; calling it more than once is harmless.
// A Program with no recorder keeps no origins and pays nothing for them.
func (p *Program[Model, Msg]) Record(rec func(*Applied[Model, Msg])) (stop func(), err error) {
	if rec == nil {
		return func() {}, nil
	}
	r := &recording[Model, Msg]{fn: rec}
	if !p.rec.CompareAndSwap(nil, r) {
		return nil, ErrRecording
	}
	var once atomic.Bool
	return func() {
		if once.CompareAndSwap(false, true) {
			p.rec.CompareAndSwap(r, nil)
		}
	}, nil
}

// Sandbox returns the App's update function for replaying recorded
// Messages away from the live Program: it applies msg to m and returns
// the Model, never running the Cmd update returns, never publishing,
// never telling a listener. A panic in update is returned as a
// *PanicError. It relies on what App already requires: update treats m
// as immutable.
func (p *Program[Model, Msg]) Sandbox() func(m Model, msg Msg) (Model, error) {
	return func(m Model, msg Msg) (next Model, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = asPanics(r, "update")[0]
			}
		}()
		next, _ = p.app.Update(m, msg)
		return next, nil
	}
}

// dispatchOrigin is the origin of a Message dispatched with ctx, kept only
// while a recorder is attached.
func (p *Program[Model, Msg]) dispatchOrigin(ctx context.Context) origin {
	if p.rec.Load() == nil {
		return origin{}
	}
	return origin{src: FromDispatch, ctx: ctx}
}

// sender is the send handed to a Cmd: with a recorder attached, one that
// marks what it sends with the version whose update returned the Cmd.
func (p *Program[Model, Msg]) sender() func(Msg) {
	if p.rec.Load() == nil {
		return p.send
	}
	_, cause := p.hist.latest()
	return func(msg Msg) {
		p.enqueue(item[Msg]{msg: msg, origin: origin{src: FromCmd, cause: cause}})
	}
}

// tell tells the recorder r of the Message at c.msgs[i], which gave the
// Model m, before m is published: whatever r keeps of the version is
// there by the time a reader learns of the version. A panic in r is
// contained here, so that it never counts as update's; m is published
// all the same.
func (p *Program[Model, Msg]) tell(r *recording[Model, Msg], c *chunk[Msg], i int, msg Msg, m Model) {
	defer func() {
		if rec := recover(); rec != nil {
			p.report(asPanics(rec, "listener"), true)
		}
	}()
	o := c.origin(i)
	if o.src == 0 && c.isFromPanic(i) {
		o.src = FromPanic
	}
	a := &p.told
	a.Version, a.Msg, a.Model, a.Source, a.Ctx, a.Cause = p.hist.following(), msg, m, o.src, o.ctx, o.cause
	r.fn(a)
}

// putOrigin keeps o beside the Message at c.n; a chunk that never holds
// one allocates nothing for them.
func (c *chunk[Msg]) putOrigin(o origin) {
	if o.src == 0 && c.origins == nil {
		return
	}
	if c.origins == nil {
		c.origins = make([]origin, len(c.msgs))
	}
	c.origins[c.n] = o
}

// origin returns the origin of the Message at i; reset forgets it.
func (c *chunk[Msg]) origin(i int) origin {
	if c.origins == nil {
		return origin{}
	}
	return c.origins[i]
}

// clearOrigins releases the origins of the first n Messages.
func (c *chunk[Msg]) clearOrigins(n int) {
	if c.origins != nil {
		clear(c.origins[:n])
	}
}
