package main

import (
	"context"
	"encoding/json"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
)

// DemoStep is one call the scripted agent makes.
type DemoStep struct {
	As         todo.Principal
	Capability string
	Input      string
}

// DemoScript is what -demo does: create two todos, select one, rename it,
// then try clear_completed as a viewer and be refused.
func DemoScript(firstID string) []DemoStep {
	assistant := todo.Principal{Name: "assistant", Role: todo.Viewer}
	return []DemoStep{
		{assistant, "create_todo", `{"title":"Buy oat milk"}`},
		{assistant, "create_todo", `{"title":"Book the dentist"}`},
		{assistant, "select_todo", `{"id":"` + firstID + `"}`},
		{assistant, "rename_todo", `{"id":"` + firstID + `","title":"Buy oat milk and bread"}`},
		{assistant, "toggle_todo", `{"id":"` + firstID + `"}`},
		{assistant, "clear_completed", `{}`},
	}
}

// RunDemo plays DemoScript against the live app, pausing between steps so
// that a person can watch each one land.
func RunDemo(ctx context.Context, b *Bound) {
	pause := func() bool {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(900 * time.Millisecond):
			return true
		}
	}
	if !pause() {
		return
	}
	ctx = WithPrincipal(ctx, todo.Principal{Name: "assistant", Role: todo.Viewer})
	// The first step creates the todo the rest of the script works on; its
	// id comes back on the completion Message.
	res, err := b.Runtime.DispatchUnknown(ctx, "create_todo", json.RawMessage(`{"title":"Buy oat milk"}`), agent.Invocation{})
	if err != nil || res.Completion == nil {
		return
	}
	created, ok := res.Completion.Message.(todo.CreatedTodo)
	if !ok {
		return
	}
	for _, step := range DemoScript(created.Todo.ID)[1:] {
		if !pause() {
			return
		}
		_, _ = b.Runtime.DispatchUnknown(WithPrincipal(ctx, step.As), step.Capability, json.RawMessage(step.Input), agent.Invocation{})
	}
}
