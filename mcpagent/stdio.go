package mcpagent

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/mcpshell"
)

// ServeStdio serves rt to one client over standard input and output, the
// way an MCP client launches a local server: one session, one runtime. It
// returns when the client closes its end or ctx is done.
//
// Messages are one per line in both directions, and a bad line does not
// end the session: a line that is not JSON is answered with a JSON-RPC
// parse error (-32700, id null); JSON that is not one JSON-RPC message, a
// batch (MCP has none since 2025-06-18) and a line longer than 4 MiB are
// answered with an invalid request error (-32600, with the line's id when
// it can be read); then the next line is served. Empty lines are skipped
// and CRLF endings accepted. Each answered line is logged to opts.Logger
// (its problem and length, not its content).
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
	return s.Run(ctx, TaskTransport(mcpshell.Stdio(s.log)))
}

// StdioTransport returns the transport ServeStdio uses, for an application
// that builds its Server with NewServer (to add to it through MCP, say) and
// runs it with Server.Run. It frames and answers bad input as ServeStdio
// describes, without logging. Like every mcp.Transport it is for one
// connection.
func StdioTransport() mcp.Transport {
	return TaskTransport(mcpshell.Stdio(nil))
}
