package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/devtools/registry"
	"github.com/foldagent/foldagent/internal/tmuxtest"
)

// TestDevtoolsTellThePersonsKeysApart runs the app in a terminal with
// -devtools: the person adds a todo with their keys, an agent adds
// another over MCP, and foldagent-devtools, started in the project,
// tells the person's keys, the agent (by name) and the app's saves apart.
func TestDevtoolsTellThePersonsKeysApart(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal")
	}
	bin := buildTodo(t)
	p := devProject{dir: t.TempDir(), reg: filepath.Join(t.TempDir(), "registry")}
	appDir := filepath.Join(p.dir, "app")
	if err := os.Mkdir(appDir, 0o700); err != nil {
		t.Fatal(err)
	}
	tokFile := filepath.Join(p.dir, "tokens.json")
	if err := os.WriteFile(tokFile, []byte(`{"tok-alice": {"name": "alice", "role": "owner"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(appDir, "todos.json")
	term := tmuxtest.Start(t, "todo-devtools", "cd "+appDir+" && "+registry.EnvDir+"="+p.reg+" "+bin+" -devtools -tokens "+tokFile+" -data "+data, 110, 44)
	screen := term.Wait("the app serving agents", tmuxtest.Has("foldagent todo", "agents: MCP at "))
	for line := range strings.Lines(screen) {
		if _, rest, ok := strings.Cut(line, "agents: MCP at "); ok {
			p.mcpURL = strings.Fields(rest)[0]
		}
	}
	term.Keys("a")
	term.Wait("the add prompt", tmuxtest.Has("new todo:"))
	term.Keys("-l", "Walk the dog")
	term.Keys("Enter")
	term.Wait("the person's todo", tmuxtest.Has("[ ] Walk the dog"))
	alice := connectOwner(t, p.mcpURL, "tok-alice")
	if r := alice.call("create_todo", map[string]any{"title": "Milk"}); !r.completed() {
		t.Fatalf("alice's create_todo: %+v", r)
	}
	term.Wait("the agent's todo", tmuxtest.Has("[ ] Milk"))

	dev := startDevCommand(t, p)
	h := dev.mustCall("devtools_history", map[string]any{"kind": "person"})
	var keys []historyEntry
	if err := jsonInto(h["entries"], &keys); err != nil {
		t.Fatal(err)
	}
	presses, added := 0, false
	for _, e := range keys {
		if e.Type == "tea.KeyPressMsg" {
			presses++
			added = added || slices.ContainsFunc(e.Changed, func(p string) bool { return strings.HasPrefix(p, "/List/todos") })
		}
	}
	// "a", the twelve characters and Enter, each a key press of the
	// person's; the Enter's changed the list.
	if presses < len("a")+len("Walk the dog")+1 || !added {
		t.Fatalf("the person's key presses: %d of %d person entries, one adding the todo: %v", presses, len(keys), added)
	}
	t.Logf("the person's key presses: %d", presses)
	all := historyOf(t, dev)
	byAlice, bySaves := 0, 0
	for _, e := range all {
		switch {
		case e.By == "agent alice" && e.Type == "todo.CreateTodo":
			byAlice++
		case e.By == "app" && e.Type == "main.Saved":
			bySaves++
		}
	}
	if byAlice != 1 || bySaves == 0 {
		t.Fatalf("alice's create %d, the app's saves %d in the last 20", byAlice, bySaves)
	}
	term.Keys("q")
}
