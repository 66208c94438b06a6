package page

import (
	"context"
	"slices"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
)

func names(ds []agent.Descriptor) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

func start(t *testing.T) (*Program, *Runtime) {
	t.Helper()
	p := loop.New(loop.Funcs(Init, Update), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = p.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	rt, err := Bind(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, rt
}

func waitModel(t *testing.T, p *Program, what string, ok func(Model) bool) {
	t.Helper()
	loopwait.Until(t, p, what, ok)
}

func TestContractFollowsTheSelection(t *testing.T) {
	p, rt := start(t)
	avail, err := rt.Available()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(avail), []string{"create_todo", "rename_todo", "select_todo", "toggle_todo"}; !slices.Equal(got, want) {
		t.Fatalf("available with nothing selected = %v, want %v", got, want)
	}
	ctx := context.Background()
	inv := agent.Invocation{Transport: agent.WebMCP}
	if _, err := rt.DispatchUnknown(ctx, "select_todo", []byte(`{"id":"t2"}`), inv); err != nil {
		t.Fatal(err)
	}
	waitModel(t, p, "the selection", func(m Model) bool { return m.List.Selected == "t2" })
	if _, err := rt.DispatchUnknown(ctx, "delete_selected_todo", []byte(`{}`), inv); err != nil {
		t.Fatal(err)
	}
	waitModel(t, p, "the deletion", func(m Model) bool { return len(m.List.Todos) == 1 && m.List.Selected == "" })
	if _, err := rt.DispatchUnknown(ctx, "delete_selected_todo", []byte(`{}`), inv); err == nil {
		t.Fatal("delete_selected_todo was accepted with nothing selected")
	}
	if _, err := rt.DispatchUnknown(ctx, "rename_todo", []byte(`{"id":"t9","title":"x"}`), inv); err == nil {
		t.Fatal("rename_todo was accepted for an id the list does not hold")
	}
}

func TestCompletions(t *testing.T) {
	p, rt := start(t)
	ctx := context.Background()
	res, err := rt.DispatchUnknown(ctx, "create_todo", []byte(`{"title":"Call mum"}`), agent.Invocation{Transport: agent.WebMCP})
	if err != nil {
		t.Fatal(err)
	}
	if _, text := agent.Summarize(res); text != "Completed: CreatedTodo" {
		t.Fatalf("create_todo = %q", text)
	}
	created, ok := res.Completion.Message.(todo.CreatedTodo)
	if !ok || created.RequestID != res.Invocation.ID {
		t.Fatalf("completed on %+v, not this call's CreatedTodo", res.Completion.Message)
	}
	if got, ok := p.Model().List.Find(created.Todo.ID); !ok || got.Title != "Call mum" {
		t.Fatalf("the completion names todo %s, which is %+v", created.Todo.ID, got)
	}
	res, err = rt.DispatchUnknown(ctx, "rename_todo", []byte(`{"id":"t1","title":"Buy oat milk"}`), agent.Invocation{})
	if err != nil {
		t.Fatal(err)
	}
	if _, text := agent.Summarize(res); text != "Completed: RenameTodo (its condition on state holds)" {
		t.Fatalf("rename_todo = %q", text)
	}
	if got, _ := p.Model().List.Find("t1"); got.Title != "Buy oat milk" {
		t.Fatalf("after the completed rename the todo is %+v", got)
	}
}

func TestPersonSubmitsTheDraft(t *testing.T) {
	m, _ := Init()
	m, _ = Update(m, DraftChanged{Text: "Call mum"})
	m, cmd := Update(m, DraftSubmitted{})
	if m.FormSubmits != 1 || m.Draft != "" || m.List.Todos[len(m.List.Todos)-1].Title != "Call mum" || cmd == nil {
		t.Fatalf("after submitting the draft: %+v", m)
	}
	m, _ = Update(m, DraftSubmitted{})
	if m.FormSubmits != 2 || len(m.List.Todos) != 3 {
		t.Fatalf("an empty draft added a todo: %+v", m)
	}
}

// The page keeps an agent's requests for the person in its Model, oldest
// first, and drops each once it is withdrawn (a second withdrawal, after
// the person's own answer, changes nothing).
func TestUpdateKeepsTheRequestsForThePerson(t *testing.T) {
	m, _ := Init()
	a := agent.ApprovalRequest{ID: "a", Capability: "clear_completed"}
	b := agent.ApprovalRequest{ID: "b", Capability: "clear_completed"}
	m, _ = Update(m, agent.ApprovalAsked{Request: a})
	m, _ = Update(m, agent.ApprovalAsked{Request: b})
	if len(m.Asked) != 2 || m.Asked[0].ID != "a" || m.Asked[1].ID != "b" {
		t.Fatalf("asked = %+v", m.Asked)
	}
	before := m
	m, _ = Update(m, agent.ApprovalWithdrawn{ID: "a", Why: agent.WithdrawnApproved})
	if len(m.Asked) != 1 || m.Asked[0].ID != "b" || len(before.Asked) != 2 {
		t.Fatalf("after withdrawing a: %+v (the earlier Model: %+v)", m.Asked, before.Asked)
	}
	m, _ = Update(m, agent.ApprovalWithdrawn{ID: "a", Why: agent.WithdrawnApproved})
	if len(m.Asked) != 1 {
		t.Fatalf("a second withdrawal changed the Model: %+v", m.Asked)
	}
}
