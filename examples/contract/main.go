package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/foldagent/foldagent/agent"
)

// The application: a Model, its Messages, and update.

type Todo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Done  bool   `json:"done"`
}

type Model struct {
	Todos    []Todo
	Selected string
	nextID   int
}

type Msg interface{ isMsg() }

type CreateTodo struct {
	Title string `json:"title"`
}
type SelectTodo struct {
	ID string `json:"id"`
}
type DeleteTodo struct{ ID string }
type ClearCompleted struct{}
type LoadedTodos struct{ Todos []Todo } // never exposed to agents

func (CreateTodo) isMsg()     {}
func (SelectTodo) isMsg()     {}
func (DeleteTodo) isMsg()     {}
func (ClearCompleted) isMsg() {}
func (LoadedTodos) isMsg()    {}

func update(m Model, msg Msg) Model {
	switch msg := msg.(type) {
	case CreateTodo:
		m.nextID++
		m.Todos = append(append([]Todo(nil), m.Todos...), Todo{ID: "t" + strconv.Itoa(m.nextID), Title: msg.Title})
	case SelectTodo:
		m.Selected = msg.ID
	case DeleteTodo:
		var kept []Todo
		for _, t := range m.Todos {
			if t.ID != msg.ID {
				kept = append(kept, t)
			}
		}
		m.Todos, m.Selected = kept, ""
	case ClearCompleted:
		var kept []Todo
		for _, t := range m.Todos {
			if !t.Done {
				kept = append(kept, t)
			}
		}
		m.Todos = kept
	case LoadedTodos:
		m.Todos = msg.Todos
	}
	return m
}

// memoryHost is the host seam in a dozen lines: the current Model behind a
// mutex, update applied on Dispatch. host/loop is the real runtime.
type memoryHost struct {
	mu    sync.Mutex
	model Model
}

func (h *memoryHost) Model() Model {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.model
}

func (h *memoryHost) Dispatch(_ context.Context, msg Msg) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.model = update(h.model, msg)
	return nil
}

// The contract: what an agent may see and do.

type User struct {
	Name string
	Role string
}

type capability[M any] = agent.Variant[M, Model, User]

type view struct {
	Todos    []Todo `json:"todos"`
	Selected string `json:"selected,omitempty"`
}

func contract() *agent.Contract[Model, User] {
	return agent.Make(agent.Definition[Model, User]{
		Context: agent.Project(func(m Model) view { return view{Todos: m.Todos, Selected: m.Selected} }),
		Capabilities: []agent.Capability[Model, User]{
			agent.Expose(capability[CreateTodo]{Name: "create_todo", Description: "Create a todo with the given title."}),
			agent.Expose(capability[SelectTodo]{Name: "select_todo", Description: "Select the todo with the given id."}),
			agent.ExposeMapped(agent.Mapped[struct{}, DeleteTodo, Model, User]{
				Name:        "delete_selected_todo",
				Description: "Delete the selected todo.",
				Available:   func(m Model) bool { return m.Selected != "" },
				ToMessage: func(_ struct{}, call agent.Call[Model, User]) DeleteTodo {
					return DeleteTodo{ID: call.Model.Selected} // the selection available approved
				},
			}),
			agent.Expose(capability[ClearCompleted]{
				Description: "Remove every todo that is done.",
				Authorize: func(_ context.Context, _ ClearCompleted, call agent.Call[Model, User]) (agent.Decision, error) {
					if call.Principal.Role != "owner" {
						return agent.RefuseBecause("Only the list's owner may clear completed todos."), nil
					}
					return agent.Allow, nil
				},
			}),
		},
		Resources: []agent.Resource[Model]{
			agent.NewResource("todos", "Every todo, in order.", func(m Model) []Todo { return m.Todos }),
		},
	})
}

func main() {
	ctx := context.Background()
	h := &memoryHost{}
	caller := User{Name: "assistant", Role: "viewer"}
	rt, err := agent.Bind(contract(), h, &agent.BindOptions[User]{
		Principal: func(context.Context, agent.Invocation) (User, error) { return caller, nil },
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	section("Available now")
	printAvailable(rt)

	section("Dispatch create_todo")
	call(ctx, rt, "create_todo", `{"title":"Read the guide"}`)
	call(ctx, rt, "select_todo", `{"id":"t1"}`)
	printAvailable(rt)
	ctxJSON, _ := rt.Context(ctx)
	fmt.Printf("context: %s\n", ctxJSON)

	section("Refusals (none of these sends a Message)")
	call(ctx, rt, "delete_todoo", `{}`)                       // unknown
	call(ctx, rt, "create_todo", `{"title":"a","due":"now"}`) // undeclared field
	call(ctx, rt, "create_todo", `{"title":42}`)              // wrong type
	call(ctx, rt, "select_todo", `[]`)                        // not an object
	call(ctx, rt, "clear_completed", `{}`)                    // refused, with a reason
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	call(cancelled, rt, "create_todo", `{"title":"late"}`) // cancelled
	call(ctx, rt, "delete_selected_todo", `{}`)
	call(ctx, rt, "delete_selected_todo", `{}`) // unavailable: nothing is selected any more
	_, err = rt.ReadResource(ctx, "secrets")
	printErr("read secrets", err)

	section("Manifest (agent.json)")
	os.Stdout.Write(agent.Manifest(rt.Contract()))
}

func call(ctx context.Context, rt *agent.Runtime[Model, Msg, User], name, payload string) {
	res, err := rt.DispatchUnknown(ctx, name, json.RawMessage(payload), agent.Invocation{})
	label := fmt.Sprintf("%s %s", name, payload)
	if err != nil {
		printErr(label, err)
		return
	}
	_, text := agent.Summarize(res)
	fmt.Printf("%-45s ok: %s\n", label, text)
}

func printErr(label string, err error) {
	var typed agent.Error
	if errors.As(err, &typed) {
		fmt.Printf("%-45s %s: %s\n", label, typed.Tag(), err)
		return
	}
	fmt.Printf("%-45s %v\n", label, err)
}

func printAvailable(rt *agent.Runtime[Model, Msg, User]) {
	avail, _ := rt.Available()
	names := make([]string, len(avail))
	for i, d := range avail {
		names[i] = d.Name
	}
	fmt.Printf("available: %v\n", names)
}

func section(title string) { fmt.Printf("\n== %s ==\n", title) }
