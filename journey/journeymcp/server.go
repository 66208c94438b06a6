package journeymcp

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/foldagent/foldagent/journey"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultSettleWithin is how long a call that fired waits for the fire to
// come to rest before it answers pending.
const DefaultSettleWithin = 250 * time.Millisecond

// Options configure a server. The zero value works.
type Options struct {
	// Name is the implementation name announced at initialization; empty
	// means the graph id.
	Name string
	// Version is the implementation version; empty means "0.1.0".
	Version string
	// SettleWithin is the ceiling a call that fired waits for its
	// settlement before answering pending. Zero means
	// DefaultSettleWithin; a negative value means do not wait (a fire
	// already at rest is still folded).
	SettleWithin time.Duration
	// Instructions are optional server instructions for the host.
	Instructions string
	// Logger receives the SDK's server logs; nil means none.
	Logger *slog.Logger
}

// NewServer builds an MCP server for a port. Connect it to a transport
// with its Run or Connect method, or serve it over HTTP with
// mcp.NewStreamableHTTPHandler. Every client connected to the server
// drives the same port, and so the same session.
func NewServer(port *journey.Port, opts *Options) *mcp.Server {
	if port == nil {
		panic("journeymcp: NewServer needs a port")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = port.Session().Graph().ID()
	}
	if o.Version == "" {
		o.Version = "0.1.0"
	}
	switch {
	case o.SettleWithin == 0:
		o.SettleWithin = DefaultSettleWithin
	case o.SettleWithin < 0:
		o.SettleWithin = 0
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: o.Name, Version: o.Version}, &mcp.ServerOptions{
		Instructions: o.Instructions,
		Logger:       o.Logger,
		// Tools only, and never a list_changed: the set is fixed.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: false}},
	})
	h := &handler{port: port, within: o.SettleWithin}
	for _, t := range port.Tools() {
		tool := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
		srv.AddTool(tool, h.call)
		h.tools = append(h.tools, tool)
	}
	// A name the port does not serve is answered by the port itself
	// (UNKNOWN_TOOL, listing the tools that exist) as a tool result with
	// isError, rather than as the SDK's protocol error: a model sees the
	// list and can correct itself.
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			// The SDK lists tools sorted by name; the port's order (journeys,
			// then the four generics) is part of the fixed bytes, so the
			// list is answered here, whole, in that order.
			if method == "tools/list" {
				return &mcp.ListToolsResult{Tools: h.tools}, nil
			}
			if method == "tools/call" {
				if ctr, ok := req.(*mcp.CallToolRequest); ok && ctr.Params != nil && !h.serves(ctr.Params.Name) {
					return h.call(ctx, ctr)
				}
			}
			return next(ctx, method, req)
		}
	})
	return srv
}

type handler struct {
	port   *journey.Port
	within time.Duration
	tools  []*mcp.Tool
}

func (h *handler) serves(name string) bool {
	for _, n := range h.port.ToolNames() {
		if n == name {
			return true
		}
	}
	return false
}

// call answers one tools/call. It never returns a protocol error for a
// tool's own outcome; a panic anywhere below is reported as a defect with
// isError.
func (h *handler) call(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
	name := req.Params.Name
	defer func() {
		if v := recover(); v != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{
				Text: fmt.Sprintf("journeymcp: tool %q failed: %v", name, v)}}}
			err = nil
		}
	}()
	r := h.port.CallJSON(ctx, name, req.Params.Arguments)
	h.fold(ctx, &r)
	reason := r.String("reason")
	return &mcp.CallToolResult{
		IsError: reason == "UNKNOWN_TOOL" || reason == "DEFECT",
		Content: []mcp.Content{&mcp.TextContent{Text: string(r.JSON())}},
	}, nil
}

// fold waits up to the ceiling for a fire the call made and, if it came to
// rest, folds its settled facts into the result.
func (h *handler) fold(ctx context.Context, r *journey.CallResult) {
	id := r.String("transitionId")
	if id == "" || !r.OK() {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, h.within)
	defer cancel()
	if _, err := h.port.WhenSettled(wctx, id); err != nil {
		// Still running at the ceiling (or an id that cannot settle,
		// which a fire result never carries): answer as is.
		if _, done, _ := h.port.SettledAnswer(id); !done {
			return
		}
	}
	facts, done, err := h.port.SettledAnswer(id)
	if err != nil || !done {
		return
	}
	r.FoldSettled(facts)
}
