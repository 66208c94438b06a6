package mcpagent

import (
	"bytes"
	"container/list"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/bound"
	"github.com/foldagent/foldagent/internal/httpguard"
	"github.com/foldagent/foldagent/internal/mcpshell"
)

// Defaults for HTTPOptions.
const (
	// DefaultSessionTimeout is how long a session may stay idle before it
	// is closed and its runtime's listeners are released.
	DefaultSessionTimeout = mcpshell.DefaultSessionTimeout
	// DefaultMaxRequestBodyBytes bounds a request body when
	// HTTPOptions.MaxRequestBodyBytes is zero or negative: the one default
	// of every foldagent HTTP surface (a mebibyte).
	DefaultMaxRequestBodyBytes = httpguard.DefaultMaxBodyBytes
	// DefaultBodyTimeout is how long a client has to deliver a request
	// body once the handler starts reading it. A megabyte arrives on any
	// working link well within it; a client that trickles its body is cut
	// off instead of holding a connection and a goroutine.
	DefaultBodyTimeout = 10 * time.Second
	// DefaultWriteTimeout bounds each write of a response or event
	// stream. A client that stops reading its stream is disconnected after
	// it, instead of blocking the session's writer for good.
	DefaultWriteTimeout = 10 * time.Second
)

// sessionHeader is the streamable HTTP transport's session header.
const sessionHeader = "Mcp-Session-Id"

// JSON-RPC error codes the handler answers with before a message reaches
// the SDK.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	// codeTooManySessions is in JSON-RPC's range for implementation-defined
	// server errors.
	codeTooManySessions = -32000
)

