package a2aagent

import (
	"container/list"
	"context"
	"errors"
	"sync/atomic"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/internal/bound"
)

// Defaults of the per-principal bounds (see HTTPOptions).
const (
	// DefaultMaxTasksPerPrincipal is how many tasks one principal may
	// have running at once. It is well under DefaultTaskCapacity, so that
	// one principal at its bound leaves the store's room to the others.
	DefaultMaxTasksPerPrincipal = 16
	// DefaultMaxRuntimes is how many principals' runtimes a Handler keeps
	// at once, as mcpagent's sessionless path and nativeagent do.
	DefaultMaxRuntimes = 1024
)

// refusal answers a request beyond a bound: the SDK's server error, with
// our sentence and the bound, its limit and the retry hint as details.
func refusal(err error, sentence string) error {
	r, ok := bound.As(err)
	if !ok {
		return err
	}
	return a2a.NewError(a2a.ErrServerError, sentence).WithDetails(r.Data())
}

// The sentences of the refusals; the bound and its figures ride in the
// details.
const (
	tooManyTasks    = "This caller already has as many tasks running as this agent allows each caller. Wait for one to end, then send the message again."
	tooManyRuntimes = "This agent is serving as many callers as it can hold at once, each with a task running. Try again shortly."
)

// taskHold is the place a message's task holds among its principal's
// running tasks, from admission until its execution ends. It is given
// back once, whichever comes first: the execution's end, the SDK's
// cleanup, or a failure before the task began.
type taskHold struct{ p atomic.Pointer[bound.Hold] }

func (t *taskHold) set(h *bound.Hold) { t.p.Store(h) }

func (t *taskHold) release() {
	if t == nil {
		return
	}
	t.p.Load().Release()
}

// takeTask counts one running task against identity.
func (h *Handler) takeTask(identity string) (*bound.Hold, error) {
	hold, err := h.tasks.Acquire(identity)
	if err != nil {
		return nil, refusal(err, tooManyTasks)
	}
	return hold, nil
}

// runtimeEntry is one principal's runtime, kept while the Handler may
// need it: it is evicted, least recently used first, only when MaxRuntimes
// are kept and it holds nothing (no task of its principal running).
type runtimeEntry struct {
	key   string
	ready chan struct{}
	rt    Runtime
	err   error
	lru   *list.Element // under Handler.mu; nil once evicted
}

// runtimeFor returns the principal's runtime, building it once per
// identity key (httpguard.Identity: user, scopes and claims together).
// The caller holds a task place for key, so its runtime is not evicted
// while it is used.
func (h *Handler) runtimeFor(ctx context.Context, key string, info *auth.TokenInfo) (Runtime, error) {
	h.mu.Lock()
	e, ok := h.runtimes[key]
	if ok {
		h.recent.MoveToFront(e.lru)
	} else {
		if !h.makeRuntimeRoomLocked() {
			h.mu.Unlock()
			return nil, refusal(&bound.Refusal{Bound: "MaxRuntimes", Limit: h.maxRuntimes, RetryAfter: bound.DefaultRetryAfter}, tooManyRuntimes)
		}
		e = &runtimeEntry{key: key, ready: make(chan struct{})}
		e.lru = h.recent.PushFront(e)
		h.runtimes[key] = e
	}
	h.mu.Unlock()
	if ok {
		select {
		case <-e.ready:
			return e.rt, e.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	e.rt, e.err = h.opts.NewRuntime(ctx, info)
	if e.err == nil && e.rt == nil {
		e.err = errors.New("NewRuntime returned no runtime")
	}
	if e.err != nil {
		h.mu.Lock()
		h.forgetLocked(e)
		h.mu.Unlock()
	}
	close(e.ready)
	return e.rt, e.err
}

// makeRuntimeRoomLocked evicts the least recently used runtimes that
// hold nothing until one more fits, reporting false when every kept
// runtime is in use. h.mu is held.
func (h *Handler) makeRuntimeRoomLocked() bool {
	if h.maxRuntimes <= 0 {
		return true
	}
	for el := h.recent.Back(); len(h.runtimes) >= h.maxRuntimes; {
		if el == nil {
			return false
		}
		e := el.Value.(*runtimeEntry)
		el = el.Prev()
		select {
		case <-e.ready:
		default:
			continue // still being built for a request
		}
		if h.tasks.Held(e.key) > 0 {
			continue // a task of its principal runs on it
		}
		h.forgetLocked(e)
	}
	return true
}

// forgetLocked drops an entry. h.mu is held.
func (h *Handler) forgetLocked(e *runtimeEntry) {
	if e.lru == nil {
		return
	}
	h.recent.Remove(e.lru)
	e.lru = nil
	if h.runtimes[e.key] == e {
		delete(h.runtimes, e.key)
	}
}

// Runtimes returns how many principals' runtimes the Handler keeps.
func (h *Handler) Runtimes() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.runtimes)
}
