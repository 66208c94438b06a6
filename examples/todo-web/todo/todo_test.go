package todo

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

func names(ds []agent.Descriptor) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

func start(t *testing.T) (*loop.Program[Model, Msg], *agent.Runtime[Model, Msg, agent.NoPrincipal]) {
	t.Helper()
	p := loop.New(loop.Funcs(Init, Update), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = p.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return p, agent.MustBind(Contract, p, nil)
}

func waitModel(t *testing.T, p *loop.Program[Model, Msg], what string, ok func(Model) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok(p.Model()) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; Model = %+v", what, p.Model())
		}
		time.Sleep(time.Millisecond)
	}
}

func TestContractFollowsTheSelection(t *testing.T) {
	p, rt := start(t)
	avail, err := rt.Available()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(avail), []string{"create_todo", "select_todo", "toggle_todo", "rename_todo"}; !slices.Equal(got, want) {
		t.Fatalf("available with nothing selected = %v, want %v", got, want)
	}
	ctx := context.Background()
	inv := agent.Invocation{Transport: agent.WebMCP}
	if _, err := rt.DispatchUnknown(ctx, "select_todo", []byte(`{"id":2}`), inv); err != nil {
		t.Fatal(err)
	}
	waitModel(t, p, "the selection", func(m Model) bool { return m.Selected == 2 })
	if _, err := rt.DispatchUnknown(ctx, "delete_selected_todo", []byte(`{}`), inv); err != nil {
		t.Fatal(err)
	}
	waitModel(t, p, "the deletion", func(m Model) bool { return len(m.Todos) == 1 && m.Selected == 0 })
	if _, err := rt.DispatchUnknown(ctx, "delete_selected_todo", []byte(`{}`), inv); err == nil {
		t.Fatal("delete_selected_todo was accepted with nothing selected")
	}
	if _, err := rt.DispatchUnknown(ctx, "rename_todo", []byte(`{"id":9,"title":"x"}`), inv); err == nil {
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
	if _, text := agent.Summarize(res); text != "Completed: TodoCreated" {
		t.Fatalf("create_todo = %q", text)
	}
	created, ok := res.Completion.Message.(TodoCreated)
	if !ok || created.Request != res.Invocation.ID {
		t.Fatalf("completed on %+v, not this call's TodoCreated", res.Completion.Message)
	}
	if todo, ok := p.Model().Find(created.ID); !ok || todo.Title != "Call mum" {
		t.Fatalf("the completion names todo %d, which is %+v", created.ID, todo)
	}
	res, err = rt.DispatchUnknown(ctx, "rename_todo", []byte(`{"id":1,"title":"Buy oat milk"}`), agent.Invocation{})
	if err != nil {
		t.Fatal(err)
	}
	if _, text := agent.Summarize(res); text != "Completed: RenameTodo (its condition on state holds)" {
		t.Fatalf("rename_todo = %q", text)
	}
	if todo, _ := p.Model().Find(1); todo.Title != "Buy oat milk" {
		t.Fatalf("after the completed rename the todo is %+v", todo)
	}
}

func TestPersonSubmitsTheDraft(t *testing.T) {
	m, _ := Init()
	m, _ = Update(m, DraftChanged{Text: "Call mum"})
	m, cmd := Update(m, DraftSubmitted{})
	if m.FormSubmits != 1 || m.Draft != "" || m.Todos[len(m.Todos)-1].Title != "Call mum" || cmd == nil {
		t.Fatalf("after submitting the draft: %+v", m)
	}
	m, _ = Update(m, DraftSubmitted{})
	if m.FormSubmits != 2 || len(m.Todos) != 3 {
		t.Fatalf("an empty draft added a todo: %+v", m)
	}
}
