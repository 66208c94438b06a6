package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/examples/todo/todo"
)

func TestASecondOwnerIsRefusedNamingTheFirst(t *testing.T) {
	data := filepath.Join(t.TempDir(), "todos.json")
	first, err := AcquireLock(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Publish(Holder{PID: 4242, Mode: "terminal", Socket: "/run/foldagent/todo.sock", MCP: "http://127.0.0.1:1/mcp"}); err != nil {
		t.Fatal(err)
	}
	_, err = AcquireLock(data)
	var held *HeldError
	if !errors.As(err, &held) || held.Holder.PID != 4242 {
		t.Fatalf("second AcquireLock = %v", err)
	}
	for _, want := range []string{"process 4242", "-mcp stdio -data " + data, "http://127.0.0.1:1/mcp"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("the refusal lacks %q:\n%s", want, err)
		}
	}
	first.Release()
	again, err := AcquireLock(data)
	if err != nil {
		t.Fatalf("after Release: %v", err)
	}
	again.Release()
}

func TestLeftoverTempFilesAreRemoved(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(filepath.Join(dir, "todos.json"))
	other := filepath.Join(dir, ".todos-work-12.json") // another list's, not a leftover
	for _, f := range []string{".todos-123.json", ".todos.json.tmp-99", ".todos-work-12.json"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(s.Leftovers()); got != 2 {
		t.Fatalf("leftovers = %v", s.Leftovers())
	}
	if err := s.RemoveLeftovers(); err != nil {
		t.Fatal(err)
	}
	if left := s.Leftovers(); len(left) != 0 {
		t.Fatalf("still there: %v", left)
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatal("a file that is not this list's leftover was removed")
	}
}

// A todo created while saves fail is not reported created (create_todo
// does not complete) until a save holding it succeeds.
func TestCreatedIsHeldUntilSaved(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	app := NewApp(NewStore(filepath.Join(blocker, "todos.json")), todo.List{})
	if !strings.HasPrefix(app.Status(), "new list") {
		t.Fatalf("first run status = %q: it must not claim to have loaded a file", app.Status())
	}
	m, cmd := app.Update(todo.CreateTodo{Title: "milk", RequestID: "inv-1"})
	msgs := drain(cmd)
	if len(msgs) != 1 {
		t.Fatalf("a create whose save fails gave %#v", msgs)
	}
	if _, ok := msgs[0].(SaveFailed); !ok {
		t.Fatalf("got %#v, want only SaveFailed (no CreatedTodo)", msgs[0])
	}
	m, _ = m.Update(msgs[0])
	if len(m.(App).Kept().Todos) != 0 {
		t.Fatal("an agent sees a todo that is not saved")
	}
	// The file's directory appears; the next change saves both.
	a := m.(App)
	a.store = NewStore(filepath.Join(dir, "todos.json"))
	m, cmd = a.Update(todo.CreateTodo{Title: "bread", RequestID: "inv-2"})
	msgs = drain(cmd)
	if len(msgs) != 1 {
		t.Fatalf("%#v", msgs)
	}
	m, cmd = m.Update(msgs[0])
	var created []string
	for _, msg := range drain(cmd) {
		if c, ok := msg.(todo.CreatedTodo); ok {
			created = append(created, c.RequestID)
		}
	}
	if strings.Join(created, ",") != "inv-1,inv-2" {
		t.Fatalf("released %v, want inv-1,inv-2", created)
	}
	if got := len(m.(App).Kept().Todos); got != 2 {
		t.Fatalf("kept %d todos", got)
	}
}

// A toggle, delete or clear an agent asks for while saves fail is not
// reported made (its ChangeKept is held) until a save holding it succeeds,
// and then each is released with what it did.
func TestChangesAreHeldUntilSaved(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	list, _ := todo.List{}.Add("milk")
	list, _ = list.Add("bread")
	list, _ = list.Add("jam")
	var m tea.Model = NewApp(NewStore(filepath.Join(blocker, "todos.json")), list)
	for _, msg := range []todo.Msg{
		todo.ToggleTodo{ID: "t1", RequestID: "inv-1"},
		todo.DeleteTodo{ID: "t2", RequestID: "inv-2"},
		todo.ClearCompleted{RequestID: "inv-3"},
	} {
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		msgs := drain(cmd)
		if len(msgs) != 1 {
			t.Fatalf("%#v whose save fails gave %#v", msg, msgs)
		}
		if _, ok := msgs[0].(SaveFailed); !ok {
			t.Fatalf("%#v gave %#v, want only SaveFailed (no ChangeKept)", msg, msgs[0])
		}
		m, _ = m.Update(msgs[0])
	}
	if got := m.(App).Kept(); len(got.Todos) != 3 || got.AnyDone() {
		t.Fatalf("an agent sees changes that are not saved: %+v", got)
	}
	// The file's directory appears; the next change's save holds all.
	a := m.(App)
	a.store = NewStore(filepath.Join(dir, "todos.json"))
	m, cmd := a.Update(todo.ToggleTodo{ID: "t3", RequestID: "inv-4"})
	msgs := drain(cmd)
	if len(msgs) != 1 {
		t.Fatalf("%#v", msgs)
	}
	_, cmd = m.Update(msgs[0])
	got := map[string]todo.ChangeKept{}
	for _, msg := range drain(cmd) {
		if c, ok := msg.(todo.ChangeKept); ok {
			got[c.RequestID] = c
		}
	}
	if len(got) != 4 ||
		*got["inv-1"].Todo != (todo.Todo{ID: "t1", Title: "milk", Done: true}) ||
		len(got["inv-2"].Removed) != 1 || got["inv-2"].Removed[0].ID != "t2" ||
		len(got["inv-3"].Removed) != 1 || got["inv-3"].Removed[0].ID != "t1" ||
		!got["inv-4"].Todo.Done {
		t.Fatalf("released %+v", got)
	}
	if l, err := a.store.Load(); err != nil || len(l.Todos) != 1 || l.Todos[0] != (todo.Todo{ID: "t3", Title: "jam", Done: true}) {
		t.Fatalf("the file holds %+v, %v", l, err)
	}
}

// drain runs cmd and the Cmds it batches or sequences, returning the
// Messages they produce.
func drain(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	var out []tea.Msg
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			out = append(out, drain(c)...)
		}
	case nil:
	default:
		out = append(out, msg)
	}
	return out
}

