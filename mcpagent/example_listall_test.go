package mcpagent_test

import (
	"context"
	"fmt"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// With ListAll a client lists every tool once, whatever the Model; a tool
// the Model does not offer now is refused when called, with the reason.
func ExampleOptions_listAll() {
	prog := loop.New(todo.Loop(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go prog.Run(ctx)

	rt, _ := agent.Bind(todo.Contract(), prog, todo.As(todo.Principal{Name: "olivia", Role: todo.Owner}))
	srv, err := mcpagent.NewServer(rt, &mcpagent.Options{ListAll: true})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		panic(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()

	// The list is empty of todos; every tool is listed all the same.
	tools, _ := cs.ListTools(ctx, nil)
	for _, t := range tools.Tools {
		fmt.Println(t.Name)
	}
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "delete_selected_todo", Arguments: map[string]any{}})
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// clear_completed
	// create_todo
	// delete_selected_todo
	// rename_todo
	// select_todo
	// toggle_todo
	// true Capability "delete_selected_todo" is not offered in the application's current state.
}
