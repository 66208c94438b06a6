package mcpagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/mcpshell"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CodeResourceNotFound is the JSON-RPC error code answered for a
// resources/read or resources/subscribe of a URI the contract does not
// declare: -32002, as the 2025-11-25 revision of the MCP specification
// gives it. (The SDK's own default is -32602, from a later revision.)
const CodeResourceNotFound = -32002

// protocolVersions are the MCP revisions a Server negotiates, newest
// first. The adapter follows the 2025-11-25 revision; the older ones are
// kept for clients that have not moved on.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// ProtocolVersions returns the session-based MCP revisions a Server
// negotiates, newest first: the 2025-11-25 revision the adapter follows,
// and the older ones for clients that have not moved on. The sessionless
// revision (SessionlessRevision) is served by Handler only, over HTTP.
func ProtocolVersions() []string { return slices.Clone(protocolVersions) }

// DefaultProgressInterval is how often a call that is still waiting sends
// a progress notification, when its client asked for progress.
const DefaultProgressInterval = time.Second

// Options configure a Server. The zero value (or nil) is ready to use.
// journeymcp.Options names and defaults the fields the two adapters share
// (Implementation, Instructions, Logger) the same way.
type Options struct {
	// Implementation names the server in the initialize handshake
	// (serverInfo): it should name the application, which is what a
	// client shows its user, not this library. Nil, or an empty Name or
	// Version in it, takes the default for that field: the application's
	// own name and version as the Go toolchain recorded them (the last
	// element of the main package's path, "todo" for examples/todo, and
	// the main module's version), or Name "foldagent" and Version "0.1.0"
	// when the binary does not say.
	Implementation *mcp.Implementation
	// Instructions are sent to the client at initialization, for the
	// model's system prompt. Write them as authored sentences.
	Instructions string
	// Logger receives the adapter's own diagnostics: defects with their
	// causes, which are never sent to the client. Nil uses slog.Default,
	// which writes to standard error, never to standard output. The SDK's
	// own activity log is not forwarded.
	Logger *slog.Logger
	// ProgressInterval is the period of the progress notifications sent
	// while a call waits, when the client's request carried a progress
	// token. Zero uses DefaultProgressInterval; a negative value sends
	// none.
	ProgressInterval time.Duration
	// Feed, when set, is the family's shared view of what the Model
	// offers (see Feed): the Server follows the Model through it instead
	// of listening to its runtime, so an idle session costs nothing when
	// the Model changes. Every runtime served with a Feed must be bound
	// to the same host and contract as the Feed's. Nil: the Servers of
	// one runtime (the same pointer) share a Feed NewServer makes for
	// them, closed with the last of them, so a thousand Servers on one
	// runtime follow the Model once whether or not their author knew of
	// Feed; a Server of any other runtime follows its own.
	Feed *Feed
	// Patience is when a call that is still waiting (for the person's
	// approval, for a completion) answers a client that asked for no
	// task, with a held answer (agent.TagHeld): the call goes on, and the
	// same caller asking the same again learns its outcome (see
	// tasks.go). Zero uses DefaultPatience, safely under the official
	// TypeScript client's 60-second default; negative never answers
	// early, so the request waits as long as the call does.
	Patience time.Duration
	// KeepOutcome is how long the outcome of a held call or a task is
	// kept, once it ended, for its caller to read. Zero uses
	// DefaultKeepOutcome.
	KeepOutcome time.Duration
	// MaxHeldPerIdentity and MaxHeld bound the held calls and tasks (running,
	// or with an outcome kept) of one identity and of the Server. Zero
	// uses DefaultMaxHeldPerIdentity and DefaultMaxHeld; negative sets no
	// bound (the rule of every bound in this package).
	MaxHeldPerIdentity, MaxHeld int
	// ListAll lists every capability of the contract to every client,
	// whatever the Model, as the sessionless revision is always listed:
	// the list never changes, so no tools/list_changed is sent and a
	// client lists once (and a model's prompt cache keeps the tools).
	// What the Model does not offer now is refused when called, with the
	// reason, as on the sessionless path. False: a session-based client
	// is listed what the Model offers now and told when that changes.
	// A Feed is not used for tools with ListAll.
	ListAll bool

	// patienceTick, set by tests only, replaces the Patience timer: each
	// wait ends on the next value sent.
	patienceTick <-chan time.Time
}