// HTTPOptions configure a Handler. Verifier and NewRuntime are required.
type HTTPOptions struct {
	// Verifier checks a request's bearer token and says who is calling.
	// It is the only source of identity: nothing a client sends in tool
	// arguments can change it. The returned TokenInfo must carry a
	// non-empty UserID. A token the verifier rejects (with an error
	// wrapping auth.ErrInvalidToken) is answered 401 with a
	// WWW-Authenticate header, before the request body is read. A
	// TokenInfo without an Expiration is accepted; one with an Expiration
	// in the past is not.
	Verifier auth.TokenVerifier
	// NewRuntime returns the runtime a new session is served by, bound to
	// the principal the verifier found (typically through
	// agent.BindOptions.Principal). It is called once per session.
	// On the sessionless path it is called once per identity (SessionKey)
	// instead, and that runtime serves every request of the identity until
	// it has been idle for SessionTimeout.
	NewRuntime func(ctx context.Context, principal *auth.TokenInfo) (Runtime, error)
	// SessionKey names the identity a request acts as. A session belongs
	// to the key of the request that opened it, and every later request
	// naming the session must present a token with the same key; any other
	// is answered exactly as a session that does not exist, and reaches
	// nothing. Sessions are also counted per key (MaxSessionsPerPrincipal).
	//
	// Nil keys on everything the verifier returned that a runtime's
	// principal can be derived from: UserID, Scopes (in any order) and
	// Extra, compared by value to any depth (pointers are followed,
	// unexported fields included); Expiration is left out, so a refreshed
	// token for the same identity keeps its sessions. Two tokens for the
	// same user name with different roles therefore have different keys.
	// The default cannot represent functions or channels in Extra; a
	// request whose Extra holds one is answered 500, and such an
	// application supplies its own SessionKey.
	//
	// A key function must return the same key for every token of one
	// identity and different keys for identities a runtime treats
	// differently. An empty key refuses the request with 401.
	SessionKey func(*auth.TokenInfo) string
	// Server configures the Servers that serve the sessions. Nil uses the
	// defaults. With a Feed, every session is served by one Server the
	// Handler builds over the Feed's runtime when it is made (NewHandler
	// returns its error), each call and read still going through the
	// session's own runtime; without one, each session has a Server of
	// its own.
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
	// this long, and releases its runtime's listeners. On the sessionless
	// path it is how long an identity's runtime is kept with no request in
	// flight (an open subscriptions/listen stream is one). Zero uses
	// DefaultSessionTimeout; negative never expires sessions or runtimes.
	SessionTimeout time.Duration
	// ListTTL is how long a client of the sessionless revision may cache
	// a list result (tools/list, resources/list, server/discover), marked
	// private to the principal. A client listening for changes drops its
	// copy when the list changes; the TTL bounds how late any other client
	// sees a tool the Model now offers. Zero uses DefaultListTTL; negative
	// marks lists immediately stale. Session-based revisions have no list
	// caching and are not affected.
	ListTTL time.Duration
	// MaxSessionsPerPrincipal bounds how many sessions one identity (one
	// SessionKey) may hold open at once. An initialize beyond it ends
	// that identity's least recently used session that has had no
	// request for EvictIdleAfter and takes its place (clients that never
	// send DELETE are not locked out until the idle timeout); when there
	// is none, it is answered 429 with Retry-After and a JSON-RPC error
	// naming the bound, and opens nothing: a client in use is never cut
	// off to make room. A session frees its place when it ends (DELETE,
	// idle timeout, Close). The same number bounds, separately, the
	// subscriptions/listen streams one identity may hold open on the
	// sessionless path (refused alike, 429 with Retry-After; an open
	// stream is never ended to make room). Zero uses
	// DefaultMaxSessionsPerPrincipal; negative sets no bound.
	MaxSessionsPerPrincipal int
	// MaxSessions bounds the sessions open at once, every identity
	// together. An initialize beyond it is answered 429 with Retry-After;
	// no other identity's session is ended for it. The same number
	// bounds, separately, the sessionless subscriptions/listen streams of
	// every identity together. Zero uses DefaultMaxSessions; negative sets
	// no bound.
	MaxSessions int
	// EvictIdleAfter is how long a session must have had no request
	// before a new session of its identity, at MaxSessionsPerPrincipal,
	// may end it and take its place. Zero uses DefaultEvictIdleAfter;
	// negative lets any session with no request in flight make room at
	// once (which ends the sessions of clients that call again, when more
	// of them share an identity than its bound).
	EvictIdleAfter time.Duration
	// MaxRuntimes bounds how many identities' runtimes the sessionless
	// path keeps at once. Beyond it the least recently used runtime is
	// released and built again by its identity's next request; one serving
	// a request (a listen stream included) is released only once that
	// request ends, so eviction never cuts an invocation short. Zero uses
	// DefaultMaxRuntimes; negative sets no bound. Sessions are not counted:
	// MaxSessionsPerPrincipal bounds them.
	MaxRuntimes int
	// MaxRequestBodyBytes bounds each request body (413 beyond it). Zero
	// or negative uses DefaultMaxRequestBodyBytes: a body is always
	// bounded.
	MaxRequestBodyBytes int64
	// BodyTimeout bounds how long reading a request body may take, from
	// the moment the handler starts reading it (after the bearer check). A
	// body not complete by then is answered 408 and its connection closed.
	// Zero uses DefaultBodyTimeout; negative sets no deadline. It needs a
	// ResponseWriter that supports http.ResponseController's
	// SetReadDeadline, as net/http's own does.
	BodyTimeout time.Duration
	// WriteTimeout bounds each write to a client: a response, an event on
	// a stream, a flush. A write not done by then fails, the connection is
	// closed and the request ends; the session itself stays open for the
	// client to reconnect. Zero uses DefaultWriteTimeout; negative sets no
	// deadline. It needs a ResponseWriter that supports
	// http.ResponseController's SetWriteDeadline, as net/http's own does.
	WriteTimeout time.Duration
	// ResourceMetadataURL, when set, is advertised in WWW-Authenticate on
	// 401, for clients that discover an authorization server (RFC 9728).
	ResourceMetadataURL string
	// Logger receives the handler's diagnostics. Nil uses slog.Default.
	Logger *slog.Logger
}

