package mcpagent

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults for HTTPOptions.
const (
	// DefaultSessionTimeout is how long a session may stay idle before it
	// is closed and its runtime's listeners are released.
	DefaultSessionTimeout = 30 * time.Minute
	// DefaultMaxRequestBodyBytes bounds a request body. JSON-RPC requests
	// to a foldagent application are small; a megabyte is generous.
	DefaultMaxRequestBodyBytes = 1 << 20
)

// sessionHeader is the streamable HTTP transport's session header.
const sessionHeader = "Mcp-Session-Id"

// HTTPOptions configure a Handler. Verifier and NewRuntime are required.
type HTTPOptions struct {
	// Verifier checks a request's bearer token and says who is calling.
	// It is the only source of identity: nothing a client sends in tool
	// arguments can change it. The returned TokenInfo must carry a
	// non-empty UserID, which owns the sessions that token opens. A token
	// the verifier rejects (with an error wrapping auth.ErrInvalidToken)
	// is answered 401 with a WWW-Authenticate header. A TokenInfo without
	// an Expiration is accepted; one with an Expiration in the past is
	// not.
	Verifier auth.TokenVerifier
	// NewRuntime returns the runtime a new session is served by, bound to
	// the principal the verifier found (typically through
	// agent.BindOptions.Principal). It is called once per session.
	NewRuntime func(ctx context.Context, principal *auth.TokenInfo) (Runtime, error)
	// Server configures each session's Server. Nil uses the defaults.
	Server *Options
	// AllowedOrigins lists the Origin values (scheme://host[:port]) a
	// browser may call from. A request that carries an Origin header not on
	// the list is refused with 403 before anything else is looked at; a
	// request without Origin (any non-browser client) is not affected, and
	// neither is a page served from this endpoint's own loopback origin
	// (Origin http://<Host> with a loopback Host). Empty allows no other
	// Origin.
	AllowedOrigins []string
	// SessionTimeout closes a session that has received no request for
	// this long, and releases its runtime's listeners. Zero uses
	// DefaultSessionTimeout; negative never expires sessions.
	SessionTimeout time.Duration
	// MaxRequestBodyBytes bounds each request body (413 beyond it). Zero
	// uses DefaultMaxRequestBodyBytes.
	MaxRequestBodyBytes int64
	// ResourceMetadataURL, when set, is advertised in WWW-Authenticate on
	// 401, for clients that discover an authorization server (RFC 9728).
	ResourceMetadataURL string
	// Logger receives the handler's diagnostics. Nil uses slog.Default.
	Logger *slog.Logger
}

// Handler serves a foldagent application over MCP's streamable HTTP
// transport, as an http.Handler an application mounts wherever it likes.
//
// Every request is checked in this order: its Origin against the
// allowlist (403); its bearer token through the application's verifier
// (401); for a request naming a session, that the session belongs to the
// token's user — a session opened by someone else is answered exactly as
// a session that does not exist (404) and dispatches nothing; then the
// SDK's own checks, including its DNS-rebinding protection on loopback,
// which stays on. A request that opens a session gets a runtime of its
// own from NewRuntime, bound to the verified principal, and a Server over
// it; when the session ends (DELETE, idle timeout, Close) the Server is
// closed and the runtime's listeners are released.
type Handler struct {
	opts    HTTPOptions
	log     *slog.Logger
	sdk     *mcp.StreamableHTTPHandler
	bare    *mcp.Server // answers the SDK's per-request protocol-version lookups
	chain   http.Handler
	origins map[string]bool

	mu       sync.Mutex
	closed   bool
	sessions map[string]*httpSession
}

type httpSession struct {
	owner  string
	server *Server // nil until the session is connected
}

// newSessionKey marks, in a request's context, a request that may open a
// session; the slot records what getServer built for it.
type newSessionKey struct{}

type newSessionSlot struct {
	once   sync.Once
	owner  string
	server *Server
	id     string
}

