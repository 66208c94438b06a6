package a2aagent

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/bound"
	"github.com/foldagent/foldagent/internal/httpguard"
)

// Defaults for HTTPOptions.
const (
	// DefaultMaxRequestBodyBytes bounds a request body when
	// HTTPOptions.MaxRequestBodyBytes is zero or negative: the one default
	// of every foldagent HTTP surface (a mebibyte).
	DefaultMaxRequestBodyBytes = httpguard.DefaultMaxBodyBytes
	// DefaultTaskCapacity is how many tasks the store keeps.
	DefaultTaskCapacity = 1000
)

// HTTPOptions configure a Handler. Verifier and NewRuntime are required;
// without Contract the card lists no skills. The field names follow mcpagent.HTTPOptions, so an application
// serving both passes the same verifier and the same runtime constructor.
type HTTPOptions struct {
	// Verifier checks a request's bearer token and says who is calling.
	// It is the only source of identity: nothing a client sends in a
	// message can change it. The returned TokenInfo must carry a non-empty
	// UserID; the whole TokenInfo (user, scopes and claims) is the identity
	// that owns the tasks the token creates. A rejected token
	// (an error wrapping auth.ErrInvalidToken) is answered 401 with a
	// WWW-Authenticate header. Every request but the agent card's is
	// checked.
	Verifier auth.TokenVerifier
	// NewRuntime returns the runtime a principal's tasks are served by,
	// bound to that principal (typically through
	// agent.BindOptions.Principal). It is called once per principal
	// identity, on that identity's first message; an error refuses that
	// message and is tried again on the next.
	NewRuntime func(ctx context.Context, principal *auth.TokenInfo) (Runtime, error)
	// Contract is the contract the card describes, from Runtime.Describe
	// or Contract.Describe: every capability becomes a skill.
	Contract agent.Description
	// Card names and describes the agent on its card.
	Card CardOptions
	// BaseURL is the URL the Handler is reachable at, for the card's
	// interfaces. Empty derives it from each card request: its scheme,
	// Host, and the request path without CardPath.
	BaseURL string
	// AllowedOrigins lists the Origin values (scheme://host[:port]) a
	// browser may call from. A request whose Origin is not on the list is
	// refused with 403 before anything else is looked at; a request
	// without Origin (any non-browser client) is not affected, and neither
	// is a page from this endpoint's own loopback origin. Empty allows no
	// other Origin.
	AllowedOrigins []string
	// MaxRequestBodyBytes bounds each request body: a longer one is
	// answered 413, whether it declares its length (refused before the
	// bearer token is looked at) or is sent chunked without one (read up
	// to the bound only once the caller is authenticated, so an anonymous
	// caller cannot make the handler hold a body). Zero or negative uses
	// DefaultMaxRequestBodyBytes: a body is always bounded.
	MaxRequestBodyBytes int64
	// TaskCapacity bounds the task store. When it is full the oldest ended
	// tasks are evicted first; while every stored task is still running a
	// new message is refused. Zero uses DefaultTaskCapacity. It is the
	// overall bound on tasks; MaxTasksPerPrincipal is each principal's.
	TaskCapacity int
	// MaxTasksPerPrincipal bounds the tasks one principal (one identity)
	// may have running at once, reads included. A message beyond it is
	// refused with a retry-later server error whose details name the
	// bound ("bound", "limit", "retryAfterSeconds"), before anything is
	// dispatched; the other principals are not affected. Zero uses
	// DefaultMaxTasksPerPrincipal; negative sets no bound. Keep it under
	// TaskCapacity: the store's bound is shared by every principal.
	MaxTasksPerPrincipal int
	// MaxRuntimes bounds how many principals' runtimes are kept at once.
	// Beyond it the least recently used runtime whose principal has no
	// task running is released, and built again by that principal's next
	// message; when every kept runtime has a task running, a message of a
	// new principal is refused with a retry-later server error naming
	// the bound. Zero uses DefaultMaxRuntimes; negative sets no bound.
	MaxRuntimes int
	// ResourceMetadataURL, when set, is advertised in WWW-Authenticate on
	// 401, for clients that discover an authorization server (RFC 9728).
	ResourceMetadataURL string
	// Logger receives the handler's diagnostics, including the causes of
	// defects. Nil uses slog.Default.
	Logger *slog.Logger
}