// Handler serves a foldagent application over MCP's streamable HTTP
// transport, as an http.Handler an application mounts wherever it likes.
//
// Every request is checked in this order, and a refusal before the body
// is read closes the connection instead of waiting for the body:
//
//   - its Origin against the allowlist (403);
//   - its bearer token through the application's verifier (401);
//   - for a request naming a session, that the session was opened by the
//     same identity (HTTPOptions.SessionKey): a session opened by anyone
//     else is answered exactly as a session that does not exist (404) and
//     dispatches nothing;
//   - its body, read within BodyTimeout (408) and MaxRequestBodyBytes
//     (413), which must hold exactly one JSON value: anything after it is
//     refused (400, JSON-RPC -32600) and nothing is served;
//   - a POST without a session must be an initialize request (400,
//     JSON-RPC -32600), and its identity must have fewer than
//     MaxSessionsPerPrincipal sessions open, or one of them idle for
//     EvictIdleAfter, which it then replaces, and fewer than MaxSessions
//     must be open in all (429 with Retry-After, JSON-RPC -32000, naming
//     the bound);
//   - then the SDK's own checks, including its DNS-rebinding protection
//     on loopback, which stays on.
//
// A request that opens a session gets a runtime of its own from
// NewRuntime, bound to the verified principal, which serves every call and
// read of the session. With a Feed (HTTPOptions.Server.Feed) the sessions
// share one Server, so opening one registers no tools; without one each
// session gets a Server of its own over its runtime, closed, and the
// runtime's listeners released, when the session ends (DELETE, idle
// timeout, Close). The session's calls in flight are cancelled first, so
// a call held for the person's approval is withdrawn (never run for a
// client that left) and a DELETE is answered at once. Every write to a client is bounded
// by WriteTimeout, so a client that never reads its stream cannot hold the
// session's writer.
//
// One endpoint serves every revision. A client of the sessionless
// revision (SessionlessRevision, 2026-07-28) sends no initialize and no
// session id: a request naming no session whose MCP-Protocol-Version is
// that revision or later takes the sessionless path, where each request is authenticated on
// its own and served by the runtime of the identity its token names (the
// same SessionKey rule that owns sessions): one runtime per identity,
// built by its first request and kept until it has been idle for
// SessionTimeout, or until MaxRuntimes other identities have used theirs
// more recently (a runtime serving a request is released only once the
// request ends). A request naming a revision the Handler does not serve
// is refused before any runtime is built. Its clients learn the server through server/discover,
// may cache list results for ListTTL, and get tools/list_changed and
// resources/updated on a subscriptions/listen stream (bounded per identity
// by MaxSessionsPerPrincipal); closing a request cancels its invocation.
// A plain call of that revision is served by one long-lived SDK session
// of its identity's runtime, not a temporary session per request; a
// subscriptions/listen stream, a call asking for progress, and anything
// the SDK's Stateless mode would refuse take that mode instead.
// Its server/discover lists every revision served. Clients of the
// session-based revisions (2025-11-25 back to 2024-11-05) initialize and
// negotiate as before, and so does a client that probed with
// server/discover and was refused by an older server.
//
// Because nothing ties a sessionless request to a process but its
// identity, several replicas can serve one application as long as every
// request of an identity reaches the replica holding its application
// instance (routing on the principal; see docs/replicas.md).
type Handler struct {
	opts HTTPOptions
	log  *slog.Logger
	sdk  *mcp.StreamableHTTPHandler
	bare *mcp.Server // answers the SDK's per-request protocol-version lookups
	// shared serves every session when Options.Feed is set: the family
	// offers the same tools to all, so one SDK server holds them once,
	// and each call is served by its own session's runtime.
	shared  *Server
	timeout time.Duration // idle timeout of a session; 0: none
	chain   http.Handler
	origins map[string]bool

	mu       sync.Mutex
	closed   bool
	sessions map[string]*httpSession
	places   *bound.Counter // sessions open or opening, per identity key and in all (sessionbound.go)
	listens  *bound.Counter // sessionless subscriptions/listen streams, likewise (sessionless_listen.go)

	stateless  *mcp.StreamableHTTPHandler   // the sessionless revision
	principals map[string]*principalRuntime // sessionless runtimes, per identity key
	recent     *list.List                   // of *principalRuntime, most recently used first

	// requests numbers the sessions' finished POSTs, so that the least
	// recently used idle session is found by order, never by a clock.
	requests atomic.Uint64
}

