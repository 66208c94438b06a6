package agent

import (
	"context"
	"errors"
	"sync/atomic"
)

// seam is the runtime's side of the host seam: how a Message is handed to
// the host, and how what the host reports of its delivery is heard.
type seam[Model, Msg, P any] struct {
	host    Host[Model, Msg]
	tracker DeliveryTracker[Msg] // nil unless the host tracks delivery
	inline  bool                 // the host's Dispatch never blocks (NonBlocking)
	stamp   func() uint64        // the host's version now; nil on an unversioned host
}

// deliver hands msg to the host and waits for the verdict: the host's
// Dispatch returning, or, with a DeliveryTracker, update taking the
// Message. A host that never blocks (NonBlocking), or any host when ctx
// cannot end, is called on the caller's goroutine. Any other host runs on
// its own goroutine so that a host which never answers cannot hold the
// caller past its context; the call then settles with delivery unknown.
func (s *seam[Model, Msg, P]) deliver(ctx context.Context, capab *capability[Model, P], msg Msg, at *appliedAt) error {
	if !s.inline && ctx.Done() != nil {
		h := s.handOver(ctx, capab, msg, at)
		return s.await(ctx, capab, h.done, &h.accepted)
	}
	if s.tracker == nil {
		return s.safeHostDispatch(ctx, capab, msg, nil, nil)
	}
	v := &trackedVerdict{capab: capab.name, tag: capab.tag, at: at, stamp: s.stamp}
	if err := s.safeHostTracked(ctx, capab, msg, v); err != nil {
		// A host that reported delivery before failing is heard as it
		// would be on its own goroutine: the first report wins.
		if first, ok := v.early(); ok {
			return first
		}
		return err
	}
	if err, ok := v.early(); ok {
		return err
	}
	return s.await(ctx, capab, v.wait(), acceptedAlready)
}

// await waits for the verdict on done, or for ctx to end first, which
// leaves delivery unknown.
func (s *seam[Model, Msg, P]) await(ctx context.Context, capab *capability[Model, P], done <-chan error, accepted *atomic.Bool) error {
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		select {
		case err := <-done:
			return err
		default:
			return &CancelledError{Capability: capab.name, DeliveryUnknown: true, cause: s.idle(ctx.Err(), accepted)}
		}
	}
}

// idle adds ErrHostIdle to cause when a host that tracks delivery had
// accepted the Message (accepted) but not reported it delivered.
func (s *seam[Model, Msg, P]) idle(cause error, accepted *atomic.Bool) error {
	if s.tracker == nil || !accepted.Load() {
		return cause
	}
	if cause == nil {
		return ErrHostIdle
	}
	return errors.Join(cause, ErrHostIdle)
}

// handOver calls the host on its own goroutine and returns the channel
// that receives the verdict, once: nil when the Message was delivered (or
// the host's plain Dispatch accepted it), this package's error otherwise.
// The handover also says when the host's call returned, and whether a
// tracking host accepted the Message (queued it, waiting for update).
func (s *seam[Model, Msg, P]) handOver(ctx context.Context, capab *capability[Model, P], msg Msg, at *appliedAt) *handover {
	done := make(chan error, 1)
	h := &handover{done: done, returned: make(chan struct{})}
	settle := verdict(done)
	go func() {
		defer close(h.returned)
		err := s.safeHostDispatch(ctx, capab, msg, settle, at)
		if err != nil || s.tracker == nil {
			settle(err)
			return
		}
		h.accepted.Store(true)
	}()
	return h
}

// settledCall waits, for a host that never blocks (NonBlocking), until
// its call has returned, which it does at once: what the call said is
// then known when the caller's deadline or context ends, however the
// goroutines were scheduled. A host that may block is not waited for.
func (s *seam[Model, Msg, P]) settledCall(h *handover) {
	if s.inline {
		<-h.returned
	}
}

