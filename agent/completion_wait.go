package agent

import (
	"context"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
)

// This file is the runtime side of completion: how an invocation waits
// for the fact that finishes its work.
//
// Waiting on Messages. A Runtime keeps one waitIndex: a map, fixed at
// Bind, from each Message type some completion contract names to a slot
// holding the invocations that currently wait on that type. The index
// registers a single listener with the host's Observe while at least one
// invocation waits, and removes it when none does. Observing a Message
// costs one map lookup and one atomic load unless invocations wait on
// that very type, so a Message of one type never pays for waiters on
// another, however many there are.
//
// Waiting on state. Each waiting invocation subscribes on its own (to the
// host's Subscribe or the contract's Source) and re-checks its condition
// on every notification.
//
// Settling. A waiter settles exactly once: the first of a matching
// Message, a condition that holds, a panicking callback, the deadline or
// the caller's cancellation wins a compare-and-swap, stores the outcome,
// and closes done. Whoever loses reads the winner's outcome instead, so
// an invocation never reports one thing while its waiter recorded another.

const (
	waitPending uint32 = iota
	waitSettled
)

// waiter is one invocation waiting for its completion.
type waiter[Model, P any] struct {
	state      atomic.Uint32
	done       chan struct{}
	completion *Completion
	err        error

	capability string
	in         any
	call       Call[Model, P]
	// stamp reads the host's version when the waiter settles with a
	// completion (nil on an unversioned host), so the Result names the
	// version the completing fact was seen at.
	stamp func() uint64

	// On Messages: one entry per Message type the contract names.
	entries []waitEntry[Model, P]

	// On state.
	mu    sync.Mutex // serializes check
	check func() (bool, error)
	unsub func()
}

// settle records the outcome if nobody has yet, and reports whether it
// did. Exactly one call per waiter returns true.
func (w *waiter[Model, P]) settle(c *Completion, err error) bool {
	if !w.state.CompareAndSwap(waitPending, waitSettled) {
		return false
	}
	if c != nil && w.stamp != nil {
		c.version = w.stamp()
	}
	w.completion, w.err = c, err
	close(w.done)
	return true
}

// pending reports whether the waiter has not settled yet.
func (w *waiter[Model, P]) pending() bool { return w.state.Load() == waitPending }

// offer hands an observed Message of a type the waiter waits on to the
// waiter, which settles if correlate accepts it.
func (w *waiter[Model, P]) offer(m *compiledMatch, msg any) {
	if !w.pending() {
		return
	}
	if m.correlate != nil {
		ok, err := w.correlate(m, msg)
		if err != nil {
			w.settle(nil, err)
			return
		}
		if !ok {
			return
		}
	}
	w.settle(&Completion{Status: m.status, Message: msg, Tag: m.tag, wire: m.wire}, nil)
}

func (w *waiter[Model, P]) correlate(m *compiledMatch, msg any) (ok bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			ok, err = false, &DefectError{Capability: w.capability, Stage: "completion", Cause: panicError(v)}
		}
	}()
	return m.correlate(w.in, msg, w.call.Invocation), nil
}

