package main

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

// TestPersonAndAgentInTmux runs the real binary in a terminal, the way a
// person would, while the in-process demo agent acts: the screen shows
// the agent's changes and its activity, including the refusal, and then
// the person's own keystrokes work on the same list.
func TestPersonAndAgentInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal for several seconds")
	}
	tmux := peer.Program(t, "tmux")
	dir := t.TempDir()
	bin := filepath.Join(dir, "todo")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("build: %v", err)
	}
	data := filepath.Join(dir, "todos.json")
	// A name of its own per run: t.TempDir's last element ("001") repeats
	// across test binaries run at once, which would share one tmux server.
	session := fmt.Sprintf("foldagent-todo-%d-%s", os.Getpid(), filepath.Base(filepath.Dir(dir)))
	tm := func(args ...string) string {
		out, err := exec.Command(tmux, append([]string{"-L", session}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	tm("new-session", "-d", "-s", session, "-x", "110", "-y", "32", bin+" -demo -data "+data)
	t.Cleanup(func() { _ = exec.Command(tmux, "-L", session, "kill-server").Run() })

	screen := func() string { return tm("capture-pane", "-p", "-t", session) }
	waitScreen := func(what string, cond func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			s := screen()
			if cond(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	has := func(parts ...string) func(string) bool {
		return func(s string) bool {
			for _, p := range parts {
				if !strings.Contains(s, p) {
					return false
				}
			}
			return true
		}
	}

	waitScreen("the app", has("foldagent todo", "agent activity:"))
	waitScreen("the agent's todos", has("Book the dentist", "Buy oat milk and bread"))
	final := waitScreen("the refusal in the activity panel", has("assistant clear_completed → AgentAuthorizationError"))
	for _, want := range []string{"assistant create_todo → completed", "assistant rename_todo → completed", "[x] Buy oat milk and bread"} {
		if !strings.Contains(final, want) {
			t.Fatalf("screen lacks %q:\n%s", want, final)
		}
	}

	// Now the person, on the same list.
	tm("send-keys", "-t", session, "a")
	waitScreen("the add prompt", has("new todo:"))
	tm("send-keys", "-t", session, "-l", "Walk the dog")
	tm("send-keys", "-t", session, "Enter")
	waitScreen("the person's todo", has("[ ] Walk the dog"))
	tm("send-keys", "-t", session, "q")

	deadline := time.Now().Add(10 * time.Second)
	for {
		l, err := NewStore(data).Load()
		if err == nil && len(l.Todos) == 3 && l.Todos[2].Title == "Walk the dog" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the file does not hold the three todos: %+v %v", l, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
