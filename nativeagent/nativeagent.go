package nativeagent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/bound"
	"github.com/foldagent/foldagent/internal/httpguard"
)

// DefaultPrefix is the framework's own path prefix for actions.
const DefaultPrefix = "/_agent-native"

// DefaultMaxRequestBodyBytes bounds an action's body when
// Options.MaxRequestBodyBytes is zero or negative: the one default of
// every foldagent HTTP surface (httpguard.DefaultMaxBodyBytes).
const DefaultMaxRequestBodyBytes = httpguard.DefaultMaxBodyBytes

// DefaultMaxRuntimes is how many principals' runtimes a Handler keeps when
// Options.MaxRuntimes is zero, as mcpagent's sessionless path and a2aagent
// do.
const DefaultMaxRuntimes = 1024

// Transport is the transport an action's invocation is recorded with.
const Transport agent.Transport = "agent-native"

// Runtime is what the handler needs from a bound contract: agent.Served,
// the one non-generic face of *agent.Runtime every adapter takes.
type Runtime = agent.Served

// Options configure a Handler. NewRuntime and one of Verifier or
// Authenticate are required.
type Options struct {
	// Prefix is where the actions are served: <Prefix>/actions/<name>.
	// Empty means DefaultPrefix.
	Prefix string
	// Verifier checks a request's bearer token and says who is calling,
	// as mcpagent.HTTPOptions.Verifier does: the returned TokenInfo must
	// name a user, and a token it rejects (an error wrapping
	// auth.ErrInvalidToken) is answered 401.
	Verifier auth.TokenVerifier
	// Authenticate is the application's own session check (a cookie, say),
	// used when Verifier is nil or the request carries no bearer token.
	// It returns the caller, or an error wrapping auth.ErrInvalidToken for
	// a request that is not authenticated (401).
	Authenticate func(r *http.Request) (*auth.TokenInfo, error)
	// NewRuntime returns the runtime the principal's actions are served
	// by, bound to that principal (typically through
	// agent.BindOptions.Principal). It is called once per principal
	// identity (user, scopes and extra claims together) and the runtime is
	// kept for that identity's later calls.
	NewRuntime func(ctx context.Context, principal *auth.TokenInfo) (Runtime, error)
	// MaxRuntimes bounds the runtimes kept, one per principal identity:
	// zero uses DefaultMaxRuntimes, negative sets no bound. At the bound
	// the least recently used runtime that holds nothing (no request of
	// its principal in flight, no call of it held) is dropped, and made
	// again on that principal's next call; when every kept runtime is in
	// use, a new principal is refused 429 with Retry-After, the refusal
	// AgentRetryLaterError with the bound's data (internal/bound's rule).
	MaxRuntimes int
	// AllowedOrigins lists the Origin values a browser may call from, as
	// mcpagent's: a request with another Origin is refused 403.
	AllowedOrigins []string
	// MaxRequestBodyBytes bounds each body (413 beyond it). Zero or
	// negative uses DefaultMaxRequestBodyBytes: a body is always bounded.
	MaxRequestBodyBytes int64
	// Patience is when a call that is still waiting (for the person's
	// approval, for a completion) answers its client as held: 202
	// Accepted, the refusal AgentHeldError, saying what it waits for,
	// that nothing has been done while the person has not answered, and
	// how to learn the outcome (the same request again joins the call;
	// GET the status URL in Location and in the data reads it). The call
	// goes on, and the person's later answer runs it once. A client that
	// leaves before Patience withdraws its call, as before. Zero uses
	// DefaultPatience; negative never holds a call (the request waits as
	// long as the call does).
	Patience time.Duration
	// KeepOutcome is how long a held call's outcome stays readable at
	// its status URL once the call ended; zero uses DefaultKeepOutcome.
	// The request sent again gets it once: after that, the same request
	// is a new call.
	KeepOutcome time.Duration
	// MaxHeldPerIdentity and MaxHeld bound the held calls of one
	// principal identity and of the Handler, waiting or with an outcome
	// not yet read (internal/bound's rule: zero uses
	// DefaultMaxHeldPerIdentity and DefaultMaxHeld, negative sets no
	// bound). A call that reaches Patience with no room to be held keeps
	// its request waiting instead.
	MaxHeldPerIdentity int
	MaxHeld            int
	// Logger receives the handler's diagnostics: defects with their
	// causes, which are never sent to the caller. Nil uses slog.Default,
	// which writes to standard error.
	Logger *slog.Logger

	patienceTick <-chan time.Time // tests: replaces the patience timer
}

