package todo_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/agenttest"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/loop"
)

// The committed agent.json and AGENT.md must match the contract; run the
// tests with -update after reviewing a change.
func TestCommittedContractDocuments(t *testing.T) {
	agenttest.Golden(t, todo.Contract(), "../agent.json")
	agenttest.Golden(t, todo.Contract(), "../AGENT.md")
}

func TestCapabilityNames(t *testing.T) {
	var names []string
	for _, d := range todo.Contract().Describe().Capabilities {
		names = append(names, d.Name)
	}
	want := []string{"create_todo", "rename_todo", "select_todo", "toggle_todo", "delete_selected_todo", "clear_completed"}
	if !slices.Equal(names, want) {
		t.Fatalf("capabilities = %v, want %v", names, want)
	}
	for _, d := range todo.Contract().Describe().Capabilities {
		if d.Tag == "Saved" || d.Tag == "SaveFailed" || d.Tag == "CreatedTodo" || d.Tag == "Activity" {
			t.Fatalf("%s must not be exposed", d.Tag)
		}
	}
}

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

func TestUpdateReportsTheCreatedTodo(t *testing.T) {
	l, reports := todo.Update(todo.List{}, todo.CreateTodo{Title: "milk", RequestID: "inv-1"})
	want := todo.CreatedTodo{Todo: todo.Todo{ID: "t1", Title: "milk"}, RequestID: "inv-1"}
	if len(reports) != 1 || reports[0] != want || len(l.Todos) != 1 {
		t.Fatalf("reports = %+v, list = %+v; want one %+v", reports, l, want)
	}
	// A report applies nothing, and a Message naming no todo changes nothing.
	for _, msg := range []todo.Msg{want, todo.ToggleTodo{ID: "t9"}, todo.SelectTodo{ID: "t9"}, todo.RenameTodo{ID: "t9", Title: "x"}, todo.DeleteTodo{ID: "t9"}} {
		if got, reports := todo.Update(l, msg); !slices.Equal(got.Todos, l.Todos) || got.Selected != "" || got.NextID != 1 || reports != nil {
			t.Fatalf("Update(%#v) = %+v, %v", msg, got, reports)
		}
	}
}

func TestUpdateReportsTheChangeAnAgentAskedFor(t *testing.T) {
	l, _ := todo.List{}.Add("milk")
	l, _ = l.Add("bread")
	l, got := todo.Update(l, todo.ToggleTodo{ID: "t1", RequestID: "inv-1"})
	if len(got) != 1 || got[0].(todo.ChangeKept).RequestID != "inv-1" || *got[0].(todo.ChangeKept).Todo != (todo.Todo{ID: "t1", Title: "milk", Done: true}) {
		t.Fatalf("toggle reported %+v", got)
	}
	if _, got := todo.Update(l, todo.DeleteTodo{ID: "t2", RequestID: "inv-2"}); len(got) != 1 || !slices.Equal(got[0].(todo.ChangeKept).Removed, []todo.Todo{{ID: "t2", Title: "bread"}}) {
		t.Fatalf("delete reported %+v", got)
	}
	if next, got := todo.Update(l, todo.ClearCompleted{RequestID: "inv-3"}); len(got) != 1 || len(next.Todos) != 1 || !slices.Equal(got[0].(todo.ChangeKept).Removed, []todo.Todo{{ID: "t1", Title: "milk", Done: true}}) {
		t.Fatalf("clear reported %+v", got)
	}
	// A person's change, and an agent's naming no todo, report nothing:
	// the agent is not told a change was made that was not.
	for _, msg := range []todo.Msg{todo.ToggleTodo{ID: "t1"}, todo.ClearCompleted{}, todo.ToggleTodo{ID: "t9", RequestID: "inv-4"}, todo.DeleteTodo{ID: "t9", RequestID: "inv-5"}} {
		if _, got := todo.Update(l, msg); got != nil {
			t.Fatalf("Update(%#v) reported %+v", msg, got)
		}
	}
}

// running runs the bare list on host/loop and binds the contract as p.
func running(t *testing.T, p todo.Principal) (*loop.Program[todo.List, todo.Msg], *agent.Runtime[todo.List, todo.Msg, todo.Principal]) {
	t.Helper()
	prog := loop.New(todo.Loop(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return prog, agent.MustBind(todo.Contract(), prog, todo.As(p))
}

func TestAnIDTheListDoesNotHoldIsRefused(t *testing.T) {
	prog, rt := running(t, todo.Principal{Name: "bot", Role: todo.Viewer})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := rt.DispatchUnknown(ctx, "create_todo", []byte(`{"title":"milk"}`), agent.Invocation{})
	if err != nil || res.Completion == nil || res.Completion.Tag != "CreatedTodo" {
		t.Fatalf("create_todo = %+v, %v", res, err)
	}
	before := prog.Model()
	for name, input := range map[string]string{"rename_todo": `{"id":"t9","title":"x"}`, "select_todo": `{"id":"t9"}`, "toggle_todo": `{"id":"t9"}`} {
		_, err := rt.DispatchUnknown(ctx, name, []byte(input), agent.Invocation{})
		var missing *agent.NotFoundError
		if !errors.As(err, &missing) || missing.Path != "/id" || strings.Contains(err.Error(), "t9") {
			t.Fatalf("%s of a missing id: %v", name, err)
		}
	}
	if after := prog.Model(); !slices.Equal(after.Todos, before.Todos) || after.Selected != "" {
		t.Fatalf("refused calls changed the list: %+v", after)
	}
	// The same contract through Focus, over a Model that holds the list.
	frt := agent.MustBind(todo.Contract(), todo.Focus(pageHost{prog}, func(p page) todo.List { return p.List }), nil)
	// select_todo completes once the list has the selection: no wait.
	res, err = frt.DispatchUnknown(ctx, "select_todo", []byte(`{"id":"t1"}`), agent.Invocation{})
	if err != nil || res.Completion == nil || res.Completion.Status != agent.Completed || prog.Model().Selected != "t1" {
		t.Fatalf("select_todo through Focus = %+v, %v; selected %q", res, err, prog.Model().Selected)
	}
	avail, err := frt.Available()
	if err != nil || !slices.ContainsFunc(avail, func(d agent.Descriptor) bool { return d.Name == "delete_selected_todo" }) {
		t.Fatalf("through Focus, available = %v, %v", avail, err)
	}
}

// page is a Model that holds the list among other state.
type page struct {
	List  todo.List
	Draft string
}

// pageHost presents the bare list's Program as a host of pages.
type pageHost struct {
	*loop.Program[todo.List, todo.Msg]
}

func (h pageHost) Model() page { return page{List: h.Program.Model(), Draft: "typing"} }

func (h pageHost) VersionedModel() (page, uint64) {
	l, v := h.Program.VersionedModel()
	return page{List: l, Draft: "typing"}, v
}

func (h pageHost) ModelAt(v uint64) (page, bool) {
	l, ok := h.Program.ModelAt(v)
	return page{List: l, Draft: "typing"}, ok
}
