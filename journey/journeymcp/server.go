package journeymcp

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/mcpshell"
	"github.com/foldagent/foldagent/journey/fixed"
)

// DefaultSettleWithin is how long a call that fired waits for the fire to
// come to rest before it answers pending.
const DefaultSettleWithin = 250 * time.Millisecond

// Options configure a Server. The zero value (or nil) is ready to use.
// mcpagent.Options names and defaults the fields the two adapters share
// (Implementation, Instructions, Logger) the same way.
type Options struct {
	// Implementation names the server in the initialize handshake. Nil,
	// or an empty Name or Version in it, takes the default for that field:
	// Name the graph's id, Version "0.1.0".
	Implementation *mcp.Implementation
	// Instructions are sent to the client at initialization, for the
	// model's system prompt. Write them as authored sentences.
	Instructions string
	// Logger receives the adapter's own diagnostics: defects with their
	// causes, which are never sent to the client. Nil uses slog.Default,
	// which writes to standard error, never to standard output. The SDK's
	// own activity log is not forwarded.
	Logger *slog.Logger
	// SettleWithin is the ceiling a call that fired waits for its
	// settlement before answering pending. Zero uses
	// DefaultSettleWithin; a negative value does not wait (a fire already
	// at rest is still folded).
	SettleWithin time.Duration
}

// Server serves journey ports as an MCP server: the port's fixed tools,
// in the port's order, and nothing else.
//
// A Server from NewServer may be connected to any number of sessions (see
// Connect and Run); they all drive the same port, and so the same journey
// session. A Server from NewSessionServer gives each MCP session its own
// port (its own journey session), opened on the session's first tool call
// and released when the session ends.
//
// A Server is safe for concurrent use.
type Server struct {
	port   *fixed.Port
	mcp    *mcp.Server
	log    *slog.Logger
	within time.Duration
	tools  []*mcp.Tool

	// open, when set, opens each MCP session's own port; ports holds
	// them by session (*mcp.ServerSession -> *sessionPort).
	open  Opener
	ports sync.Map
	// first is the first MCP session served by the one shared port (no
	// open): a call from any other makes the port say everything whole
	// (fixed.Port.Share), since its model did not hear what was said once.
	first atomic.Pointer[mcp.ServerSession]

	shell mcpshell.Shell // the SDK server's shell: connecting, running, closing
}

// NewServer builds a Server over port. Connect it to a transport with Run
// or Connect, or serve it over streamable HTTP by handing MCP() to
// mcp.NewStreamableHTTPHandler.
//
// It returns an error when port is nil.
func NewServer(port *fixed.Port, opts *Options) (*Server, error) {
	if port == nil {
		return nil, errors.New("journeymcp: NewServer needs a port")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Implementation = mcpshell.Implementation(o.Implementation, mcp.Implementation{Name: port.Session().Graph().ID(), Version: "0.1.0"})
	o.Logger = mcpshell.Logger(o.Logger)
	switch {
	case o.SettleWithin == 0:
		o.SettleWithin = DefaultSettleWithin
	case o.SettleWithin < 0:
		o.SettleWithin = 0
	}
	s := &Server{port: port, log: o.Logger, within: o.SettleWithin}
	s.mcp = mcp.NewServer(o.Implementation, &mcp.ServerOptions{
		Instructions: o.Instructions,
		Logger:       mcpshell.Discard,
		// Tools only, and never a list_changed: the set is fixed.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: false}},
	})
	s.shell.Init(s.mcp, "journeymcp")
	for _, t := range port.Tools() {
		tool := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
		s.mcp.AddTool(tool, s.call)
		s.tools = append(s.tools, tool)
	}
	// A name the port does not serve is answered by the port itself
	// (UNKNOWN_TOOL, listing the tools that exist) as a tool result with
	// isError, rather than as the SDK's protocol error: a model sees the
	// list and can correct itself.
	s.mcp.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			// The SDK lists tools sorted by name; the port's order (journeys,
			// then the four generics) is part of the fixed bytes, so the
			// list is answered here, whole, in that order.
			if method == "tools/list" {
				return &mcp.ListToolsResult{Tools: s.tools}, nil
			}
			if method == "tools/call" {
				if ctr, ok := req.(*mcp.CallToolRequest); ok && ctr.Params != nil && !s.serves(ctr.Params.Name) {
					return s.call(ctx, ctr)
				}
			}
			return next(ctx, method, req)
		}
	})
	return s, nil
}

// Opener opens the port one MCP session is served by. caller names the
// session (Caller): the same for every request of one session, different
// for two sessions. release is called once, when the session ends or the
// server closes; it should end the session's journey. An error is logged
// and the call answered as a defect.
type Opener func(ctx context.Context, caller string) (port *fixed.Port, release func(), err error)

// NewSessionServer builds a Server that serves each MCP session its own
// port, from open, on the session's first tool call: one conversation's
// cursor, ledgers, asks and facts are never another's. template's tools
// are the ones listed, to every session alike; every port open returns
// must serve the same tools (a session of the same graph, with the same
// fixed.Options), so the tool array is the same bytes in every session.
// The template itself is never called.
//
// A session's port is released when its client disconnects (stdio's end,
// an HTTP session's DELETE or idle timeout) and when the server closes,
// so the ports open are bounded by the sessions open.
func NewSessionServer(template *fixed.Port, open Opener, opts *Options) (*Server, error) {
	if open == nil {
		return nil, errors.New("journeymcp: NewSessionServer needs an Opener")
	}
	s, err := NewServer(template, opts)
	if err != nil {
		return nil, err
	}
	s.open = open
	return s, nil
}

