package nativeagent

import (
	"container/list"
	"context"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/internal/bound"
)

// runtimes keeps one runtime per identity, at most max at once (the
// overall bound of internal/bound's rule; an identity has one runtime by
// construction). Beyond it, the least recently used runtime that holds
// nothing (no request of its identity in flight, no call of it held) is
// dropped and built again on that identity's next request; when every
// kept runtime is in use, the new identity is refused with a
// *bound.Refusal naming MaxRuntimes, and nothing is built for it.
type runtimes struct {
	max  int // 0: no bound
	make func(ctx context.Context, caller *auth.TokenInfo) (Runtime, error)

	mu     sync.Mutex
	byKey  map[string]*entry
	recent *list.List // of *entry, most recent first
}

type entry struct {
	key   string
	ready chan struct{} // closed once rt or err is set
	rt    Runtime
	err   error

	// Guarded by runtimes.mu.
	users int           // requests in flight and held calls on rt
	lru   *list.Element // nil once dropped

	catOnce sync.Once
	catalog []byte // the runtime's catalogue, built on first request
	catErr  error

	waitOnce sync.Once
	waits    map[string]bool // capabilities whose calls may wait (call.go)
}

func newRuntimes(max int, make func(context.Context, *auth.TokenInfo) (Runtime, error)) *runtimes {
	return &runtimes{max: max, make: make, byKey: map[string]*entry{}, recent: list.New()}
}

// acquire returns key's runtime, building it on first use, and counts the
// caller as its user until release.
func (s *runtimes) acquire(ctx context.Context, key string, caller *auth.TokenInfo) (*entry, error) {
	s.mu.Lock()
	e, ok := s.byKey[key]
	if ok {
		s.recent.MoveToFront(e.lru)
	} else {
		if !s.makeRoomLocked() {
			s.mu.Unlock()
			return nil, &bound.Refusal{Bound: "MaxRuntimes", Limit: s.max, RetryAfter: bound.DefaultRetryAfter}
		}
		e = &entry{key: key, ready: make(chan struct{})}
		e.lru = s.recent.PushFront(e)
		s.byKey[key] = e
	}
	e.users++
	s.mu.Unlock()
	if ok {
		select {
		case <-e.ready:
		case <-ctx.Done():
			s.release(e)
			return nil, ctx.Err()
		}
	} else {
		// The runtime outlives this request: its cancellation must not
		// cut the build short for the requests waiting on it.
		e.rt, e.err = s.make(context.WithoutCancel(ctx), caller)
		if e.err == nil && e.rt == nil {
			e.err = errors.New("NewRuntime returned no runtime")
		}
		close(e.ready)
	}
	if e.err != nil {
		s.mu.Lock()
		s.dropLocked(e) // the next request tries again
		s.mu.Unlock()
		s.release(e)
		return nil, e.err
	}
	return e, nil
}

// hold counts one more user of e (a held call), which must be in use.
func (s *runtimes) hold(e *entry) {
	s.mu.Lock()
	e.users++
	s.mu.Unlock()
}

// release ends one use of e.
func (s *runtimes) release(e *entry) {
	s.mu.Lock()
	e.users--
	s.mu.Unlock()
}

// makeRoomLocked drops the least recently used runtimes that hold
// nothing until one more fits, reporting false when every kept runtime is
// in use. s.mu is held.
func (s *runtimes) makeRoomLocked() bool {
	if s.max <= 0 {
		return true
	}
	for el := s.recent.Back(); len(s.byKey) >= s.max; {
		if el == nil {
			return false
		}
		e := el.Value.(*entry)
		el = el.Prev()
		if e.users > 0 {
			continue // being built, serving a request, or holding a call
		}
		s.dropLocked(e)
	}
	return true
}

func (s *runtimes) dropLocked(e *entry) {
	if e.lru == nil {
		return
	}
	s.recent.Remove(e.lru)
	e.lru = nil
	if s.byKey[e.key] == e {
		delete(s.byKey, e.key)
	}
}

func (s *runtimes) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byKey)
}