// Server serves one Runtime as an MCP server: one tool per capability the
// current Model offers (every capability, with Options.ListAll), and the
// context and resources as app:// resources.
// It follows the Model through the runtime's Subscribe seam, so the tool
// list and subscribed resources stay current without polling.
//
// A Server may be connected to any number of sessions (see Connect and
// Run); they share its runtime, and so its principal. To serve several
// principals, give each its own Server. (Handler, given a Feed, serves
// every principal's sessions on one SDK server of its own, tying each
// session to its runtime through the request that opened it.)
//
// A Server is safe for concurrent use. Close it to release its listener
// on the runtime.
type Server struct {
	rt       Runtime
	mcp      *mcp.Server
	log      *slog.Logger
	interval time.Duration

	// held keeps the calls answered before they ended: tasks, and calls
	// held past patience (tasks.go); waits names the capabilities whose
	// calls may wait (approval, completion).
	held     heldBook
	patience time.Duration
	tick     <-chan time.Time // tests: replaces the patience timer
	waits    map[string]bool

	// tools is what the Server lists with the SDK (toollist.go), under
	// toolMu.
	tools toolList

	feed *Feed // nil: the Server follows its own runtime
	// releaseFeed lets go of a Feed NewServer made for the runtime's
	// Servers (runtimeFeeds); nil when the Feed was given or there is none.
	releaseFeed func()

	callers callerKeys // id-less sessions' caller keys (see looks.go)

	// perSession marks a Server a Handler shares between the sessions of
	// one family (see sessionRuntime): each call and read is served by
	// the runtime of the session it came on, never by rt, which only
	// follows the Model for resource subscriptions.
	perSession bool

	// static marks the Server of the sessionless revision, whose tool
	// list may vary by the request's authorization only (never by the
	// Model or by other requests): it lists every capability of the
	// contract, in declaration order, registered once; availability is
	// told when a tool is called. See newStaticServer.
	static bool

	toolMu    sync.Mutex // serializes tool reconciliation; Close takes it too
	following bool       // the worker runs and the runtime is followed; under toolMu

	resources *resourceBook

	kick        chan struct{}
	done        chan struct{}
	worker      sync.WaitGroup
	unsubscribe func()
	shell       mcpshell.Shell // the SDK server's shell: connecting, running, closing
	lost        noticeLoss     // notifications not sent (lost.go)
}

type resource struct {
	uri, name, description string
	order                  int
	context                bool // the context projection, not a declared resource
}

// read reads the resource's current value through rt, with the version
// it was read at (0 on an unversioned host).
func (r *resource) read(ctx context.Context, rt Runtime) (json.RawMessage, uint64, error) {
	var read agent.Read
	var err error
	if r.context {
		read, err = rt.ContextRead(ctx)
	} else {
		read, err = rt.ResourceRead(ctx, r.name)
	}
	return read.Value, read.Version, err
}

type subscription struct {
	sessions map[*mcp.ServerSession]struct{}
	last     []byte
}

var emptyObject = json.RawMessage(`{}`)

// NewServer builds a Server over rt. It advertises the capabilities the
// current Model offers at once, and then follows the Model.
//
// It returns an error naming the capability when a capability's input
// schema is not a JSON object schema, which MCP requires of every tool.
func NewServer(rt Runtime, opts *Options) (*Server, error) {
	if opts != nil && opts.ListAll {
		return newStaticServer(rt, opts, nil) // nothing to follow for tools
	}
	if opts == nil || opts.Feed == nil {
		// Servers of one runtime share what they follow (see Options.Feed).
		o := Options{}
		if opts != nil {
			o = *opts
		}
		feed, release := runtimeFeed(rt, o.Logger)
		if feed != nil {
			o.Feed = feed
			s, err := newServer(rt, &o, nil)
			if err != nil {
				release()
				return nil, err
			}
			s.releaseFeed = release
			return s, nil
		}
	}
	return newServer(rt, opts, nil)
}

