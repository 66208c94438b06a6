package teahost

import (
	"context"
	"errors"
	"runtime/debug"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
)

// Source says by which door a Message reached the application's Update.
type Source uint8

// The doors.
const (
	// FromDispatch: Dispatch or DispatchTracked, with the caller's context
	// (Applied.Ctx).
	FromDispatch Source = iota + 1
	// FromInput: the person at the terminal: a key, a mouse event, a
	// paste, or a change of the window (its size, its focus).
	FromInput
	// FromProgram: anything else Bubble Tea delivered: a tea.Cmd's result
	// (the application's own effect) or another terminal report (its
	// colours, its environment).
	FromProgram
)

// String names the door: "dispatch", "input" or "program".
func (s Source) String() string {
	switch s {
	case FromDispatch:
		return "dispatch"
	case FromInput:
		return "input"
	case FromProgram:
		return "program"
	}
	return "unknown"
}

// Applied is what a recorder (see [Host.Record]) learns of one Update:
// the version it gave the model, the Message, the published model and the
// door the Message came by.
type Applied[M any] struct {
	Version uint64
	Msg     tea.Msg
	Model   M
	Source  Source
	// Ctx is the context the Message was dispatched with (FromDispatch);
	// nil otherwise. Only its values are meant to be read.
	Ctx context.Context
}

// ErrRecording is returned by Record when a recorder is already attached.
var ErrRecording = errors.New("teahost: a recorder is already attached to this Host")

type recording[M any] struct {
	fn func(Applied[M])
}

// origined carries a dispatched Message with its context to Update while
// a recorder is attached. Like tracked, a tea.WithFilter function sees it
// instead of the Message.
type origined struct {
	msg tea.Msg
	ctx context.Context
}

// Record attaches rec, which is then called after every Update that
// publishes a model, on Bubble Tea's event loop, right after the model is
// published and before the listeners. It must be short and must not
// block; a panic in it is contained and reported as a listener's. A
// Message dispatched before Record was called is reported as coming from
// the program. Only one recorder may be attached at a time: a second call
// returns [ErrRecording]. stop detaches it; calling it again is harmless.
// Key presses an agent sends as a Keys Message are applied in one turn
// and not reported one by one.
func (h *Host[M, Msg]) Record(rec func(Applied[M])) (stop func(), err error) {
	if rec == nil {
		return func() {}, nil
	}
	r := &recording[M]{fn: rec}
	if !h.rec.CompareAndSwap(nil, r) {
		return nil, ErrRecording
	}
	var once atomic.Bool
	return func() {
		if once.CompareAndSwap(false, true) {
			h.rec.CompareAndSwap(r, nil)
		}
	}, nil
}

// Sandbox returns the application's Update for replaying recorded
// Messages away from the running program: it applies msg to a deep copy
// of m (the copy the Host publishes, so m itself is never written) and
// returns the model, never running the Cmd, never publishing, never
// telling a listener. A panic in Update is returned as a *PanicError, and
// a model of another type as a *Violation.
func (h *Host[M, Msg]) Sandbox() func(m M, msg tea.Msg) (M, error) {
	return func(m M, msg tea.Msg) (next M, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = &PanicError{Source: "update", Msg: msg, Value: r, Stack: debug.Stack()}
			}
		}()
		out, _ := copyModel(m).Update(msg)
		n, ok := out.(M)
		if !ok {
			return next, &Violation{Kind: TypeChanged, Msg: msg}
		}
		return n, nil
	}
}

// withOrigin wraps a dispatched Message with its context while a
// recorder is attached.
func (h *Host[M, Msg]) withOrigin(ctx context.Context, msg Msg) tea.Msg {
	if h.rec.Load() == nil {
		return msg
	}
	return &origined{msg: msg, ctx: ctx}
}

// unwrapOrigin returns the Message an origined carries and its context.
func unwrapOrigin(msg tea.Msg) (tea.Msg, *origined) {
	if o, ok := msg.(*origined); ok {
		return o.msg, o
	}
	return msg, nil
}

// recordApplied tells the recorder, if any, of msg, which made s.
func (h *Host[M, Msg]) recordApplied(msg tea.Msg, o *origined, s *versioned[M]) {
	r := h.rec.Load()
	if r == nil {
		return
	}
	a := Applied[M]{Version: s.version, Msg: msg, Model: s.model, Source: FromProgram}
	switch {
	case o != nil:
		a.Source, a.Ctx = FromDispatch, o.ctx
	case isInput(msg):
		a.Source = FromInput
	}
	defer func() {
		if rec := recover(); rec != nil {
			h.panicked(&PanicError{Source: "listener", Msg: msg, Value: rec, Stack: debug.Stack()})
		}
	}()
	r.fn(a)
}

// isInput reports whether msg is the person's input at the terminal.
func isInput(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.KeyReleaseMsg, tea.MouseClickMsg, tea.MouseReleaseMsg,
		tea.MouseWheelMsg, tea.MouseMotionMsg, tea.PasteMsg,
		tea.WindowSizeMsg, tea.FocusMsg, tea.BlurMsg:
		return true
	}
	return false
}
