package journeymcp

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/bound"
	"github.com/foldagent/foldagent/internal/httpguard"
	"github.com/foldagent/foldagent/internal/mcpleave"
	"github.com/foldagent/foldagent/internal/mcpshell"
)

// Defaults of HTTPOptions: the one rule and figures of both MCP adapters'
// session bounds (internal/mcpshell; see
// mcpagent.DefaultMaxSessionsPerPrincipal).
const (
	DefaultSessionTimeout          = mcpshell.DefaultSessionTimeout
	DefaultMaxSessionsPerPrincipal = mcpshell.DefaultMaxSessionsPerPrincipal
	DefaultMaxSessions             = mcpshell.DefaultMaxSessions
	DefaultEvictIdleAfter          = mcpshell.DefaultEvictIdleAfter
)

// HTTPOptions configure an HTTPHandler. The zero value (or nil) is ready
// to use.
type HTTPOptions struct {
	// Identity names who a request acts as, from the request (the
	// application has authenticated it before the handler sees it). A
	// session belongs to the identity of the request that opened it:
	// a request of another identity naming it is answered as a session
	// that does not exist. Nil uses the UserID of the auth.TokenInfo in
	// the request's context (auth.RequireBearerToken puts it there);
	// requests without one are one identity.
	Identity func(*http.Request) string
	// SessionTimeout ends a session that has received no request for this
	// long (and, with NewSessionServer, releases its journey). Zero uses
	// DefaultSessionTimeout; negative never ends idle sessions.
	SessionTimeout time.Duration
	// MaxSessionsPerPrincipal bounds the sessions one identity may hold
	// open at once. At the bound, a new session takes the place of the
	// identity's least recently used session that has had no request for
	// EvictIdleAfter; when there is none it is refused, 429 with
	// Retry-After and a JSON-RPC error naming the bound, and nothing is
	// opened. Zero uses DefaultMaxSessionsPerPrincipal; negative sets no
	// bound.
	MaxSessionsPerPrincipal int
	// MaxSessions bounds the sessions open at once, every identity
	// together; beyond it a new session is refused the same way, and no
	// other identity's session is ended for it. Zero uses
	// DefaultMaxSessions; negative sets no bound.
	MaxSessions int
	// EvictIdleAfter is how long a session must have had no request
	// before a new session of its identity may take its place at the
	// bound. Zero uses DefaultEvictIdleAfter; negative: any session with
	// no request in flight.
	EvictIdleAfter time.Duration
	// MaxRequestBodyBytes bounds each request body (413 beyond it). Zero
	// or negative uses the bound every foldagent HTTP surface uses,
	// mcpagent.DefaultMaxRequestBodyBytes (a mebibyte).
	MaxRequestBodyBytes int64
}

// HTTPHandler serves MCP servers over streamable HTTP, as the SDK's
// handler does, with every identity's sessions bounded (the rule of
// internal/bound, as mcpagent.Handler applies it): a flood of sessions on
// one token holds at most MaxSessionsPerPrincipal, and is refused beyond
// with a retry hint while every other identity is served as before.
type HTTPHandler struct {
	sdk      *mcp.StreamableHTTPHandler
	server   func(*http.Request) *mcp.Server
	identity func(*http.Request) string
	timeout  time.Duration
	evict    time.Duration
	places   *bound.Counter

	mu       sync.Mutex
	sessions map[string]*httpSession
	// leavers track each served server's calls, so that an owned
	// session's DELETE ends its calls (a call held for the person's
	// approval is withdrawn) before the SDK closes the session, which
	// waits for them. Guarded by mu.
	leavers map[*mcp.Server]*mcpleave.Sessions
}

type httpSession struct {
	id, key string
	srv     *mcp.Server
	// Guarded by HTTPHandler.mu.
	posts  int
	idleAt time.Time
	timer  *time.Timer
	ended  bool
}

// NewHTTPHandler returns an HTTPHandler serving the server getServer
// returns for a request opening a session (as mcp.NewStreamableHTTPHandler).
func NewHTTPHandler(getServer func(*http.Request) *mcp.Server, opts *HTTPOptions) *HTTPHandler {
	var o HTTPOptions
	if opts != nil {
		o = *opts
	}
	h := &HTTPHandler{server: getServer, identity: o.Identity, sessions: map[string]*httpSession{}, leavers: map[*mcp.Server]*mcpleave.Sessions{}}
	if h.identity == nil {
		h.identity = func(r *http.Request) string {
			if info := auth.TokenInfoFromContext(r.Context()); info != nil {
				return info.UserID
			}
			return ""
		}
	}
	switch {
	case o.SessionTimeout == 0:
		h.timeout = DefaultSessionTimeout
	case o.SessionTimeout > 0:
		h.timeout = o.SessionTimeout
	}
	switch {
	case o.EvictIdleAfter == 0:
		h.evict = DefaultEvictIdleAfter
	case o.EvictIdleAfter > 0:
		h.evict = o.EvictIdleAfter
	}
	h.places = mcpshell.Places(o.MaxSessionsPerPrincipal, o.MaxSessions)
	// The handler ends idle sessions itself: it must know when one ends.
	h.sdk = mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{MaxRequestBodyBytes: httpguard.BodyLimit(o.MaxRequestBodyBytes)})
	return h
}

// Sessions returns how many sessions are open.
func (h *HTTPHandler) Sessions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sessions)
}

