package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/foldagent/foldagent/agent"
)

// The application under test: a small todo list.

type Todo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Done  bool   `json:"done"`
}

type Model struct {
	Todos    []Todo
	Selected string
}

type Msg interface{ isMsg() }

type CreateTodo struct {
	Title string `json:"title"`
}
type RenameTodo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}
type DeleteTodo struct {
	ID string `json:"id"`
}
type ClearCompleted struct{}
type SetQuantity struct {
	Quantity Quantity `json:"quantity"`
}
type LoadedTodos struct {
	Todos []Todo `json:"todos"`
}

func (CreateTodo) isMsg()     {}
func (RenameTodo) isMsg()     {}
func (DeleteTodo) isMsg()     {}
func (ClearCompleted) isMsg() {}
func (SetQuantity) isMsg()    {}
func (LoadedTodos) isMsg()    {}

// NotAMsg is a struct the host's Message type cannot hold.
type NotAMsg struct{}

// Quantity travels as a decimal string and reaches update as a number.
type Quantity int

func (Quantity) WireSchema() json.RawMessage {
	return json.RawMessage(`{"type":"string","pattern":"^[0-9]+$"}`)
}

func (q *Quantity) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return err
	}
	*q = Quantity(n)
	return nil
}

func (q Quantity) MarshalJSON() ([]byte, error) { return json.Marshal(strconv.Itoa(int(q))) }

type User struct {
	ID   string
	Role string
}

type capability[M any] = agent.Variant[M, Model, User]

// host is an in-memory host that records what happens to it.
type host struct {
	mu         sync.Mutex
	model      Model
	dispatched []Msg
	log        []string
	modelHook  func()
	dispatchFn func(ctx context.Context, msg Msg) error
}

func (h *host) Model() Model {
	h.mu.Lock()
	h.log = append(h.log, "model")
	m, hook := h.model, h.modelHook
	h.mu.Unlock()
	if hook != nil {
		hook()
	}
	return m
}

func (h *host) Dispatch(ctx context.Context, msg Msg) error {
	h.mu.Lock()
	h.log = append(h.log, "dispatch")
	fn := h.dispatchFn
	h.mu.Unlock()
	if fn != nil {
		if err := fn(ctx, msg); err != nil {
			return err
		}
	}
	h.mu.Lock()
	h.dispatched = append(h.dispatched, msg)
	h.mu.Unlock()
	return nil
}

func (h *host) note(s string) {
	h.mu.Lock()
	h.log = append(h.log, s)
	h.mu.Unlock()
}

func (h *host) set(m Model) {
	h.mu.Lock()
	h.model = m
	h.mu.Unlock()
}

func (h *host) sent() []Msg {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Msg(nil), h.dispatched...)
}

func (h *host) calls() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.log...)
}

type contextView struct {
	Todos    []Todo `json:"todos"`
	Selected string `json:"selected,omitempty"`
}

type stats struct {
	Total int `json:"total"`
	Done  int `json:"done"`
}

// newContract builds the contract under test; h records hook calls.
func newContract(h *host) (*agent.Contract[Model, User], *agent.Exposed[CreateTodo, Model, User], *agent.Exposed[agent.NoPrincipal, Model, User]) {
	create := agent.Expose(capability[CreateTodo]{Name: "create_todo", Description: "Create a todo with a title."})
	deleteSelected := agent.ExposeMapped(agent.Mapped[agent.NoPrincipal, DeleteTodo, Model, User]{
		Name:        "delete_selected_todo",
		Description: "Delete the selected todo.",
		Available: func(m Model) bool {
			h.note("available")
			return m.Selected != ""
		},
		Authorize: func(ctx context.Context, _ agent.NoPrincipal, _ agent.Call[Model, User]) (agent.Decision, error) {
			h.note("authorize")
			return agent.Allow, nil
		},
		ToMessage: func(_ agent.NoPrincipal, call agent.Call[Model, User]) DeleteTodo {
			return DeleteTodo{ID: call.Model.Selected}
		},
	})
	c := agent.Make(agent.Definition[Model, User]{
		Context: agent.Project(func(m Model) contextView { return contextView(m) }),
		Capabilities: []agent.Capability[Model, User]{
			create,
			agent.Expose(capability[RenameTodo]{Name: "rename_todo", Description: "Rename a todo."}),
			deleteSelected,
			agent.Expose(capability[ClearCompleted]{
				Description: "Remove every todo that is done.",
				Available: func(m Model) bool {
					for _, t := range m.Todos {
						if t.Done {
							return true
						}
					}
					return false
				},
				Authorize: func(ctx context.Context, _ ClearCompleted, call agent.Call[Model, User]) (agent.Decision, error) {
					if call.Principal.Role != "owner" {
						return agent.RefuseBecause("Only the owner of this list may clear completed todos."), nil
					}
					return agent.Allow, nil
				},
			}),
			agent.Expose(capability[SetQuantity]{Description: "Set the quantity."}),
		},
		Resources: []agent.Resource[Model]{
			agent.NewResource("todos", "Every todo.", func(m Model) []Todo { return m.Todos }),
			agent.NewResource("stats", "How many todos there are and how many are done.", func(m Model) stats {
				s := stats{Total: len(m.Todos)}
				for _, t := range m.Todos {
					if t.Done {
						s.Done++
					}
				}
				return s
			}),
		},
	})
	return c, create, deleteSelected
}

func owner() *agent.BindOptions[User] {
	return &agent.BindOptions[User]{Principal: func(context.Context, agent.Invocation) (User, error) {
		return User{ID: "u1", Role: "owner"}, nil
	}}
}

func tagOf(err error) string {
	var e agent.Error
	if errors.As(err, &e) {
		return e.Tag()
	}
	return fmt.Sprintf("untyped(%v)", err)
}
