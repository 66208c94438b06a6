package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/internal/testbin"
)

// buildTodo is the command, built once per test binary.
func buildTodo(t *testing.T) string { return testbin.Build(t, "examples/todo") }

func TestMain(m *testing.M) { testbin.Main(m) }

// stdioClient starts the binary as an MCP client launches a local server
// and connects to it. The returned stderr holds what the process wrote
// there.
func stdioClient(t *testing.T, ctx context.Context, bin string, args ...string) (*mcp.ClientSession, *exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "todo-test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect to %v: %v\nstderr: %s", args, err, stderr)
	}
	return cs, cmd, stderr
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestKillNineLosesNoAcknowledgedTodo creates todos over MCP stdio against
// the real binary and kills it (SIGKILL) at a random moment, forty times
// on one list. Every create the agent was told succeeded must be in the
// file afterwards, the file must always parse, and no temporary file may
// outlive the next start.
func TestKillNineLosesNoAcknowledgedTodo(t *testing.T) {
	if testing.Short() {
		t.Skip("kills the real binary forty times")
	}
	bin := buildTodo(t)
	data := filepath.Join(t.TempDir(), "todos.json")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	const iterations, workers = 40, 3
	var acked []string
	leftoversSeen := 0
	for i := range iterations {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cs, cmd, stderr := stdioClient(t, ctx, bin, "-mcp", "stdio", "-data", data)
		if left := NewStore(data).Leftovers(); len(left) != 0 {
			t.Fatalf("iteration %d: after start, temporary files remain: %v", i, left)
		}
		killAt := time.Duration(rng.IntN(300)) * time.Millisecond
		timer := time.AfterFunc(killAt, func() { _ = cmd.Process.Kill() })
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for n := 0; ; n++ {
					title := fmt.Sprintf("i%d-w%d-n%d", i, w, n)
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_todo", Arguments: map[string]any{"title": title}})
					if err != nil {
						return // the process is gone
					}
					if res.IsError {
						t.Errorf("create_todo %s: refused while the app ran: %+v", title, res.Content)
						return
					}
					mu.Lock()
					acked = append(acked, title)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		timer.Stop()
		_ = cs.Close()
		cancel()
		if state := cmd.ProcessState; state == nil || state.Success() {
			t.Fatalf("iteration %d: the process was not killed (%v); stderr: %s", i, state, stderr)
		}
		l, err := NewStore(data).Load()
		if err != nil {
			t.Fatalf("iteration %d: after kill -9 at %v the file is corrupt: %v", i, killAt, err)
		}
		leftoversSeen += len(NewStore(data).Leftovers())
		var have []string
		for _, td := range l.Todos {
			have = append(have, td.Title)
		}
		for _, title := range acked {
			if !slices.Contains(have, title) {
				t.Fatalf("iteration %d: %q was acknowledged and is not in the file after kill -9 at %v", i, title, killAt)
			}
		}
	}

	// One last, clean run: it removes what the last kill left.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, _, _ := stdioClient(t, ctx, bin, "-mcp", "stdio", "-data", data)
	if left := NewStore(data).Leftovers(); len(left) != 0 {
		t.Fatalf("temporary files remain after the last start: %v", left)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	l, err := NewStore(data).Load()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d kill -9s, %d creates acknowledged, 0 lost; %d todos in the file; %d temporary files found after kills, all removed at the next start",
		iterations, len(acked), len(l.Todos), leftoversSeen)
	if len(acked) == 0 {
		t.Fatal("no create was ever acknowledged: the test tested nothing")
	}
}

// TestEveryChangeCompletesOnceSaved drives the real binary over MCP stdio
// through create, toggle, delete and clear. Each call's result must say
// completed, carry what its change did, and arrive only once the file
// already holds that change: an agent that reads the list right after
// need not wait.
func TestEveryChangeCompletesOnceSaved(t *testing.T) {
	bin := buildTodo(t)
	data := filepath.Join(t.TempDir(), "todos.json")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, _, stderr := stdioClient(t, ctx, bin, "-mcp", "stdio", "-data", data)
	defer cs.Close()

	// completion calls a tool and returns its result's completion.
	completion := func(name string, args map[string]any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %+v, %v; stderr: %s", name, res, err, stderr)
		}
		sc, _ := res.StructuredContent.(map[string]any)
		c, _ := sc["completion"].(map[string]any)
		if c["status"] != "completed" {
			t.Fatalf("%s did not complete: %+v", name, sc)
		}
		return c
	}
	// saved is the list in the file at this moment.
	saved := func() todo.List {
		t.Helper()
		l, err := NewStore(data).Load()
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	todoIn := func(v any) todo.Todo {
		m, _ := v.(map[string]any)
		id, _ := m["id"].(string)
		title, _ := m["title"].(string)
		done, _ := m["done"].(bool)
		return todo.Todo{ID: id, Title: title, Done: done}
	}
	removedIn := func(c map[string]any) []todo.Todo {
		msg, _ := c["message"].(map[string]any)
		list, _ := msg["removed"].([]any)
		var out []todo.Todo
		for _, v := range list {
			out = append(out, todoIn(v))
		}
		return out
	}

	for _, title := range []string{"milk", "bread", "jam"} {
		completion("create_todo", map[string]any{"title": title})
	}

	c := completion("toggle_todo", map[string]any{"id": "t1"})
	msg, _ := c["message"].(map[string]any)
	if c["tag"] != "ChangeKept" || todoIn(msg["todo"]) != (todo.Todo{ID: "t1", Title: "milk", Done: true}) {
		t.Fatalf("toggle_todo completed with %+v", c)
	}
	if l := saved(); !l.Todos[0].Done {
		t.Fatalf("toggle_todo completed before the file held it: %+v", l)
	}

	completion("select_todo", map[string]any{"id": "t2"})
	c = completion("delete_selected_todo", map[string]any{})
	if got := removedIn(c); !slices.Equal(got, []todo.Todo{{ID: "t2", Title: "bread"}}) {
		t.Fatalf("delete_selected_todo removed %+v", c)
	}
	if l := saved(); slices.ContainsFunc(l.Todos, func(td todo.Todo) bool { return td.ID == "t2" }) {
		t.Fatalf("delete_selected_todo completed before the file held it: %+v", l)
	}

	c = completion("clear_completed", map[string]any{})
	if got := removedIn(c); !slices.Equal(got, []todo.Todo{{ID: "t1", Title: "milk", Done: true}}) {
		t.Fatalf("clear_completed removed %+v", c)
	}
	if l := saved(); !slices.Equal(l.Todos, []todo.Todo{{ID: "t3", Title: "jam"}}) {
		t.Fatalf("clear_completed completed before the file held it: %+v", l)
	}
}
