package journey

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"time"
)

// observers is the part of a session that tells the application what
// happened: the registered observers, the host callbacks that panicked
// (defects), and the calls queued for delivery once the session's lock
// is released. Registration and defects have their own lock (obsMu), so
// an observer may register or read defects from anywhere; the outbox is
// written under the session's lock and drained by Session.unlock, with no
// lock held. Its zero value has no clock or logger: a session sets both.
type observers struct {
	now func() time.Time
	log *slog.Logger

	obsMu   sync.Mutex
	obsSeq  int
	onTrans []observer[Transition]
	onState []observer[StateChange]
	onGap   []observer[GapRecord]
	onAsk   []observer[AskEvent]
	defects []Defect
	outbox  []func()
}

type observer[T any] struct {
	id int
	fn func(T)
}

// safeCall runs a host callback, recording a panic as a Defect.
func (o *observers) safeCall(where string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			o.defect(where, r)
		}
	}()
	f()
}

func (o *observers) defect(where string, r any) {
	d := Defect{Where: where, Value: fmt.Sprint(r), At: o.now()}
	o.log.Error("journey: host callback panicked", "where", where, "panic", d.Value, "stack", string(debug.Stack()))
	o.obsMu.Lock()
	o.defects = append(o.defects, d)
	if len(o.defects) > 2*maxDefects {
		o.defects = slices.Delete(o.defects, 0, len(o.defects)-maxDefects)
	}
	o.obsMu.Unlock()
}

// Defects lists host callbacks that panicked, oldest first: the newest
// few hundred; every one was also logged when it happened.
func (o *observers) Defects() []Defect {
	o.obsMu.Lock()
	defer o.obsMu.Unlock()
	return slices.Clone(o.defects)
}

// emit queues the delivery of v to the observers registered now; the
// session delivers it once its lock is released.
func emit[T any](o *observers, list *[]observer[T], where string, v T) {
	o.obsMu.Lock()
	obs := slices.Clone(*list)
	o.obsMu.Unlock()
	if len(obs) == 0 {
		return
	}
	o.outbox = append(o.outbox, func() {
		for _, ob := range obs {
			o.safeCall(where, func() { ob.fn(v) })
		}
	})
}

func subscribe[T any](o *observers, list *[]observer[T], fn func(T)) func() {
	o.obsMu.Lock()
	o.obsSeq++
	id := o.obsSeq
	*list = append(*list, observer[T]{id, fn})
	o.obsMu.Unlock()
	return func() {
		o.obsMu.Lock()
		*list = slices.DeleteFunc(*list, func(ob observer[T]) bool { return ob.id == id })
		o.obsMu.Unlock()
	}
}

// takeOutbox hands over the queued deliveries (under the session's lock).
func (o *observers) takeOutbox() []func() {
	out := o.outbox
	o.outbox = nil
	return out
}

// OnTransition registers an observer for transition rows (new rows and
// rows whose settlement, outcome or arrival moved). It returns a function
// that removes the observer. A panicking observer is recorded as a Defect.
func (o *observers) OnTransition(fn func(Transition)) func() { return subscribe(o, &o.onTrans, fn) }

// OnState registers an observer for committed state reports.
func (o *observers) OnState(fn func(StateChange)) func() { return subscribe(o, &o.onState, fn) }

// OnGap registers an observer for gap-ledger rows.
func (o *observers) OnGap(fn func(GapRecord)) func() { return subscribe(o, &o.onGap, fn) }

// OnAsk registers an observer for ask-book events.
func (o *observers) OnAsk(fn func(AskEvent)) func() { return subscribe(o, &o.onAsk, fn) }

func (o *observers) transition(r *record) {
	emit(o, &o.onTrans, "transition observer", copyTransition(r))
}

// OnTransition registers an observer for transition rows (new rows and
// rows whose settlement, outcome or arrival moved). It returns a function
// that removes the observer. A panicking observer is recorded as a Defect.
func (s *Session) OnTransition(fn func(Transition)) func() { return s.st.obs.OnTransition(fn) }

// OnState registers an observer for committed state reports.
func (s *Session) OnState(fn func(StateChange)) func() { return s.st.obs.OnState(fn) }

// OnGap registers an observer for gap-ledger rows.
func (s *Session) OnGap(fn func(GapRecord)) func() { return s.st.obs.OnGap(fn) }

// OnAsk registers an observer for ask-book events.
func (s *Session) OnAsk(fn func(AskEvent)) func() { return s.st.obs.OnAsk(fn) }

// Defects lists host callbacks that panicked, oldest first: the newest
// few hundred; every one was also logged when it happened.
func (s *Session) Defects() []Defect { return s.st.obs.Defects() }

// RecordDefect records a panic that code serving this session (an
// adapter, a port) recovered, as a Defect, logged like the session's own.
// v is the recovered value; it is kept as data and never served.
func (s *Session) RecordDefect(where string, v any) { s.st.obs.defect(where, v) }