// newServer is NewServer with a hook on the SDK server's options, which
// Handler uses to name the session.
func newServer(rt Runtime, opts *Options, tune func(*mcp.ServerOptions)) (*Server, error) {
	return buildServer(rt, opts, false, tune)
}

// newStaticServer builds the Server of the sessionless revision (see
// Server.static): its tools/list is the whole contract in declaration
// order, whatever the Model, so two connections, and one connection
// before and after any call, are listed the same bytes. It follows its
// runtime only to re-read subscribed resources.
func newStaticServer(rt Runtime, opts *Options, tune func(*mcp.ServerOptions)) (*Server, error) {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.Feed = nil // nothing to follow for tools
	return buildKind(rt, &o, false, true, tune)
}

// buildServer builds a Server; perSession builds one a Handler shares
// between sessions, each served by its own runtime (see sessionRuntime).
func buildServer(rt Runtime, opts *Options, perSession bool, tune func(*mcp.ServerOptions)) (*Server, error) {
	return buildKind(rt, opts, perSession, false, tune)
}

// buildKind is buildServer; static builds the sessionless revision's
// Server (see newStaticServer). It runs in order: the options settled,
// the Server's state, its tools, the SDK server, then what it follows.
func buildKind(rt Runtime, opts *Options, perSession, static bool, tune func(*mcp.ServerOptions)) (*Server, error) {
	if rt == nil {
		return nil, errors.New("mcpagent: NewServer needs a runtime")
	}
	o := settleOptions(opts)
	if o.ListAll {
		static, o.Feed = true, nil // see Options.ListAll
	}
	s := newServerState(rt, o, perSession, static)
	desc := rt.Describe()
	for _, d := range desc.Capabilities {
		s.waits[d.Name] = d.NeedsApproval || d.Completion != nil
	}
	if s.feed != nil && !s.feed.member(desc) {
		return nil, errors.New("mcpagent: the runtime's contract is not the Feed's: a Feed serves only runtimes bound to its own host and contract")
	}
	if err := s.tools.build(desc); err != nil {
		return nil, err
	}
	s.resources = newResourceBook(desc)
	s.startSDK(o, tune)
	s.begin(desc)
	return s, nil
}

// settleOptions copies opts (nil is the zero Options) with every default
// filled in.
func settleOptions(opts *Options) Options {
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Implementation = mcpshell.Implementation(o.Implementation, runningApplication())
	o.Logger = mcpshell.Logger(o.Logger)
	switch {
	case o.ProgressInterval == 0:
		o.ProgressInterval = DefaultProgressInterval
	case o.ProgressInterval < 0:
		o.ProgressInterval = 0
	}
	if o.Patience == 0 {
		o.Patience = DefaultPatience
	}
	return o
}

// newServerState is a Server's state before it has tools or an SDK
// server.
func newServerState(rt Runtime, o Options, perSession, static bool) *Server {
	return &Server{
		rt:         rt,
		log:        o.Logger,
		interval:   o.ProgressInterval,
		held:       newHeldBook(o),
		patience:   o.Patience,
		tick:       o.patienceTick,
		waits:      make(map[string]bool),
		feed:       o.Feed,
		perSession: perSession,
		static:     static,
		kick:       make(chan struct{}, 1),
		done:       make(chan struct{}),
	}
}

