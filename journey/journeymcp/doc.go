// Package journeymcp serves a journey port over the Model Context Protocol,
// with the official Go SDK: over standard input and output for a desktop
// host (StdioTransport, one message per line, answering bad lines instead
// of ending the session), or on any transport the SDK offers (streamable
// HTTP for a remote host, in-memory for tests).
//
// The server is a thin adapter. tools/list returns the port's fixed tool
// set exactly (fixed.Port.Tools), and the server never sends
// notifications/tools/list_changed: the set cannot change, which is the
// point of serving journeys as fixed tools, so it advertises the tools
// capability with listChanged false. tools/call routes to
// fixed.Port.Call and returns the result as one JSON text content.
//
// A call that fired is folded with its settlement when the fire comes to
// rest within SettleWithin (250 ms by default): the settled facts replace
// the synchronous "pending", and the keys that only ride the pending arm
// (howToSettle, settleWith) are dropped, so a quick action answers in one
// round trip. A fire still running at the ceiling is returned as it was,
// pending, with its pointer to did_it_work. A pause for the human
// (needs-confirm) never waits: nothing was fired.
//
// isError is set only for an UNKNOWN_TOOL refusal or a defect (a panic in
// host code reached by the call). Refusals and pauses are answers, not
// errors: a model that reads isError on a needs-confirm goes looking for
// another way round, which is exactly the failure the pause exists to
// prevent. A defect is answered with the port's DEFECT result and no
// detail; its cause goes to Options.Logger.
//
// A Server from NewServer drives one port for every session connected to
// it. NewSessionServer gives each MCP session a port of its own, opened on
// the session's first tool call under the session's caller key and
// released when the session ends, while every session is listed the same
// tool bytes.
//
// NewHTTPHandler serves Servers over streamable HTTP with the sessions of
// every identity bounded, as mcpagent.Handler bounds its own (the rule of
// internal/bound): per identity and in all, a session used within
// EvictIdleAfter never ended to make room, and a new session beyond the
// bound refused 429 with Retry-After. Each session belongs to the identity
// that opened it and ends on DELETE, after SessionTimeout idle, or on
// Close, releasing its port.
//
// NewServer returns a Server with the shape of mcpagent's (Run, Connect,
// Close, MCP), and Options names and defaults the fields the two adapters
// share (Implementation, Instructions, Logger) the same way.
package journeymcp