// ServeHTTP implements http.Handler.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := h.identity(r)
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		if r.Method != http.MethodPost {
			h.sdk.ServeHTTP(w, r)
			return
		}
		h.open(w, r, key)
		return
	}
	h.mu.Lock()
	st := h.sessions[id]
	if st == nil || st.key != key || st.ended {
		h.mu.Unlock()
		// Unknown, ended, or another identity's: the same answer.
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	// A POST pauses the idle clock while it runs; a stream (GET) does
	// not, so a client that went away with its stream open still lets
	// its session end.
	post := r.Method == http.MethodPost
	if r.Method == http.MethodDelete {
		// The session's calls end first: the SDK's close waits for them.
		h.leavers[st.srv].Leave(id)
	}
	if post {
		st.posts++
		if st.timer != nil {
			st.timer.Stop()
		}
	}
	h.mu.Unlock()
	rec := &recorder{ResponseWriter: w}
	h.sdk.ServeHTTP(rec, r)
	if post {
		h.mu.Lock()
		st.posts--
		h.idle(st)
		h.mu.Unlock()
	}
	if (r.Method == http.MethodDelete && rec.status/100 == 2) || rec.status == http.StatusNotFound {
		h.end(st)
	}
}

// open serves a POST naming no session: an initialize, which opens one
// within the bounds.
func (h *HTTPHandler) open(w http.ResponseWriter, r *http.Request, key string) {
	if refusal := h.admit(key); refusal != nil {
		refusal.SetHeaders(w.Header())
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(bound.StatusCode)
		msg := mcpshell.RefusalMessage(refusal)
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32000, "message": msg, "data": refusal.Data()}})
		return
	}
	// The session is recorded as its answer's header is written, before
	// the client can learn its id and name it in a next request.
	var st *httpSession
	rec := &recorder{ResponseWriter: w, onHeader: func(status int, hdr http.Header) {
		id := hdr.Get("Mcp-Session-Id")
		if id == "" || status/100 != 2 {
			return
		}
		st = &httpSession{id: id, key: key, srv: h.server(r), posts: 1}
		h.mu.Lock()
		if h.leavers[st.srv] == nil {
			h.leavers[st.srv] = mcpleave.Track(st.srv)
		}
		h.sessions[id] = st
		h.mu.Unlock()
	}}
	h.sdk.ServeHTTP(rec, r)
	if st == nil {
		h.places.Give(key)
		return
	}
	h.mu.Lock()
	st.posts--
	h.idle(st)
	h.mu.Unlock()
}

// admit takes a session place for key, by internal/mcpshell's rule:
// at key's own bound its least recently used session idle for
// EvictIdleAfter makes room.
func (h *HTTPHandler) admit(key string) *bound.Refusal {
	return mcpshell.Admit(h.places, key, h.evictIdle)
}

// evictIdle ends key's least recently used session idle long enough,
// reporting whether it ended one, or else how long until one will be.
func (h *HTTPHandler) evictIdle(key string) (bool, time.Duration) {
	st, wait := h.oldestIdle(key)
	if st == nil {
		return false, wait
	}
	h.end(st)
	return true, 0
}

// oldestIdle returns key's least recently used session with no request
// in flight when it has been idle long enough to give way, marked ended;
// otherwise how long until it will have been.
func (h *HTTPHandler) oldestIdle(key string) (*httpSession, time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var oldest *httpSession
	for _, st := range h.sessions {
		if st.key == key && st.posts == 0 && !st.ended && (oldest == nil || st.idleAt.Before(oldest.idleAt)) {
			oldest = st
		}
	}
	if oldest == nil {
		return nil, 0
	}
	if wait := h.evict - time.Since(oldest.idleAt); wait > 0 {
		return nil, wait
	}
	oldest.ended = true
	return oldest, 0
}

// idle marks a session idle when no request of it is in flight and
// starts its idle timer. h.mu is held.
func (h *HTTPHandler) idle(st *httpSession) {
	if st.posts > 0 || st.ended {
		return
	}
	st.idleAt = time.Now()
	if h.timeout <= 0 {
		return
	}
	if st.timer == nil {
		st.timer = time.AfterFunc(h.timeout, func() { h.expire(st) })
		return
	}
	st.timer.Reset(h.timeout)
}

func (h *HTTPHandler) expire(st *httpSession) {
	h.mu.Lock()
	if st.posts > 0 || st.ended || time.Since(st.idleAt) < h.timeout {
		h.mu.Unlock()
		return
	}
	st.ended = true
	h.mu.Unlock()
	h.end(st)
}

// end ends a session once: its place is given back and the SDK's session
// closed (which releases what the server holds for it).
func (h *HTTPHandler) end(st *httpSession) {
	h.mu.Lock()
	st.ended = true
	if st.timer != nil {
		st.timer.Stop()
	}
	if h.sessions[st.id] != st {
		h.mu.Unlock()
		return
	}
	delete(h.sessions, st.id)
	h.mu.Unlock()
	h.places.Give(st.key)
	if st.srv == nil {
		return
	}
	for ss := range st.srv.Sessions() {
		if ss.ID() == st.id {
			_ = ss.Close()
		}
	}
}

// Close ends every session.
func (h *HTTPHandler) Close() error {
	h.mu.Lock()
	all := make([]*httpSession, 0, len(h.sessions))
	for _, st := range h.sessions {
		all = append(all, st)
	}
	h.mu.Unlock()
	for _, st := range all {
		h.end(st)
	}
	return nil
}

// recorder notes the status a response was written with, passing
// everything on (streams included: Flush and Unwrap reach the writer).
type recorder struct {
	http.ResponseWriter
	status   int
	onHeader func(status int, h http.Header) // called once, before the header is written
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
		if r.onHeader != nil {
			r.onHeader(code, r.Header())
		}
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.WriteHeader(http.StatusOK)
	}
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
