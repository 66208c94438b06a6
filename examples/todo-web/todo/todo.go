package todo

import (
	"context"
	"slices"
	"strings"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// Todo is one item of the list.
type Todo struct {
	ID    int
	Title string
	Done  bool
}

// Model is the whole application state. update replaces it, never
// mutates it, so a snapshot handed to the agent runtime stays true.
type Model struct {
	Todos []Todo
	// Selected is the ID of the selected todo, or 0 for none.
	Selected int
	// Draft is the text in the page's new-todo field.
	Draft string
	// FormSubmits counts the times the application's own submit handler
	// ran: an agent's submission of the form must not reach it.
	FormSubmits int
	nextID      int
}

// Find returns the todo with the given ID.
func (m Model) Find(id int) (Todo, bool) {
	i := slices.IndexFunc(m.Todos, func(t Todo) bool { return t.ID == id })
	if i < 0 {
		return Todo{}, false
	}
	return m.Todos[i], true
}

// Messages. The first five are what the agent may cause; the person's
// page sends them too, and the last two only the page sends.
type (
	// CreateTodo adds a todo. Request is the invocation id of the agent
	// call that asked for it (empty for the person's own), carried onto
	// TodoCreated so that the call completes on its own todo.
	CreateTodo struct {
		Title   string
		Request string
	}
	// TodoCreated reports the todo a CreateTodo added.
	TodoCreated struct {
		ID      int
		Request string
	}
	// SelectTodo selects a todo.
	SelectTodo struct {
		ID int `json:"id" jsonschema:"The id of the todo to select."`
	}
	// ToggleTodo marks a todo done, or not done.
	ToggleTodo struct {
		ID int `json:"id" jsonschema:"The id of the todo to mark."`
	}
	// RenameTodo gives a todo a new title.
	RenameTodo struct {
		ID    int    `json:"id" jsonschema:"The id of the todo to rename."`
		Title string `json:"title" jsonschema:"The todo's new title."`
	}
	// DeleteTodo removes a todo.
	DeleteTodo struct {
		ID int
	}
	// DraftChanged reports the person typing in the new-todo field.
	DraftChanged struct{ Text string }
	// DraftSubmitted is the person submitting the new-todo form: the
	// application's own submit handler.
	DraftSubmitted struct{}
)

// Msg is the application's Message type.
type Msg = any

// Init is the first Model: two todos, nothing selected.
func Init() (Model, loop.Cmd[Msg]) {
	return Model{
		Todos:  []Todo{{ID: 1, Title: "Buy milk"}, {ID: 2, Title: "Walk the dog"}},
		nextID: 3,
	}, nil
}

// Update applies one Message.
func Update(m Model, msg Msg) (Model, loop.Cmd[Msg]) {
	m.Todos = slices.Clone(m.Todos)
	switch msg := msg.(type) {
	case CreateTodo:
		m = m.add(msg.Title)
		return m, loop.Emit[Msg](TodoCreated{ID: m.nextID - 1, Request: msg.Request})
	case SelectTodo:
		if _, ok := m.Find(msg.ID); ok {
			m.Selected = msg.ID
		}
	case ToggleTodo:
		if i := m.index(msg.ID); i >= 0 {
			m.Todos[i].Done = !m.Todos[i].Done
		}
	case RenameTodo:
		if i := m.index(msg.ID); i >= 0 {
			m.Todos[i].Title = msg.Title
		}
	case DeleteTodo:
		if i := m.index(msg.ID); i >= 0 {
			m.Todos = slices.Delete(m.Todos, i, i+1)
			if m.Selected == msg.ID {
				m.Selected = 0
			}
		}
	case DraftChanged:
		m.Draft = msg.Text
	case DraftSubmitted:
		m.FormSubmits++
		if strings.TrimSpace(m.Draft) != "" {
			title := m.Draft
			m.Draft = ""
			return Update(m, CreateTodo{Title: title})
		}
	}
	return m, nil
}

func (m Model) add(title string) Model {
	if m.nextID == 0 {
		m.nextID = len(m.Todos) + 1
	}
	m.Todos = append(m.Todos, Todo{ID: m.nextID, Title: title})
	m.nextID++
	return m
}

func (m Model) index(id int) int {
	return slices.IndexFunc(m.Todos, func(t Todo) bool { return t.ID == id })
}

// CreateInput is what an agent sends to create a todo: a title only.
type CreateInput struct {
	Title string `json:"title" jsonschema:"The new todo's title."`
}

// capability and mapped shorten the declarations below.
type (
	capability[M any] = agent.Variant[M, Model, agent.NoPrincipal]
	mapped[In, M any] = agent.Mapped[In, M, Model, agent.NoPrincipal]
	call              = agent.Call[Model, agent.NoPrincipal]
)

// existing refuses an id the Model does not hold.
func existing[In any](id func(In) int) func(context.Context, In, call) (agent.Decision, error) {
	return func(_ context.Context, in In, c call) (agent.Decision, error) {
		if _, ok := c.Model.Find(id(in)); !ok {
			return agent.RefuseBecause("There is no todo with that id; read the list first."), nil
		}
		return agent.Allow, nil
	}
}

// Contract is what an agent in the page may do: the same five things a
// person can, and delete only while something is selected.
var Contract = agent.Make(agent.Definition[Model, agent.NoPrincipal]{
	Context: agent.Project(func(m Model) []Todo { return m.Todos }),
	Capabilities: []agent.Capability[Model, agent.NoPrincipal]{
		agent.ExposeMapped(mapped[CreateInput, CreateTodo]{
			Name:        "create_todo",
			Description: "Add a todo with the given title to the list.",
			ToMessage: func(in CreateInput, c call) CreateTodo {
				return CreateTodo{Title: in.Title, Request: c.Invocation.ID}
			},
			// Done when update reports this call's todo.
			Completion: agent.CompleteOn(
				agent.On(func(_ CreateInput, got TodoCreated, inv agent.Invocation) bool { return got.Request == inv.ID }),
			),
		}),
		agent.Expose(capability[SelectTodo]{
			Name:        "select_todo",
			Description: "Select the todo with the given id.",
			Available:   func(m Model) bool { return len(m.Todos) > 0 },
			Authorize:   existing(func(in SelectTodo) int { return in.ID }),
		}),
		agent.Expose(capability[ToggleTodo]{
			Name:        "toggle_todo",
			Description: "Mark the todo with the given id done, or not done if it already is.",
			Available:   func(m Model) bool { return len(m.Todos) > 0 },
			Authorize:   existing(func(in ToggleTodo) int { return in.ID }),
		}),
		agent.Expose(capability[RenameTodo]{
			Name:        "rename_todo",
			Description: "Give the todo with the given id a new title.",
			Available:   func(m Model) bool { return len(m.Todos) > 0 },
			Authorize:   existing(func(in RenameTodo) int { return in.ID }),
			// Done when the todo has the new title.
			Completion: agent.When(
				func(m Model) []Todo { return m.Todos },
				func(todos []Todo, in RenameTodo) bool {
					i := slices.IndexFunc(todos, func(t Todo) bool { return t.ID == in.ID })
					return i >= 0 && todos[i].Title == in.Title
				},
			),
		}),
		agent.ExposeMapped(mapped[agent.NoInput, DeleteTodo]{
			Name:        "delete_selected_todo",
			Description: "Delete the selected todo.",
			Available:   func(m Model) bool { return m.Selected != 0 },
			// The selection Available approved, from the same snapshot.
			ToMessage: func(_ agent.NoInput, c call) DeleteTodo { return DeleteTodo{ID: c.Model.Selected} },
		}),
	},
})
