package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/devtools/registry"
	"github.com/foldagent/foldagent/internal/peer"
	"github.com/foldagent/foldagent/internal/testbin"
)

// devProject is a project directory with the todo app running in it with
// -devtools, headless, publishing into a registry of its own.
type devProject struct {
	dir, reg, mcpURL string
}

// startDevApp runs the built todo binary with -devtools in a fresh
// project (its working directory a folder inside it), the registry
// named by FOLDAGENT_DEVTOOLS_DIR, two owner tokens.
func startDevApp(t *testing.T, extra ...string) devProject {
	t.Helper()
	bin := buildTodo(t)
	p := devProject{dir: t.TempDir(), reg: filepath.Join(t.TempDir(), "registry")}
	if err := os.Mkdir(p.reg, 0o700); err != nil {
		t.Fatal(err)
	}
	appDir := filepath.Join(p.dir, "app")
	if err := os.Mkdir(appDir, 0o700); err != nil {
		t.Fatal(err)
	}
	tokFile := filepath.Join(p.dir, "tokens.json")
	if err := os.WriteFile(tokFile, []byte(`{"tok-alice": {"name": "alice", "role": "owner"}, "tok-bob": {"name": "bob", "role": "owner"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	args := append([]string{"-mcp", "http", "-devtools", "-tokens", tokFile, "-data", filepath.Join(appDir, "todos.json")}, extra...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = appDir
	cmd.Env = append(os.Environ(), registry.EnvDir+"="+p.reg)
	cmd.Stderr = os.Stderr
	stdout := testbin.Start(t, cmd).Stdout
	t.Cleanup(cancel)
	lines := bufio.NewScanner(stdout)
	for p.mcpURL == "" && lines.Scan() {
		p.mcpURL, _ = strings.CutPrefix(lines.Text(), "MCP ")
	}
	if p.mcpURL == "" {
		t.Fatal("the app printed no URL")
	}
	go func() {
		for lines.Scan() {
		}
	}()
	return p
}

// devClient is the go-sdk client of foldagent-devtools started in the
// project, with nothing but the registry's environment variable.
type devClient struct {
	t  *testing.T
	cs *mcp.ClientSession
	// log is every call made, with the text it answered, for the
	// TypeScript client to make again.
	log []loggedCall
}

type loggedCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
	IsError   bool           `json:"isError"`
	Text      string         `json:"text"`
}

func startDevCommand(t *testing.T, p devProject) *devClient {
	t.Helper()
	cmd := exec.Command(testbin.Build(t, "cmd/foldagent-devtools"))
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), registry.EnvDir+"="+p.reg)
	cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "developer-agent", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &devClient{t: t, cs: cs}
}

// call answers a tool's structured content and whether it was an error.
func (c *devClient) call(name string, args map[string]any) (map[string]any, bool) {
	c.t.Helper()
	res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	var out map[string]any
	text := ""
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
			_ = json.Unmarshal([]byte(tc.Text), &out)
		}
	}
	c.log = append(c.log, loggedCall{Name: name, Arguments: args, IsError: res.IsError, Text: text})
	return out, res.IsError
}

// text is the text a tool without arguments answers.
func (c *devClient) text(name string) string {
	c.t.Helper()
	res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name})
	if err != nil || res.IsError || len(res.Content) == 0 {
		c.t.Fatalf("%s: %v %v", name, res, err)
	}
	tc, _ := res.Content[0].(*mcp.TextContent)
	if tc == nil {
		c.t.Fatalf("%s answered no text", name)
	}
	return tc.Text
}

// mustCall is call of a tool that must not fail.
func (c *devClient) mustCall(name string, args map[string]any) map[string]any {
	c.t.Helper()
	out, isErr := c.call(name, args)
	if isErr {
		c.t.Fatalf("%s %v: %v", name, args, out)
	}
	return out
}

// twoAgents drive the app over MCP, each with its own token: alice adds
// and completes a todo, bob adds one and renames it. Every change is
// saved by the app's own command, whose report (Saved) is its effect.
func twoAgents(t *testing.T, p devProject) {
	alice, bob := connectOwner(t, p.mcpURL, "tok-alice"), connectOwner(t, p.mcpURL, "tok-bob")
	alice.doneTodo("Milk")
	if r := bob.call("create_todo", map[string]any{"title": "Bread"}); !r.completed() {
		t.Fatalf("bob's create_todo: %+v", r)
	}
	if r := bob.call("rename_todo", map[string]any{"id": "t2", "title": "Rye bread"}); !r.completed() {
		t.Fatalf("bob's rename_todo: %+v", r)
	}
	if r := alice.call("create_todo", map[string]any{"title": "Eggs"}); !r.completed() {
		t.Fatalf("alice's create_todo: %+v", r)
	}
}

// TestDevtoolsThroughTheCommand is issue 43's "must show" on the todo
// app: two agents over MCP, the app's saves, then a developer's agent
// through foldagent-devtools started in the project with no
// configuration. Two runs on fresh apps answer the same, versions, times
// and ids set aside.
func TestDevtoolsThroughTheCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the app and the command")
	}
	first := devtoolsRun(t)
	second := devtoolsRun(t)
	if !reflect.DeepEqual(first, second) {
		a, _ := json.MarshalIndent(first, "", " ")
		b, _ := json.MarshalIndent(second, "", " ")
		t.Fatalf("two runs answered differently:\n%s\n---\n%s", a, b)
	}
}

// devtoolsRun runs the app, the agents and the command once, checks
// every answer and returns them with versions, times and ids set aside.
func devtoolsRun(t *testing.T) map[string]any {
	p := startDevApp(t)
	twoAgents(t, p)
	dev := startDevCommand(t, p)
	answers := map[string]any{}
	if att := dev.text("attached_app"); !strings.Contains(att, `"todo"`) || !strings.Contains(att, p.dir) {
		t.Fatalf("attached_app: %s, want the todo app in %s", att, p.dir)
	}
	now := dev.mustCall("devtools_model", nil)
	cur := uint64(num(now["version"]))
	if got := titles(now["value"]); got != "[x] Milk, [ ] Rye bread, [ ] Eggs" {
		t.Fatalf("the Model now holds %s", got)
	}
	answers["model now"] = now["value"]
	ago := dev.mustCall("devtools_model", map[string]any{"version": cur - 2})
	if uint64(num(ago["version"])) != cur-2 {
		t.Fatalf("the Model two versions ago is version %v, want %d", ago["version"], cur-2)
	}
	answers["model two versions ago"] = ago["value"]
	entries := historyOf(t, dev)
	answers["last 20 by whom"] = whoDidWhat(t, entries)
	answers["diff of bob's rename"] = renameDiff(t, dev, entries)
	answers["replay"] = replayMatches(t, dev, entries, cur)
	answers["dispatch"] = dispatchRefused(t, dev, cur)
	t.Run("the TypeScript client answers the same", func(t *testing.T) { sameInTypeScript(t, p, dev.log) })
	return answers
}

func jsonInto(v, into any) error { return json.Unmarshal([]byte(fmtJSON(v)), into) }

func fmtJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func num(v any) float64 { f, _ := v.(float64); return f }

// titles reads the todos of an App's JSON: "[x] Milk, [ ] Eggs".
func titles(app any) string {
	var a struct {
		List struct {
			Todos []struct {
				Title string `json:"title"`
				Done  bool   `json:"done"`
			} `json:"todos"`
		}
	}
	_ = json.Unmarshal([]byte(fmtJSON(app)), &a)
	var out []string
	for _, td := range a.List.Todos {
		mark := "[ ] "
		if td.Done {
			mark = "[x] "
		}
		out = append(out, mark+td.Title)
	}
	return strings.Join(out, ", ")
}

// historyEntry is a devtools_history entry, as far as the test reads it.
type historyEntry struct {
	Version    uint64          `json:"version"`
	Type       string          `json:"type"`
	By         string          `json:"by"`
	Changed    []string        `json:"changed"`
	Message    json.RawMessage `json:"message"`
	Provenance struct {
		Kind  string `json:"kind"`
		Agent *struct {
			Identity, Caller, Invocation string
		} `json:"agent"`
	} `json:"provenance"`
}

func historyOf(t *testing.T, dev *devClient) []historyEntry {
	t.Helper()
	h := dev.mustCall("devtools_history", map[string]any{"last": 20})
	var entries []historyEntry
	if err := json.Unmarshal([]byte(fmtJSON(h["entries"])), &entries); err != nil || len(entries) != 20 {
		t.Fatalf("the last 20 Messages: %d entries (%v)", len(entries), err)
	}
	return entries
}

// whoDidWhat checks the provenance of the last 20 Messages (each agent
// by its name and its own MCP session; the list's changes by the agents
// that asked; saves and the activity panel's reports by the app) and returns each "by: type", counted.
func whoDidWhat(t *testing.T, entries []historyEntry) map[string]int {
	t.Helper()
	counts := map[string]int{}
	callers := map[string]string{}
	for _, e := range entries {
		// Bubble Tea's start-up events (the environment, the window
		// size) come in either order, at the window's edge: not counted.
		if !strings.HasPrefix(e.Type, "tea.") && e.Type != "teadevtools.Environment" {
			counts[e.By+": "+e.Type]++
		}
		if e.Provenance.Kind == "agent" {
			a := e.Provenance.Agent
			if a == nil || "agent "+a.Identity != e.By || a.Caller == "" || a.Invocation == "" {
				t.Errorf("v%d %s by %q: the agent is not named: %+v", e.Version, e.Type, e.By, a)
				continue
			}
			if c, ok := callers[a.Identity]; ok && c != a.Caller {
				t.Errorf("%s has two callers", a.Identity)
			}
			callers[a.Identity] = a.Caller
		}
		if (strings.HasPrefix(e.Type, "main.Saved") || e.Type == "main.Activity") && e.By != "app" {
			t.Errorf("v%d: the app's own %s recorded as %q's", e.Version, e.Type, e.By)
		}
	}
	if callers["alice"] == "" || callers["bob"] == "" || callers["alice"] == callers["bob"] {
		t.Errorf("alice's and bob's calls are not told apart: %v", callers)
	}
	for _, want := range []string{"agent alice: todo.CreateTodo", "agent bob: todo.CreateTodo", "agent bob: todo.RenameTodo", "app: main.Saved", "app: main.Activity"} {
		if counts[want] == 0 {
			t.Errorf("the last 20 Messages have no %q: %v", want, counts)
		}
	}
	return counts
}

// renameDiff diffs the Model across bob's rename: the title, and only it.
func renameDiff(t *testing.T, dev *devClient, entries []historyEntry) any {
	t.Helper()
	i := slices.IndexFunc(entries, func(e historyEntry) bool { return e.Type == "todo.RenameTodo" })
	if i < 0 {
		t.Fatal("no rename in the history")
	}
	v := entries[i].Version
	d := dev.mustCall("devtools_diff", map[string]any{"from": v - 1, "to": v})
	want := `[{"after":"Rye bread","before":"Bread","path":"/List/todos/1/title"}]`
	if got := fmtJSON(d["changes"]); got != want || !slices.Equal(entries[i].Changed, []string{"/List/todos/1/title"}) {
		t.Fatalf("the diff across the rename (v%d): %s, history says %v", v, got, entries[i].Changed)
	}
	return d["changes"]
}

// replayMatches replays to the version alice's toggle made and to two
// versions ago, in the sandbox: each equals the recorded Model.
func replayMatches(t *testing.T, dev *devClient, entries []historyEntry, cur uint64) []any {
	t.Helper()
	var out []any
	for _, v := range []uint64{entries[0].Version, cur - 2} {
		r := dev.mustCall("devtools_replay", map[string]any{"version": v})
		if r["matches"] != true || uint64(num(r["version"])) != v || num(r["messages"]) < 1 {
			t.Fatalf("replay to v%d: %s", v, fmtJSON(r))
		}
		out = append(out, r["matches"])
	}
	return out
}

// dispatchRefused: the app did not enable dispatch, so a valid batch is
// refused and nothing reaches the app.
func dispatchRefused(t *testing.T, dev *devClient, cur uint64) any {
	t.Helper()
	out, isErr := dev.call("devtools_dispatch", map[string]any{"messages": []any{
		map[string]any{"type": "todo.CreateTodo", "message": map[string]any{"title": "Sneaked in"}},
	}})
	if !isErr || out["error"] != "DevtoolsDispatchDisabled" {
		t.Fatalf("dispatch while not enabled: %v %s", isErr, fmtJSON(out))
	}
	if now := dev.mustCall("devtools_model", nil); uint64(num(now["version"])) != cur || strings.Contains(fmtJSON(now), "Sneaked") {
		t.Fatalf("a refused dispatch changed the Model: %s", fmtJSON(now))
	}
	return out["error"]
}

// sameInTypeScript makes the calls again with the official TypeScript
// client through the command, started in the project with only the
// registry's environment variable, and wants the very answers the go-sdk
// client had (the app has not changed meanwhile).
func sameInTypeScript(t *testing.T, p devProject, calls []loggedCall) {
	peer.Program(t, "node")
	dir := peer.NodeModules(t, "../../cmd/foldagent-devtools/testdata/node", "@modelcontextprotocol/sdk")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "calls.mjs", testbin.Build(t, "cmd/foldagent-devtools"), p.dir, p.reg, fmtJSON(calls))
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the TypeScript client: %v", err)
	}
	var got []loggedCall
	for line := range strings.Lines(string(out)) {
		var c loggedCall
		if json.Unmarshal([]byte(line), &c) == nil && c.Name != "" {
			got = append(got, c)
		}
	}
	if len(got) != len(calls) {
		t.Fatalf("the TypeScript client made %d calls of %d", len(got), len(calls))
	}
	for i, want := range calls {
		if got[i].Name != want.Name || got[i].IsError != want.IsError || got[i].Text != want.Text {
			t.Errorf("%s %v: TypeScript answered %v %.300s, go-sdk %v %.300s", want.Name, want.Arguments, got[i].IsError, got[i].Text, want.IsError, want.Text)
		}
	}
}

// TestDevtoolsDispatchThroughTheCommand: with -devtools-dispatch the
// developer's agent dispatches through the command. A batch with one
// Message that does not validate is refused whole (nothing reaches the
// app); a valid batch is applied in order, each Message recorded as the
// developer's.
func TestDevtoolsDispatchThroughTheCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the app and the command")
	}
	p := startDevApp(t, "-devtools-dispatch")
	dev := startDevCommand(t, p)
	before := dev.mustCall("devtools_model", nil)
	out, isErr := dev.call("devtools_dispatch", map[string]any{"messages": []any{
		map[string]any{"type": "todo.CreateTodo", "message": map[string]any{"title": "Tea"}},
		map[string]any{"type": "todo.CreateTodo", "message": map[string]any{"title": 5}},
	}})
	if !isErr || out["error"] != "DevtoolsBatchRefused" {
		t.Fatalf("a batch with an invalid Message: %v %s", isErr, fmtJSON(out))
	}
	if now := dev.mustCall("devtools_model", nil); now["version"] != before["version"] {
		t.Fatalf("a refused batch changed the Model: v%v → v%v", before["version"], now["version"])
	}
	out = dev.mustCall("devtools_dispatch", map[string]any{"messages": []any{
		map[string]any{"type": "todo.CreateTodo", "message": map[string]any{"title": "Tea"}},
		map[string]any{"type": "todo.CreateTodo", "message": map[string]any{"title": "Jam"}},
	}})
	if num(out["sent"]) != 2 {
		t.Fatalf("the valid batch: %s", fmtJSON(out))
	}
	var mine []historyEntry
	for attempt := 0; len(mine) < 2; attempt++ { // each call is a round trip to the app
		if attempt == 1000 {
			t.Fatalf("the developer's Messages recorded: %+v; want two", mine)
		}
		h := dev.mustCall("devtools_history", map[string]any{"kind": "developer"})
		mine = nil
		if err := jsonInto(h["entries"], &mine); err != nil {
			t.Fatal(err)
		}
	}
	for i, title := range []string{"Tea", "Jam"} {
		e := mine[i]
		if e.Type != "todo.CreateTodo" || e.By != "developer" || !strings.Contains(string(e.Message), title) {
			t.Errorf("the developer's Message %d: %s by %q: %s", i, e.Type, e.By, e.Message)
		}
	}
	if mine[0].Version >= mine[1].Version {
		t.Errorf("the batch was applied out of order: v%d, v%d", mine[0].Version, mine[1].Version)
	}
}
