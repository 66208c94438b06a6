package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// Your application, as it is: a Model, its Messages, and update.

type Todo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

type Model struct {
	Todos    []Todo
	Selected string
}

type Msg interface{ isMsg() }
type CreateTodo struct {
	Title string `json:"title"`
}
type DeleteTodo struct{ ID string }

func (CreateTodo) isMsg() {}
func (DeleteTodo) isMsg() {}

func update(m Model, msg Msg) (Model, loop.Cmd[Msg]) {
	switch msg := msg.(type) {
	case CreateTodo:
		id := strconv.Itoa(len(m.Todos) + 1)
		m.Todos = append(slices.Clone(m.Todos), Todo{ID: id, Title: msg.Title})
	case DeleteTodo:
		m.Todos = slices.DeleteFunc(slices.Clone(m.Todos), func(t Todo) bool { return t.ID == msg.ID })
		m.Selected = ""
	}
	return m, nil
}

// Who is calling: what Authorize decides on.
type User struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

// Write the Model and principal types once, with aliases.
type (
	capability[M any] = agent.Variant[M, Model, User]
	mapped[In, M any] = agent.Mapped[In, M, Model, User]
	call              = agent.Call[Model, User]
)

// The contract: what an agent may see, and which Messages it may send.
var contract = agent.Make(agent.Definition[Model, User]{
	Context: agent.Project(func(m Model) []Todo { return m.Todos }),
	Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[CreateTodo]{
			Description: "Create a todo.",
			Authorize: func(_ context.Context, _ CreateTodo, c call) (agent.Decision, error) {
				if c.Principal.Role == "viewer" {
					return agent.RefuseBecause("Viewers may not add todos."), nil
				}
				return agent.Allow, nil
			},
		}),
		agent.ExposeMapped(mapped[agent.NoInput, DeleteTodo]{
			Name:        "delete_selected_todo",
			Description: "Delete the selected todo.",
			Available:   func(m Model) bool { return m.Selected != "" },
			ToMessage: func(_ agent.NoInput, c call) DeleteTodo {
				return DeleteTodo{ID: c.Model.Selected} // the snapshot Available approved
			},
		}),
	},
})

func main() {
	ctx := context.Background()
	// host/loop runs update one Message at a time: the host the contract
	// binds to (Model() + Dispatch(ctx, msg)). Until it runs, nothing is
	// applied: a call waits for its context or deadline, and its error's
	// cause is then agent.ErrHostIdle.
	prog := loop.New(loop.Funcs(func() (Model, loop.Cmd[Msg]) { return Model{}, nil }, update), nil)
	go prog.Run(ctx)

	rt, err := agent.Bind(contract, prog, nil) // nil: the zero User calls, nothing audited
	if err != nil {
		panic(err)
	}

	// An adapter's path: a name and raw JSON off the wire.
	res, err := rt.DispatchUnknown(ctx, "create_todo", json.RawMessage(`{"title":"Milk"}`), agent.Invocation{})
	// err is nil, or a typed refusal with a message written for the agent:
	// *agent.UnknownCapabilityError, *agent.UnavailableError,
	// *agent.InvalidInputError, *agent.AuthorizationError, ...
	// agent.ReplyTo turns either into what the agent is told.
	fmt.Println(agent.ReplyTo("create_todo", res, err).Text)

	// Nothing is selected: refused, and nothing is dispatched.
	res, err = rt.DispatchUnknown(ctx, "delete_selected_todo", json.RawMessage(`{}`), agent.Invocation{})
	fmt.Println(agent.ReplyTo("delete_selected_todo", res, err).Text)

	if err := prog.Stop(ctx); err != nil { // apply what is queued, then stop
		panic(err)
	}
	fmt.Println(prog.Model().Todos)
}