// Handler serves a foldagent application as an A2A 1.0 agent. Every
// request is checked in this order: a loopback listener refuses a Host
// that is not loopback (DNS rebinding, 403); the Origin against the
// allowlist (403); a declared body length over the bound (413); then,
// for everything but the agent card, the bearer token (401), and a
// chunked body over the bound (413). Past those, the SDK serves the
// JSON-RPC binding (POST to the mount point) and the HTTP+JSON binding.
type Handler struct {
	opts     HTTPOptions
	log      *slog.Logger
	origins  httpguard.Origins
	store    *store
	exec     *executor
	requests a2asrv.RequestHandler
	protocol http.Handler // JSON-RPC and HTTP+JSON, behind Protect
	card     http.Handler // the agent card, behind Screen

	tasks       *bound.Counter // running tasks, per principal (bounds.go)
	maxRuntimes int            // 0: no bound

	mu       sync.Mutex
	closed   bool
	runtimes map[string]*runtimeEntry // per identity key (bounds.go)
	recent   *list.List               // of *runtimeEntry, most recently used first
}

// NewHandler builds a Handler. It returns an error when Verifier or
// NewRuntime is missing, or TaskCapacity is negative.
func NewHandler(opts HTTPOptions) (*Handler, error) {
	if opts.Verifier == nil {
		return nil, errors.New("a2aagent: NewHandler needs a Verifier: identity comes only from the request's bearer token")
	}
	if opts.NewRuntime == nil {
		return nil, errors.New("a2aagent: NewHandler needs NewRuntime, to bind each principal's runtime")
	}
	opts.MaxRequestBodyBytes = httpguard.BodyLimit(opts.MaxRequestBodyBytes)
	if opts.TaskCapacity == 0 {
		opts.TaskCapacity = DefaultTaskCapacity
	}
	if opts.TaskCapacity < 0 {
		return nil, fmt.Errorf("a2aagent: TaskCapacity %d: want a positive bound", opts.TaskCapacity)
	}
	h := &Handler{
		opts:     opts,
		log:      opts.Logger,
		origins:  httpguard.NewOrigins(opts.AllowedOrigins),
		store:    newStore(opts.TaskCapacity),
		runtimes: make(map[string]*runtimeEntry),
		recent:   list.New(),
		tasks: bound.NewCounter(
			bound.Limit{Name: "MaxTasksPerPrincipal", Max: bound.Resolve(opts.MaxTasksPerPrincipal, DefaultMaxTasksPerPrincipal)},
			bound.Limit{}, bound.DefaultRetryAfter),
		maxRuntimes: bound.Resolve(opts.MaxRuntimes, DefaultMaxRuntimes),
	}
	if h.log == nil {
		h.log = slog.Default()
	}
	h.exec = newExecutor(h.log, h.takeTask)
	caps := &a2a.AgentCapabilities{Streaming: true}
	h.requests = plainRefusals{a2asrv.NewHandler(h.exec,
		a2asrv.WithTaskStore(h.store),
		a2asrv.WithCapabilityChecks(caps),
		a2asrv.WithCallInterceptors(&guard{h: h}),
		a2asrv.WithLogger(h.log),
	)}
	jsonrpc := a2asrv.NewJSONRPCHandler(h.requests)
	rest := a2asrv.NewRESTHandler(h.requests)
	bindings := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodPost && (req.URL.Path == "" || req.URL.Path == "/") {
			jsonrpc.ServeHTTP(w, req)
			return
		}
		rest.ServeHTTP(w, req)
	})
	h.protocol = h.Protect(bindings)
	h.card = h.Screen(http.HandlerFunc(h.serveCard))
	return h, nil
}

