package peer

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// InstallStep is the one command that installs every peer the tests use.
const InstallStep = "scripts/install-peers.sh"

// RequireEnv is the environment variable that, set to "1", turns a missing
// peer from a skip into a failure.
const RequireEnv = "FOLDAGENT_REQUIRE_PEERS"

// Required reports whether a missing peer fails a test rather than
// skipping it: whether RequireEnv is "1". Any other value, or none,
// means skip.
func Required() bool { return os.Getenv(RequireEnv) == "1" }

// Require returns if found is true. Otherwise it skips t, or fails it when
// [Required], with a message naming the peer (what, in words a reader
// recognises: "tmux", "a Chromium with WebMCP") and [InstallStep]. Like
// t.Skip and t.Fatal it must be called from the test's goroutine.
func Require(t testing.TB, what string, found bool) {
	t.Helper()
	if found {
		return
	}
	if Required() {
		t.Fatalf("peer missing: %s needs %s, and %s=1 makes that a failure; run %s", t.Name(), what, RequireEnv, InstallStep)
	}
	t.Skipf("peer missing: %s needs %s; run %s to install every peer", t.Name(), what, InstallStep)
}

// Program returns the path of the first of names found on PATH, the names
// being alternatives for one peer ("chromium", "chromium-browser"). When
// none is found it skips or fails t as [Require] does, naming them all.
// Naming no program is a mistake in the test, which fails.
func Program(t testing.TB, names ...string) string {
	t.Helper()
	if len(names) == 0 {
		t.Fatal("peer.Program: no program named")
	}
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	Require(t, strings.Join(names, " or ")+" on PATH", false)
	return ""
}

// NodeModules returns dir as an absolute path once each of packages
// ("@modelcontextprotocol/sdk") is installed in dir/node_modules, where
// npm ci of dir's committed package-lock.json puts it. Otherwise it skips
// or fails t as [Require] does, naming the first package missing. dir is
// relative to the test's working directory, its package's directory.
func NodeModules(t testing.TB, dir string, packages ...string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatalf("peer.NodeModules: %v", err)
	}
	for _, pkg := range packages {
		_, err := os.Stat(filepath.Join(abs, "node_modules", filepath.FromSlash(pkg), "package.json"))
		Require(t, "the npm package "+pkg+" in "+fromModule(filepath.Join(abs, "node_modules")), err == nil)
	}
	return abs
}

// fromModule writes path relative to the root of the module that holds it
// (the nearest directory above with a go.mod), the way the install script
// and the README name it; or as it is when there is no such root.
func fromModule(path string) string {
	for root := filepath.Dir(path); ; {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			if rel, err := filepath.Rel(root, path); err == nil {
				return filepath.ToSlash(rel)
			}
			return path
		}
		up := filepath.Dir(root)
		if up == root {
			return path
		}
		root = up
	}
}
