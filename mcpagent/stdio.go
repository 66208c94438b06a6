package mcpagent

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves rt to one client over standard input and output, the
// way an MCP client launches a local server: one session, one runtime. It
// returns when the client closes its end or ctx is done.
//
// Standard output carries nothing but protocol messages. The adapter's own
// diagnostics go to opts.Logger, which defaults to slog.Default and so to
// standard error; an application must keep its own output off standard
// output too.
func ServeStdio(ctx context.Context, rt Runtime, opts *Options) error {
	s, err := NewServer(rt, opts)
	if err != nil {
		return err
	}
	return s.Run(ctx, &mcp.StdioTransport{})
}