// sessionPort is one MCP session's port, opened once.
type sessionPort struct {
	once    sync.Once
	port    *fixed.Port
	release func()
	err     error
	dropped sync.Once
}

// connIDs numbers the connections whose sessions have no id (stdio,
// in-memory), so that two of them are two callers.
var connIDs atomic.Uint64

// callerOf is the key NewSessionServer names an MCP session by: its
// Mcp-Session-Id on streamable HTTP ("mcp:session:<id>", as mcpagent
// names it: the ids are the SDK's, unique across handlers), or a number
// for a connection without one ("mcp:journey-conn:<n>", stdio), counted
// apart from mcpagent's connections, so that a fixed-tools connection and
// a dynamic-tools one on the same runtime are never one caller.
func callerOf(ss *mcp.ServerSession) string {
	if id := ss.ID(); id != "" {
		return mcpshell.SessionCaller(id)
	}
	return "mcp:journey-conn:" + strconv.FormatUint(connIDs.Add(1), 10)
}

// portOf returns the port that serves ss, opening it on first use.
func (s *Server) portOf(ctx context.Context, ss *mcp.ServerSession) (*fixed.Port, error) {
	if s.open == nil {
		if ss != nil && !s.first.CompareAndSwap(nil, ss) && s.first.Load() != ss {
			s.port.Share()
		}
		return s.port, nil
	}
	if ss == nil {
		// Never the template: it drives nothing.
		return nil, errors.New("journeymcp: a call with no MCP session")
	}
	v, _ := s.ports.LoadOrStore(ss, &sessionPort{})
	sp := v.(*sessionPort)
	sp.once.Do(func() {
		if s.shell.Closed() {
			sp.err = s.shell.ErrClosed()
			return
		}
		sp.port, sp.release, sp.err = s.open(ctx, callerOf(ss))
		// Whatever was opened goes with the session.
		go func() {
			_ = ss.Wait()
			s.drop(ss)
		}()
		if sp.err == nil && s.shell.Closed() {
			// Closed while opening: Close may have missed it.
			s.drop(ss)
			sp.err = s.shell.ErrClosed()
		}
	})
	return sp.port, sp.err
}

// drop releases ss's port, once.
func (s *Server) drop(ss *mcp.ServerSession) {
	v, ok := s.ports.Load(ss)
	if !ok {
		return
	}
	sp := v.(*sessionPort)
	sp.dropped.Do(func() {
		s.ports.Delete(ss)
		if sp.release != nil {
			sp.release()
		}
	})
}

// MCP returns the underlying SDK server, for serving over HTTP or for an
// application that wants to add prompts or middleware of its own. The
// tools are the adapter's: do not add or remove them.
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

// Close closes every session and refuses later Connects. The port and its
// journey session are the application's and stay as they are. It is
// idempotent and returns nil.
func (s *Server) Close() error {
	s.shell.Close(nil, nil, func() {
		// Every session's own port is released now, not when its
		// session's end is noticed.
		s.ports.Range(func(k, _ any) bool {
			s.drop(k.(*mcp.ServerSession))
			return true
		})
	})
	return nil
}

func (s *Server) serves(name string) bool {
	for _, n := range s.port.ToolNames() {
		if n == name {
			return true
		}
	}
	return false
}

// defectResult is the answer to a call that panicked below the port: the
// shape of the port's own DEFECT result, with the cause left to the log.
const defectResult = `{"ok":false,"judgment":"error","reason":"DEFECT"}`

// call answers one tools/call. It never returns a protocol error for a
// tool's own outcome; a panic anywhere below is logged with its cause and
// answered as a defect with isError.
func (s *Server) call(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
	name := req.Params.Name
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("journeymcp: application code failed", "tool", name, "panic", v)
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: defectResult}}}
			err = nil
		}
	}()
	port, err := s.portOf(ctx, req.Session)
	if err != nil {
		s.log.Error("journeymcp: opening the session's journey failed", "tool", name, "err", err)
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: defectResult}}}, nil
	}
	r := port.CallJSON(ctx, name, req.Params.Arguments)
	s.fold(ctx, port, &r)
	if ctx.Err() != nil {
		// The client gave up on the call or left: the answer is not
		// sent, so what it says once is still to be said.
		port.Undelivered(r)
	}
	reason := r.Reason()
	return &mcp.CallToolResult{
		IsError: reason == "UNKNOWN_TOOL" || reason == "DEFECT",
		Content: []mcp.Content{&mcp.TextContent{Text: string(r.JSON())}},
	}, nil
}

// fold waits up to the ceiling for a fire the call made and, if it came to
// rest, folds its settled facts into the result.
func (s *Server) fold(ctx context.Context, port *fixed.Port, r *fixed.CallResult) {
	id := r.TransitionID()
	if id == "" || !r.OK() {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, s.within)
	defer cancel()
	// Still running at the ceiling (or an id that cannot settle, which a
	// fire result never carries): Fold leaves the answer as it is.
	_, _ = port.WhenSettled(wctx, id)
	port.Fold(r)
}
