package mcpagent_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Server over an in-memory transport: what a test or an in-process
// client sees. The application is the todo list of examples/todo/todo,
// run by host/loop.
func ExampleNewServer() {
	prog := loop.New(todo.Loop(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go prog.Run(ctx)

	rt, _ := agent.Bind(todo.Contract(), prog, todo.As(todo.Principal{Name: "olivia", Role: todo.Owner}))
	srv, err := mcpagent.NewServer(rt, nil)
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

	// create_todo answers once the todo exists.
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_todo", Arguments: map[string]any{"title": "milk"}})
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output: Completed: CreatedTodo
}

// ServeStdio is what a program launched by an MCP client runs.
func ExampleServeStdio() {
	prog := loop.New(todo.Loop(), nil)
	ctx := context.Background()
	go prog.Run(ctx)
	rt, _ := agent.Bind(todo.Contract(), prog, todo.As(todo.Principal{Name: "local", Role: todo.Owner}))
	if err := mcpagent.ServeStdio(ctx, rt, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
}

// A streamable HTTP endpoint: tokens map to principals, and each session
// is served by a runtime bound to its principal.
func ExampleNewHandler() {
	prog := loop.New(todo.Loop(), nil)
	go prog.Run(context.Background())
	users := map[string]todo.Principal{"owner-token": {Name: "olivia", Role: todo.Owner}}

	h, err := mcpagent.NewHandler(mcpagent.HTTPOptions{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			u, ok := users[token]
			if !ok {
				return nil, auth.ErrInvalidToken
			}
			return mcpagent.TokenFor(u.Name, u), nil
		},
		NewRuntime: func(_ context.Context, info *auth.TokenInfo) (mcpagent.Runtime, error) {
			u, ok := mcpagent.PrincipalOf[todo.Principal](info)
			if !ok {
				return nil, errors.New("no principal for this token")
			}
			return agent.Bind(todo.Contract(), prog, todo.As(u))
		},
		AllowedOrigins: []string{"http://127.0.0.1:8080"},
	})
	if err != nil {
		panic(err)
	}
	defer h.Close()
	http.Handle("/mcp", h)
	// http.ListenAndServe("127.0.0.1:8080", nil)
}