// NewHandler builds a Handler. It returns an error when Verifier or
// NewRuntime is missing.
func NewHandler(opts HTTPOptions) (*Handler, error) {
	if opts.Verifier == nil {
		return nil, errors.New("mcpagent: NewHandler needs a Verifier: identity comes only from the request's bearer token")
	}
	if opts.NewRuntime == nil {
		return nil, errors.New("mcpagent: NewHandler needs NewRuntime, to bind each session's runtime to its principal")
	}
	if opts.SessionTimeout == 0 {
		opts.SessionTimeout = DefaultSessionTimeout
	}
	if opts.MaxRequestBodyBytes == 0 {
		opts.MaxRequestBodyBytes = DefaultMaxRequestBodyBytes
	}
	h := &Handler{
		opts:     opts,
		log:      opts.Logger,
		origins:  make(map[string]bool, len(opts.AllowedOrigins)),
		sessions: make(map[string]*httpSession),
	}
	if h.log == nil {
		h.log = slog.Default()
	}
	for _, o := range opts.AllowedOrigins {
		h.origins[strings.ToLower(strings.TrimRight(o, "/"))] = true
	}
	h.bare = mcp.NewServer(&mcp.Implementation{Name: "foldagent"}, &mcp.ServerOptions{
		Logger: discardLogger, SupportedProtocolVersions: protocolVersions,
	})
	timeout := opts.SessionTimeout
	if timeout < 0 {
		timeout = 0
	}
	h.sdk = mcp.NewStreamableHTTPHandler(h.getServer, &mcp.StreamableHTTPOptions{
		Logger:              discardLogger,
		SessionTimeout:      timeout,
		MaxRequestBodyBytes: opts.MaxRequestBodyBytes,
	})
	bearer := auth.RequireBearerToken(h.verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL:    opts.ResourceMetadataURL,
		AllowMissingExpiration: true,
	})
	h.chain = bearer(http.HandlerFunc(h.serve))
	return h, nil
}

// verify wraps the application's verifier: a token must name its user,
// since the user owns the sessions it opens.
func (h *Handler) verify(ctx context.Context, token string, req *http.Request) (*auth.TokenInfo, error) {
	info, err := h.opts.Verifier(ctx, token, req)
	if err != nil {
		return nil, err
	}
	if info == nil || info.UserID == "" {
		return nil, fmt.Errorf("%w: the token names no user", auth.ErrInvalidToken)
	}
	return info, nil
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if origin := req.Header.Get("Origin"); origin != "" && !h.originAllowed(strings.ToLower(origin), req) {
		http.Error(w, "Forbidden: origin not allowed", http.StatusForbidden)
		return
	}
	h.chain.ServeHTTP(&challenger{ResponseWriter: w}, req)
}

// originAllowed reports whether a browser at origin may call. Besides the
// allowlist, a page served by this very endpoint on a loopback host (the
// Origin is http://<Host> and Host is 127.0.0.1, ::1 or localhost) is
// same-origin and allowed: a DNS-rebinding page cannot claim a loopback
// origin, and a non-loopback Host is refused by the SDK's own check.
func (h *Handler) originAllowed(origin string, req *http.Request) bool {
	if h.origins[origin] {
		return true
	}
	host := strings.ToLower(req.Host)
	if origin != "http://"+host && origin != "https://"+host {
		return false
	}
	name := host
	if n, _, err := net.SplitHostPort(host); err == nil {
		name = n
	}
	name = strings.Trim(name, "[]")
	return name == "localhost" || name == "127.0.0.1" || name == "::1"
}

// challenger makes sure a 401 carries WWW-Authenticate, as RFC 6750 asks:
// the SDK's middleware adds the header only when it has resource metadata
// or scopes to advertise.
type challenger struct {
	http.ResponseWriter
}

