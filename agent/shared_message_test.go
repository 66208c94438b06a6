package agent_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

type byID struct {
	ID string `json:"id"`
}

// Several capabilities may send one Message type when each maps its own
// input to it (actions over one key Message, say): each keeps its name,
// input and availability, and the Variant over that type, if any, still
// answers DispatchMessage.
func TestMappedCapabilitiesShareAMessageType(t *testing.T) {
	h := &host{model: selectedModel()}
	deleteSelected := agent.ExposeMapped(agent.Mapped[agent.NoPrincipal, DeleteTodo, Model, User]{
		Name: "delete_selected", Description: "Delete the selected todo.",
		Available: func(m Model) bool { return m.Selected != "" },
		ToMessage: func(_ agent.NoPrincipal, call agent.Call[Model, User]) DeleteTodo {
			return DeleteTodo{ID: call.Model.Selected}
		},
	})
	deleteByID := agent.ExposeMapped(agent.Mapped[byID, DeleteTodo, Model, User]{
		Name: "delete_by_id", Description: "Delete the todo with this id.",
		ToMessage: func(in byID, _ agent.Call[Model, User]) DeleteTodo { return DeleteTodo(in) },
	})
	direct := agent.Expose(capability[DeleteTodo]{Name: "delete", Description: "Delete a todo."})
	c := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{deleteSelected, deleteByID, direct}})
	rt, err := agent.Bind(c, agent.Host[Model, Msg](h), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, call := range []struct{ name, in, want string }{
		{"delete_selected", `{}`, "t1"},
		{"delete_by_id", `{"id":"t2"}`, "t2"},
	} {
		res, err := rt.DispatchUnknown(ctx, call.name, json.RawMessage(call.in), agent.Invocation{})
		if err != nil || res.Capability != call.name || res.Message.(DeleteTodo).ID != call.want {
			t.Fatalf("%s: %+v, %v", call.name, res, err)
		}
	}
	res, err := agent.DispatchMessage(ctx, rt, DeleteTodo{ID: "t9"}, agent.Invocation{})
	if err != nil || res.Capability != "delete" {
		t.Fatalf("DispatchMessage reached %q (%v), want the Variant", res.Capability, err)
	}
	h.set(Model{})
	if _, err := rt.DispatchUnknown(ctx, "delete_selected", json.RawMessage(`{}`), agent.Invocation{}); err == nil {
		t.Fatal("delete_selected ran with nothing selected")
	}
}
