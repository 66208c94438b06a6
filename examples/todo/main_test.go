package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/examples/todo/todo"
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
	bin := buildTodo(t)
	data := filepath.Join(t.TempDir(), "todos.json")
	term := newTerminal(t, bin+" -demo -data "+data)

	term.wait("the app", has("foldagent todo", "agent activity:"))
	term.wait("the agent's todos", has("Book the dentist", "Buy oat milk and bread"))
	term.wait("the refusal in the activity panel", has("assistant clear_completed {} → refused", "Only the list's owner may clear completed todos"))
	final := term.wait("the unknown id refused", has(`assistant select_todo {"id":"t999"} → refused`, "There is no todo with that id"))
	for _, want := range []string{
		`assistant create_todo {"title":"Book the dentist"} → completed`,
		`assistant rename_todo {"id":"t1","title":"Buy oat milk and bread"} → completed`,
		`assistant toggle_todo {"id":"t1"} → completed`,
		"dispatched: the app took the request",
		"[x] Buy oat milk and bread",
	} {
		if !strings.Contains(final, want) {
			t.Fatalf("screen lacks %q:\n%s", want, final)
		}
	}
	t.Logf("the screen while the demo agent acts:\n%s", strings.TrimRight(final, "\n "))

	// Now the person, on the same list.
	term.keys("a")
	term.wait("the add prompt", has("new todo:"))
	term.keys("-l", "Walk the dog")
	term.keys("Enter")
	term.wait("the person's todo", has("[ ] Walk the dog"))
	term.keys("q")
	waitFile(t, data, func(l todo.List) bool { return len(l.Todos) == 3 && l.Todos[2].Title == "Walk the dog" })
}

// TestAgentAttachesToTheRunningApp is the README's registration at work:
// the person runs the app, and an MCP client then launches
// `todo -mcp stdio` on the same list. It attaches to the running app, so
// the agent's todo appears on the person's screen, and survives the
// app's next save and quit. A second owner is refused, naming the first.
func TestAgentAttachesToTheRunningApp(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal for several seconds")
	}
	bin := buildTodo(t)
	data := filepath.Join(t.TempDir(), "todos.json")
	term := newTerminal(t, bin+" -data "+data)
	first := term.wait("the app", has("foldagent todo", "new list: it will be saved to"))
	if strings.Contains(first, "loaded") {
		t.Fatalf("a first run claims to have loaded a file:\n%s", first)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, _, stderr := stdioClient(t, ctx, bin, "-mcp", "stdio", "-data", data)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_todo", Arguments: map[string]any{"title": "Agent's todo"}})
	if err != nil || res.IsError {
		t.Fatalf("create_todo: %+v %v; stderr: %s", res, err, stderr)
	}
	term.wait("the agent's todo on the person's screen", has("[ ] Agent's todo", `mcp-client create_todo {"title":"Agent's todo"} → completed`))

	// A made-up id is refused at once, with a typed refusal.
	began := time.Now()
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "rename_todo", Arguments: map[string]any{"id": "t999", "title": "x"}})
	if err != nil || !res.IsError {
		t.Fatalf("rename_todo of a made-up id: %+v %v", res, err)
	}
	if tag, _ := res.StructuredContent.(map[string]any)["_tag"].(string); tag != "AgentNotFoundError" || time.Since(began) > 2*time.Second {
		t.Fatalf("rename_todo of a made-up id: tag %q after %v: %+v", tag, time.Since(began), res.StructuredContent)
	}
	term.wait("the refusal on screen", has(`mcp-client rename_todo {"id":"t999","title":"x"} → refused`))

	// A second owner is refused, and told who owns the list.
	out, err := exec.Command(bin, "-mcp", "http", "-data", data).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "is in use by process") || !strings.Contains(string(out), "-mcp stdio -data "+data) {
		t.Fatalf("a second owner: %v\n%s", err, out)
	}
	t.Logf("a second owner is told:\n%s", out)
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}

	// The person adds a todo (a save), and quits (a final save).
	term.keys("a")
	term.wait("the add prompt", has("new todo:"))
	term.keys("-l", "Walk the dog")
	term.keys("Enter")
	both := term.wait("the person's todo", has("[ ] Walk the dog", "[ ] Agent's todo"))
	t.Logf("the screen with the agent's and the person's todos:\n%s", strings.TrimRight(both, "\n "))
	term.keys("q")
	waitFile(t, data, func(l todo.List) bool {
		return len(l.Todos) == 2 && l.Todos[0].Title == "Agent's todo" && l.Todos[1].Title == "Walk the dog"
	})
}

// terminal is a program running in a tmux session of its own.
type terminal struct {
	t       *testing.T
	tmux    string
	session string
}

func newTerminal(t *testing.T, command string) *terminal {
	t.Helper()
	tmux := peer.Program(t, "tmux")
	// A name of its own per run: t.TempDir's last element ("001") repeats
	// across test binaries run at once, which would share one tmux server.
	session := fmt.Sprintf("foldagent-todo-%d-%s", os.Getpid(), filepath.Base(filepath.Dir(t.TempDir())))
	term := &terminal{t: t, tmux: tmux, session: session}
	// 44 rows: the start-up lines (five endpoints, the token, the
	// registration command) and the whole activity panel.
	term.run("new-session", "-d", "-s", session, "-x", "110", "-y", "44", command)
	t.Cleanup(func() { _ = exec.Command(tmux, "-L", session, "kill-server").Run() })
	return term
}

func (term *terminal) run(args ...string) string {
	term.t.Helper()
	out, err := exec.Command(term.tmux, append([]string{"-L", term.session}, args...)...).CombinedOutput()
	if err != nil {
		term.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (term *terminal) keys(keys ...string) {
	term.run(append([]string{"send-keys", "-t", term.session}, keys...)...)
}

func (term *terminal) screen() string { return term.run("capture-pane", "-p", "-t", term.session) }

// wait returns the screen once cond holds of it.
func (term *terminal) wait(what string, cond func(string) bool) string {
	term.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := term.screen()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func has(parts ...string) func(string) bool {
	return func(s string) bool {
		for _, p := range parts {
			if !strings.Contains(s, p) {
				return false
			}
		}
		return true
	}
}

// waitFile waits until the list's file satisfies cond.
func waitFile(t *testing.T, data string, cond func(todo.List) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		l, err := NewStore(data).Load()
		if err == nil && cond(l) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the file does not hold what it should: %+v %v", l, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
