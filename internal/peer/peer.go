package peer

import (
	"os"
	"os/exec"
	"testing"
)

// InstallHint is the step that installs every peer.
const InstallHint = "run scripts/install-peers.sh"

// Required reports whether missing peers fail tests instead of skipping
// them.
func Required() bool { return os.Getenv("FOLDAGENT_REQUIRE_PEERS") == "1" }

// Missing skips t (or fails it, when peers are required) because the peer
// named what is not available.
func Missing(t testing.TB, what string) {
	t.Helper()
	if Required() {
		t.Fatalf("%s is not available and FOLDAGENT_REQUIRE_PEERS=1 (%s)", what, InstallHint)
	}
	t.Skipf("%s is not available; %s to run this test", what, InstallHint)
}

// LookPath returns the path of the named program, or skips/fails t when
// it is not installed.
func LookPath(t testing.TB, program string) string {
	t.Helper()
	path, err := exec.LookPath(program)
	if err != nil {
		Missing(t, program)
	}
	return path
}
