package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/teahost"
)

func TestStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "todos.json")
	s := NewStore(path)
	empty, err := s.Load()
	if err != nil || len(empty.Todos) != 0 {
		t.Fatalf("missing file: %v %v", empty, err)
	}
	l, _ := todo.List{}.Add("milk")
	l.Selected = "t1"
	if wrote, err := s.Save(2, l); err != nil || !wrote {
		t.Fatal(wrote, err)
	}
	older, _ := todo.List{}.Add("stale")
	if wrote, err := s.Save(1, older); err != nil || wrote {
		t.Fatalf("an older version: wrote=%v err=%v", wrote, err)
	}
	got, err := NewStore(path).Load()
	if err != nil || len(got.Todos) != 1 || got.Todos[0].Title != "milk" || got.NextID != 1 {
		t.Fatalf("loaded %+v, %v: an older save overwrote a newer one, or the round trip lost data", got, err)
	}
	if got.Selected != "" {
		t.Fatal("the selection is a session's, not the file's")
	}
	// Flush writes what the final App holds, even when no save Cmd ran.
	// (Versions count per process: a new run starts with a new Store.)
	s = NewStore(path)
	app, _ := NewApp(s, got).Update(todo.CreateTodo{Title: "bread"})
	if err := app.(App).Flush(); err != nil {
		t.Fatal(err)
	}
	if l, _ := s.Load(); len(l.Todos) != 2 {
		t.Fatalf("after Flush the file holds %+v", l)
	}
	// After Close nothing writes the file any more.
	s.Close()
	if _, err := s.Save(99, todo.List{}); !errors.Is(err, ErrClosed) {
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

// running starts the todo app headless, on an empty list kept in dir,
// and binds the contract to it.
func running(t *testing.T, dir string) (*teahost.Host[App, tea.Msg], *Bound) {
	t.Helper()
	return runningOn(t, NewStore(filepath.Join(dir, "todos.json")), todo.List{})
}

// runningOn starts the todo app headless on list, saving through store,
// and binds the contract to it.
func runningOn(t *testing.T, store *Store, list todo.List) (*teahost.Host[App, tea.Msg], *Bound) {
	t.Helper()
	h := teahost.New[App, tea.Msg](NewApp(store, list), nil)
	b, err := Bind(h)
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

func call(t *testing.T, b *Bound, as todo.Principal, name, input string) (agent.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(WithPrincipal(context.Background(), as), 10*time.Second)
	defer cancel()
	return b.Runtime.DispatchUnknown(ctx, name, json.RawMessage(input), agent.Invocation{Transport: agent.InApp})
}

// waitFor waits until cond holds of the running App, looking again after
// each of its Updates.
func waitFor(t *testing.T, b *Bound, what string, cond func() bool) {
	t.Helper()
	changed := make(chan struct{}, 1)
	defer b.host.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})()
	timeout := time.NewTimer(5 * time.Second)
	defer timeout.Stop()
	for !cond() {
		select {
		case <-changed:
		case <-timeout.C:
			t.Fatalf("timed out waiting for %s", what)
		}
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
	// Acknowledged means saved: the file holds the todo the moment the
	// call returns.
	if l, err := NewStore(filepath.Join(dir, "todos.json")).Load(); err != nil || len(l.Todos) != 1 || l.Todos[0].Title != "Milk" {
		t.Fatalf("create_todo returned, and the file holds %+v, %v", l, err)
	}
	waitFor(t, b, "the todo on screen", func() bool { return strings.Contains(h.Model().View().Content, "[ ] Milk") })

	// delete_selected_todo exists only while something is selected.
	if _, err := call(t, b, viewer, "delete_selected_todo", `{}`); !isTag(err, agent.TagUnavailable) {
		t.Fatalf("err = %v", err)
	}
	id := h.Model().List.Todos[0].ID
	if _, err := call(t, b, viewer, "select_todo", `{"id":"`+id+`"}`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, b, "the selection on screen", func() bool { return strings.Contains(h.Model().View().Content, "> [ ] Milk") })
	res, err := call(t, b, viewer, "toggle_todo", `{"id":"`+id+`"}`)
	// Completed means saved: the file and the list the agent sees both
	// hold the toggle the moment the call returns, and the result says
	// how the todo now is.
	if kept, ok := completedWith(res, err); !ok || kept.Todo == nil || *kept.Todo != (todo.Todo{ID: id, Title: "Milk", Done: true}) {
		t.Fatalf("toggle_todo = %+v, %v", res, err)
	}
	if l, err := NewStore(filepath.Join(dir, "todos.json")).Load(); err != nil || !l.AnyDone() || !h.Model().Kept().AnyDone() {
		t.Fatalf("toggle_todo completed, and the file holds %+v, %v", l, err)
	}

	// clear_completed: available now, but only for the owner.
	_, err = call(t, b, viewer, "clear_completed", `{}`)
	if !isTag(err, agent.TagAuthorization) || !strings.Contains(err.Error(), "owner") {
		t.Fatalf("viewer: err = %v", err)
	}
	if len(h.Model().List.Todos) != 1 {
		t.Fatal("a refused call changed the list")
	}
	res, err = call(t, b, owner, "clear_completed", `{}`)
	if kept, ok := completedWith(res, err); !ok || len(kept.Removed) != 1 || kept.Removed[0].ID != id {
		t.Fatalf("clear_completed = %+v, %v", res, err)
	}
	if l, err := NewStore(filepath.Join(dir, "todos.json")).Load(); err != nil || l.NextID != 1 || len(l.Todos) != 0 || len(h.Model().Kept().Todos) != 0 {
		t.Fatalf("clear_completed completed, and the file holds %+v, %v", l, err)
	}

	stats, err := b.Runtime.ReadResource(context.Background(), "stats")
	if err != nil || string(stats) != `{"total":0,"done":0}` {
		t.Fatalf("stats = %s %v", stats, err)
	}
}

func TestDeleteSelectedUsesTheApprovedSnapshot(t *testing.T) {
	dir := t.TempDir()
	_, b := running(t, dir)
	call(t, b, viewer, "create_todo", `{"title":"a"}`)
	call(t, b, viewer, "create_todo", `{"title":"b"}`)
	waitFor(t, b, "two todos", func() bool {
		return len(b.Runtime.Contract().Describe().Capabilities) > 0 && len(modelOf(b).List.Todos) == 2
	})
	call(t, b, viewer, "select_todo", `{"id":"t2"}`)
	waitFor(t, b, "selection", func() bool { return modelOf(b).List.Selected == "t2" })
	res, err := call(t, b, viewer, "delete_selected_todo", `{}`)
	if err != nil || res.Message.(todo.DeleteTodo).ID != "t2" {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	if kept, ok := completedWith(res, err); !ok || len(kept.Removed) != 1 || kept.Removed[0] != (todo.Todo{ID: "t2", Title: "b"}) {
		t.Fatalf("delete_selected_todo completed with %+v", res.Completion)
	}
	if l, err := NewStore(filepath.Join(dir, "todos.json")).Load(); err != nil || len(l.Todos) != 1 || l.Todos[0].ID != "t1" {
		t.Fatalf("delete_selected_todo completed, and the file holds %+v, %v", l, err)
	}
}

// completedWith returns the ChangeKept a call completed on.
func completedWith(res agent.Result, err error) (todo.ChangeKept, bool) {
	if err != nil || res.Completion == nil || res.Completion.Status != agent.Completed {
		return todo.ChangeKept{}, false
	}
	kept, ok := res.Completion.Message.(todo.ChangeKept)
	return kept, ok
}

func modelOf(b *Bound) App { return b.Model() }

func TestSaveFailureIsReported(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	store := NewStore(filepath.Join(blocker, "todos.json")) // a directory that cannot exist
	app := NewApp(store, todo.List{})
	m, cmd := app.Update(todo.ToggleTodo{ID: "none"})
	if cmd == nil {
		t.Fatal("a change must return the save Cmd")
	}
	msg := cmd()
	failed, ok := msg.(SaveFailed)
	if !ok || failed.Err == "" {
		t.Fatalf("save of an impossible path gave %#v", msg)
	}
	m, _ = m.Update(failed)
	if !strings.Contains(m.(App).Status(), "could not save") {
		t.Fatalf("status = %q", m.(App).Status())
	}
}

func isTag(err error, tag string) bool {
	var e agent.Error
	return errors.As(err, &e) && e.Tag() == tag
}

// Two agents create a todo titled "Milk" at the same moment: each call
// completes on the CreatedTodo its own Message caused.
func TestTwoMilksEachGetTheirOwnTodo(t *testing.T) {
	_, b := running(t, t.TempDir())
	const n = 8
	var wg sync.WaitGroup
	ids := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := call(t, b, viewer, "create_todo", `{"title":"Milk"}`)
			errs[i] = err
			if err == nil {
				if res.Completion == nil || res.Completion.Status != agent.Completed || res.Completion.Tag != "CreatedTodo" {
					t.Errorf("completion = %+v", res.Completion)
					return
				}
				created := res.Completion.Message.(todo.CreatedTodo)
				if created.RequestID != res.Invocation.ID {
					t.Errorf("call %s completed on another call's todo (%s)", res.Invocation.ID, created.RequestID)
				}
				ids[i] = created.Todo.ID
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(ids)
	if len(slices.Compact(ids)) != n {
		t.Fatalf("ids = %v: two calls completed on the same todo", ids)
	}
}

func TestRenameCompletesOnState(t *testing.T) {
	dir := t.TempDir()
	_, b := running(t, dir)
	res, err := call(t, b, viewer, "create_todo", `{"title":"Milk"}`)
	if err != nil {
		t.Fatal(err)
	}
	id := res.Completion.Message.(todo.CreatedTodo).Todo.ID
	res, err = call(t, b, viewer, "rename_todo", `{"id":"`+id+`","title":"Oat milk"}`)
	if err != nil {
		t.Fatal(err)
	}
	if res.Completion == nil || res.Completion.Status != agent.Completed || res.Completion.Message != nil {
		t.Fatalf("completion = %+v, want completed on state with no Message", res.Completion)
	}
	if got, _ := b.Model().List.Find(id); got.Title != "Oat milk" {
		t.Fatalf("after completion the todo reads %q", got.Title)
	}
	// Completion on state reads the list as saved: the file has the title.
	if l, _ := NewStore(filepath.Join(dir, "todos.json")).Load(); len(l.Todos) != 1 || l.Todos[0].Title != "Oat milk" {
		t.Fatalf("rename_todo returned, and the file holds %+v", l)
	}
	// The audit log holds both decisions, with the principal's name only.
	entries := b.Audit.Entries()
	if len(entries) != 2 || entries[1].Capability != "rename_todo" || entries[1].Outcome != agent.OutcomeCompleted || entries[1].Principal != "bot" {
		t.Fatalf("audit = %+v", entries)
	}
}

// While the list cannot be saved, toggle_todo, delete_selected_todo and
// clear_completed do not complete: the running app holds their ChangeKept,
// so each call ends with its context, never as completed.
func TestChangeNotSavedIsNotCompleted(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	list, _ := todo.List{}.Add("milk")
	list, _ = list.Add("bread")
	list = list.Toggle("t1").Select("t2")
	_, b := runningOn(t, NewStore(filepath.Join(blocker, "todos.json")), list) // a directory that cannot exist

	for _, c := range []struct{ name, input string }{
		{"toggle_todo", `{"id":"t2"}`},
		{"delete_selected_todo", `{}`},
		{"clear_completed", `{}`},
	} {
		callCtx, stop := context.WithTimeout(WithPrincipal(context.Background(), owner), 300*time.Millisecond)
		res, err := b.Runtime.DispatchUnknown(callCtx, c.name, json.RawMessage(c.input), agent.Invocation{Transport: agent.InApp})
		stop()
		if err == nil || (res.Completion != nil && res.Completion.Status == agent.Completed) {
			t.Fatalf("%s while saves fail = %+v, %v; want no completion", c.name, res, err)
		}
	}
	if kept := b.Model().Kept(); len(kept.Todos) != 2 || !kept.Todos[0].Done || kept.Todos[1].Done {
		t.Fatalf("an agent sees changes that are not saved: %+v", kept)
	}
	waitFor(t, b, "the failure on the status line", func() bool { return strings.Contains(b.Model().Status(), "could not save") })
}
