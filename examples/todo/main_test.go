package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/internal/tmuxtest"
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
	// 44 rows: the start-up lines (five endpoints, the token, the
	// registration command) and the whole activity panel.
	term := tmuxtest.Start(t, "todo", bin+" -demo -data "+data, 110, 44)

	term.Wait("the app", tmuxtest.Has("foldagent todo", "agent activity:"))
	term.Wait("the agent's todos", tmuxtest.Has("Book the dentist", "Buy oat milk and bread"))
	term.Wait("the refusal in the activity panel", tmuxtest.Has("assistant: clear_completed {} → refused", "Only the list's owner may clear completed todos"))
	final := term.Wait("the unknown id refused", tmuxtest.Has(`assistant: select_todo {"id":"t999"} → refused`, "There is no todo with that id"))
	for _, want := range []string{
		`assistant: create_todo {"title":"Book the dentist"} → completed`,
		`assistant: rename_todo {"id":"t1","title":"Buy oat milk and bread"} → completed`,
		`assistant: toggle_todo {"id":"t1"} → completed`,
		"dispatched: the app took the request",
		"[x] Buy oat milk and bread",
	} {
		if !strings.Contains(final, want) {
			t.Fatalf("screen lacks %q:\n%s", want, final)
		}
	}
	t.Logf("the screen while the demo agent acts:\n%s", strings.TrimRight(final, "\n "))

	// Now the person, on the same list.
	term.Keys("a")
	term.Wait("the add prompt", tmuxtest.Has("new todo:"))
	term.Keys("-l", "Walk the dog")
	term.Keys("Enter")
	term.Wait("the person's todo", tmuxtest.Has("[ ] Walk the dog"))
	term.Keys("q")
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
	term := tmuxtest.Start(t, "todo", bin+" -data "+data, 110, 44)
	first := term.Wait("the app", tmuxtest.Has("foldagent todo", "new list: it will be saved to"))
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
	term.Wait("the agent's todo on the person's screen", tmuxtest.Has("[ ] Agent's todo", `mcp-client: create_todo {"title":"Agent's todo"} → completed`))

	// A made-up id is refused at once, with a typed refusal.
	began := time.Now()
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "rename_todo", Arguments: map[string]any{"id": "t999", "title": "x"}})
	if err != nil || !res.IsError {
		t.Fatalf("rename_todo of a made-up id: %+v %v", res, err)
	}
	if tag, _ := res.StructuredContent.(map[string]any)["_tag"].(string); tag != "AgentNotFoundError" || time.Since(began) > 2*time.Second {
		t.Fatalf("rename_todo of a made-up id: tag %q after %v: %+v", tag, time.Since(began), res.StructuredContent)
	}
	term.Wait("the refusal on screen", tmuxtest.Has(`mcp-client: rename_todo {"id":"t999","title":"x"} → refused`))

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
	term.Keys("a")
	term.Wait("the add prompt", tmuxtest.Has("new todo:"))
	term.Keys("-l", "Walk the dog")
	term.Keys("Enter")
	both := term.Wait("the person's todo", tmuxtest.Has("[ ] Walk the dog", "[ ] Agent's todo"))
	t.Logf("the screen with the agent's and the person's todos:\n%s", strings.TrimRight(both, "\n "))
	term.Keys("q")
	waitFile(t, data, func(l todo.List) bool {
		return len(l.Todos) == 2 && l.Todos[0].Title == "Agent's todo" && l.Todos[1].Title == "Walk the dog"
	})
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
		// Not a wait for an event this process hears of: the file is
		// another process's (the built todo's), read again until it holds
		// what it should.
		time.Sleep(50 * time.Millisecond)
	}
}
