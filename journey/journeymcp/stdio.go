package journeymcp

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/mcpshell"
)

// StdioTransport returns a transport over standard input and output for
// a server from NewServer: srv.Run(ctx, journeymcp.StdioTransport()).
// Use it rather than the SDK's mcp.StdioTransport, which ends the session,
// without a reply, at the first line it cannot decode.
//
// Messages are one per line in both directions, and a bad line does not
// end the session: a line that is not JSON is answered with a JSON-RPC
// parse error (-32700, id null); JSON that is not one JSON-RPC message, a
// batch (MCP has none since 2025-06-18) and a line longer than 4 MiB are
// answered with an invalid request error (-32600, with the line's id when
// it can be read); then the next line is served. Empty lines are skipped
// and CRLF endings accepted. Standard output carries nothing but
// protocol messages. Like every mcp.Transport it is for one connection.
func StdioTransport() mcp.Transport {
	return mcpshell.Stdio(nil)
}
