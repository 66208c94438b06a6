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
	Capability string
	Input      string
}

// DemoScript is what -demo does: create two todos, select one, rename it,
// mark it done, then try clear_completed as a viewer and be refused, and
// try a todo id the list does not hold and be refused again.
func DemoScript(firstID string) []DemoStep {
	return []DemoStep{
		{"create_todo", `{"title":"Buy oat milk"}`},
		{"create_todo", `{"title":"Book the dentist"}`},
		{"select_todo", `{"id":"` + firstID + `"}`},
		{"rename_todo", `{"id":"` + firstID + `","title":"Buy oat milk and bread"}`},
		{"toggle_todo", `{"id":"` + firstID + `"}`},
		{"clear_completed", `{}`},
		{"select_todo", `{"id":"t999"}`},
	}
}

// RunDemo plays DemoScript against the live app, pausing between steps so
// that a person can watch each one land. It acts through a Session, as an
// MCP client would, so each step shows in the activity panel.
func RunDemo(ctx context.Context, b *Bound) {
	s, err := b.RuntimeFor(todo.Principal{Name: "assistant", Role: todo.Viewer})
	if err != nil {
		return
	}
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
	// The first step creates the todo the rest of the script works on; its
	// id comes back on the completion Message.
	res, err := s.DispatchUnknown(ctx, "create_todo", json.RawMessage(`{"title":"Buy oat milk"}`), agent.Invocation{})
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
		_, _ = s.DispatchUnknown(ctx, step.Capability, json.RawMessage(step.Input), agent.Invocation{})
	}
}
