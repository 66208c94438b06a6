package todo_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/agenttest"
	"github.com/foldagent/foldagent/examples/todo/todo"
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
	_, b := running(t, t.TempDir())
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
	// The audit log holds both decisions, with the principal's name only.
	entries := b.Audit.Entries()
	if len(entries) != 2 || entries[1].Capability != "rename_todo" || entries[1].Outcome != agent.OutcomeCompleted || entries[1].Principal != "bot" {
		t.Fatalf("audit = %+v", entries)
	}
}
