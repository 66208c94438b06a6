package mcpagent

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SessionlessRevision is the MCP revision a Handler serves without
// sessions: no initialize handshake and no Mcp-Session-Id; a client
// learns the server through server/discover, every request carries its
// protocol version, and change notifications arrive on a
// subscriptions/listen stream the client opens.
const SessionlessRevision = "2026-07-28"

// DefaultListTTL is how long a client of the sessionless revision may
// reuse a list result (tools/list, resources/list, server/discover)
// before asking again.
const DefaultListTTL = 5 * time.Second

// codeInternalError is JSON-RPC's internal error.
const codeInternalError = -32603

// DefaultMaxRuntimes is how many identities' runtimes the sessionless path
// keeps when HTTPOptions.MaxRuntimes is zero. Beyond it the least recently
// used is released, and built again by that identity's next request.
const DefaultMaxRuntimes = 1024

// handlerProtocolVersions are the revisions a Handler serves, as its
// server/discover lists them: the sessionless revision, then the
// session-based ones.
var handlerProtocolVersions = append([]string{SessionlessRevision}, protocolVersions...)

// principalRuntime is the runtime, and the Server over it, that serve
// every sessionless request of one identity (one SessionKey). It is built
// by the first such request and kept while requests are in flight; after
// SessionTimeout with none it is closed and forgotten, and the next
// request builds it again.
type principalRuntime struct {
	key   string
	ready chan struct{} // closed once server or err is set
	// server and err are written once, before ready is closed.
	server *Server
	err    error
	// direct is the long-lived session of server that serves the
	// identity's plain calls (sessionless_direct.go); nil: every request
	// takes the SDK's path.
	direct *directConn

	// Guarded by Handler.mu.
	active    int         // requests in flight, including listen streams
	idleSince time.Time   // when active last fell to zero
	idle      *time.Timer // the idle clock, one per runtime, reset on reuse
	gone      bool        // closed, failed to build or evicted: no longer in the map
	lru       *list.Element
}

// principalKey carries, in a sessionless request's context, the runtime
// the SDK's getServer hands out.
type principalKey struct{}

// sessionless reports whether a request belongs to the sessionless
// revision: it names no session and declares a revision from
// SessionlessRevision on in its MCP-Protocol-Version header, which every
// request of that revision carries (server/discover included). Everything
// else keeps to the session-based path.
func sessionless(req *http.Request) bool {
	return req.Header.Get(sessionHeader) == "" && req.Header.Get("MCP-Protocol-Version") >= SessionlessRevision
}