// evaluate runs the state check once and settles when it holds or panics.
func (w *waiter[Model, P]) evaluate() {
	if !w.pending() {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.pending() {
		return
	}
	ok, err := w.check()
	switch {
	case err != nil:
		w.settle(nil, err)
	case ok:
		w.settle(&Completion{Status: Completed}, nil)
	}
}

// waitEntry links a waiter into the slot of one Message type.
type waitEntry[Model, P any] struct {
	prev, next *waitEntry[Model, P]
	slot       *waitSlot[Model, P]
	w          *waiter[Model, P]
	match      *compiledMatch
}

// waitSlot holds the invocations waiting on one Message type, in the
// order they started waiting.
type waitSlot[Model, P any] struct {
	_          incomparable // never compared: no equality function compiled
	n          atomic.Int64 // entries linked; read without the lock
	mu         sync.Mutex
	head, tail *waitEntry[Model, P]
}

func (s *waitSlot[Model, P]) link(e *waitEntry[Model, P]) {
	s.mu.Lock()
	e.prev, e.next = s.tail, nil
	if s.tail == nil {
		s.head = e
	} else {
		s.tail.next = e
	}
	s.tail = e
	s.n.Add(1)
	s.mu.Unlock()
}

func (s *waitSlot[Model, P]) unlink(e *waitEntry[Model, P]) {
	s.mu.Lock()
	if e.prev == nil {
		s.head = e.next
	} else {
		e.prev.next = e.next
	}
	if e.next == nil {
		s.tail = e.prev
	} else {
		e.next.prev = e.prev
	}
	e.prev, e.next = nil, nil
	s.n.Add(-1)
	s.mu.Unlock()
}

// deliver offers msg to every pending waiter of the slot. The candidates
// are collected under the lock and offered after it is released, so user
// code (correlate) never runs while the slot is locked.
func (s *waitSlot[Model, P]) deliver(msg any) {
	var buf [8]*waitEntry[Model, P]
	cands := buf[:0]
	s.mu.Lock()
	for e := s.head; e != nil; e = e.next {
		if e.w.pending() {
			cands = append(cands, e)
		}
	}
	s.mu.Unlock()
	for _, e := range cands {
		e.w.offer(e.match, msg)
	}
}

// waitIndex routes observed Messages to waiting invocations.
type waitIndex[Model, P any] struct {
	slots map[reflect.Type]*waitSlot[Model, P] // fixed at Bind

	// observe registers the shared listener with the host and returns its
	// unsubscribe function.
	observe func() (unsubscribe func())

	subMu sync.Mutex // guards refs and unsub; never taken by route
	refs  int
	unsub func()
}

// newWaitIndex returns the index for a contract's Message completions, or
// nil when no capability completes on a Message.
func newWaitIndex[Model, Msg, P any](c *Contract[Model, P], observer Observer[Msg]) *waitIndex[Model, P] {
	slots := map[reflect.Type]*waitSlot[Model, P]{}
	for _, capab := range c.caps {
		if plan := capab.completion; plan != nil {
			for _, m := range plan.matches {
				if slots[m.typ] == nil {
					slots[m.typ] = &waitSlot[Model, P]{}
				}
			}
		}
	}
	if len(slots) == 0 || observer == nil {
		return nil
	}
	ix := &waitIndex[Model, P]{slots: slots}
	ix.observe = func() func() {
		return observer.Observe(func(msg Msg) { ix.route(any(msg)) })
	}
	return ix
}

// route is the Observe listener: the hot path for every processed Message.
func (ix *waitIndex[Model, P]) route(msg any) {
	slot := ix.slots[reflect.TypeOf(msg)]
	if slot == nil || slot.n.Load() == 0 {
		return
	}
	slot.deliver(msg)
}

// acquire makes sure the shared listener is registered with the host.
func (ix *waitIndex[Model, P]) acquire(capability string) (err error) {
	ix.subMu.Lock()
	defer ix.subMu.Unlock()
	if ix.refs == 0 {
		defer func() {
			if v := recover(); v != nil {
				err = &DefectError{Capability: capability, Stage: "completion", Cause: panicError(v)}
			}
		}()
		unsub := ix.observe()
		if unsub == nil {
			unsub = func() {}
		}
		ix.unsub = unsub
	}
	ix.refs++
	return nil
}

// release drops one reference and unregisters the listener after the last.
func (ix *waitIndex[Model, P]) release() {
	ix.subMu.Lock()
	defer ix.subMu.Unlock()
	ix.refs--
	if ix.refs == 0 {
		unsub := ix.unsub
		ix.unsub = nil
		defer func() { _ = recover() }() // a host's unsubscribe failing must not fail the call
		unsub()
	}
}

// arm registers a waiter for one invocation, before its Message is handed
// to the host. It returns the waiter and the function that releases it;
// the caller must call release on every path once it has the outcome.
func (r *Runtime[Model, Msg, P]) arm(capab *capability[Model, P], in any, call Call[Model, P]) (*waiter[Model, P], func(), error) {
	plan := capab.completion
	w := &waiter[Model, P]{done: make(chan struct{}), capability: capab.name, in: in, call: call, stamp: r.seam.stamp}
	if len(plan.matches) > 0 {
		ix := r.waits
		if err := ix.acquire(capab.name); err != nil {
			return nil, nil, err
		}
		w.entries = make([]waitEntry[Model, P], len(plan.matches))
		for i := range plan.matches {
			e := &w.entries[i]
			e.w, e.match, e.slot = w, &plan.matches[i], ix.slots[plan.matches[i].typ]
			e.slot.link(e)
		}
		return w, func() {
			for i := range w.entries {
				w.entries[i].slot.unlink(&w.entries[i])
			}
			ix.release()
		}, nil
	}
	// On state.
	if err := r.armState(w, capab, plan, in); err != nil {
		return nil, nil, err
	}
	return w, func() {
		if w.unsub != nil {
			func() {
				defer func() { _ = recover() }()
				w.unsub()
			}()
		}
	}, nil
}

func (r *Runtime[Model, Msg, P]) armState(w *waiter[Model, P], capab *capability[Model, P], plan completionPlan[Model, P], in any) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &DefectError{Capability: capab.name, Stage: "completion", Cause: panicError(v)}
		}
	}()
	defect := func(v any) error {
		return &DefectError{Capability: capab.name, Stage: "completion", Cause: panicError(v)}
	}
	var subscribe func(func()) func()
	if plan.fromModel != nil {
		test := plan.fromModel(in)
		w.check = func() (ok bool, err error) {
			model, err := r.seam.readModel(capab.name)
			if err != nil {
				return false, err
			}
			defer func() {
				if v := recover(); v != nil {
					ok, err = false, defect(v)
				}
			}()
			return test(model), nil
		}
		subscribe = r.subscriber.Subscribe
	} else {
		test := plan.fromSource(in)
		w.check = func() (ok bool, err error) {
			defer func() {
				if v := recover(); v != nil {
					ok, err = false, defect(v)
				}
			}()
			return test(), nil
		}
		subscribe = plan.subscribe
	}
	w.unsub = subscribe(w.evaluate)
	return nil
}

