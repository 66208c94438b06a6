package mcpagent

import (
	"net/http"
	"time"

	"github.com/foldagent/foldagent/internal/bound"
)

// Defaults of the session bounds (HTTPOptions). The rule and its figures:
//
//   - One identity may hold DefaultMaxSessionsPerPrincipal (1,024)
//     sessions, and all identities together DefaultMaxSessions (4,096). A
//     session costs about 8–10 KiB with a Feed, so a flood of sessions on
//     one token holds at most ~10 MiB, and 500 clients sharing one token
//     (a team's service account, a bot fleet) each keep their own session.
//   - At its own bound, an identity's new session takes the place of its
//     least recently used session that has had no request for
//     DefaultEvictIdleAfter (one minute): a client that went away without
//     DELETE does not lock its identity out for the idle timeout, and a
//     client that calls again within a minute never loses its session.
//   - Otherwise the new session is refused, 429 with Retry-After, and
//     nothing is built: no live client is broken to make room, and no
//     other identity's session is ever ended for it.
const (
	// DefaultMaxSessionsPerPrincipal bounds the sessions one identity may
	// hold open at once.
	DefaultMaxSessionsPerPrincipal = 1024
	// DefaultMaxSessions bounds the sessions open at once, every identity
	// together.
	DefaultMaxSessions = 4096
	// DefaultEvictIdleAfter is how long a session must have had no
	// request before a new session of its identity may take its place at
	// the bound.
	DefaultEvictIdleAfter = time.Minute
)

// newSessionPlaces returns the counter of session places, per identity
// and in all, from the options.
func newSessionPlaces(opts HTTPOptions) *bound.Counter {
	return bound.NewCounter(
		bound.Limit{Name: "MaxSessionsPerPrincipal", Max: max(opts.MaxSessionsPerPrincipal, 0)},
		bound.Limit{Name: "MaxSessions", Max: bound.Resolve(opts.MaxSessions, DefaultMaxSessions)},
		bound.DefaultRetryAfter)
}

// admitSession takes a session place for key. At key's own bound it
// makes room by ending key's least recently used session that has been
// idle for EvictIdleAfter; failing that it returns the *bound.Refusal,
// whose RetryAfter is when that session will be idle long enough (or the
// default hint when every session is busy). The overall bound never
// makes room: that would end another identity's session.
func (h *Handler) admitSession(key string) *bound.Refusal {
	for {
		err := h.places.Take(key)
		if err == nil {
			return nil
		}
		r, _ := bound.As(err)
		if !r.PerIdentity {
			return r
		}
		evicted, wait := h.evictIdle(key)
		if !evicted {
			if wait > 0 {
				r.RetryAfter = wait
			}
			return r
		}
	}
}

// evictIdle ends key's least recently used session with no request in
// flight, if it has been idle for EvictIdleAfter, reporting whether it
// ended one; otherwise it returns how long until that session may make
// room (zero when none is idle). Recency is the order of the sessions'
// requests (httpSession.used), not a clock.
func (h *Handler) evictIdle(key string) (bool, time.Duration) {
	h.mu.Lock()
	var oldest *httpSession
	var oldestUsed uint64
	for _, st := range h.sessions {
		if st.key != key {
			continue
		}
		st.mu.Lock()
		idle, used := st.posts == 0 && !st.ended, st.used
		st.mu.Unlock()
		if idle && (oldest == nil || used < oldestUsed) {
			oldest, oldestUsed = st, used
		}
	}
	h.mu.Unlock()
	if oldest == nil {
		return false, 0
	}
	oldest.mu.Lock()
	if oldest.posts > 0 || oldest.ended {
		oldest.mu.Unlock()
		return false, 0 // a request began meanwhile: it is not idle after all
	}
	if after := h.opts.EvictIdleAfter; after > 0 {
		if wait := after - time.Since(oldest.idleAt); wait > 0 {
			oldest.mu.Unlock()
			return false, wait
		}
	}
	oldest.ended = true
	oldest.mu.Unlock()
	h.endSession(oldest)
	return true, 0
}

// releaseLocked gives back one of key's session places. h.mu is held.
func (h *Handler) releaseLocked(key string) { h.places.Give(key) }

// refuseSession answers an initialize refused by a session bound: 429
// with Retry-After and a JSON-RPC error whose data names the bound.
func refuseSession(g http.ResponseWriter, id []byte, r *bound.Refusal) {
	r.SetHeaders(g.Header())
	data := r.Data()
	data["maxSessions"] = r.Limit
	msg := "This identity already holds as many open sessions as the server allows, and none has been idle long enough to give way. Reuse one, end one (HTTP DELETE with its session id), or initialize again after the time in the Retry-After header."
	if !r.PerIdentity {
		msg = "The server already holds as many open sessions as it allows. Initialize again after the time in the Retry-After header."
	}
	writeRPCError(g, bound.StatusCode, id, codeTooManySessions, msg, data)
}