// httpSession is one session the Handler opened. It rides in the context
// of the initialize request that opens it (sessionCtxKey), which the SDK
// keeps as the context of every later request of the session, so the
// session's runtime reaches every call without a lookup.
//
// No goroutine waits for a session's end: the Handler ends it itself, on
// DELETE, on its idle timer, on Close, or when the SDK no longer knows it.
type httpSession struct {
	h    *Handler
	key  string
	once sync.Once // opens the session's runtime, on the initialize request
	rt   Runtime
	own  *Server // the session's own Server, without a Feed; nil: h.shared

	id string             // set when the session is initialized
	ss *mcp.ServerSession // set with id

	// left is cancelled when the session ends, before the SDK closes it:
	// every call of the session runs under it (track), so a call held
	// for the person's approval is withdrawn at once, never run for a
	// client that left, and the SDK's close, which waits for the
	// session's calls, does not wait for the person.
	left  context.Context
	leave context.CancelFunc

	mu    sync.Mutex // guards what follows
	posts int        // POSTs in flight; the idle timer runs only at zero
	used  uint64     // the Handler's request count when a POST last ended
	// idleAt is when the last POST in flight ended: a session idle for
	// EvictIdleAfter may make room for a new one of its identity.
	idleAt time.Time
	timer  *time.Timer
	ended  bool // no request may reach the session any more
	gone   bool // its place and its entry were given back; under h.mu
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
	opts.MaxRequestBodyBytes = httpguard.BodyLimit(opts.MaxRequestBodyBytes)
	if opts.MaxSessionsPerPrincipal == 0 {
		opts.MaxSessionsPerPrincipal = DefaultMaxSessionsPerPrincipal
	}
	if opts.EvictIdleAfter == 0 {
		opts.EvictIdleAfter = DefaultEvictIdleAfter
	}
	if opts.MaxRuntimes == 0 {
		opts.MaxRuntimes = DefaultMaxRuntimes
	}
	if opts.BodyTimeout == 0 {
		opts.BodyTimeout = DefaultBodyTimeout
	}
	if opts.WriteTimeout == 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	switch {
	case opts.ListTTL == 0:
		opts.ListTTL = DefaultListTTL
	case opts.ListTTL < 0:
		opts.ListTTL = 0
	}
	h := &Handler{
		opts:       opts,
		log:        opts.Logger,
		origins:    make(map[string]bool, len(opts.AllowedOrigins)),
		sessions:   make(map[string]*httpSession),
		places:     newSessionPlaces(opts),
		listens:    newListenPlaces(opts),
		principals: make(map[string]*principalRuntime),
		recent:     list.New(),
	}
	if h.log == nil {
		h.log = slog.Default()
	}
	for _, o := range opts.AllowedOrigins {
		h.origins[strings.ToLower(strings.TrimRight(o, "/"))] = true
	}
	h.bare = mcp.NewServer(&mcp.Implementation{Name: "foldagent"}, &mcp.ServerOptions{
		Logger: mcpshell.Discard, SupportedProtocolVersions: protocolVersions,
	})
	if opts.SessionTimeout > 0 {
		h.timeout = opts.SessionTimeout
	}
	if opts.Server != nil && opts.Server.Feed != nil {
		// Built over the Feed's own runtime, which only follows the Model
		// for subscribed resources: no call is ever served by it.
		shared, err := buildServer(opts.Server.Feed.rt, opts.Server, true, h.tune)
		if err != nil {
			return nil, err
		}
		shared.mcp.AddReceivingMiddleware(h.track)
		h.shared = shared
	}
	h.sdk = mcp.NewStreamableHTTPHandler(h.getServer, &mcp.StreamableHTTPOptions{
		Logger: mcpshell.Discard,
		// The Handler times idle sessions out itself (httpSession), as the
		// SDK would: it needs to know when a session ends, and the SDK
		// does not say.
		MaxRequestBodyBytes: opts.MaxRequestBodyBytes,
	})
	h.stateless = mcp.NewStreamableHTTPHandler(h.statelessServer, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		Logger:              mcpshell.Discard,
		MaxRequestBodyBytes: opts.MaxRequestBodyBytes,
		// A sessionless request is its POST: a client that gives up on it
		// (closing the request is how it cancels) cancels the invocation.
		PropagateRequestCancellation: true,
	})
	bearer := auth.RequireBearerToken(h.verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL:    opts.ResourceMetadataURL,
		AllowMissingExpiration: true,
	})
	h.chain = bearer(http.HandlerFunc(authenticated))
	return h, nil
}

// errNoSessionKey is answered 500: the token was valid, but the handler
// cannot tell whose sessions it may use.
var errNoSessionKey = errors.New("mcpagent: the server cannot derive a session key from this token")

// verify wraps the application's verifier: a token must name its user and
// yield a session key, since its identity owns the sessions it opens.
func (h *Handler) verify(ctx context.Context, token string, req *http.Request) (*auth.TokenInfo, error) {
	info, err := h.opts.Verifier(ctx, token, req)
	if err != nil {
		return nil, err
	}
	if info == nil || info.UserID == "" {
		return nil, fmt.Errorf("%w: the token names no user", auth.ErrInvalidToken)
	}
	key, err := h.sessionKey(info)
	if err != nil {
		return nil, err
	}
	if k, ok := ctx.Value(derivedKeyCtx{}).(*derivedKey); ok {
		// serve uses it, instead of deriving it again.
		k.info, k.key = info, key
	}
	return info, nil
}

// derivedKeyCtx carries, in a request's context, where verify leaves the
// identity key it derived for the request's token, for serve to use. It
// holds nothing else: the context of a request that opens a session lives
// as long as the session.
type derivedKeyCtx struct{}

