package todo

import (
	"context"
	"slices"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// host applies Messages with Update, synchronously.
type host struct{ m Model }

func (h *host) Model() Model { return h.m }

func (h *host) Dispatch(_ context.Context, msg Msg) error {
	h.m, _ = Update(h.m, msg)
	return nil
}

func names(ds []agent.Descriptor) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

func TestContractFollowsTheSelection(t *testing.T) {
	m, _ := Init()
	h := &host{m: m}
	rt := agent.MustBind(Contract, agent.Host[Model, Msg](h), nil)
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
	if _, err := rt.DispatchUnknown(ctx, "delete_selected_todo", []byte(`{}`), inv); err != nil {
		t.Fatal(err)
	}
	if got := h.m.Todos; len(got) != 1 || got[0].Title != "Buy milk" || h.m.Selected != 0 {
		t.Fatalf("after deleting the selection: %+v", h.m)
	}
	if _, err := rt.DispatchUnknown(ctx, "delete_selected_todo", []byte(`{}`), inv); err == nil {
		t.Fatal("delete_selected_todo was accepted with nothing selected")
	}
	if _, err := rt.DispatchUnknown(ctx, "rename_todo", []byte(`{"id":9,"title":"x"}`), inv); err == nil {
		t.Fatal("rename_todo was accepted for an id the list does not hold")
	}
}

func TestPersonSubmitsTheDraft(t *testing.T) {
	m, _ := Init()
	m, _ = Update(m, DraftChanged{Text: "Call mum"})
	m, _ = Update(m, DraftSubmitted{})
	if m.FormSubmits != 1 || m.Draft != "" || m.Todos[len(m.Todos)-1].Title != "Call mum" {
		t.Fatalf("after submitting the draft: %+v", m)
	}
	m, _ = Update(m, DraftSubmitted{})
	if m.FormSubmits != 2 || len(m.Todos) != 3 {
		t.Fatalf("an empty draft added a todo: %+v", m)
	}
}
