package todo

import (
	"context"

	"github.com/foldagent/foldagent/agent"
)

// Principal is who is calling: a name for the activity panel and a role
// the authorization hooks read.
type Principal struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

// Roles the contract knows.
const (
	Owner  = "owner"
	Viewer = "viewer"
)

// CreateInput is what an agent sends to create_todo: only the title. The
// invocation id is added by the contract, never by the caller.
type CreateInput struct {
	Title string `json:"title"`
}

// ContextView is what an agent sees of the application.
type ContextView struct {
	Todos    []Todo `json:"todos"`
	Selected string `json:"selected,omitempty"`
}

type capability[M any] = agent.Variant[M, App, Principal]

// Contract declares what an agent may see and do in the todo app. The
// load, save and failure Messages are deliberately not exposed.
func Contract() *agent.Contract[App, Principal] {
	return agent.Make(agent.Definition[App, Principal]{
		Context: agent.Project(func(a App) ContextView {
			return ContextView{Todos: orEmpty(a.List.Todos), Selected: a.List.Selected}
		}),
		Capabilities: []agent.Capability[App, Principal]{
			agent.ExposeMapped(agent.Mapped[CreateInput, CreateTodo, App, Principal]{
				Name:        "create_todo",
				Description: "Create a todo with the given title. Returns once the todo exists.",
				ToMessage: func(in CreateInput, call agent.Call[App, Principal]) CreateTodo {
					return CreateTodo{Title: in.Title, RequestID: call.Invocation.ID}
				},
				Completion: createdCompletion(),
			}),
			agent.Expose(capability[RenameTodo]{
				Name:        "rename_todo",
				Description: "Give the todo with the given id a new title. Returns once the todo has that title.",
				Completion:  renamedCompletion(),
			}),
			agent.Expose(capability[SelectTodo]{
				Name:        "select_todo",
				Description: "Select the todo with the given id.",
			}),
			agent.Expose(capability[ToggleTodo]{
				Name:        "toggle_todo",
				Description: "Mark the todo with the given id done, or not done if it already is.",
			}),
			agent.ExposeMapped(agent.Mapped[agent.NoInput, DeleteTodo, App, Principal]{
				Name:        "delete_selected_todo",
				Description: "Delete the selected todo.",
				Destructive: true,
				Available:   func(a App) bool { return a.List.Selected != "" },
				ToMessage: func(_ agent.NoInput, call agent.Call[App, Principal]) DeleteTodo {
					// The selection Available approved, from the same snapshot.
					return DeleteTodo{ID: call.Model.List.Selected}
				},
			}),
			agent.Expose(capability[ClearCompleted]{
				Name:        "clear_completed",
				Description: "Remove every todo that is done.",
				Destructive: true,
				Available:   func(a App) bool { return a.List.AnyDone() },
				Authorize: func(_ context.Context, _ ClearCompleted, call agent.Call[App, Principal]) (agent.Decision, error) {
					if call.Principal.Role != Owner {
						return agent.RefuseBecause("Only the list's owner may clear completed todos; ask the owner to do it."), nil
					}
					return agent.Allow, nil
				},
			}),
		},
		Resources: []agent.Resource[App]{
			agent.NewResource("todos", "Every todo, in list order.", func(a App) []Todo { return orEmpty(a.List.Todos) }),
			agent.NewResource("stats", "How many todos there are, and how many are done.", func(a App) Stats { return a.List.Stats() }),
		},
	})
}

func orEmpty(t []Todo) []Todo {
	if t == nil {
		return []Todo{}
	}
	return t
}
