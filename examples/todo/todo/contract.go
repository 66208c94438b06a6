package todo

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/foldagent/foldagent/agent"
)

// Principal is who is calling: a name for the audit log (the terminal
// app's activity panel shows it) and a role the authorization hooks read.
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
	Title string `json:"title" jsonschema:"The new todo's title." bounds:"minLength=1,maxLength=200"`
}

// ToggleInput is what an agent sends to toggle_todo: the todo's id. The
// invocation id is added by the contract, as for CreateInput.
type ToggleInput struct {
	ID string `json:"id" jsonschema:"The id of the todo to mark done or not done." bounds:"maxLength=32"`
}

// ContextView is what an agent sees of the list.
type ContextView struct {
	Todos    []Todo `json:"todos"`
	Selected string `json:"selected,omitempty"`
}

// The one alias pattern of agent's documentation, for this contract's
// Model (List) and principal.
type (
	capability[M any] = agent.Variant[M, List, Principal]
	mapped[In, M any] = agent.Mapped[In, M, List, Principal]
	call              = agent.Call[List, Principal]
)

// Contract declares what an agent may see and do with the list: the
// todos and the selection, the resources todos and stats, and six
// capabilities. Every capability that changes the todos completes only
// once the change is kept (written to the file, for an app that saves
// the list): create_todo on its CreatedTodo, rename_todo on the title as
// saved, and toggle_todo, delete_selected_todo and clear_completed on
// their ChangeKept. select_todo, which changes only the selection,
// completes once the todo is selected. It reads only the List, so it binds to any host whose
// Model is one, or holds one (see Focus).
//
// The contract is built once, on the first call, and every call returns
// that one: a Contract is immutable, and building it derives and compiles
// every schema, which a server binding a runtime per session would
// otherwise repeat for each session.
func Contract() *agent.Contract[List, Principal] { return contract() }

// ContractAskingOwner is Contract with one difference: clear_completed,
// when an agent asks for it, needs the owner's approval, asked in the
// app they are using (agent.Approval), and covers the done todos as the
// owner was shown them (DoneWatch). The terminal app, where a person is
// there to answer, binds it; a host with nobody to ask (a headless
// server, a test of an adapter) binds Contract. Its host's Message type
// must hold the approval Messages (agent.ApprovalAsked and the others).
func ContractAskingOwner() *agent.Contract[List, Principal] { return askingContract() }

var (
	contract       = sync.OnceValue(func() *agent.Contract[List, Principal] { return define(false) })
	askingContract = sync.OnceValue(func() *agent.Contract[List, Principal] { return define(true) })
)

// clearApproval is clear_completed's approval, asked only of agents: the
// owner clearing from the app decides by doing it.
var clearApproval = &agent.Approval[agent.NoInput, List, Principal]{
	Summary: "Remove every todo that is done.",
	When:    func(_ agent.NoInput, c call) bool { return c.Invocation.Transport != agent.InApp },
}

// DoneWatch is the todos that are done, as the agent and the owner see
// them: what clear_completed removes.
var DoneWatch = agent.Watching("doneTodos", func(l List) []Todo {
	done := []Todo{}
	for _, t := range l.Todos {
		if t.Done {
			done = append(done, t)
		}
	}
	return done
})