// RequestHandler returns the SDK request handler behind the Handler, for
// serving another binding of the same agent (a2aagent/a2av03 serves A2A
// 0.3 with it). Wrap whatever serves it with Protect: the handler trusts
// the identity Protect puts in the request's context and refuses any
// request without one.
func (h *Handler) RequestHandler() a2asrv.RequestHandler { return h.requests }

// Card returns the agent card as served at baseURL.
func (h *Handler) Card(baseURL string) *a2a.AgentCard {
	return NewCard(h.opts.Contract, baseURL, h.opts.Card)
}

// Tasks returns how many tasks the store holds.
func (h *Handler) Tasks() int { return h.store.len() }

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method == http.MethodGet && req.URL.Path == CardPath {
		h.card.ServeHTTP(w, req)
		return
	}
	h.protocol.ServeHTTP(w, req)
}

// Screen wraps a handler in the checks that come before identity: a
// loopback listener refuses a Host that is not loopback (DNS rebinding),
// the Origin must be allowed, and the body is bounded. The agent card is
// served behind Screen alone.
func (h *Handler) Screen(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if h.admit(w, req) {
			next.ServeHTTP(w, req)
		}
	})
}

// Protect wraps a handler in every check an A2A request passes: Screen's,
// then the bearer token, whose verified TokenInfo it puts in the request's
// context, then the bound on a body sent chunked, which it reads whole
// (413 past MaxRequestBodyBytes). After Close, it answers 503.
func (h *Handler) Protect(next http.Handler) http.Handler {
	bearer := auth.RequireBearerToken(h.verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL:    h.opts.ResourceMetadataURL,
		AllowMissingExpiration: true,
	})(h.bounded(next))
	return h.Screen(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		h.mu.Lock()
		closed := h.closed
		h.mu.Unlock()
		if closed {
			http.Error(w, "Service Unavailable: the A2A endpoint is closed", http.StatusServiceUnavailable)
			return
		}
		bearer.ServeHTTP(&challenger{ResponseWriter: w}, req)
	}))
}

// CardFor returns the agent card for a request to the card's path: its
// interfaces point at BaseURL or, when that is empty, at the URL the
// request reached the Handler by.
func (h *Handler) CardFor(req *http.Request) *a2a.AgentCard {
	return h.Card(h.baseURL(req))
}

// admit runs the checks that come before identity.
func (h *Handler) admit(w http.ResponseWriter, req *http.Request) bool {
	if httpguard.Rebinding(req) {
		http.Error(w, "Forbidden: invalid Host header", http.StatusForbidden)
		return false
	}
	if !h.origins.Allowed(req) {
		http.Error(w, "Forbidden: origin not allowed", http.StatusForbidden)
		return false
	}
	if req.ContentLength > h.opts.MaxRequestBodyBytes {
		tooLarge(w)
		return false
	}
	if req.Body != nil {
		req.Body = http.MaxBytesReader(w, req.Body, h.opts.MaxRequestBodyBytes)
	}
	return true
}

// bounded hands next a body that declares no length (chunked) only once
// it is read whole within the bound, so that one over it is answered 413,
// as a declared length over it is, and not cut off where the binding
// would answer it as malformed JSON. A body of declared length passes
// as it is: admit has checked its length.
func (h *Handler) bounded(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.ContentLength >= 0 {
			next.ServeHTTP(w, req)
			return
		}
		body, err := httpguard.ReadBody(w, req, h.opts.MaxRequestBodyBytes)
		switch {
		case httpguard.TooLarge(err):
			tooLarge(w)
			return
		case err != nil:
			http.Error(w, "Bad Request: the request body could not be read", http.StatusBadRequest)
			return
		}
		r := req.WithContext(req.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		r.TransferEncoding = nil
		next.ServeHTTP(w, r)
	})
}

// tooLarge answers a body over MaxRequestBodyBytes, whichever way its
// length was found out.
func tooLarge(w http.ResponseWriter) {
	http.Error(w, "Request Entity Too Large", http.StatusRequestEntityTooLarge)
}

