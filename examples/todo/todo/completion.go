package todo

import (
	"slices"
	"time"

	"github.com/foldagent/foldagent/agent"
)

// createdCompletion finishes create_todo on the CreatedTodo its own
// CreateTodo caused. Two agents creating two todos titled "Milk" at once
// each get their own: ToMessage put the invocation id into CreateTodo,
// update carried it onto CreatedTodo, and correlate compares the two.
func createdCompletion() agent.CompletionContract[CreateInput] {
	return agent.CompleteOn(
		agent.On(func(_ CreateInput, got CreatedTodo, inv agent.Invocation) bool {
			return got.RequestID == inv.ID
		}),
	).Within(10 * time.Second)
}

// renamedCompletion finishes rename_todo when that todo has that title,
// whoever made it so. A rename of an id that does not exist never holds,
// so it times out rather than reporting success.
func renamedCompletion() agent.CompletionContract[RenameTodo] {
	return agent.When(
		func(a App) []Todo { return a.List.Todos },
		func(todos []Todo, in RenameTodo) bool {
			return slices.Contains(todos, Todo{ID: in.ID, Title: in.Title, Done: doneOf(todos, in.ID)})
		},
	).Within(5 * time.Second)
}

func doneOf(todos []Todo, id string) bool {
	i := slices.IndexFunc(todos, func(t Todo) bool { return t.ID == id })
	return i >= 0 && todos[i].Done
}
