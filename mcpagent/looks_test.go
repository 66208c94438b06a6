package mcpagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/internal/loopwait"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The fixture's delete_selected_todo watches the selected todo
// (todo.SelectedWatch): its Message is built from the selection, which
// every caller shares. These tests drive two clients through one app on
// each transport and revision, and check that a call built on a selection
// its caller did not see is refused, nothing deleted, and that what each
// client is told is the same from run to run.

// version reads the version a result's _meta carries.
func version(t testing.TB, meta mcp.Meta) uint64 {
	t.Helper()
	raw, ok := meta[mcpagent.MetaVersion]
	if !ok {
		t.Fatalf("_meta %v carries no %q", meta, mcpagent.MetaVersion)
	}
	switch v := raw.(type) {
	case float64:
		return uint64(v)
	case json.Number:
		n, _ := v.Int64()
		return uint64(n)
	case uint64:
		return v
	}
	t.Fatalf("_meta %q = %#v, not a number", mcpagent.MetaVersion, raw)
	return 0
}

// twoCallers is what a scenario needs: two clients of one app, each a
// different caller.
type twoCallers struct {
	a, b *mcp.ClientSession
	app  *app
	// readLook: B looks by reading the context rather than listing
	// tools. On the sessionless revision a tools/list is the whole
	// contract whatever the Model, so it is no look at the state.
	readLook bool
}

// staleScenario runs the whole task and returns a transcript of what the
// clients were told, with versions made relative to the first one seen so
// that two runs can be compared.
func staleScenario(t *testing.T, c twoCallers) []string {
	t.Helper()
	ctx := context.Background()
	var log []string
	var base uint64
	rel := func(v uint64) string {
		if base == 0 {
			base = v
		}
		return fmt.Sprintf("v%+d", int64(v)-int64(base))
	}
	note := func(who, what string, res *mcp.CallToolResult) {
		sc, _ := json.Marshal(res.StructuredContent)
		var data map[string]any
		_ = json.Unmarshal(sc, &data)
		delete(data, "version") // relative, below
		delete(data, "seenVersion")
		delete(data, "invocation") // its id is new on every call
		d, _ := json.Marshal(data)
		log = append(log, fmt.Sprintf("%s %s → error=%v %s %s", who, what, res.IsError, rel(version(t, res.Meta)), d))
	}

	for _, title := range []string{"first", "second"} {
		res := call(t, c.a, "create_todo", map[string]any{"title": title})
		note("A", "create_todo", res)
		// CreateTodo's update sends CreatedTodo, one more version: wait
		// for it, so the next call's version does not depend on when the
		// loop applies it.
		c.app.waitVersion(t, version(t, res.Meta)+1)
	}
	c.app.waitModel(t, "two todos", func(m todo.List) bool { return len(m.Todos) == 2 })
	note("A", "select_todo t1", call(t, c.a, "select_todo", map[string]any{"id": "t1"}))
	c.app.waitModel(t, "t1 selected", func(m todo.List) bool { return m.Selected == "t1" })

	// B looks: the selected todo is t1.
	var seenByB uint64
	if c.readLook {
		read, err := c.b.ReadResource(ctx, &mcp.ReadResourceParams{URI: "app://context"})
		if err != nil {
			t.Fatal(err)
		}
		seenByB = version(t, read.Meta)
		log = append(log, "B resources/read app://context "+rel(seenByB))
	} else {
		list, err := c.b.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		seenByB = version(t, list.Meta)
		log = append(log, "B tools/list "+rel(seenByB))
	}

	// The person (here client A) moves the selection.
	selectT2 := call(t, c.a, "select_todo", map[string]any{"id": "t2"})
	note("A", "select_todo t2", selectT2)
	c.app.waitModel(t, "t2 selected", func(m todo.List) bool { return m.Selected == "t2" })

	// B's delete was planned on t1: refused, nothing deleted.
	stale := call(t, c.b, "delete_selected_todo", map[string]any{})
	note("B", "delete_selected_todo (planned on t1)", stale)
	if !stale.IsError {
		t.Fatalf("B's delete on a selection it did not see was applied: %q", text(stale))
	}
	data := structured(t, stale)
	if data["_tag"] != agent.TagStaleView || !slices.Contains(anyStrings(data["moved"]), "selectedTodo") || data["retrySafe"] != true {
		t.Fatalf("B's stale delete answered %v, want %s naming selectedTodo", data, agent.TagStaleView)
	}
	if v := uint64(data["version"].(float64)); v <= seenByB || v != version(t, stale.Meta) {
		t.Fatalf("the refusal names version %v; B saw %d and the result's _meta says %d", data["version"], seenByB, version(t, stale.Meta))
	}
	if m := c.app.prog.Model(); len(m.Todos) != 2 || m.Selected != "t2" {
		t.Fatalf("a refused delete changed the list: %+v", m)
	}

	// A citation of a version at which t2 was selected, now that t1 is
	// selected again, is refused too: the citation wins over the look.
	planned := version(t, selectT2.Meta)
	note("A", "select_todo t1 again", call(t, c.a, "select_todo", map[string]any{"id": "t1"}))
	c.app.waitModel(t, "t1 selected again", func(m todo.List) bool { return m.Selected == "t1" })
	cited, err := c.a.CallTool(ctx, &mcp.CallToolParams{Name: "delete_selected_todo", Arguments: map[string]any{}, Meta: mcp.Meta{mcpagent.MetaSeenVersion: planned}})
	if err != nil {
		t.Fatal(err)
	}
	note("A", "delete_selected_todo citing the version where t2 was selected", cited)
	if sc := structured(t, cited); !cited.IsError || sc["_tag"] != agent.TagStaleView || uint64(sc["seenVersion"].(float64)) != planned {
		t.Fatalf("a cited old version was not refused: %v", sc)
	}
	if len(c.app.prog.Model().Todos) != 2 {
		t.Fatal("a refused citation deleted a todo")
	}
	// A citation that is not a version is the client's mistake.
	if _, err := c.a.CallTool(ctx, &mcp.CallToolParams{Name: "delete_selected_todo", Arguments: map[string]any{}, Meta: mcp.Meta{mcpagent.MetaSeenVersion: "yesterday"}}); rpcCode(err) != -32602 {
		t.Fatalf("a citation that is not a number: %v, want -32602", err)
	}

	// B reads again, and its delete applies to what it read: t1.
	read, err := c.b.ReadResource(ctx, &mcp.ReadResourceParams{URI: "app://context"})
	if err != nil {
		t.Fatal(err)
	}
	readAt := version(t, read.Meta)
	log = append(log, "B resources/read app://context "+rel(readAt))
	if !strings.Contains(read.Contents[0].Text, `"selected":"t1"`) {
		t.Fatalf("the context B read: %s", read.Contents[0].Text)
	}
	done := call(t, c.b, "delete_selected_todo", map[string]any{})
	note("B", "delete_selected_todo (after reading)", done)
	if done.IsError {
		t.Fatalf("B's delete after reading was refused: %q", text(done))
	}
	c.app.waitModel(t, "t1 deleted", func(m todo.List) bool { return len(m.Todos) == 1 })
	if m := c.app.prog.Model(); m.Todos[0].ID != "t2" {
		t.Fatalf("B's delete removed the wrong todo: %+v", m)
	}
	if v := version(t, done.Meta); v != readAt+1 {
		t.Fatalf("the delete's result is at version %d, want %d: the one Message after B's read", v, readAt+1)
	}
	return log
}