// startSDK builds the SDK server the Server answers through, with the
// adapter's middleware, task methods and resources.
func (s *Server) startSDK(o Options, tune func(*mcp.ServerOptions)) {
	// A static Server never changes its list, but keeps listChanged: the
	// SDK opens a subscriptions/listen stream (which also carries
	// resources/updated) only for what is advertised.
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}}
	caps.AddExtension(TasksExtension, nil)
	if len(s.resources.byURI) > 0 {
		caps.Resources = &mcp.ResourceCapabilities{Subscribe: true}
	}
	so := &mcp.ServerOptions{
		Instructions:              o.Instructions,
		Logger:                    s.lost.sdkLogger(o.Logger),
		Capabilities:              caps,
		SupportedProtocolVersions: protocolVersions,
		SubscribeHandler:          s.subscribe,
		UnsubscribeHandler:        s.unsubscribeResource,
		// What is listed depends on the Model and, over HTTP, on the
		// principal: results are private and immediately stale.
		SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) { c.TTLMs, c.CacheScope = 0, "private" },
	}
	if tune != nil {
		tune(so)
	}
	s.mcp = mcp.NewServer(o.Implementation, so)
	s.shell.Init(s.mcp, "mcpagent")
	s.mcp.AddReceivingMiddleware(s.route)
	s.held.addTaskMethods(s.mcp)
	for _, r := range s.resources.ordered() {
		s.mcp.AddResource(&mcp.Resource{
			URI:         r.uri,
			Name:        r.name,
			Description: r.description,
			MIMEType:    "application/json",
		}, s.readResource)
	}
}

// begin lists the first tools and starts following what the Server
// follows: a static Server lists the whole contract and follows its
// runtime only to re-read subscribed resources; one of a Feed is
// registered with it before the first reconciliation, so no offer
// published meanwhile is missed, and listens to its own runtime only
// once a resource is subscribed (startFollowing); any other follows its
// runtime from now on.
func (s *Server) begin(desc agent.Description) {
	switch {
	case s.static:
		s.toolMu.Lock()
		s.tools.listAll(s.mcp, s.toolHandler, desc)
		s.toolMu.Unlock()
		s.startFollowing()
	case s.feed != nil:
		s.feed.add(s)
		s.syncTools()
	default:
		s.syncTools()
		s.startFollowing()
	}
}

// startFollowing makes the Server follow its runtime's Model changes on a
// worker of its own, once. A Server without a Feed always does; one with a
// Feed does once a resource is subscribed, since what it then re-reads is
// its own.
func (s *Server) startFollowing() {
	s.toolMu.Lock()
	defer s.toolMu.Unlock()
	if s.following || s.shell.Closed() {
		return
	}
	s.following = true
	if s.rt.CanSubscribe() {
		s.unsubscribe = s.rt.Subscribe(s.changed)
	}
	s.worker.Add(1)
	go s.follow()
}

// annotations are the hints a client uses to decide how careful to be
// with a tool, from what the capability declares: readOnlyHint for a
// read-only one, destructiveHint for a destructive one. An undeclared
// capability gets none, so a client assumes MCP's defaults (it may
// change things, destructively); the adapter never claims more than the
// contract does.
func annotations(d agent.Descriptor) *mcp.ToolAnnotations {
	switch {
	case d.ReadOnly:
		return &mcp.ToolAnnotations{ReadOnlyHint: true}
	case d.Destructive:
		destructive := true
		return &mcp.ToolAnnotations{DestructiveHint: &destructive}
	}
	return nil
}

// runningApplication names the program this adapter runs in, from its
// build information: the last element of the main package's path (a test
// binary's ".test" dropped) and the main module's version, when the
// toolchain recorded one. Either falls back to this library's defaults.
var runningApplication = sync.OnceValue(func() mcp.Implementation {
	app := mcp.Implementation{Name: "foldagent", Version: "0.1.0"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return app
	}
	if name := path.Base(strings.TrimSuffix(bi.Path, ".test")); bi.Path != "" && name != "command-line-arguments" && name != "." && name != "/" {
		app.Name = name
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		app.Version = strings.TrimPrefix(v, "v")
	}
	return app
})

// MCP returns the underlying SDK server, for an application that wants to
// add prompts or middleware of its own. Tools and resources are the
// adapter's: do not add or remove them.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Connect connects the server to one client over t and returns the
// session, as mcp.Server.Connect does.
func (s *Server) Connect(ctx context.Context, t mcp.Transport, opts *mcp.ServerSessionOptions) (*mcp.ServerSession, error) {
	return s.shell.Connect(ctx, t, opts)
}

