package todo_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/teahost"
)

func TestListChangesNeverTouchAnOldSnapshot(t *testing.T) {
	l, _ := todo.List{}.Add("a")
	l, _ = l.Add("b")
	before := l
	snapshot := append([]todo.Todo(nil), l.Todos...)
	_ = l.Toggle("t1")
	_ = l.Rename("t2", "B")
	_ = l.Delete("t1")
	_ = l.ClearCompleted()
	l2, _ := l.Add("c")
	_ = l2
	for i := range snapshot {
		if before.Todos[i] != snapshot[i] {
			t.Fatalf("snapshot changed: %v vs %v", before.Todos, snapshot)
		}
	}
	if len(before.Todos) != 2 {
		t.Fatal("snapshot length changed")
	}
	moved := before.Move(1)
	if moved.Selected != "t1" || moved.Move(1).Selected != "t2" || moved.Move(1).Move(1).Selected != "t2" || before.Selected != "" {
		t.Fatal("Move")
	}
}

func TestStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "todos.json")
	s := todo.NewStore(path)
	empty, err := s.Load()
	if err != nil || len(empty.Todos) != 0 {
		t.Fatalf("missing file: %v %v", empty, err)
	}
	l, _ := todo.List{}.Add("milk")
	l.Selected = "t1"
	if err := s.Save(2, l); err != nil {
		t.Fatal(err)
	}
	older, _ := todo.List{}.Add("stale")
	if err := s.Save(1, older); err != nil {
		t.Fatal(err)
	}
	got, err := todo.NewStore(path).Load()
	if err != nil || len(got.Todos) != 1 || got.Todos[0].Title != "milk" || got.NextID != 1 {
		t.Fatalf("loaded %+v, %v: an older save overwrote a newer one, or the round trip lost data", got, err)
	}
	if got.Selected != "" {
		t.Fatal("the selection is a session's, not the file's")
	}
	// Flush writes what the final App holds, even when no save Cmd ran.
	// (Versions count per process: a new run starts with a new Store.)
	s = todo.NewStore(path)
	app, _ := todo.New(s, got).Update(todo.CreateTodo{Title: "bread"})
	if err := app.(todo.App).Flush(); err != nil {
		t.Fatal(err)
	}
	if l, _ := s.Load(); len(l.Todos) != 2 {
		t.Fatalf("after Flush the file holds %+v", l)
	}
	// After Close nothing writes the file any more.
	s.Close()
	if err := s.Save(99, todo.List{}); !errors.Is(err, todo.ErrClosed) {
		t.Fatalf("Save after Close: %v", err)
	}
	if l, _ := s.Load(); len(l.Todos) != 2 {
		t.Fatal("a save after Close changed the file")
	}
	if err := os.WriteFile(path, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(); err == nil {
		t.Fatal("a corrupt file must be an error, not an empty list")
	}
}

// running starts the todo app headless and binds the contract to it.
func running(t *testing.T, dir string) (*teahost.Host[todo.App, tea.Msg], *todo.Bound) {
	t.Helper()
	store := todo.NewStore(filepath.Join(dir, "todos.json"))
	h := teahost.New[todo.App, tea.Msg](todo.New(store, todo.List{}), nil)
	b, err := todo.Bind(h)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = h.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignals())
	}()
	// Close the store once the program is done, so that no save Cmd still
	// in flight writes into the test's directory after it is removed.
	t.Cleanup(func() { cancel(); <-done; store.Close() })
	return h, b
}

func call(t *testing.T, b *todo.Bound, as todo.Principal, name, input string) (agent.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(todo.WithPrincipal(context.Background(), as), 10*time.Second)
	defer cancel()
	return b.Runtime.DispatchUnknown(ctx, name, json.RawMessage(input), agent.Invocation{Transport: agent.InApp})
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

var (
	owner  = todo.Principal{Name: "ada", Role: todo.Owner}
	viewer = todo.Principal{Name: "bot", Role: todo.Viewer}
)

func TestAgentDrivesTheRunningApp(t *testing.T) {
	dir := t.TempDir()
	h, b := running(t, dir)

	if _, err := call(t, b, viewer, "create_todo", `{"title":"Milk"}`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the todo on screen", func() bool { return strings.Contains(h.Model().View().Content, "[ ] Milk") })

	// delete_selected_todo exists only while something is selected.
	if _, err := call(t, b, viewer, "delete_selected_todo", `{}`); !isTag(err, agent.TagUnavailable) {
		t.Fatalf("err = %v", err)
	}
	id := h.Model().List.Todos[0].ID
	if _, err := call(t, b, viewer, "select_todo", `{"id":"`+id+`"}`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the selection on screen", func() bool { return strings.Contains(h.Model().View().Content, "> [ ] Milk") })
	if _, err := call(t, b, viewer, "toggle_todo", `{"id":"`+id+`"}`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "done", func() bool { return h.Model().List.AnyDone() })

	// clear_completed: available now, but only for the owner.
	_, err := call(t, b, viewer, "clear_completed", `{}`)
	if !isTag(err, agent.TagAuthorization) || !strings.Contains(err.Error(), "owner") {
		t.Fatalf("viewer: err = %v", err)
	}
	if len(h.Model().List.Todos) != 1 {
		t.Fatal("a refused call changed the list")
	}
	if _, err := call(t, b, owner, "clear_completed", `{}`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "cleared", func() bool { return len(h.Model().List.Todos) == 0 })

	// The list reached the file, asynchronously.
	waitFor(t, "the save", func() bool {
		l, err := todo.NewStore(filepath.Join(dir, "todos.json")).Load()
		return err == nil && l.NextID == 1 && len(l.Todos) == 0
	})

	stats, err := b.Runtime.ReadResource(context.Background(), "stats")
	if err != nil || string(stats) != `{"total":0,"done":0}` {
		t.Fatalf("stats = %s %v", stats, err)
	}
}

func TestDeleteSelectedUsesTheApprovedSnapshot(t *testing.T) {
	_, b := running(t, t.TempDir())
	call(t, b, viewer, "create_todo", `{"title":"a"}`)
	call(t, b, viewer, "create_todo", `{"title":"b"}`)
	waitFor(t, "two todos", func() bool {
		return len(b.Runtime.Contract().Describe().Capabilities) > 0 && len(modelOf(b).List.Todos) == 2
	})
	call(t, b, viewer, "select_todo", `{"id":"t2"}`)
	waitFor(t, "selection", func() bool { return modelOf(b).List.Selected == "t2" })
	res, err := call(t, b, viewer, "delete_selected_todo", `{}`)
	if err != nil || res.Message.(todo.DeleteTodo).ID != "t2" {
		t.Fatalf("res=%+v err=%v", res, err)
	}
}

func modelOf(b *todo.Bound) todo.App { return b.Model() }

func TestSaveFailureIsReported(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	store := todo.NewStore(filepath.Join(blocker, "todos.json")) // a directory that cannot exist
	app := todo.New(store, todo.List{})
	m, cmd := app.Update(todo.ToggleTodo{ID: "none"})
	if cmd == nil {
		t.Fatal("a change must return the save Cmd")
	}
	msg := cmd()
	failed, ok := msg.(todo.SaveFailed)
	if !ok || failed.Err == "" {
		t.Fatalf("save of an impossible path gave %#v", msg)
	}
	m, _ = m.Update(failed)
	if !strings.Contains(m.(todo.App).Status(), "could not save") {
		t.Fatalf("status = %q", m.(todo.App).Status())
	}
}

func isTag(err error, tag string) bool {
	var e agent.Error
	return errors.As(err, &e) && e.Tag() == tag
}