func (c *challenger) WriteHeader(code int) {
	if code == http.StatusUnauthorized && c.Header().Get("WWW-Authenticate") == "" {
		c.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
	}
	c.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the real writer (to flush
// server-sent events).
func (c *challenger) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// serve runs after the bearer check: it enforces session ownership and
// hands the request to the SDK.
func (h *Handler) serve(w http.ResponseWriter, req *http.Request) {
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		http.Error(w, "Service Unavailable: the MCP endpoint is closed", http.StatusServiceUnavailable)
		return
	}
	user := auth.TokenInfoFromContext(req.Context()).UserID
	if id := req.Header.Get(sessionHeader); id != "" {
		h.mu.Lock()
		sess := h.sessions[id]
		h.mu.Unlock()
		if sess != nil && sess.owner != user {
			// Someone else's session: let the SDK answer as it answers a
			// session it never issued, so the reply reveals nothing and
			// the session is neither reached nor kept alive.
			req = req.Clone(req.Context())
			req.Header.Set(sessionHeader, "unknown-"+rand.Text())
		}
		h.sdk.ServeHTTP(w, req)
		return
	}
	if req.Method != http.MethodPost {
		h.sdk.ServeHTTP(w, req)
		return
	}
	slot := &newSessionSlot{owner: user}
	req = req.WithContext(context.WithValue(req.Context(), newSessionKey{}, slot))
	h.sdk.ServeHTTP(w, req)
	h.settle(slot)
}

// getServer is the SDK's hook. The SDK calls it on every request (to learn
// the protocol versions) and again when it opens a session; only a POST
// without a session header may open one, and only that request builds a
// runtime, once.
func (h *Handler) getServer(req *http.Request) *mcp.Server {
	slot, _ := req.Context().Value(newSessionKey{}).(*newSessionSlot)
	if slot == nil {
		return h.bare
	}
	slot.once.Do(func() { h.open(req.Context(), slot) })
	if slot.server == nil {
		return nil // the SDK answers 400; the cause is logged
	}
	return slot.server.mcp
}

func (h *Handler) open(ctx context.Context, slot *newSessionSlot) {
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return // the SDK answers 400: no server
	}
	rt, err := h.opts.NewRuntime(ctx, auth.TokenInfoFromContext(ctx))
	if err == nil && rt == nil {
		err = errors.New("NewRuntime returned no runtime")
	}
	if err != nil {
		h.log.Error("mcpagent: cannot open a session", "error", err)
		return
	}
	srv, err := newServer(rt, h.opts.Server, func(o *mcp.ServerOptions) {
		o.GetSessionID = func() string {
			// Record the owner before the SDK makes the session reachable,
			// so no request can slip in between with another identity.
			id := rand.Text()
			h.mu.Lock()
			h.sessions[id] = &httpSession{owner: slot.owner}
			h.mu.Unlock()
			slot.id = id
			return id
		}
	})
	if err != nil {
		h.log.Error("mcpagent: cannot open a session", "error", err)
		return
	}
	slot.server = srv
}

// settle runs after a request that could have opened a session. If a
// session is live, it is tied to its Server until it ends; otherwise
// whatever was built for it is released at once.
func (h *Handler) settle(slot *newSessionSlot) {
	if slot.server == nil {
		return
	}
	var live *mcp.ServerSession
	for ss := range slot.server.mcp.Sessions() {
		live = ss
	}
	h.mu.Lock()
	sess := h.sessions[slot.id]
	if live == nil || sess == nil || h.closed {
		delete(h.sessions, slot.id)
		h.mu.Unlock()
		slot.server.Close()
		return
	}
	sess.server = slot.server
	h.mu.Unlock()
	go func() {
		_ = live.Wait()
		h.mu.Lock()
		delete(h.sessions, slot.id)
		h.mu.Unlock()
		slot.server.Close()
	}()
}

// Sessions returns how many sessions are open.
func (h *Handler) Sessions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sessions)
}

// Close ends every session, releasing their runtimes' listeners, and
// answers every later request 503. It returns nil.
func (h *Handler) Close() error {
	h.mu.Lock()
	h.closed = true
	var servers []*Server
	for _, s := range h.sessions {
		if s.server != nil {
			servers = append(servers, s.server)
		}
	}
	h.mu.Unlock()
	for _, s := range servers {
		s.Close()
	}
	return nil
}
