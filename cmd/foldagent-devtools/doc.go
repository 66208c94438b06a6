// Command foldagent-devtools gives a coding agent the devtools of the
// foldagent application it is working on, with no configuration.
//
// It serves MCP over stdio. Started in a project (or given -project), it
// finds in the per-user registry (package devtools/registry) the newest
// live application whose working directory is inside the project,
// connects to that application's devtools endpoint over streamable HTTP
// with the bearer token the application published, and serves the
// application's tools as its own, passing each call through.
//
// It follows the application: before each tools/list and tools/call it
// looks at the registry again, so an application that restarted (a new
// address and token) or a newer one of the same project is attached on
// the next call, and clients are sent notifications/tools/list_changed
// when the tool set differs. The tools of the last application stay
// listed while none runs; a call then answers a tool error saying that
// no app of this project is running. Its own tool attached_app tells
// which application it reaches (never the token, which it prints
// nowhere).
//
// Install it and register it with an agent that launches MCP servers:
//
//	go install github.com/foldagent/foldagent/cmd/foldagent-devtools@latest
//	claude mcp add devtools -- "$(go env GOPATH)/bin/foldagent-devtools"
//
// Flags:
//
//	-project dir   the project whose applications to attach to (default: the working directory)
//	-registry dir  the registry directory (default: registry.DefaultDir)
//
// What it logs goes to standard error, standard output being the MCP
// stream.
package main
