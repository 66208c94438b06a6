package teaserve_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teaserve"
)

// Main, given arguments it cannot use (the test binary's own), says so
// after the program's name on standard error and exits with status 1.
func TestMainExitsWithTheError(t *testing.T) {
	if os.Getenv("TEASERVE_MAIN_CHILD") == "1" {
		teaserve.Main("padmain", teahost.New[pad, tea.Msg](pad{}, nil), padContract, nil)
		t.Fatal("Main returned") // only on success, which these arguments cannot be
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMainExitsWithTheError$")
	cmd.Env = append(os.Environ(), "TEASERVE_MAIN_CHILD=1", "XDG_RUNTIME_DIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "padmain: flag provided but not defined: -test.run") {
		t.Fatalf("standard error:\n%s", out)
	}
}