// Handler serves the actions. It is safe for concurrent use.
type Handler struct {
	opts    Options
	prefix  string
	origins httpguard.Origins
	log     *slog.Logger
	maxBody int64
	// patience is Options.Patience resolved: negative never holds.
	patience time.Duration

	runtimes *runtimes
	held     heldBook
	losses   losses
}

// NewHandler returns a Handler, or an error naming a missing option.
func NewHandler(opts Options) (*Handler, error) {
	if opts.NewRuntime == nil {
		return nil, errors.New("nativeagent: Options.NewRuntime is required")
	}
	if opts.Verifier == nil && opts.Authenticate == nil {
		return nil, errors.New("nativeagent: Options.Verifier or Options.Authenticate is required: identity comes only from the transport")
	}
	h := &Handler{
		opts:     opts,
		prefix:   strings.TrimRight(opts.Prefix, "/"),
		origins:  httpguard.NewOrigins(opts.AllowedOrigins),
		log:      opts.Logger,
		maxBody:  httpguard.BodyLimit(opts.MaxRequestBodyBytes),
		runtimes: newRuntimes(bound.Resolve(opts.MaxRuntimes, DefaultMaxRuntimes), opts.NewRuntime),
		held:     newHeldBook(opts),
		patience: opts.Patience,
	}
	if h.patience == 0 {
		h.patience = DefaultPatience
	}
	if opts.Prefix == "" {
		h.prefix = DefaultPrefix
	}
	if h.log == nil {
		h.log = slog.Default()
	}
	return h, nil
}

// Result is the action result the framework reads: what an action's run
// returns, sent bare as the response body.
type Result struct {
	// OK is false when the action was refused, failed, or its completion
	// reported failure.
	OK bool `json:"ok"`
	// Tag is the dispatched Message's Go type name; absent when nothing
	// was dispatched. It has no other meaning.
	Tag string `json:"tag,omitempty"`
	// Refusal is the protocol tag of the error the call ended with
	// (AgentAuthorizationError, AgentStaleViewError, ...), or
	// AgentHeldError in a held answer (202: the call has not ended, see
	// Options.Patience); absent when the call was dispatched. It has no
	// other meaning.
	Refusal string `json:"refusal,omitempty"`
	// Completion is "completed" or "failed" for a capability with a
	// completion contract that settled.
	Completion string `json:"completion,omitempty"`
	// Message is the authored sentence for the caller.
	Message string `json:"message"`
	// Error repeats Message whenever OK is false (a refusal answered 200
	// included), under the key the framework's HTTP clients read errors
	// from.
	Error string `json:"error,omitempty"`
	// Data is the dispatch result, or the refusal's encoding (never a
	// defect's cause).
	Data json.RawMessage `json:"data,omitempty"`
	// Version is the version of the Model the result was taken at: the
	// one after the call's Message, or for a stale-view refusal the
	// current one to read. It is 0, and omitted, on an unversioned host
	// and for other refusals. The VersionHeader response header repeats it.
	Version uint64 `json:"version,omitempty"`
}

// Action is one entry of the catalogue, in the framework's registry shape.
// ReadOnly is true only for a capability the contract declares read-only
// (agent.Variant.ReadOnly). NeedsApproval, the framework's own name for
// its human-in-the-loop gate, is true for a capability that declares the
// person's approval (agent.Approval): its calls, always or when the
// contract's predicate says so, wait for the person to answer in the
// application. It is omitted when false, as the framework omits it.
type Action struct {
	Tool          Tool       `json:"tool"`
	HTTP          HTTPMethod `json:"http"`
	RequiresAuth  bool       `json:"requiresAuth"`
	ReadOnly      bool       `json:"readOnly"`
	NeedsApproval bool       `json:"needsApproval,omitempty"`
}