// waitVersion waits, on the program's publications, for the app to reach
// version v.
func (a *app) waitVersion(t testing.TB, v uint64) {
	t.Helper()
	loopwait.Until(t, a.prog, fmt.Sprintf("version %d", v), func(todo.List) bool {
		_, now := a.prog.VersionedModel()
		return now >= v
	})
}

func anyStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// runTwice runs the scenario on two fresh apps and checks that the two
// transcripts are identical.
func runTwice(t *testing.T, start func(t *testing.T) twoCallers) {
	first := staleScenario(t, start(t))
	second := staleScenario(t, start(t))
	if !slices.Equal(first, second) {
		t.Fatalf("two runs told the clients different things:\n%s\n---\n%s", strings.Join(first, "\n"), strings.Join(second, "\n"))
	}
	t.Logf("transcript:\n%s", strings.Join(first, "\n"))
}

func TestStaleViewRefusedBetweenTwoConnections(t *testing.T) {
	// Two in-memory connections (as two stdio clients would be) on one
	// server: each connection is a caller.
	runTwice(t, func(t *testing.T) twoCallers {
		a := startApp(t)
		srv, csA := connect(t, a.runtime(t, owner), nil, nil)
		st, ct := mcp.NewInMemoryTransports()
		if _, err := srv.Connect(context.Background(), st, nil); err != nil {
			t.Fatal(err)
		}
		csB, err := mcp.NewClient(&mcp.Implementation{Name: "second", Version: "0"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { csB.Close() })
		return twoCallers{a: csA, b: csB, app: a}
	})
}

func TestStaleViewRefusedBetweenTwoHTTPSessions(t *testing.T) {
	// Two sessions of one identity: the session, not the identity, is the
	// caller on the session-based revision.
	runTwice(t, func(t *testing.T) twoCallers {
		f := startHTTP(t, nil)
		return twoCallers{a: f.client(t, "owner-token", nil), b: f.client(t, "owner-token", nil), app: f.app}
	})
}

func TestStaleViewRefusedBetweenTwoSessionlessIdentities(t *testing.T) {
	// The sessionless 2026-07-28 revision has no session: each identity
	// is a caller, every request of it sharing its last look.
	runTwice(t, func(t *testing.T) twoCallers {
		f := startHTTP(t, nil)
		return twoCallers{a: f.sessionlessClient(t, "owner-token", nil), b: f.sessionlessClient(t, "bob-token", nil), app: f.app, readLook: true}
	})
}

func TestCallerWhoNeverLookedIsAskedToRead(t *testing.T) {
	a := startApp(t)
	_, csA := connect(t, a.runtime(t, owner), nil, nil)
	call(t, csA, "create_todo", map[string]any{"title": "one"})
	a.waitModel(t, "a todo", func(m todo.List) bool { return len(m.Todos) == 1 })
	call(t, csA, "select_todo", map[string]any{"id": "t1"})
	a.waitModel(t, "t1 selected", func(m todo.List) bool { return m.Selected == "t1" })

	// A second client calls without having read anything.
	_, csB := connect(t, a.runtime(t, owner), nil, nil)
	res := call(t, csB, "delete_selected_todo", map[string]any{})
	sc := structured(t, res)
	if !res.IsError || sc["_tag"] != agent.TagStaleView || sc["unseen"] != true {
		t.Fatalf("a call by a client that never read: %v", sc)
	}
	if len(a.prog.Model().Todos) != 1 {
		t.Fatal("a refused call deleted the todo")
	}
}
