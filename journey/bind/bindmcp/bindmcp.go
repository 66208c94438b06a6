// Package bindmcp serves one bound contract over MCP in either of its two
// shapes, chosen by one option: the contract's own capabilities as
// dynamic tools (mcpagent), or a journey graph declared over it (package
// bind) as the fixed journey tools (journeymcp). Both go through the same
// runtime, so the audit log records a call the same way whichever shape
// served it. With the fixed tools, every MCP session is its own
// conversation, with a journey of its own (bind.Sessions).
package bindmcp

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
	"github.com/foldagent/foldagent/journey/fixed"
	"github.com/foldagent/foldagent/journey/journeymcp"
	"github.com/foldagent/foldagent/mcpagent"
)

// Tools chooses the shape of the tool set.
type Tools string

const (
	// Fixed serves the journey tools (<graph>.journey.<id>, whats_here,
	// why, do_action, did_it_work), byte-identical for the server's life.
	Fixed Tools = "fixed"
	// Dynamic serves one tool per capability the Model offers now.
	Dynamic Tools = "dynamic"
)

// Runtime is a bound contract as both shapes need it: what package bind
// reads and what mcpagent serves. *agent.Runtime satisfies it, and so
// does an application's wrapper around one.
type Runtime[Model, P any] interface {
	bind.Runtime[Model, P]
	mcpagent.Runtime
}

// Server is what both shapes' servers offer.
type Server interface {
	Run(ctx context.Context, t mcp.Transport) error
	Connect(ctx context.Context, t mcp.Transport, opts *mcp.ServerSessionOptions) (*mcp.ServerSession, error)
	MCP() *mcp.Server
	Close() error
}

// Options configure a server. The zero value serves the fixed tools.
type Options struct {
	// Tools is the shape; empty is Fixed.
	Tools Tools
	// Implementation, Instructions and Logger are the adapters' own (see
	// mcpagent.Options and journeymcp.Options).
	Implementation *mcp.Implementation
	Instructions   string
	Logger         *slog.Logger
	// Session configures the journey session (Fixed only).
	Session journey.Options
	// Port configures the fixed port of every session (Fixed only); its
	// Observe hears each session's answers with the session named as the
	// caller in the context (agent.CallerFrom).
	Port fixed.Options
	// SettleWithin is journeymcp's ceiling (Fixed only).
	SettleWithin time.Duration
	// Patience is mcpagent's (Dynamic only): when a call still waiting
	// answers a client that asked for no task with a held answer. Zero
	// uses mcpagent.DefaultPatience.
	Patience time.Duration
}

// NewServer serves rt in the shape opts.Tools names; def is not read with
// Dynamic.
//
// With Fixed, every MCP session (an HTTP session, or stdio's one) is its
// own conversation: it gets its own journey session bound over rt (see
// bind.Sessions), with its own cursor, ledgers, asks and facts, opened on
// its first tool call and closed when it ends. Its fires are recorded
// with transport mcp and the session as the contract's caller
// (agent.WithCaller), so each session's stale view is its own; another
// session's changes reach its facts as another agent's, and the person's
// as the person's. The tool array is the same bytes in every session.
// The returned Sessions counts the journeys open (nil with Dynamic).
// Close closes every session's journey too.
func NewServer[Model, P any](id string, rt Runtime[Model, P], model func() Model, def bind.Def[Model, P], opts *Options) (Server, *bind.Sessions[Model, P], error) {
	if opts == nil {
		opts = &Options{}
	}
	switch opts.Tools {
	case Dynamic:
		s, err := mcpagent.NewServer(rt, &mcpagent.Options{Implementation: opts.Implementation, Instructions: opts.Instructions, Logger: opts.Logger, Patience: opts.Patience})
		if err != nil {
			return nil, nil, err
		}
		return s, nil, nil
	case Fixed, "":
		ss, err := bind.NewSessions(id, rt, model, def, bind.Options{Session: opts.Session, Transport: agent.MCP})
		if err != nil {
			return nil, nil, err
		}
		open := func(_ context.Context, caller string) (*fixed.Port, func(), error) {
			j, err := ss.Open(caller)
			if err != nil {
				return nil, nil, err
			}
			return fixed.Serve(j.Session(), portFor(opts.Port, caller)), j.Close, nil
		}
		s, err := journeymcp.NewSessionServer(fixed.Serve(ss.Template(), opts.Port), open, &journeymcp.Options{
			Implementation: opts.Implementation, Instructions: opts.Instructions, Logger: opts.Logger, SettleWithin: opts.SettleWithin})
		if err != nil {
			ss.Close()
			return nil, nil, err
		}
		return fixedServer{s, ss.Close}, ss, nil
	}
	return nil, nil, fmt.Errorf("bindmcp: unknown tools %q: use %q or %q", opts.Tools, Fixed, Dynamic)
}

// portFor is o for the port of caller's session: its observer hears
// each answer with the session named as the caller (agent.CallerFrom),
// as the contract hears its fires.
func portFor(o fixed.Options, caller string) fixed.Options {
	if observe := o.Observe; observe != nil {
		o.Observe = func(ctx context.Context, tool string, args map[string]any, answer fixed.CallResult) {
			observe(agent.WithCaller(ctx, caller), tool, args, answer)
		}
	}
	return o
}

type fixedServer struct {
	*journeymcp.Server
	closeSessions func()
}

func (s fixedServer) Close() error {
	err := s.Server.Close()
	s.closeSessions()
	return err
}
