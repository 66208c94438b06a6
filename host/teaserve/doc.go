// Package teaserve serves the agent contract of a Bubble Tea v2 program
// while the program runs in its terminal.
//
// A terminal program cannot serve MCP over its own standard input and
// output: they belong to the person. A [Server] therefore serves in the
// program's process, beside it: over MCP streamable HTTP on a loopback
// port (a bearer token, random unless given, guards it), and over a unix
// socket in a directory only the user can enter, one MCP session per
// connection. `prog -mcp stdio`, which is what an MCP client launches,
// attaches its standard input and output to that socket ([Attach]), so
// the client drives the program the person is looking at rather than a
// second copy. Directories and sockets that are another user's, or open
// to other users, are refused on both ends.
//
// [New] binds the contract to the teahost.Host at once, so a contract that
// cannot bind fails there with agent.Bind's error; [Server.Run] opens the
// socket and the HTTP port before the program takes the terminal, so a
// second copy of the program or a port in use fails at start-up, never at
// the first client. [Server.Main] is a whole main function.
//
// A program that binds its contract itself (over a part of its model, or
// one runtime per principal) is served by [NewBound]: Options.Local picks
// a socket session's runtime from its Hello, Options.HTTP says who each
// HTTP client is, Options.Handle mounts other protocols on the same port,
// and Options.Ready is told where the endpoint is before the program
// starts (examples/todo is served so, with A2A and Agent Native beside
// MCP). A client that dials itself, to try again while the program
// starts, relays with [Relay].
//
// Where the HTTP endpoint is, and its token, is kept in an owner-only file
// beside the socket while the program runs ([ReadEndpoint];
// `prog -mcp endpoint` prints it).
package teaserve
