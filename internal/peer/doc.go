// Package peer decides what a test does when an external peer it talks to
// (tmux, Chromium, a Node MCP client) is missing: skip, naming the install
// step, or fail when FOLDAGENT_REQUIRE_PEERS=1, which CI sets after
// installing every peer.
package peer