func (h *Handler) serveCard(w http.ResponseWriter, req *http.Request) {
	b, err := json.MarshalIndent(h.CardFor(req), "", "  ")
	if err != nil {
		h.log.Error("a2aagent: cannot encode the agent card", "error", err)
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(append(b, '\n'))
}

// BaseURL returns HTTPOptions.BaseURL: the URL the Handler is reachable
// at, or "" when each card derives it from its request.
func (h *Handler) BaseURL() string { return h.opts.BaseURL }

// baseURL is BaseURL, or the URL a card request reached the Handler by:
// its scheme, Host, and path without CardPath.
func (h *Handler) baseURL(req *http.Request) string {
	if h.opts.BaseURL != "" {
		return h.opts.BaseURL
	}
	scheme := "http"
	if req.TLS != nil {
		scheme = "https"
	}
	path := req.URL.EscapedPath()
	if req.RequestURI != "" {
		// RequestURI keeps the path as the client sent it, before any
		// http.StripPrefix the application mounted the Handler under.
		path, _, _ = strings.Cut(req.RequestURI, "?")
	}
	return scheme + "://" + req.Host + strings.TrimSuffix(path, CardPath)
}

// verify wraps the application's verifier: a token must name its user,
// since the user owns the tasks it creates.
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

// Close cancels every running task's wait (each ends CANCELED; no
// Message is undone) and answers every later request 503. It returns nil.
func (h *Handler) Close() error {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.exec.close()
	return nil
}

// challenger makes sure a 401 carries WWW-Authenticate, as RFC 6750 asks.
type challenger struct {
	http.ResponseWriter
}

func (c *challenger) WriteHeader(code int) {
	if code == http.StatusUnauthorized && c.Header().Get("WWW-Authenticate") == "" {
		c.Header().Set("WWW-Authenticate", `Bearer realm="a2a"`)
	}
	c.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the real writer (to flush
// server-sent events).
func (c *challenger) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// Flush forwards to the real writer, for the SDK's server-sent events.
func (c *challenger) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// guard is the SDK call interceptor that turns the verified bearer token
// into the SDK's user, keeps every task to its owner, and admits a
// message: it names a skill, its principal has a runtime, and there is
// room for its task.
type guard struct {
	a2asrv.PassthroughCallInterceptor
	h *Handler
}

func (g *guard) Before(ctx context.Context, cc *a2asrv.CallContext, req *a2asrv.Request) (context.Context, any, error) {
	info := auth.TokenInfoFromContext(ctx)
	if info == nil || info.UserID == "" {
		return ctx, nil, a2a.ErrUnauthenticated
	}
	// Tasks and runtimes belong to the whole verified identity (user,
	// scopes and claims), never to a user name alone: two tokens for one
	// name with different roles are two principals.
	identity, err := httpguard.Identity(info)
	if err != nil {
		g.h.log.Error("a2aagent: the verified token cannot be told apart from others", "error", err)
		return ctx, nil, a2a.NewError(a2a.ErrInternalError, "This agent cannot serve this caller right now.")
	}
	cc.User = a2asrv.NewAuthenticatedUser(identity, nil)
	owned := func(id a2a.TaskID) error {
		if owner, ok := g.h.store.owner(id); !ok || owner != identity {
			// Someone else's task is answered exactly as one that does
			// not exist.
			return a2a.ErrTaskNotFound
		}
		return nil
	}
	switch p := req.Payload.(type) {
	case *a2a.GetTaskRequest:
		return ctx, nil, owned(p.ID)
	case *a2a.CancelTaskRequest:
		return ctx, nil, owned(p.ID)
	case *a2a.SubscribeToTaskRequest:
		return ctx, nil, owned(p.ID)
	case *a2a.SendMessageRequest:
		return g.admitMessage(ctx, info, identity, p, owned)
	}
	return ctx, nil, nil
}

func (g *guard) admitMessage(ctx context.Context, info *auth.TokenInfo, identity string, p *a2a.SendMessageRequest, owned func(a2a.TaskID) error) (context.Context, any, error) {
	if p.Message == nil || p.Message.ID == "" || p.Message.Role == "" {
		return ctx, nil, nil // the SDK answers invalid params
	}
	if id := p.Message.TaskID; id != "" {
		if err := owned(id); err != nil {
			return ctx, nil, err
		}
		return ctx, nil, a2a.NewError(a2a.ErrInvalidParams, "Each message to this agent starts its own task; send a new message without a taskId.")
	}
	c := &call{caller: callerKey(identity)}
	read, isRead, err := readRequest(p.Message)
	if err != nil {
		return ctx, nil, err
	}
	if isRead {
		c.read = read
	} else {
		skill, input, ok := skillCall(p.Message)
		if !ok {
			return ctx, nil, a2a.NewError(a2a.ErrInvalidParams, `A message to this agent needs a data part naming a skill, as {"skill": <skill id>, "input": <its input>}, or one naming what it reads, as {"read": "context"}.`)
		}
		seen, err := seenVersion(p.Message.Metadata)
		if err != nil {
			return ctx, nil, err
		}
		c.skill, c.input, c.seen = skill, input, seen
	}
	// The principal's own bound first: one principal at it is refused
	// alone, before it reaches what every principal shares.
	hold, err := g.h.takeTask(identity)
	if err != nil {
		return ctx, nil, err
	}
	c.identity = identity
	c.hold.set(hold)
	rt, err := g.h.runtimeFor(ctx, identity, info)
	if err != nil {
		hold.Release()
		if _, ok := errors.AsType[*a2a.Error](err); ok {
			return ctx, nil, err
		}
		g.h.log.Error("a2aagent: cannot bind a runtime", "error", err)
		return ctx, nil, a2a.NewError(a2a.ErrInternalError, "This agent cannot serve this caller right now.")
	}
	sl, err := g.h.store.reserve()
	if err != nil {
		hold.Release()
		return ctx, nil, err
	}
	c.rt, c.slot = rt, sl
	return withCall(ctx, c), nil, nil
}

// After gives back the room reserved for a message that failed before its
// task was created (a no-op once the task holds it).
func (g *guard) After(ctx context.Context, _ *a2asrv.CallContext, resp *a2asrv.Response) error {
	if resp != nil && resp.Err != nil {
		if c := callFrom(ctx); c != nil && c.slot.releaseUnclaimed() {
			c.hold.release()
		}
	}
	return nil
}

// skillCall finds the first data part {"skill": <string>, "input": ...}.
func skillCall(m *a2a.Message) (string, json.RawMessage, bool) {
	for _, part := range m.Parts {
		if part == nil {
			continue
		}
		d, ok := part.Content.(a2a.Data)
		if !ok {
			continue
		}
		obj, ok := d.Value.(map[string]any)
		if !ok {
			continue
		}
		skill, ok := obj["skill"].(string)
		if !ok {
			continue
		}
		in, present := obj["input"]
		if !present {
			return skill, json.RawMessage("{}"), true
		}
		raw, err := json.Marshal(in)
		if err != nil {
			return "", nil, false
		}
		return skill, raw, true
	}
	return "", nil, false
}

// plainRefusals answers the SDK's refusals in a sentence of ours: the
// SDK's error for a cancel of an ended task is its internal chain ("failed
// to cancel: cancelation failed: canceler setup failed: ..."). The answer
// is the SDK's own authored error (a2a.NewError), which keeps the error's
// identity, so each binding still answers its code.
type plainRefusals struct{ a2asrv.RequestHandler }

func (p plainRefusals) CancelTask(ctx context.Context, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	task, err := p.RequestHandler.CancelTask(ctx, req)
	if errors.Is(err, a2a.ErrTaskNotCancelable) {
		return task, a2a.NewError(a2a.ErrTaskNotCancelable, "That task has already ended, so it cannot be cancelled.")
	}
	return task, err
}
