package webmcp_test

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/webmcp"
)

type Model struct{ Todos []string }

type CreateTodo struct {
	Title string `json:"title" jsonschema:"The title of the new todo"`
}

type ClearTodos struct{}

type capability[M any] = agent.Variant[M, Model, agent.NoPrincipal]

var contract = agent.Make(agent.Definition[Model, agent.NoPrincipal]{
	Capabilities: []agent.Capability[Model, agent.NoPrincipal]{
		agent.Expose(capability[CreateTodo]{Description: "Add a todo to the list."}),
		agent.Expose(capability[ClearTodos]{
			Description: "Remove every todo.",
			Available:   func(m Model) bool { return len(m.Todos) > 0 },
		}),
	},
})

// host keeps the Model and applies Messages at once.
type host struct {
	mu    sync.Mutex
	model Model
}

func (h *host) Model() Model {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.model
}

func (h *host) Dispatch(_ context.Context, msg any) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch msg := msg.(type) {
	case CreateTodo:
		h.model.Todos = append(append([]string(nil), h.model.Todos...), msg.Title)
	case ClearTodos:
		h.model.Todos = nil
	}
	return nil
}

// recorder is a stand-in model context: in a page, leave
// Options.ModelContext nil and document.modelContext is used.
type recorder struct {
	mu    sync.Mutex
	tools map[string]webmcp.Tool
}

func (r *recorder) RegisterTool(_ context.Context, tool webmcp.Tool) (func(), error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tools[tool.Name] = tool
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.tools, tool.Name)
	}, nil
}

func (r *recorder) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for n := range r.tools {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func ExampleRegister() {
	runtime := agent.MustBind(contract, &host{}, nil)
	mc := &recorder{tools: map[string]webmcp.Tool{}}

	reg, err := webmcp.Register(context.Background(), webmcp.Options{Runtime: runtime, ModelContext: mc})
	if err != nil {
		panic(err)
	}
	defer reg.Unregister()
	if err := reg.Refresh(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println("tools:", mc.names())

	create := mc.tools["create_todo"]
	fmt.Println(create.Execute(context.Background(), []byte(`{"title":"buy milk"}`)).Text())
	fmt.Println(create.Execute(context.Background(), []byte(`{"title":7}`)).Text())

	// This host cannot report Model changes, so reconcile explicitly.
	if err := reg.Refresh(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println("tools:", mc.names())
	// Output:
	// tools: [create_todo]
	// Dispatched CreateTodo
	// The input for "create_todo" does not match its input schema.
	// tools: [clear_todos create_todo]
}

func ExampleFormTool() {
	form := webmcp.MustFormTool(contract, "create_todo", &webmcp.FormOptions{Autosubmit: true})
	for _, a := range form.Attrs() {
		fmt.Printf("<form %s=%q>\n", a.Name, a.Value)
	}
	for _, a := range form.MustField("title") {
		fmt.Printf("<input %s=%q>\n", a.Name, a.Value)
	}
	// Output:
	// <form toolname="create_todo">
	// <form tooldescription="Add a todo to the list.">
	// <form toolautosubmit="">
	// <input name="title">
	// <input toolparamdescription="The title of the new todo">
}

func ExamplePageModelContext() {
	// In a page built with GOOS=js GOARCH=wasm this is
	// document.modelContext (or navigator.modelContext); elsewhere, and in
	// a browser without WebMCP, it is nil, and the application simply
	// publishes no tools.
	if mc := webmcp.PageModelContext(); mc == nil {
		fmt.Println("no model context: no tools to publish")
	}
	// Output:
	// no model context: no tools to publish
}
