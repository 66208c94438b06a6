package mcpagent

import (
	"net/http"
	"time"

	"github.com/foldagent/foldagent/internal/bound"
	"github.com/foldagent/foldagent/internal/mcpshell"
)

// Defaults of the session bounds (HTTPOptions): internal/mcpshell's rule
// and figures, which journeymcp's HTTPHandler applies too. One identity
// may hold DefaultMaxSessionsPerPrincipal (1,024) sessions, and all
// identities together DefaultMaxSessions (4,096); a session costs about
// 8–10 KiB with a Feed, so a flood of sessions on one token holds at most
// ~10 MiB, and 500 clients sharing one token (a team's service account, a
// bot fleet) each keep their own session. At its own bound an identity's
// new session takes the place of its least recently used session idle
// for DefaultEvictIdleAfter; otherwise it is refused, 429 with
// Retry-After, and nothing is built.
const (
	// DefaultMaxSessionsPerPrincipal bounds the sessions one identity may
	// hold open at once.
	DefaultMaxSessionsPerPrincipal = mcpshell.DefaultMaxSessionsPerPrincipal
	// DefaultMaxSessions bounds the sessions open at once, every identity
	// together.
	DefaultMaxSessions = mcpshell.DefaultMaxSessions
	// DefaultEvictIdleAfter is how long a session must have had no
	// request before a new session of its identity may take its place at
	// the bound.
	DefaultEvictIdleAfter = mcpshell.DefaultEvictIdleAfter
)

// newSessionPlaces returns the counter of session places, per identity
// and in all, from the options.
func newSessionPlaces(opts HTTPOptions) *bound.Counter {
	return mcpshell.Places(opts.MaxSessionsPerPrincipal, opts.MaxSessions)
}

// admitSession takes a session place for key, by internal/mcpshell's
// rule: at key's own bound, key's least recently used session idle for
// EvictIdleAfter makes room (evictIdle); failing that the
// *bound.Refusal is returned.
func (h *Handler) admitSession(key string) *bound.Refusal {
	return mcpshell.Admit(h.places, key, h.evictIdle)
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
	writeRPCError(g, bound.StatusCode, id, codeTooManySessions, mcpshell.RefusalMessage(r), data)
}
