// Package peer decides what a test does when an external peer it talks to
// is missing: a program such as tmux, Chromium or node, or the npm
// packages pinned in a committed package-lock.json.
//
// A missing peer skips the test with a message that names the peer and the
// one step that installs every peer, scripts/install-peers.sh. When the
// environment variable FOLDAGENT_REQUIRE_PEERS is "1", as .ci/run sets it
// after running that script, a missing peer fails the test instead, so a
// broken install cannot pass as a run of skips.
//
// Every skip and failure message starts with "peer missing:", which is
// what to look for in the output of go test -v:
//
//	go test -v ./... 2>&1 | grep 'peer missing:'
//
// A test states each peer it needs before doing any work:
//
//	tmux := peer.Program(t, "tmux")
//	node := peer.Program(t, "node")
//	dir := peer.NodeModules(t, "testdata/node", "@modelcontextprotocol/sdk")
//
// and a peer found only by trying it (a browser feature, say) goes through
// [Require].
package peer
