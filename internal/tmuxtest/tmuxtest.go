// Package tmuxtest runs a program in a terminal of its own (a tmux
// session), for tests that type into a real TUI and read its screen as a
// person would. It needs tmux on PATH (a peer: see internal/peer).
package tmuxtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/peer"
)

// Terminal is a program running in a tmux session of its own, ended when
// the test ends.
type Terminal struct {
	t       testing.TB
	tmux    string
	session string
}

// Start runs command in a new cols×rows terminal. name tells the
// session apart in a process list.
func Start(t testing.TB, name, command string, cols, rows int) *Terminal {
	t.Helper()
	tmux := peer.Program(t, "tmux")
	// A server of its own per run: t.TempDir's last element ("001")
	// repeats across test binaries run at once, which would share one.
	session := fmt.Sprintf("foldagent-%s-%d-%s", name, os.Getpid(), filepath.Base(filepath.Dir(t.TempDir())))
	term := &Terminal{t: t, tmux: tmux, session: session}
	term.run("new-session", "-d", "-s", session, "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), command)
	t.Cleanup(func() { _ = exec.Command(tmux, "-L", session, "kill-server").Run() })
	return term
}

func (term *Terminal) run(args ...string) string {
	term.t.Helper()
	out, err := exec.Command(term.tmux, append([]string{"-L", term.session}, args...)...).CombinedOutput()
	if err != nil {
		term.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Keys types keys, as tmux send-keys reads them ("-l" then text types the
// text literally).
func (term *Terminal) Keys(keys ...string) {
	term.t.Helper()
	term.run(append([]string{"send-keys", "-t", term.session}, keys...)...)
}

// Screen is what the terminal shows now.
func (term *Terminal) Screen() string {
	term.t.Helper()
	return term.run("capture-pane", "-p", "-t", term.session)
}

// Styled is what the terminal shows now with its styles, as the escape
// sequences that set them (capture-pane -e): a test reads which cells
// are concealed (SGR 8) or coloured.
func (term *Terminal) Styled() string {
	term.t.Helper()
	return term.run("capture-pane", "-p", "-e", "-t", term.session)
}

// Wait returns the screen once cond holds of it, reading it again until
// then; it fails the test, showing the screen, after 20 seconds.
func (term *Terminal) Wait(what string, cond func(string) bool) string {
	term.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := term.Screen()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Has holds of a screen that shows every part.
func Has(parts ...string) func(string) bool {
	return func(s string) bool {
		for _, p := range parts {
			if !strings.Contains(s, p) {
				return false
			}
		}
		return true
	}
}

// Lacks holds of a screen that does not show part.
func Lacks(part string) func(string) bool {
	return func(s string) bool { return !strings.Contains(s, part) }
}