// Run serves one session over t until the client disconnects or ctx is
// done, then closes the server.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.shell.Run(ctx, t, s.Close)
}

// Close stops following the runtime (its listener is released), closes
// every session, and makes sure no notification is sent afterwards. It is
// idempotent and returns nil.
func (s *Server) Close() error {
	// Closing under toolMu orders Close after any reconciliation in
	// flight: once closed is set under it, no tool is added or removed
	// again.
	s.shell.Close(&s.toolMu, func() {
		if s.feed != nil {
			s.feed.remove(s)
		}
		if s.releaseFeed != nil {
			s.releaseFeed()
		}
		if s.unsubscribe != nil {
			s.unsubscribe()
		}
		close(s.done)
		s.worker.Wait()
		s.held.close()
	}, nil)
	return nil
}

// changed is the runtime listener. It runs on the application's update
// path, so it only signals the worker and never blocks.
func (s *Server) changed() {
	select {
	case s.kick <- struct{}{}:
	default: // a reconciliation is already pending; it will see this change
	}
}

// follow reconciles tools and subscribed resources after Model changes.
// Changes that arrive while it works coalesce into one more pass.
func (s *Server) follow() {
	defer s.worker.Done()
	for {
		select {
		case <-s.done:
			return
		case <-s.kick:
			if s.feed == nil {
				s.syncTools() // with a Feed, the Feed follows the tools
			}
			s.syncResources()
		}
	}
}

// syncTools makes the SDK's tool set equal to the capabilities the current
// Model offers. When the set is unchanged it costs one availability check
// per capability and a comparison of names, and touches nothing in the
// SDK, so no tools/list_changed notification is sent for a Model change
// that leaves the advertised set as it was. Otherwise only the tools that
// appeared or disappeared are added or removed.
//
// With a Feed, the Feed asks once for every Server of the family (and
// hands the offer to the others only if it changed), and this Server then
// diffs the Feed's offer against what it advertised.
func (s *Server) syncTools() {
	if s.static {
		return // registered once, whatever the Model (listAll)
	}
	if s.feed != nil {
		s.applyOffer(s.feed.refresh())
		return
	}
	s.toolMu.Lock()
	defer s.toolMu.Unlock()
	if s.shell.Closed() {
		return
	}
	avail, err := s.rt.Available()
	if err != nil {
		s.logDefect("listing available capabilities", err)
		if avail == nil {
			return // the Model could not be read: keep what is advertised
		}
	}
	s.tools.reconcile(s.mcp, s.toolHandler, avail)
}

// applyOffer makes the SDK's tool set equal to a Feed's offer, unless this
// Server has applied that offer or a later one already.
func (s *Server) applyOffer(o *offer) {
	s.toolMu.Lock()
	defer s.toolMu.Unlock()
	if s.shell.Closed() || (s.tools.seen != nil && o.seq <= s.tools.seen.seq) {
		return
	}
	s.tools.seen = o
	s.tools.reconcile(s.mcp, s.toolHandler, o.avail)
}

// route intercepts the methods whose answers the contract decides.
//
// tools/call goes to the runtime for every name, registered or not, so
// that a capability the Model withdrew a moment ago is refused by the
// runtime with a message the model can act on, rather than reported as an
// unknown tool; only a name the contract does not know is a protocol
// error. tools/list reconciles first, so it never shows a stale set.
// resources/read answers unknown URIs with -32002.
func (s *Server) route(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/call":
			if r, ok := req.(*mcp.CallToolRequest); ok {
				return s.serveCall(ctx, r)
			}
		case "initialize":
			res, err := next(ctx, method, req)
			if err != nil {
				return nil, err
			}
			return withTasksCapability(res), nil
		case "tools/list":
			if s.static {
				// The same bytes for every request: no version in them.
				// The list still counts as the caller's look, as on every
				// revision (an agent lists, then calls).
				if r, ok := req.(*mcp.ListToolsRequest); ok {
					s.listLook(ctx, r.Session)
				}
				return next(ctx, method, req)
			}
			// The list follows the Model: never one older than a result
			// already told of (a call answers once update takes its
			// Message; the host publishes the Model just after).
			_ = s.rt.CatchUp(ctx) // a cancelled request is answered below as the SDK does
			s.syncTools()
			if r, ok := req.(*mcp.ListToolsRequest); ok {
				v := s.listLook(ctx, r.Session)
				res, err := next(ctx, method, req)
				if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil && v != 0 {
					lr.Meta = versionMeta(v)
				}
				return res, err
			}
		case "resources/read":
			if r, ok := req.(*mcp.ReadResourceRequest); ok {
				res, err := s.readResource(ctx, r)
				if err != nil {
					return nil, err
				}
				return markComplete(r.Session, res), nil
			}
		}
		return next(ctx, method, req)
	}
}