// -demo without -data plays on a throwaway list, never the person's.
func TestDemoUsesAThrowawayList(t *testing.T) {
	path, cleanup, err := dataPath(flags{demo: true})
	if err != nil {
		t.Fatal(err)
	}
	real, _ := DefaultPath()
	if path == real || !strings.HasPrefix(path, os.TempDir()) {
		t.Fatalf("-demo list at %s (the person's is %s)", path, real)
	}
	cleanup()
	if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the throwaway list outlived the demo: %v", err)
	}
	// -data is taken as given, made absolute (see TestAttachFromAnotherDirectory).
	mine, err := filepath.Abs("mine.json")
	if err != nil {
		t.Fatal(err)
	}
	if p, _, _ := dataPath(flags{demo: true, data: "mine.json"}); p != mine {
		t.Fatalf("-demo -data mine.json plays on %s", p)
	}
}

func TestRegisterCommandCarriesTheToken(t *testing.T) {
	var b strings.Builder
	printEndpoint(&b, "http://127.0.0.1:1", "TOK", "")
	want := `claude mcp add --transport http todo http://127.0.0.1:1/mcp --header "Authorization: Bearer TOK"`
	for _, line := range []string{"MCP http://127.0.0.1:1/mcp\n", "A2A http://127.0.0.1:1/a2a\n", "A2A-0.3 http://127.0.0.1:1/a2a/v0.3\n", "NATIVE http://127.0.0.1:1/_agent-native\n", "TOKEN TOK\n", want} {
		if !strings.Contains(b.String(), line) {
			t.Fatalf("printed:\n%s\nmissing %q", b.String(), line)
		}
	}
}