func define(ask bool) *agent.Contract[List, Principal] {
	var (
		approval *agent.Approval[agent.NoInput, List, Principal]
		watches  []agent.Watch[List]
	)
	if ask {
		approval, watches = clearApproval, []agent.Watch[List]{DoneWatch}
	}
	return agent.Make(agent.Definition[List, Principal]{
		Context: agent.Project(func(l List) ContextView {
			return ContextView{Todos: orEmpty(l.Todos), Selected: l.Selected}
		}),
		Capabilities: []agent.Capability[List, Principal]{
			agent.ExposeMapped(mapped[CreateInput, CreateTodo]{
				Name:        "create_todo",
				Description: "Create a todo with the given title. Returns once the todo is on the list and, when the app keeps the list in a file, written to it, so a todo reported created is not lost if the app stops.",
				ToMessage: func(in CreateInput, c call) CreateTodo {
					return CreateTodo{Title: in.Title, RequestID: c.Invocation.ID}
				},
				// The list keeps at most MaxTodos todos; the title's length
				// is bounded by CreateInput's bounds tag.
				Requires: []agent.Requirement[List]{{
					Holds: func(l List) bool { return !l.Full() },
					Says:  "The list holds as many todos as it keeps: delete a todo or clear the completed ones first.",
				}},
				// Two agents creating two todos titled "Milk" at once each
				// get their own: ToMessage put the invocation id into
				// CreateTodo, Update carried it onto CreatedTodo, and the
				// correlate compares the two. A host applies CreatedTodo
				// only once the todo is kept (see Update): the terminal app
				// after the save that wrote it.
				Completion: agent.CompleteOn(
					agent.On(func(_ CreateInput, got CreatedTodo, inv agent.Invocation) bool {
						return got.RequestID == inv.ID
					}),
				).Within(10 * time.Second),
			}),
			agent.Expose(capability[RenameTodo]{
				Name:        "rename_todo",
				Description: "Give the todo with the given id a new title. Returns once the todo has that title and, when the app keeps the list in a file, the title is written to it.",
				Exists:      existing[RenameTodo],
				Missing:     noSuchTodo,
				// Done when that todo has that title, whoever made it so, in
				// the list as the host presents it: an app that saves the
				// list presents it as saved (see Focus).
				Completion: agent.When(
					func(l List) []Todo { return l.Todos },
					func(todos []Todo, in RenameTodo) bool {
						i := slices.IndexFunc(todos, func(t Todo) bool { return t.ID == in.ID })
						return i >= 0 && todos[i].Title == in.Title
					},
				).Within(5 * time.Second),
			}),
			agent.Expose(capability[SelectTodo]{
				Name:        "select_todo",
				Description: "Select the todo with the given id. Returns once it is the selected todo, so that delete_selected_todo acts on it.",
				Exists:      existing[SelectTodo],
				Missing:     noSuchTodo,
				// The selection is not saved (it is the session's, not the
				// list's), so it completes on state: once the list the
				// host presents has it selected.
				Completion: agent.When(
					func(l List) string { return l.Selected },
					func(selected string, in SelectTodo) bool { return selected == in.ID },
				).Within(5 * time.Second),
			}),
			agent.ExposeMapped(mapped[ToggleInput, ToggleTodo]{
				Name:        "toggle_todo",
				Description: "Mark the todo with the given id done, or not done if it already is. Returns once the change is made and, when the app keeps the list in a file, written to it; the result holds the todo as it now is.",
				Exists:      existing[ToggleInput],
				Missing:     noSuchTodo,
				ToMessage: func(in ToggleInput, c call) ToggleTodo {
					return ToggleTodo{ID: in.ID, RequestID: c.Invocation.ID}
				},
				Completion: onKept[ToggleInput](),
			}),
			agent.ExposeMapped(mapped[agent.NoInput, DeleteTodo]{
				Name:        "delete_selected_todo",
				Description: "Delete the selected todo. Returns once it is off the list and, when the app keeps the list in a file, off the file too; the result holds the deleted todo.",
				Destructive: true,
				Available:   func(l List) bool { return l.Selected != "" },
				// The selection Available approved, from the same snapshot,
				// and the one the caller saw: a selection moved by the
				// person or another agent since is refused as stale.
				Watches: []agent.Watch[List]{SelectedWatch},
				ToMessage: func(_ agent.NoInput, c call) DeleteTodo {
					return DeleteTodo{ID: c.Model.Selected, RequestID: c.Invocation.ID}
				},
				Completion: onKept[agent.NoInput](),
			}),
			agent.ExposeMapped(mapped[agent.NoInput, ClearCompleted]{
				Name:        "clear_completed",
				Description: "Remove every todo that is done. Returns once they are off the list and, when the app keeps the list in a file, off the file too; the result holds the removed todos.",
				Destructive: true,
				Available:   List.AnyDone,
				Authorize: func(_ context.Context, _ agent.NoInput, c call) (agent.Decision, error) {
					if c.Principal.Role != Owner {
						return agent.RefuseBecause("Only the list's owner may clear completed todos; ask the owner to do it."), nil
					}
					return agent.Allow, nil
				},
				ToMessage: func(_ agent.NoInput, c call) ClearCompleted {
					return ClearCompleted{RequestID: c.Invocation.ID}
				},
				Completion: onKept[agent.NoInput](),
				Watches:    watches,
				Approval:   approval,
			}),
		},
		Resources: []agent.Resource[List]{
			agent.NewResource("todos", "Every todo, in list order.", func(l List) []Todo { return orEmpty(l.Todos) }),
			agent.NewResource("stats", "How many todos there are, and how many are done.", List.Stats),
		},
	})
}

// onKept is the one completion of every capability that changes the list
// but does not create a todo: done on the ChangeKept its own Message
// caused, matched by the invocation id ToMessage put into that Message
// and Update carried onto the report. A host applies ChangeKept only once
// the change is kept (see Update), so "completed" means saved wherever the
// app saves; a save that fails holds it back, and the call is not
// reported completed.
func onKept[In any]() agent.OnMessages[In] {
	return agent.CompleteOn(
		agent.On(func(_ In, got ChangeKept, inv agent.Invocation) bool {
			return got.RequestID == inv.ID
		}),
	).Within(10 * time.Second)
}

// existing reports an id the list does not hold as missing
// (AgentNotFoundError), so that an agent working from a stale or mistaken
// id is told so at once, rather than its call doing nothing (or, for
// rename_todo, waiting out its completion). A missing todo is not a
// refusal of the caller: no capability that only checks it requires
// authorization.
func existing[In interface{ todoID() string }](in In, l List) (string, bool) {
	_, ok := l.Find(in.todoID())
	return "/id", ok
}

// noSuchTodo is what an agent is told when an id names no todo.
const noSuchTodo = "There is no todo with that id; read the list first."

// SelectedWatch is the selected todo, as the agent reads it: what
// delete_selected_todo deletes.
var SelectedWatch = agent.Watching("selectedTodo", func(l List) Todo {
	t, _ := l.Find(l.Selected)
	return t
})

func (in RenameTodo) todoID() string  { return in.ID }
func (in SelectTodo) todoID() string  { return in.ID }
func (in ToggleInput) todoID() string { return in.ID }

func orEmpty(t []Todo) []Todo {
	if t == nil {
		return []Todo{}
	}
	return t
}