// delivery is how far an invocation got in handing its Message over.
type delivery uint8

const (
	deliveryNone      delivery = iota // nothing reached update: not handed over, or refused or dropped by the host
	deliveryAttempted                 // the host was called and has not (yet) delivered
	deliverySent                      // delivered: the host's Dispatch returned nil, or update took the Message
)

// undelivered moves the trail back to deliveryNone when err says for
// certain that update never received the Message (the host refused or
// dropped it), so the audit records a refusal, not an unknown.
func (tr *trail[P]) undelivered(err error) {
	switch e := err.(type) {
	case *NotDeliveredError:
		tr.delivery = deliveryNone
	case *CancelledError:
		if !e.Dispatched && !e.DeliveryUnknown {
			tr.delivery = deliveryNone
		}
	}
}

// complete hands msg to the host and waits for the capability's
// completion contract. It registers the waiter first, starts the deadline
// when it calls the host, and settles exactly once.
func (r *Runtime[Model, Msg, P]) complete(ctx context.Context, tr *trail[P], capab *capability[Model, P], in any, call Call[Model, P], msg Msg, at *appliedAt) (*Completion, error) {
	plan := capab.completion
	w, release, err := r.arm(capab, in, call)
	if err != nil {
		return nil, err // nothing was sent
	}
	defer release()

	timer := time.NewTimer(plan.timeout)
	defer timer.Stop()
	tr.delivery = deliveryAttempted
	h := r.seam.handOver(ctx, capab, msg, at)
	done, accepted := h.done, &h.accepted

	timedOut := func(unknown bool) error {
		e := &CompletionTimeoutError{Capability: capab.name, Invocation: call.Invocation.ID, Timeout: plan.timeout, DeliveryUnknown: unknown}
		if unknown {
			e.cause = r.seam.idle(nil, accepted)
		}
		return e
	}
	// pendingHost settles while the host's Dispatch has not returned. If
	// the completion was observed meanwhile, the Message did reach update.
	pendingHost := func(err error) (*Completion, error) {
		c, err := w.finish(nil, err)
		if c != nil {
			tr.delivery = deliverySent
		}
		return c, err
	}
	// Phase 1: the host delivers the Message (bounded by the deadline and
	// by the caller's context): its Dispatch returns, or, for a host that
	// tracks delivery, update takes the Message.
	select {
	case err := <-done:
		if err != nil {
			return nil, err
		}
	case <-timer.C:
		r.seam.settledCall(h)
		select {
		case err := <-done:
			if err != nil {
				return nil, err
			}
			tr.delivery = deliverySent
			return w.finish(nil, timedOut(false))
		default:
			return pendingHost(timedOut(true))
		}
	case <-ctx.Done():
		r.seam.settledCall(h)
		select {
		case err := <-done:
			if err != nil {
				return nil, err
			}
			tr.delivery = deliverySent
			return w.finish(nil, &CancelledError{Capability: capab.name, Dispatched: true, cause: ctx.Err()})
		default:
			return pendingHost(&CancelledError{Capability: capab.name, DeliveryUnknown: true, cause: r.seam.idle(ctx.Err(), accepted)})
		}
	}
	tr.delivery = deliverySent

	// Phase 2: wait for the fact. A condition on state is checked once
	// more now, so one that already holds completes at once.
	if w.check != nil {
		w.evaluate()
	}
	select {
	case <-w.done:
		return w.completion, w.err
	case <-timer.C:
		return w.finish(nil, timedOut(false))
	case <-ctx.Done():
		return w.finish(nil, &CancelledError{Capability: capab.name, Dispatched: true, cause: ctx.Err()})
	}
}

// finish settles the waiter with the given outcome unless something else
// settled it first, and returns whichever outcome won.
func (w *waiter[Model, P]) finish(c *Completion, err error) (*Completion, error) {
	w.settle(c, err)
	<-w.done
	return w.completion, w.err
}
