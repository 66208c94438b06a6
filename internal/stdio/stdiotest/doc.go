// Package stdiotest drives an MCP server process over its standard input
// and output from outside, line by line, the way a client (or a careless
// person) would, for the fault tests of the commands that serve stdio.
//
// Every line the process writes to standard output is checked to be one
// JSON-RPC 2.0 message; anything else fails the test, since standard
// output must carry nothing but protocol.
package stdiotest