// Tool is an action's description and parameters (the input's JSON Schema,
// as sent on the wire).
type Tool struct {
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// HTTPMethod is the method an action is called with.
type HTTPMethod struct {
	Method string `json:"method"`
}

// Actions returns the catalogue for a contract: every capability, whether
// or not the current Model offers it (dispatch refuses what is
// unavailable), keyed by name.
func Actions(d agent.Description) map[string]Action {
	out := make(map[string]Action, len(d.Capabilities))
	for _, c := range d.Capabilities {
		out[c.Name] = Action{
			Tool:          Tool{Description: c.Description, Parameters: c.InputSchema},
			HTTP:          HTTPMethod{Method: http.MethodPost},
			RequiresAuth:  true,
			ReadOnly:      c.ReadOnly, // only what the contract declares changes nothing
			NeedsApproval: c.NeedsApproval,
		}
	}
	return out
}

// ServeHTTP answers the catalogue and the actions.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.origins.Allowed(r) || httpguard.Rebinding(r) {
		writeError(w, http.StatusForbidden, "This origin may not call the application.")
		return
	}
	path, ok := strings.CutPrefix(r.URL.Path, h.prefix+"/")
	var rest, resource, status string
	read := false
	switch {
	case !ok:
	case strings.HasPrefix(path, "calls/"):
		status, ok = statusID(path)
	case path == "actions" || strings.HasPrefix(path, "actions/"):
		rest = strings.TrimPrefix(path, "actions")
	case path == "context":
		read = true
	case strings.HasPrefix(path, "resources/") && len(path) > len("resources/"):
		read, resource = true, strings.TrimPrefix(path, "resources/")
	default:
		ok = false
	}
	if !ok {
		writeError(w, http.StatusNotFound, "There is nothing at this path.")
		return
	}
	caller, err := h.authenticate(r)
	if err != nil {
		if httpguard.Unauthenticated(err) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="agent-native"`)
			writeError(w, http.StatusUnauthorized, "Authentication is required: send a valid bearer token.")
			return
		}
		h.log.Error("nativeagent: authenticating a request failed", "err", err)
		writeError(w, http.StatusInternalServerError, "The request could not be authenticated.")
		return
	}
	e, err := h.runtime(r.Context(), caller)
	if r, ok := bound.As(err); ok {
		h.refuse(w, r, "This application is serving as many callers as it can hold at once, each with a call in flight. Try again shortly.")
		return
	}
	if err != nil {
		h.log.Error("nativeagent: building a principal's runtime failed", "user", caller.UserID, "err", err)
		writeError(w, http.StatusInternalServerError, "The application could not serve this caller.")
		return
	}
	defer h.runtimes.release(e)
	if status != "" {
		h.serveStatus(w, r, e, status)
		return
	}
	if read {
		h.serveRead(w, r, e, resource)
		return
	}
	if rest == "" || rest == "/" {
		if r.Method != http.MethodGet {
			w.Header().Set("Allow", http.MethodGet)
			writeError(w, http.StatusMethodNotAllowed, "The catalogue is read with GET.")
			return
		}
		h.serveCatalog(w, r, e)
		return
	}
	name := strings.TrimPrefix(rest, "/")
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, "Actions are called with POST.")
		return
	}
	body, err := httpguard.ReadBody(w, r, h.maxBody)
	if err != nil {
		if httpguard.TooLarge(err) {
			writeError(w, http.StatusRequestEntityTooLarge, "The request body is larger than this endpoint accepts.")
			return
		}
		writeError(w, http.StatusBadRequest, "The request body could not be read.")
		return
	}
	seen, err := seenVersion(r)
	if err != nil {
		badCitation(w)
		return
	}
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	h.call(w, r, e, name, body, seen)
}

func (h *Handler) authenticate(r *http.Request) (*auth.TokenInfo, error) {
	if h.opts.Verifier != nil {
		info, err := httpguard.Bearer(r.Context(), h.opts.Verifier, r)
		if !errors.Is(err, httpguard.ErrNoToken) || h.opts.Authenticate == nil {
			return info, err
		}
	}
	info, err := h.opts.Authenticate(r)
	if err != nil {
		return nil, err
	}
	if info == nil || info.UserID == "" {
		return nil, auth.ErrInvalidToken
	}
	return info, nil
}

// runtime returns the caller's runtime, making it on first use, in use
// by the request until its release.
func (h *Handler) runtime(ctx context.Context, caller *auth.TokenInfo) (*entry, error) {
	key, err := httpguard.Identity(caller)
	if err != nil {
		return nil, err
	}
	return h.runtimes.acquire(ctx, key, caller)
}

// Runtimes returns how many principals' runtimes the Handler keeps.
func (h *Handler) Runtimes() int { return h.runtimes.len() }

func (h *Handler) serveCatalog(w http.ResponseWriter, r *http.Request, e *entry) {
	e.catOnce.Do(func() { e.catalog, e.catErr = json.Marshal(Actions(e.rt.Describe())) })
	if e.catErr != nil {
		h.log.Error("nativeagent: encoding the catalogue failed", "err", e.catErr)
		writeError(w, http.StatusInternalServerError, "The catalogue could not be built.")
		return
	}
	setVersion(w, catalogLook(r.Context(), e))
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(e.catalog)
}

// reply writes what agent.ReplyTo says, with the framework's status.
func (h *Handler) reply(w http.ResponseWriter, name string, r agent.Reply) {
	res := Result{OK: r.OK, Refusal: r.Tag, Message: r.Text, Data: r.Data, Version: r.Version}
	if r.Err == nil {
		res.Tag = r.Result.Tag
		if c := r.Result.Completion; c != nil {
			res.Completion = string(c.Status)
		}
	}
	status := http.StatusOK
	switch {
	case r.Defect:
		h.log.Error("nativeagent: action failed", "action", name, "err", r.Err)
		status = http.StatusInternalServerError
	case r.Unknown:
		status = http.StatusNotFound
	case r.Tag == agent.TagInvalidInput:
		status = http.StatusBadRequest
	case r.Tag == agent.TagAuthorization:
		status = http.StatusForbidden
	case r.Tag == agent.TagNotFound:
		status = http.StatusNotFound
	case r.Tag == agent.TagState:
		// The world is not in the state the call needs (already paid,
		// not the order under review): a conflict with the resource's
		// state, not a refusal of the caller. Nothing was done.
		status = http.StatusConflict
	case r.Tag == agent.TagStaleView:
		// The call was built on state that moved: nothing was done, and
		// the same call may be sent again after reading.
		status = http.StatusConflict
	case r.Tag == agent.TagDeclined:
		// The person, who has the say over this call, refused it in the
		// application: a refusal of this request as the caller is, like
		// Authorize's, which the caller must not simply repeat (the tag
		// tells the two apart). Nothing was done.
		status = http.StatusForbidden
	case r.Tag == agent.TagApprovalTimeout:
		// The person, upstream of this call, did not answer in time:
		// nothing was done, the request was withdrawn, and calling again
		// asks again. 408 would blame the caller's request, which came
		// whole.
		status = http.StatusGatewayTimeout
	case r.Tag == agent.TagPersonLeft:
		// The person who approves this call left the application:
		// nothing was done, and nobody can answer until they are back.
		status = http.StatusServiceUnavailable
	case r.Tag == agent.TagNotDelivered:
		// The application took nothing: the same call may be sent again.
		w.Header().Set("Retry-After", "1")
		status = http.StatusServiceUnavailable
	case r.Tag == agent.TagRetryLater:
		// A bound on what is held at once (calls waiting for the
		// person's approval) was reached: nothing was done, and the same
		// call may be sent again later (internal/bound's answer).
		retryLater(w, r.Err)
		status = http.StatusTooManyRequests
	}
	if !res.OK {
		res.Error = res.Message
	}
	b, err := json.Marshal(res)
	if err != nil {
		h.log.Error("nativeagent: encoding a result failed", "action", name, "err", err)
		writeError(w, http.StatusInternalServerError, "The result could not be encoded.")
		return
	}
	setVersion(w, res.Version)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if r.Err == nil {
		h.deliver(w, name, b) // the call ran: its answer is counted if lost
		return
	}
	_, _ = w.Write(b) // nothing was done: a client that left loses nothing
}

// writeResult writes an action result with status.
func writeResult(w http.ResponseWriter, status int, res Result) {
	b, _ := json.Marshal(res) // strings and raw JSON of ours only
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeError answers a request refused before any action ran, in the
// action result's shape.
func writeError(w http.ResponseWriter, status int, message string) {
	b, _ := json.Marshal(Result{Message: message, Error: message})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