type derivedKey struct {
	info *auth.TokenInfo
	key  string
}

// sessionKey returns the identity key of info, through the application's
// SessionKey or the default.
func (h *Handler) sessionKey(info *auth.TokenInfo) (string, error) {
	if h.opts.SessionKey != nil {
		if key := h.opts.SessionKey(info); key != "" {
			return key, nil
		}
		return "", fmt.Errorf("%w: the token names no identity", auth.ErrInvalidToken)
	}
	key, err := httpguard.Identity(info)
	if err != nil {
		h.log.Error("mcpagent: cannot derive a session key; set HTTPOptions.SessionKey", "error", err)
		return "", errNoSessionKey
	}
	return key, nil
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	g := &guard{ResponseWriter: w, rc: http.NewResponseController(w), req: req, writeTimeout: h.opts.WriteTimeout}
	if origin := req.Header.Get("Origin"); origin != "" && !h.originAllowed(strings.ToLower(origin), req) {
		http.Error(g, "Forbidden: origin not allowed", http.StatusForbidden)
		return
	}
	if r := h.authenticate(g, req); r != nil {
		h.serve(g, r)
	}
	// net/http flushes what is left after the handler returns: bound that
	// write too. net/http clears the deadline before the connection's next
	// request.
	g.arm()
}

// authenticate runs the SDK's bearer check on req. It returns the request
// carrying the verified token, or nil when the check refused it (and
// answered).
//
// The check returns before the request is served, rather than wrapping
// serve: a session's open stream keeps every frame under it on its
// goroutine's stack for as long as it stays open, and the fewer they are,
// the more streams fit in their goroutine's first stack.
//
//go:noinline
func (h *Handler) authenticate(g *guard, req *http.Request) *http.Request {
	// Its own allocation, not a field of g: the context of a request
	// that opens a session is kept as long as the session, and must not
	// keep the guard (and its connection's buffers) with it.
	g.derived = new(derivedKey)
	h.chain.ServeHTTP(g, req.WithContext(context.WithValue(req.Context(), derivedKeyCtx{}, g.derived)))
	r := g.authed
	g.authed = nil
	return r
}

// authenticated ends the bearer check's chain: it hands the verified
// request back to authenticate.
func authenticated(w http.ResponseWriter, r *http.Request) { w.(*guard).authed = r }

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

// guard is the ResponseWriter every request is served through.
//
// A response written before the request body has been read closes the
// connection and stops waiting for the body: otherwise net/http, to reuse
// the connection, reads what is left of the body before sending the
// response, and a client that declares a body and never sends it holds
// the connection with no answer at all. Each write and flush is bounded by
// the write timeout. A 401 always carries WWW-Authenticate, as RFC 6750
// asks: the SDK's middleware adds the header only when it has resource
// metadata or scopes to advertise.
type guard struct {
	http.ResponseWriter
	rc           *http.ResponseController
	req          *http.Request
	writeTimeout time.Duration
	bodyRead     bool // the handler consumed the request body
	wroteHeader  bool
	status       int           // the status written, once wroteHeader
	derived      *derivedKey   // the identity key verify derived
	authed       *http.Request // the request the bearer check let through
}

