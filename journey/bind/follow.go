package bind

import (
	"slices"
	"sync"

	"github.com/foldagent/foldagent/journey"
)

// This file holds the parts a journey follows the Model with, each with
// its own small lock that is never held while the session or the
// application runs: the queue of Model changes, applied one at a time in
// the order they were read, and the fires working until their completion.

// change is one Model view to fold into the session; listener is false
// for the read New makes itself, which is no notification and credits no
// fire.
type change struct {
	v        view
	listener bool
}

// changes is the queue of Model changes a journey follows. Whoever queues
// a change while none is being applied applies it, and every change
// queued meanwhile, in order (drain); the others only queue. So the
// changes reach the session one at a time and in order, and none is
// applied with a lock held: what the application runs meanwhile (the
// contract's availability hooks, the session's observers) may call back
// into the binding, and a Model change it causes is queued behind the one
// being applied rather than waiting for it.
//
// Its zero value is not ready: use newChanges.
type changes struct {
	mu       sync.Mutex
	queue    []change
	applying bool
	// queued and applied count the changes queued and those applied (or
	// dropped); appliedCh is closed, and replaced, each time applied
	// moves.
	queued, applied uint64
	appliedCh       chan struct{}
	// last is the Model version of the newest view taken to apply;
	// folded, of the newest one applied (0 on an unversioned host);
	// foldedCh is closed, and replaced, each time folded moves.
	last, folded uint64
	foldedCh     chan struct{}
}

func newChanges() *changes {
	return &changes{appliedCh: make(chan struct{}), foldedCh: make(chan struct{})}
}

// push queues c. It returns the change's number, and whether the caller
// is to apply the queue (no change is being applied).
func (q *changes) push(c change) (n uint64, drain bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.queue = append(q.queue, c)
	q.queued++
	n = q.queued
	if q.applying {
		return n, false
	}
	q.applying = true
	return n, true
}

// next takes the next change to apply; with none left, the caller stops
// applying. A view of a Model version already taken is dropped (read
// before a newer Model was queued: nothing in it is news).
func (q *changes) next() (change, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.queue) > 0 {
		c := q.queue[0]
		q.queue[0] = change{}
		q.queue = q.queue[1:]
		if c.v.model != 0 && c.v.model <= q.last {
			q.step(0)
			continue
		}
		if c.v.model != 0 {
			q.last = c.v.model
		}
		return c, true
	}
	q.queue = nil
	q.applying = false
	return change{}, false
}

// done marks the change taken last as applied: the session shows the
// Model at version model now (0: an unversioned host, nothing to mark).
func (q *changes) done(model uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.step(model)
}

// step counts one change applied or dropped; q.mu is held.
func (q *changes) step(model uint64) {
	q.applied++
	close(q.appliedCh)
	q.appliedCh = make(chan struct{})
	if model != 0 {
		q.folded = model
		close(q.foldedCh)
		q.foldedCh = make(chan struct{})
	}
}

// foldedAt is the Model version folded so far, and a channel closed when
// that moves.
func (q *changes) foldedAt() (uint64, <-chan struct{}) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.folded, q.foldedCh
}

// appliedThrough reports whether change n was applied (or dropped), and
// a channel closed when the next one is.
func (q *changes) appliedThrough(n uint64) (bool, <-chan struct{}) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.applied >= n, q.appliedCh
}

// settled reports whether every change queued so far has been applied,
// and the number of the newest one queued.
func (q *changes) settled() (bool, uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.applied >= q.queued, q.queued
}

// workingSet is the fires whose capability declares a completion and
// whose dispatch has not returned, oldest first, with the work each holds
// open in the session. It owns its lock; the work it hands out is ended
// with the lock released.
type workingSet struct {
	mu   sync.Mutex
	list []working
}

// add records a fire working until its completion.
func (s *workingSet) add(x working) {
	s.mu.Lock()
	s.list = append(s.list, x)
	s.mu.Unlock()
}

// remove forgets fire id's work.
func (s *workingSet) remove(id string) {
	s.mu.Lock()
	s.list = slices.DeleteFunc(s.list, func(x working) bool { return x.id == id })
	s.mu.Unlock()
}

// coveredBy is the work of the fires whose declared writes delta covers
// (a fire that declares none is never covered).
func (s *workingSet) coveredBy(delta map[string]any) []*journey.Work {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*journey.Work
	for _, x := range s.list {
		if len(x.act.keys) == 0 {
			continue
		}
		covers := true
		for _, k := range x.act.keys {
			if _, ok := delta[k]; !ok {
				covers = false
				break
			}
		}
		if covers {
			out = append(out, x.work)
		}
	}
	return out
}
