// Package mcpshell is the MCP server shell the two MCP adapters share:
// mcpagent (one tool per capability the Model offers) and
// journey/journeymcp (a journey port's fixed tools). What each serves is
// its own; how a server is named, logged, connected, run and closed, how
// standard input and output are framed, and how an identity's HTTP
// sessions are bounded is written here once.
//
// A Shell holds the SDK server and its closed state: Connect refuses once
// it is closed, Run closes it when the session ends, and Close runs the
// adapter's own shutdown around closing every session, once. Implementation
// fills a server's name and version the one way; Discard is the SDK's
// logger, since the adapters log their own diagnostics and never the
// SDK's activity. The session bounds (Places, Admit, RefusalMessage) are
// internal/bound's rule with the figures both adapters document.
package mcpshell