// safeHostDispatch calls the host: through DispatchTracked when the host
// tracks delivery and delivered is not nil (delivered then receives the
// verdict), through Dispatch otherwise.
func (s *seam[Model, Msg, P]) safeHostDispatch(ctx context.Context, capab *capability[Model, P], msg Msg, delivered func(error), at *appliedAt) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &DefectError{Capability: capab.name, Stage: "dispatch", Cause: panicError(v)}
		}
	}()
	if s.tracker != nil && delivered != nil {
		err = s.tracker.DispatchTracked(ctx, msg, func(err error) {
			if err == nil && at != nil {
				at.mark(s.stamp()) // on the update goroutine, before update
			}
			delivered(hostError(capab, err))
		})
	} else {
		err = s.host.Dispatch(ctx, msg)
	}
	return hostError(capab, err)
}

// safeHostTracked is safeHostDispatch for a tracking host called on the
// caller's goroutine, with the verdict going straight to v: one closure
// per call instead of two.
func (s *seam[Model, Msg, P]) safeHostTracked(ctx context.Context, capab *capability[Model, P], msg Msg, v *trackedVerdict) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &DefectError{Capability: capab.name, Stage: "dispatch", Cause: panicError(p)}
		}
	}()
	return hostError(capab, s.tracker.DispatchTracked(ctx, msg, v.report))
}

func (s *seam[Model, Msg, P]) readModel(subject string) (m Model, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &DefectError{Capability: subject, Stage: "model", Cause: panicError(v)}
		}
	}()
	return s.host.Model(), nil
}

// acceptedAlready is await's accepted for a host called on the caller's
// goroutine, whose call has returned without error.
var acceptedAlready = func() *atomic.Bool { var b atomic.Bool; b.Store(true); return &b }()

// trackedVerdict takes a tracking host's delivery report for deliver on
// the caller's goroutine. A report made before DispatchTracked returns
// (host/loop applying the Message on the caller) is read without a
// channel; one made later goes to the channel the caller then waits on.
// The first report is heard, any other ignored.
type trackedVerdict struct {
	capab, tag string // for hostError
	at         *appliedAt
	stamp      func() uint64
	heard      atomic.Bool
	state      atomic.Uint32
	err        error      // the report, once state is verdictEarly
	ch         chan error // set before state becomes verdictWaiting
}

const (
	verdictNone    uint32 = iota // no report yet, nobody waiting
	verdictEarly                 // err holds the report
	verdictWaiting               // the caller waits on ch
)

// report is the delivered callback handed to the host.
func (v *trackedVerdict) report(err error) {
	if !v.heard.CompareAndSwap(false, true) {
		return // a host reporting twice is heard once
	}
	if err == nil && v.at != nil {
		v.at.mark(v.stamp()) // on the update goroutine, before update
	}
	err = hostVerdict(v.capab, v.tag, err)
	v.err = err
	if v.state.CompareAndSwap(verdictNone, verdictEarly) {
		return
	}
	v.ch <- err // verdictWaiting: ch has room for the one report
}

// early returns the report if it was made before the caller began to wait.
func (v *trackedVerdict) early() (error, bool) {
	if v.state.Load() == verdictEarly {
		return v.err, true
	}
	return nil, false
}

// wait returns the channel the report arrives on.
func (v *trackedVerdict) wait() <-chan error {
	v.ch = make(chan error, 1)
	if !v.state.CompareAndSwap(verdictNone, verdictWaiting) {
		// Reported meanwhile (verdictEarly).
		v.ch <- v.err
	}
	return v.ch
}

// verdict returns the function that reports a delivery verdict on done,
// once: a host reporting twice is heard once.
func verdict(done chan error) func(error) {
	return func(err error) {
		select {
		case done <- err:
		default:
		}
	}
}

// handover is one call of the host on its own goroutine.
type handover struct {
	_        incomparable  // never compared: no equality function compiled
	done     <-chan error  // the verdict
	returned chan struct{} // closed once the host's call returned
	accepted atomic.Bool   // a tracking host's call returned nil
}