func (g *guard) WriteHeader(code int) {
	if g.wroteHeader || code < 200 {
		g.ResponseWriter.WriteHeader(code)
		return
	}
	g.wroteHeader = true
	g.status = code
	if code == http.StatusUnauthorized && g.Header().Get("WWW-Authenticate") == "" {
		g.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
	}
	if !g.bodyRead && g.req.ContentLength != 0 {
		g.Header().Set("Connection", "close")
		_ = g.rc.SetReadDeadline(time.Now())
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *guard) Write(p []byte) (int, error) {
	if !g.wroteHeader {
		g.WriteHeader(http.StatusOK)
	}
	g.arm()
	defer g.disarm()
	return g.ResponseWriter.Write(p)
}

// FlushError lets http.ResponseController flush (server-sent events)
// within the write timeout.
func (g *guard) FlushError() error {
	if !g.wroteHeader {
		g.WriteHeader(http.StatusOK)
	}
	g.arm()
	defer g.disarm()
	return g.rc.Flush()
}

// arm sets the write deadline for the write about to happen; disarm
// clears it after, so a deadline never outlives its write (on HTTP/2 an
// expired deadline resets the stream even when nothing is being written).
func (g *guard) arm() {
	if g.writeTimeout > 0 {
		_ = g.rc.SetWriteDeadline(time.Now().Add(g.writeTimeout))
	}
}

func (g *guard) disarm() {
	if g.writeTimeout > 0 {
		_ = g.rc.SetWriteDeadline(time.Time{})
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (g *guard) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// serve runs after the bearer check: it enforces session ownership, reads
// and checks the body, and hands the request to the SDK.
func (h *Handler) serve(g *guard, req *http.Request) {
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		http.Error(g, "Service Unavailable: the MCP endpoint is closed", http.StatusServiceUnavailable)
		return
	}
	info := auth.TokenInfoFromContext(req.Context())
	key, err := g.derived.key, error(nil)
	if g.derived.info != info || key == "" {
		key, err = h.sessionKey(info)
	}
	if err != nil {
		// The verifier's wrapper refused this already; a SessionKey that
		// answers differently on a second call lands here.
		http.Error(g, "Unauthorized: the token names no identity", http.StatusUnauthorized)
		return
	}
	id := req.Header.Get(sessionHeader)
	var sess *httpSession
	if id != "" {
		h.mu.Lock()
		sess = h.sessions[id]
		h.mu.Unlock()
		if sess == nil || sess.key != key {
			// A session that does not exist and a session opened by
			// another identity get the same answer, the one the SDK gives
			// for a session it never issued, before the body is read: the
			// reply reveals nothing and the session is neither reached nor
			// kept alive.
			http.Error(g, "session not found", http.StatusNotFound)
			return
		}
	}
	r, msg := h.prepare(g, req)
	switch {
	case r == nil:
		return // answered
	case sessionless(req):
		h.serveSessionless(g, r, key, *msg)
	case sess != nil:
		h.serveSession(g, r, sess)
	case req.Method != http.MethodPost:
		h.sdk.ServeHTTP(g, r)
	default:
		h.initialize(g, r, key, msg)
	}
}

// prepare reads and checks the request's body and returns the request
// to hand on, with the body in memory, and the message it holds (the zero
// envelope when it is not a POST). On failure it has answered the request
// and returns nil.
//
// It is kept apart from serve, whose frame stays on the stack of every
// open stream: a session's stream goroutine should not grow past its
// first stack for what only the body check needs.
//
//go:noinline
func (h *Handler) prepare(g *guard, req *http.Request) (*http.Request, *envelope) {
	body, ok := h.readBody(g, req)
	if !ok {
		return nil, nil
	}
	msg := new(envelope)
	if req.Method == http.MethodPost {
		if *msg, ok = checkBody(g, body); !ok {
			return nil, nil
		}
		body = liftTaskBody(body, msg) // see tasks.go
	}
	r := req.WithContext(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return r, msg
}

// initialize serves a POST naming no session, which must open one.
func (h *Handler) initialize(g *guard, r *http.Request, key string, msg *envelope) {
	if !msg.isInitialize() {
		writeRPCError(g, http.StatusBadRequest, msg.id(), codeInvalidRequest,
			"This request names no session. Open one with an initialize request, then send the "+sessionHeader+" header it returns with every later request.", nil)
		return
	}
	// At the bound, the identity's least recently used session idle for
	// EvictIdleAfter makes room: a client that never sends DELETE (most
	// do not) is not locked out for the idle timeout, and one that calls
	// again is not cut off. Otherwise the new session is refused with a
	// retry hint (sessionbound.go).
	if r := h.admitSession(key); r != nil {
		refuseSession(g, msg.id(), r)
		return
	}
	st := &httpSession{h: h, key: key, posts: 1}
	st.left, st.leave = context.WithCancel(context.Background())
	r = r.WithContext(context.WithValue(r.Context(), sessionCtxKey{}, st))
	h.sdk.ServeHTTP(g, r)
	h.settle(st)
}

// serveSession hands the SDK a request of a session this identity holds.
// A POST pauses the session's idle timer while it runs, as the SDK's own
// timer does; a stream does not, so a client that went away with its
// stream open still lets the session expire.
func (h *Handler) serveSession(g *guard, r *http.Request, st *httpSession) {
	if r.Method == http.MethodPost {
		if !st.begin() {
			http.Error(g, "session not found", http.StatusNotFound)
			return
		}
		defer st.finish()
	}
	if r.Method == http.MethodDelete && st.leave != nil {
		// Its client ends it: the session's calls end now, since the
		// SDK's close waits for them (a call held for the person would
		// hold the DELETE's answer until the person answered).
		st.leave()
	}
	h.sdk.ServeHTTP(g, r)
	switch {
	case r.Method == http.MethodDelete && g.status == http.StatusNoContent,
		g.status == http.StatusNotFound:
		// Ended by its client, or no longer known to the SDK.
		h.endSession(st)
	}
}

// readBody reads the whole request body within BodyTimeout and
// MaxRequestBodyBytes. On failure it has answered the request.
func (h *Handler) readBody(g *guard, req *http.Request) ([]byte, bool) {
	if req.Body == nil || req.Body == http.NoBody || req.ContentLength == 0 {
		g.bodyRead = true
		return nil, true
	}
	if h.opts.BodyTimeout > 0 {
		_ = g.rc.SetReadDeadline(time.Now().Add(h.opts.BodyTimeout))
	}
	max := h.opts.MaxRequestBodyBytes
	body, err := httpguard.ReadBody(g, req, max)
	switch {
	case httpguard.TooLarge(err):
		http.Error(g, fmt.Sprintf("request body exceeds %d bytes", max), http.StatusRequestEntityTooLarge)
		return nil, false
	case errors.Is(err, os.ErrDeadlineExceeded):
		http.Error(g, "Request Timeout: the request body did not arrive in time", http.StatusRequestTimeout)
		return nil, false
	case err != nil:
		http.Error(g, "Bad Request: the request body could not be read", http.StatusBadRequest)
		return nil, false
	}
	g.bodyRead = true
	if h.opts.BodyTimeout > 0 {
		// The body is in; a stream that follows may stay open for long.
		_ = g.rc.SetReadDeadline(time.Time{})
	}
	return body, true
}

// envelope is what the handler needs of a JSON-RPC message: its method
// and id, when the body is a single object.
type envelope struct {
	Method *string         `json:"method"`
	ID     json.RawMessage `json:"id"`
	Params json.RawMessage `json:"params"`
	object bool
}

func (e envelope) isInitialize() bool {
	return e.object && e.Method != nil && *e.Method == "initialize" && len(e.ID) > 0 && string(e.ID) != "null"
}

// id returns the message's id when it has a usable one, for an error
// response to carry; otherwise null.
func (e envelope) id() json.RawMessage {
	if !e.object || len(e.ID) == 0 {
		return nil
	}
	switch e.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return e.ID
	}
	return nil
}

// checkBody makes sure a POST body is exactly one JSON value: the SDK
// decodes the first value and ignores whatever follows, which would serve
// half a body. An empty body is left to the SDK, which refuses it.
func checkBody(g *guard, body []byte) (envelope, bool) {
	var msg envelope
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return msg, true
	}
	if !json.Valid(trimmed) {
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		var first json.RawMessage
		if dec.Decode(&first) == nil {
			writeRPCError(g, http.StatusBadRequest, nil, codeInvalidRequest,
				"The request body holds more than one JSON value. Send exactly one JSON-RPC message per request, with nothing after it.", nil)
		} else {
			writeRPCError(g, http.StatusBadRequest, nil, codeParseError,
				"The request body is not valid JSON.", nil)
		}
		return msg, false
	}
	if trimmed[0] == '{' {
		msg.object = json.Unmarshal(trimmed, &msg) == nil
	}
	return msg, true
}

// writeRPCError answers with a JSON-RPC error response. The message is an
// authored sentence; runtime values ride in data.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string, data any) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{code, message, data}})
	if err != nil {
		http.Error(w, http.StatusText(status), status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// getServer is the SDK's hook. The SDK calls it on every request (to learn
// the protocol versions) and again when it opens a session; only a POST
// without a session header may open one, and only that request builds a
// runtime, once.
func (h *Handler) getServer(req *http.Request) *mcp.Server {
	st, _ := req.Context().Value(sessionCtxKey{}).(*httpSession)
	if st == nil {
		return h.bare
	}
	st.once.Do(func() { h.open(req.Context(), st) })
	switch {
	case st.rt == nil:
		return nil // the SDK answers 400; the cause is logged
	case st.own != nil:
		return st.own.mcp
	}
	return h.shared.mcp
}

// open builds the runtime of a session about to open, and its own Server
// when the sessions share none.
func (h *Handler) open(ctx context.Context, st *httpSession) {
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
	if err == nil && h.shared != nil && !h.shared.feed.member(rt.Describe()) {
		err = errors.New("mcpagent: the runtime's contract is not the Feed's: a Feed serves only runtimes bound to its own host and contract")
	}
	if err != nil {
		h.log.Error("mcpagent: cannot open a session", "error", err)
		return
	}
	if h.shared == nil {
		srv, err := newServer(rt, h.opts.Server, h.tune)
		if err != nil {
			h.log.Error("mcpagent: cannot open a session", "error", err)
			return
		}
		srv.mcp.AddReceivingMiddleware(h.track)
		st.own = srv
	}
	st.rt = rt
}

// tune sets up every SDK server that serves the Handler's sessions.
func (h *Handler) tune(o *mcp.ServerOptions) {
	o.GetSessionID = rand.Text
}

// track is the receiving middleware of every SDK server serving the
// Handler's sessions. On a session's initialize it records the session
// under its id, before the answer that tells the client the id is
// written: no request can name the session before its owner is known.
func (h *Handler) track(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize":
			if st, ok := ctx.Value(sessionCtxKey{}).(*httpSession); ok {
				h.record(st, req.GetSession())
			}
		case "tools/call":
			if st, ok := ctx.Value(sessionCtxKey{}).(*httpSession); ok && st.left != nil {
				// Ends with the session (see httpSession.left).
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				defer cancel()
				defer context.AfterFunc(st.left, cancel)()
			}
		}
		return next(ctx, method, req)
	}
}

func (h *Handler) record(st *httpSession, session mcp.Session) {
	ss, ok := session.(*mcp.ServerSession)
	if !ok || ss.ID() == "" {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if st.ss != nil {
		return // a second initialize on the session
	}
	st.id, st.ss = ss.ID(), ss
	if !h.closed && !st.gone {
		h.sessions[st.id] = st
	}
}

// settle runs after a request that could have opened a session. A session
// that is now live keeps its place and starts its idle timer; anything
// else built for the request is released at once, with the place.
func (h *Handler) settle(st *httpSession) {
	h.mu.Lock()
	live := st.ss != nil && st.ss.InitializeParams() != nil && h.sessions[st.id] == st && !h.closed
	h.mu.Unlock()
	if !live {
		h.endSession(st)
		return
	}
	st.finish()
}

// begin marks a POST of the session in flight, pausing its idle timer. It
// reports false when the session has ended.
func (st *httpSession) begin() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ended {
		return false
	}
	if st.posts == 0 && st.timer != nil {
		st.timer.Stop()
	}
	st.posts++
	return true
}

// finish marks a POST done; the last one in flight restarts the idle
// timer.
func (st *httpSession) finish() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.posts--
	st.used = st.h.requests.Add(1)
	if st.posts == 0 {
		st.idleAt = time.Now()
	}
	if st.posts > 0 || st.ended || st.h.timeout <= 0 {
		return
	}
	if st.timer == nil {
		st.timer = time.AfterFunc(st.h.timeout, st.expire)
		return
	}
	st.timer.Reset(st.h.timeout)
}

