package agent_test

import (
	"context"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

func TestSmoke(t *testing.T) {
	h := &host{model: Model{Todos: []Todo{{ID: "1", Title: "a"}}, Selected: "1"}}
	c, _, _ := newContract(h)
	rt, err := agent.Bind(c, agent.Host[Model, Msg](h), owner())
	if err != nil {
		t.Fatal(err)
	}
	res, err := rt.DispatchUnknown(context.Background(), "delete_selected_todo", []byte(`{}`), agent.Invocation{})
	t.Logf("%+v %v %v", res, err, h.calls())
	t.Logf("%s", agent.Manifest(c))
}