// resultTypeRevision is the first MCP revision whose tools/call and
// resources/read results must say resultType (complete, or input
// required): a 2026-07-28 client refuses a result without it.
const resultTypeRevision = "2026-07-28"

// markComplete marks res complete for a client on the 2026-07-28 revision
// or later, as the SDK does for results of its own handlers: route answers
// these methods itself, so the SDK's marking never runs. A session that
// has not said its revision (the sessionless path) is taken as the latest,
// as the SDK takes it. Older clients get the result unmarked.
//
// The mark is an unexported field the SDK sets only from its own code or
// its JSON decoding. A marked zero result is decoded once per result type
// (markedZero); each call copies it and sets the result's exported fields
// onto the copy. That is the result a round trip through its JSON would
// give (unexported fields, such as the server-side error, are not carried
// by either), without encoding and decoding every answer: the SDK's
// decoder allocates a buffer of tens of kilobytes per call.
func markComplete[R any, PR interface {
	*R
	mcp.Result
}](ss *mcp.ServerSession, res PR) PR {
	if res == nil {
		return res
	}
	if ss != nil {
		if ip := ss.InitializeParams(); ip != nil && ip.ProtocolVersion < resultTypeRevision {
			return res
		}
	}
	zero, ok := markedZero[R, PR]()
	if !ok {
		return res
	}
	marked := PR(new(R))
	*marked = zero
	src, dst := reflect.ValueOf(res).Elem(), reflect.ValueOf(marked).Elem()
	for i, f := range exportedFields(dst.Type()) {
		if f {
			dst.Field(i).Set(src.Field(i))
		}
	}
	return marked
}

// markedZeros holds, per result type, the zero result marked complete
// (reflect.Type → any holding an R), or false when the type cannot be
// marked by decoding.
var markedZeros sync.Map

// markedZero is the zero R marked complete, decoded from JSON on first use.
func markedZero[R any, PR interface {
	*R
	mcp.Result
}]() (R, bool) {
	t := reflect.TypeFor[R]()
	if v, ok := markedZeros.Load(t); ok {
		z, ok := v.(R)
		return z, ok
	}
	m := PR(new(R))
	if err := json.Unmarshal([]byte(`{"resultType":"complete"}`), m); err != nil || t.Kind() != reflect.Struct {
		markedZeros.Store(t, false)
		var z R
		return z, false
	}
	markedZeros.Store(t, *m)
	return *m, true
}

// exportedFieldsOf caches exportedFields per struct type.
var exportedFieldsOf sync.Map

// exportedFields reports, per field of the struct type t, whether it is
// exported (what JSON would carry).
func exportedFields(t reflect.Type) []bool {
	if v, ok := exportedFieldsOf.Load(t); ok {
		return v.([]bool)
	}
	f := make([]bool, t.NumField())
	for i := range f {
		f[i] = t.Field(i).IsExported()
	}
	exportedFieldsOf.Store(t, f)
	return f
}

// toolHandler is registered with every tool; route answers calls before
// the SDK would reach it, so it only serves as the SDK's record of the
// tool.
func (s *Server) toolHandler(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return s.callTool(ctx, req)
}