// expire ends a session whose idle timer ran out, unless a POST began
// meanwhile.
func (st *httpSession) expire() {
	st.mu.Lock()
	if st.posts > 0 || st.ended {
		st.mu.Unlock()
		return
	}
	st.ended = true
	st.mu.Unlock()
	st.h.endSession(st)
}

// endSession ends a session, once, whatever ended it: its entry and its
// identity's place are given back, the SDK's session is closed and what
// served it released.
func (h *Handler) endSession(st *httpSession) {
	if st.leave != nil {
		st.leave() // its calls end first: closing waits for them
	}
	st.mu.Lock()
	st.ended = true
	if st.timer != nil {
		st.timer.Stop()
	}
	st.mu.Unlock()
	h.mu.Lock()
	first := !st.gone
	if first {
		st.gone = true
		if st.ss != nil && h.sessions[st.id] == st {
			delete(h.sessions, st.id)
		}
		h.releaseLocked(st.key)
	}
	ss := st.ss
	h.mu.Unlock()
	if ss != nil {
		// Also when it ended before it was recorded: the SDK may hold it.
		_ = ss.Close()
		if h.shared != nil {
			h.shared.resources.forget(ss)
		}
	}
	if first && st.own != nil {
		st.own.Close()
	}
}

// Sessions returns how many sessions are open.
func (h *Handler) Sessions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sessions)
}

// Close ends every session and every sessionless runtime, releasing
// their listeners, and answers every later request 503. It returns nil.
func (h *Handler) Close() error {
	h.mu.Lock()
	h.closed = true
	sessions := make([]*httpSession, 0, len(h.sessions))
	for _, st := range h.sessions {
		sessions = append(sessions, st)
	}
	h.mu.Unlock()
	for _, st := range sessions {
		h.endSession(st)
	}
	if h.shared != nil {
		h.shared.Close()
	}
	h.closePrincipals()
	return nil
}
