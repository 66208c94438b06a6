package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/mcpagent"
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
	stdio := flag.Bool("stdio", false, "serve the MCP client that launched this process, over stdin/stdout")
	addr := flag.String("addr", "127.0.0.1:8080", "the loopback address of the MCP HTTP endpoint")
	tokens := flag.String("tokens", "tokens.json", "the HTTP clients' bearer tokens")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	prog := loop.New(loop.Funcs(func() (Model, loop.Cmd[Msg]) { return Model{}, nil }, update), nil)
	go prog.Run(ctx) // the host: without it every call waits for nothing

	var err error
	if *stdio {
		// Whoever launched the process is its user.
		err = serveStdio(ctx, prog, User{Name: "local", Role: "owner"})
	} else {
		err = serveHTTP(ctx, prog, *addr, *tokens)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// as binds the contract to the running app for one principal: every call
// through the runtime is made by u, whatever its arguments say.
func as(prog *loop.Program[Model, Msg], u User) (*agent.Runtime[Model, Msg, User], error) {
	return agent.Bind(contract, prog, &agent.BindOptions[User]{
		Principal: func(context.Context, agent.Invocation) (User, error) { return u, nil },
	})
}

func serveStdio(ctx context.Context, prog *loop.Program[Model, Msg], u User) error {
	rt, err := as(prog, u)
	if err != nil {
		return err
	}
	return mcpagent.ServeStdio(ctx, rt, nil) // stdout carries only the protocol
}

// serveHTTP serves streamable HTTP at /mcp: each bearer token stands for a
// User, and each session gets a runtime bound to its token's User.
func serveHTTP(ctx context.Context, prog *loop.Program[Model, Msg], addr, tokensFile string) error {
	users, err := loadTokens(tokensFile)
	if err != nil {
		return fmt.Errorf("-tokens: %w", err)
	}
	h, err := mcpagent.NewHandler(mcpagent.HTTPOptions{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			u, ok := users[token]
			if !ok {
				return nil, auth.ErrInvalidToken
			}
			return mcpagent.TokenFor(u.Name, u), nil
		},
		NewRuntime: func(_ context.Context, info *auth.TokenInfo) (mcpagent.Runtime, error) {
			u, ok := mcpagent.PrincipalOf[User](info)
			if !ok {
				return nil, errors.New("no user for this token")
			}
			return as(prog, u)
		},
	})
	if err != nil {
		return err
	}
	defer h.Close()

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("MCP http://%s/mcp\n", ln.Addr())
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// loadTokens reads {"<token>": {"name": "...", "role": "owner" or "viewer"}}.
// It reads the entries one by one: decoded into a map, a token given twice
// would silently stand for the last entry's User.
func loadTokens(path string) (map[string]User, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("%s: want a JSON object of tokens", path)
	}
	users := map[string]User{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		var u User
		if err := dec.Decode(&u); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if first, twice := users[t.(string)]; twice {
			return nil, fmt.Errorf("%s: %q and %q are given the same token", path, first.Name, u.Name)
		}
		users[t.(string)] = u
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(users) == 0 {
		return nil, fmt.Errorf("%s: no tokens", path)
	}
	for _, u := range users {
		if u.Name == "" || (u.Role != "owner" && u.Role != "viewer") {
			return nil, fmt.Errorf("%s: each token needs a name and the role owner or viewer", path)
		}
	}
	return users, nil
}
