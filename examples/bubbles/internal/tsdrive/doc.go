// Package tsdrive is the harness the bubbles programs' peer tests share:
// it runs a program's binary in a terminal of its own (tmux), runs a
// script of the official TypeScript MCP client against it over stdio
// (attached to the running program) or over its HTTP endpoint, and reads
// the script's steps, one JSON line each, pausing where the test types
// the person's keys or reads the person's screen.
//
// The script side is client.mjs in this directory: it loads the pinned
// client from mcpagent/testdata/node, connects as the arguments say,
// reports each step with what was answered, ids, versions and times left
// out, so that two runs' answers compare equal, and waits for a line on
// stdin at each pause.
//
// A test that uses it skips, naming the install step, when node or tmux
// is missing, and fails instead under FOLDAGENT_REQUIRE_PEERS=1 (see
// internal/peer).
package tsdrive