// reply renders what the agent is told (agent.ReplyTo, the one mapping
// every adapter shares) as MCP. An unknown capability is a protocol error
// (-32602), as for any unknown tool. Everything else is a tool result: the
// authored text, the reply's data as structured content (the Result with
// its completing Message, or the refusal with what to correct, as the
// tool's outputSchema says) and again as a JSON text block, less what the
// request and the text already say (textCopy), and isError when the call was refused,
// failed or its completion reported failure. A defect's cause goes to the
// logger, never to the client.
func (s *Server) reply(name string, r agent.Reply) (*mcp.CallToolResult, error) {
	if r.Unknown {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: r.Text}
	}
	if r.Defect {
		s.logDefect("calling "+name, r.Err)
	}
	content := []mcp.Content{&mcp.TextContent{Text: r.Text}}
	if c := textCopy(r.Text, r.Data); c != "" {
		content = append(content, &mcp.TextContent{Text: c})
	}
	return &mcp.CallToolResult{Content: content, StructuredContent: r.Data, IsError: !r.OK}, nil
}

// errNoSessionRuntime answers a request a shared Server cannot tie to a
// session's runtime. It cannot happen through Handler, which ties every
// session to its runtime; it is refused rather than served by another
// runtime's principal.
var errNoSessionRuntime = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "The server could not tell which session this request belongs to."}

// sessionCtxKey carries, in the context of every request of a Handler's
// session, that session. The SDK runs every handler of a session under
// the context of the request that opened it (the initialize POST), so a
// value the Handler puts there reaches each of the session's calls.
type sessionCtxKey struct{}

// sessionRuntime returns the runtime of the session ctx belongs to, or nil.
func sessionRuntime(ctx context.Context) Runtime {
	if st, ok := ctx.Value(sessionCtxKey{}).(*httpSession); ok {
		return st.rt
	}
	return nil
}

// runtime returns the runtime a request is served by: the Server's own,
// or for a shared Server the runtime of the request's session.
func (s *Server) runtime(ctx context.Context) (Runtime, error) {
	if !s.perSession {
		return s.rt, nil
	}
	if rt := sessionRuntime(ctx); rt != nil {
		return rt, nil
	}
	return nil, errNoSessionRuntime
}

// progressMessage is sent with every progress notification.
const progressMessage = "The application has not finished this call yet; still waiting."

// awaitingApproval is the progress message of a call held for the
// person's approval.
const awaitingApproval = "Waiting for the person to approve this in the app."

// progress sends one call's progress notifications, numbered in order
// whoever sends them (the ticker, an approval wait).
type progress struct {
	ss    *mcp.ServerSession
	token any
	lost  *noticeLoss
	mu    sync.Mutex
	n     int
}

func (p *progress) send(ctx context.Context, message string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	err := p.ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: float64(p.n), Message: message})
	p.lost.report(lostProgress, "notifications/progress", err)
}

// startProgress sends a progress notification every interval until stop
// is called, so a long wait (usually for a completion contract) is visible
// to the client instead of silent. stop returns once the sender has
// stopped, so no progress follows the result.
func (s *Server) startProgress(ctx context.Context, p *progress) (stop func()) {
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(s.interval)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			p.send(ctx, progressMessage)
		}
	}()
	return func() {
		close(quit)
		<-finished
	}
}

func (s *Server) logDefect(what string, err error) {
	// A DefectError's own text is the generic sentence the client saw;
	// the application needs where it failed and why.
	var defect *agent.DefectError
	if errors.As(err, &defect) {
		s.log.Error("mcpagent: application code failed", "while", what, "stage", defect.Stage, "cause", defect.Cause)
		return
	}
	s.log.Error("mcpagent: application code failed", "while", what, "error", err)
}

func checkObjectSchema(schema json.RawMessage) error {
	var head struct {
		Type any `json:"type"`
	}
	if len(schema) == 0 {
		return errors.New("it has no input schema")
	}
	if err := json.Unmarshal(schema, &head); err != nil {
		return fmt.Errorf("its input schema is not JSON: %w", err)
	}
	if head.Type != "object" {
		return fmt.Errorf(`its input schema has type %v, and MCP requires "object"`, head.Type)
	}
	return nil
}
