package todo

import (
	"context"
	"strconv"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// Todo is one item.
type Todo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Done  bool   `json:"done"`
}

// Model is the application state. It is replaced, never mutated, by Update.
type Model struct {
	Todos    []Todo
	Selected string
	Next     int
}

// User is the principal: who is calling, as the bearer token says.
type User struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

// Roles.
const (
	Owner  = "owner"
	Viewer = "viewer"
)

// Msg is every Message update handles.
type Msg interface{ isMsg() }

// Messages.
type (
	// CreateTodo appends a todo.
	CreateTodo struct {
		Title string `json:"title" jsonschema:"the todo's title"`
	}
	// RenameTodo changes a todo's title.
	RenameTodo struct {
		ID    string `json:"id" jsonschema:"the id of the todo to rename"`
		Title string `json:"title" jsonschema:"the new title"`
	}
	// SelectTodo selects a todo.
	SelectTodo struct {
		ID string `json:"id" jsonschema:"the id of the todo to select"`
	}
	// ToggleTodo flips a todo's done flag.
	ToggleTodo struct {
		ID string `json:"id" jsonschema:"the id of the todo to mark done or not done"`
	}
	// DeleteTodo removes a todo (delete_selected_todo sends it for the selection).
	DeleteTodo struct {
		ID string `json:"id"`
	}
	// ClearCompleted removes every done todo.
	ClearCompleted struct{}
)

func (CreateTodo) isMsg()     {}
func (RenameTodo) isMsg()     {}
func (SelectTodo) isMsg()     {}
func (ToggleTodo) isMsg()     {}
func (DeleteTodo) isMsg()     {}
func (ClearCompleted) isMsg() {}

// Init returns the empty list.
func Init() (Model, loop.Cmd[Msg]) { return Model{Next: 1}, nil }

// Update applies msg to m.
func Update(m Model, msg Msg) (Model, loop.Cmd[Msg]) {
	if msg, ok := msg.(CreateTodo); ok {
		// Appending never changes what an older snapshot sees: its length
		// ends before the new element, and only the newest Model is
		// appended to.
		m.Todos = append(m.Todos, Todo{ID: strconv.Itoa(m.Next), Title: msg.Title})
		m.Next++
		return m, nil
	}
	todos := append([]Todo(nil), m.Todos...)
	switch msg := msg.(type) {
	case RenameTodo:
		for i := range todos {
			if todos[i].ID == msg.ID {
				todos[i].Title = msg.Title
			}
		}
	case SelectTodo:
		for _, t := range todos {
			if t.ID == msg.ID {
				m.Selected = msg.ID
			}
		}
	case ToggleTodo:
		for i := range todos {
			if todos[i].ID == msg.ID {
				todos[i].Done = !todos[i].Done
			}
		}
	case DeleteTodo:
		kept := todos[:0]
		for _, t := range todos {
			if t.ID != msg.ID {
				kept = append(kept, t)
			}
		}
		todos = kept
		if m.Selected == msg.ID {
			m.Selected = ""
		}
	case ClearCompleted:
		kept := todos[:0]
		for _, t := range todos {
			if !t.Done {
				kept = append(kept, t)
			} else if t.ID == m.Selected {
				m.Selected = ""
			}
		}
		todos = kept
	}
	m.Todos = todos
	return m, nil
}

// View is the context an agent sees.
type View struct {
	Todos    []Todo `json:"todos"`
	Selected string `json:"selected,omitempty"`
}

// Stats is the stats resource.
type Stats struct {
	Total int `json:"total"`
	Done  int `json:"done"`
}

type capability[M any] = agent.Variant[M, Model, User]

func hasTodos(m Model) bool { return len(m.Todos) > 0 }

func anyDone(m Model) bool {
	for _, t := range m.Todos {
		if t.Done {
			return true
		}
	}
	return false
}

// Contract is the application's agent contract.
var Contract = agent.Make(agent.Definition[Model, User]{
	Context: agent.Project(func(m Model) View { return View{Todos: m.Todos, Selected: m.Selected} }),
	Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[CreateTodo]{Description: "Add a todo with the given title to the end of the list."}),
		agent.Expose(capability[RenameTodo]{Description: "Change the title of a todo.", Available: hasTodos}),
		agent.Expose(capability[SelectTodo]{Description: "Select a todo, so that it can be deleted.", Available: hasTodos}),
		agent.Expose(capability[ToggleTodo]{Description: "Mark a todo done, or not done again.", Available: hasTodos}),
		agent.ExposeMapped(agent.Mapped[agent.NoPrincipal, DeleteTodo, Model, User]{
			Name:        "delete_selected_todo",
			Description: "Delete the selected todo.",
			Available:   func(m Model) bool { return m.Selected != "" },
			ToMessage: func(_ agent.NoPrincipal, call agent.Call[Model, User]) DeleteTodo {
				return DeleteTodo{ID: call.Model.Selected}
			},
		}),
		agent.Expose(capability[ClearCompleted]{
			Description: "Remove every todo that is done. Only the list's owner may do this.",
			Available:   anyDone,
			Authorize: func(_ context.Context, _ ClearCompleted, call agent.Call[Model, User]) (agent.Decision, error) {
				if call.Principal.Role != Owner {
					return agent.RefuseBecause("Only the owner of this list may clear completed todos."), nil
				}
				return agent.Allow, nil
			},
		}),
	},
	Resources: []agent.Resource[Model]{
		agent.NewResource("todos", "Every todo in the list, in order.", func(m Model) []Todo { return m.Todos }),
		agent.NewResource("stats", "How many todos there are, and how many are done.", func(m Model) Stats {
			s := Stats{Total: len(m.Todos)}
			for _, t := range m.Todos {
				if t.Done {
					s.Done++
				}
			}
			return s
		}),
	},
})

// Program is the running application.
type Program = loop.Program[Model, Msg]

// New returns the application's Program; run it with Run.
func New() *Program {
	return loop.New[Model, Msg](loop.Funcs(Init, Update), nil)
}

// Runtime is the contract bound to a running Program.
type Runtime = agent.Runtime[Model, Msg, User]

// Bind binds the contract to p for one principal: every invocation through
// the returned runtime is made as u.
func Bind(p *Program, u User) (*Runtime, error) {
	return BindAudited(p, u, nil)
}

// BindAudited is Bind with an audit log that records every decision.
func BindAudited(p *Program, u User, audit *agent.AuditLog[User]) (*Runtime, error) {
	return agent.Bind[Model, Msg, User](Contract, p, &agent.BindOptions[User]{
		Principal: func(context.Context, agent.Invocation) (User, error) { return u, nil },
		Audit:     audit,
	})
}