// serveSessionless serves one request of the sessionless revision, with
// the runtime of the identity its token names. The request has passed the
// Origin, bearer and body checks.
func (h *Handler) serveSessionless(g *guard, r *http.Request, key string, msg envelope) {
	if r.Method != http.MethodPost {
		// No stream to GET and no session to DELETE: refused before a
		// runtime is built for it.
		g.Header().Set("Allow", http.MethodPost)
		http.Error(g, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	if !checkRevision(g, r, msg) {
		return
	}
	p, err := h.acquire(r.Context(), key)
	if err != nil {
		if errors.Is(err, errHandlerClosed) {
			http.Error(g, "Service Unavailable: the MCP endpoint is closed", http.StatusServiceUnavailable)
			return
		}
		writeRPCError(g, http.StatusInternalServerError, msg.id(), codeInternalError,
			"The server could not open the application for this identity. Try again later.", nil)
		return
	}
	defer h.release(p)
	if msg.object && msg.Method != nil && *msg.Method == "subscriptions/listen" {
		hold, r := h.holdListen(key)
		if r != nil {
			refuseListen(g, msg.id(), r)
			return
		}
		defer hold.Release()
	} else if p.direct != nil && direct(r, msg) {
		serveDirect(g, r, p, msg)
		return
	}
	r = r.WithContext(context.WithValue(r.Context(), principalKey{}, p))
	h.stateless.ServeHTTP(g, r)
}

var errHandlerClosed = errors.New("mcpagent: the handler is closed")

// checkRevision refuses, as the SDK would, a sessionless request whose
// MCP-Protocol-Version header names a revision not served, or whose _meta
// names another revision than its header; it reports whether the request
// may go on. Nothing is built for a refused request.
func checkRevision(g *guard, r *http.Request, msg envelope) bool {
	v := r.Header.Get("MCP-Protocol-Version")
	if !slices.Contains(handlerProtocolVersions, v) {
		writeRPCError(g, http.StatusBadRequest, msg.id(), mcp.CodeUnsupportedProtocolVersion,
			"This server does not serve the protocol revision the request names. Use one of the supported revisions listed in the error data.",
			mcp.UnsupportedProtocolVersionData{Supported: handlerProtocolVersions, Requested: v})
		return false
	}
	if !msg.object || len(msg.Params) == 0 {
		return true
	}
	var params struct {
		Meta struct {
			Version *string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	}
	if json.Unmarshal(msg.Params, &params) != nil || params.Meta.Version == nil || *params.Meta.Version == v {
		return true // what it cannot read is left to the SDK, which refuses it
	}
	writeRPCError(g, http.StatusBadRequest, msg.id(), mcp.CodeHeaderMismatch,
		"The request's MCP-Protocol-Version header and the protocol version in its _meta differ. Send the same revision in both.",
		map[string]string{"header": v, "meta": *params.Meta.Version})
	return false
}

// acquire returns key's runtime, building it if there is none, and counts
// the caller as in flight until release.
func (h *Handler) acquire(ctx context.Context, key string) (*principalRuntime, error) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, errHandlerClosed
	}
	p := h.principals[key]
	build := p == nil
	var evicted []*principalRuntime
	if build {
		p = &principalRuntime{key: key, ready: make(chan struct{})}
		h.principals[key] = p
		p.lru = h.recent.PushFront(p)
		evicted = h.evictLocked()
	} else {
		h.recent.MoveToFront(p.lru)
	}
	p.active++
	h.mu.Unlock()
	for _, e := range evicted {
		e.server.Close()
	}

	if build {
		// The runtime outlives this request: its cancellation must not
		// cut the build short for the requests waiting on it.
		p.server, p.err = h.buildPrincipal(context.WithoutCancel(ctx))
		if p.err == nil {
			if c, err := openDirect(p); err == nil {
				p.direct = c
			} else {
				h.log.Warn("mcpagent: sessionless requests take the SDK's path for this identity", "error", err)
			}
		}
		close(p.ready)
	} else {
		select {
		case <-p.ready:
		case <-ctx.Done():
			h.release(p)
			return nil, ctx.Err()
		}
	}
	if p.err != nil {
		h.release(p)
		return nil, p.err
	}
	return p, nil
}

// evictLocked forgets the least recently used runtimes beyond
// MaxRuntimes, and returns those that no request is using, for the caller
// to close once h.mu is released. One still in use is closed by the
// release of its last request: eviction never cuts an invocation short.
// h.mu is held.
func (h *Handler) evictLocked() []*principalRuntime {
	max := h.opts.MaxRuntimes
	if max < 0 {
		return nil
	}
	var idle []*principalRuntime
	for h.recent.Len() > max {
		p := h.recent.Back().Value.(*principalRuntime)
		h.forgetLocked(p)
		if p.active == 0 && p.server != nil {
			idle = append(idle, p)
		}
	}
	return idle
}

// buildPrincipal calls NewRuntime for the identity the request's token
// names, and builds the Server every sessionless request of that
// identity is served by.
func (h *Handler) buildPrincipal(ctx context.Context) (*Server, error) {
	rt, err := h.opts.NewRuntime(ctx, auth.TokenInfoFromContext(ctx))
	if err == nil && rt == nil {
		err = errors.New("NewRuntime returned no runtime")
	}
	if err != nil {
		h.log.Error("mcpagent: cannot open a runtime for a sessionless request", "error", err)
		return nil, err
	}
	ttl := h.opts.ListTTL
	srv, err := newStaticServer(rt, h.opts.Server, func(o *mcp.ServerOptions) {
		o.SupportedProtocolVersions = handlerProtocolVersions
		o.SetCacheable = func(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
			// Lists depend on the Model and on the principal: only this
			// principal's client may keep them, and only for the TTL. A
			// client listening for changes drops its copy as soon as the
			// list changes; one that is not may call a tool withdrawn
			// meanwhile, which the runtime refuses with a reason the model
			// can act on. A resource's value is the Model's current one,
			// immediately stale.
			c.CacheScope = "private"
			switch req.(type) {
			case *mcp.ListToolsRequest, *mcp.ListResourcesRequest, *mcp.ListResourceTemplatesRequest,
				*mcp.ListPromptsRequest, *mcp.ServerRequest[*mcp.DiscoverParams]:
				c.TTLMs = int(ttl / time.Millisecond)
			default:
				c.TTLMs = 0
			}
		}
	})
	if err != nil {
		h.log.Error("mcpagent: cannot open a runtime for a sessionless request", "error", err)
		return nil, err
	}
	return srv, nil
}

// release ends one request of p. The last one out starts the idle clock;
// a runtime that failed to build is forgotten at once, so the next request
// tries again.
func (h *Handler) release(p *principalRuntime) {
	h.mu.Lock()
	p.active--
	if p.active > 0 {
		h.mu.Unlock()
		return
	}
	if p.err != nil || h.closed || p.gone {
		// Failed, closed with the handler, or evicted while in use.
		h.forgetLocked(p)
		h.mu.Unlock()
		if p.server != nil {
			p.server.Close()
		}
		return
	}
	p.idleSince = time.Now()
	if timeout := h.opts.SessionTimeout; timeout > 0 {
		if p.idle == nil {
			p.idle = time.AfterFunc(timeout, func() { h.expire(p) })
		} else {
			p.idle.Reset(timeout)
		}
	}
	h.mu.Unlock()
}

// expire closes p if it has had no request in flight for SessionTimeout.
// A clock that fires while p is in use, or early (it was reset as it
// fired), does nothing: the next release resets it.
func (h *Handler) expire(p *principalRuntime) {
	h.mu.Lock()
	if p.gone || p.active > 0 {
		h.mu.Unlock()
		return
	}
	if left := h.opts.SessionTimeout - time.Since(p.idleSince); left > 0 {
		p.idle.Reset(left)
		h.mu.Unlock()
		return
	}
	h.forgetLocked(p)
	h.mu.Unlock()
	p.server.Close()
}

// forgetLocked removes p from the map. h.mu is held.
func (h *Handler) forgetLocked(p *principalRuntime) {
	p.gone = true
	if p.idle != nil {
		p.idle.Stop()
	}
	if h.principals[p.key] == p {
		delete(h.principals, p.key)
	}
	if p.lru != nil {
		h.recent.Remove(p.lru)
		p.lru = nil
	}
}

// statelessServer is the SDK's hook on the sessionless path: the Server of
// the identity serveSessionless found.
func (h *Handler) statelessServer(req *http.Request) *mcp.Server {
	p, _ := req.Context().Value(principalKey{}).(*principalRuntime)
	if p == nil || p.server == nil {
		return nil // the SDK answers 400
	}
	return p.server.mcp
}

// Principals returns how many identities hold a runtime on the
// sessionless path: built by a request, not yet expired.
func (h *Handler) Principals() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.principals)
}

// closePrincipals closes every sessionless runtime; called by Close, after
// closed is set, so no new one is built.
func (h *Handler) closePrincipals() {
	h.mu.Lock()
	var servers []*Server
	for _, p := range h.principals {
		select {
		case <-p.ready:
			if p.server != nil {
				servers = append(servers, p.server)
			}
			h.forgetLocked(p)
		default:
			// Still building: its request's release closes it, since
			// the handler is closed by then.
		}
	}
	h.mu.Unlock()
	for _, s := range servers {
		s.Close()
	}
}
