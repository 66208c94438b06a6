// Command handwritten is the todo list's MCP server written by hand on the
// official go-sdk, with the todo example's tools and their input types,
// and its save (temporary file, fsync, rename, directory fsync) before a
// change is answered. It is the baseline internal/e2ebench measures the
// todo binary against, and is built only by that benchmark.
//
//	handwritten -mcp stdio -data FILE
//	handwritten -mcp http -data FILE -tokens FILE [-stateless]   (prints "MCP <url>")
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "handwritten:", err)
		os.Exit(1)
	}
}

func run() error {
	mode := flag.String("mcp", "stdio", `"stdio" or "http"`)
	data := flag.String("data", "", "the JSON file the list is kept in")
	tokensFile := flag.String("tokens", "", "JSON file mapping bearer tokens to principals")
	stateless := flag.Bool("stateless", false, "serve HTTP statelessly: the sessionless revision (2026-07-28) a go-sdk client picks when offered; a stateful go-sdk handler offers only the session-based ones")
	flag.Parse()
	if *data == "" {
		return errors.New("-data is required")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	s := &state{path: *data}
	if err := s.load(); err != nil {
		return err
	}
	newServer := func() *mcp.Server { return s.server() }
	if *mode == "stdio" {
		return newServer().Run(ctx, &mcp.StdioTransport{})
	}
	toks := map[string]todo.Principal{}
	if b, err := os.ReadFile(*tokensFile); err != nil {
		return err
	} else if err := json.Unmarshal(b, &toks); err != nil {
		return err
	}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		p, ok := toks[token]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: p.Name, Extra: map[string]any{"principal": p}}, nil
	}
	srv := newServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: *stateless})
	mux := http.NewServeMux()
	mux.Handle("/mcp", auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("MCP http://%s/mcp\n", ln.Addr())
	hs := &http.Server{Handler: mux}
	go func() { <-ctx.Done(); hs.Close() }()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// state is the list, kept under one lock for the whole of a change and
// its save, so that what a call answers is on disk.
type state struct {
	path string
	mu   sync.Mutex
	list todo.List
}

func (s *state) load() error {
	b, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return json.Unmarshal(b, &s.list)
}

// save writes the list as the todo example's Store does.
func (s *state) save() error {
	b, err := json.MarshalIndent(s.list, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(s.path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

var errNoTodo = errors.New("there is no todo with that id; read the list first")

func (s *state) server() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "handwritten-todo", Version: "0.1.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "create_todo", Description: "Create a todo with the given title."},
		func(_ context.Context, _ *mcp.CallToolRequest, in todo.CreateInput) (*mcp.CallToolResult, todo.Todo, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			l, t := s.list.Add(in.Title)
			s.list = l
			return nil, t, s.save()
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "rename_todo", Description: "Give the todo with the given id a new title."},
		func(_ context.Context, _ *mcp.CallToolRequest, in todo.RenameTodo) (*mcp.CallToolResult, todo.Todo, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if _, ok := s.list.Find(in.ID); !ok {
				return nil, todo.Todo{}, errNoTodo
			}
			s.list = s.list.Rename(in.ID, in.Title)
			t, _ := s.list.Find(in.ID)
			return nil, t, s.save()
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "select_todo", Description: "Select the todo with the given id."},
		func(_ context.Context, _ *mcp.CallToolRequest, in todo.SelectTodo) (*mcp.CallToolResult, todo.Todo, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			t, ok := s.list.Find(in.ID)
			if !ok {
				return nil, todo.Todo{}, errNoTodo
			}
			s.list.Selected = in.ID
			return nil, t, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "toggle_todo", Description: "Mark the todo with the given id done, or not done."},
		func(_ context.Context, _ *mcp.CallToolRequest, in todo.ToggleInput) (*mcp.CallToolResult, todo.Todo, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if _, ok := s.list.Find(in.ID); !ok {
				return nil, todo.Todo{}, errNoTodo
			}
			s.list = s.list.Toggle(in.ID)
			t, _ := s.list.Find(in.ID)
			return nil, t, s.save()
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "delete_selected_todo", Description: "Delete the selected todo."},
		func(_ context.Context, _ *mcp.CallToolRequest, _ agent.NoInput) (*mcp.CallToolResult, todo.Todo, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			t, ok := s.list.Find(s.list.Selected)
			if !ok {
				return nil, todo.Todo{}, errors.New("no todo is selected")
			}
			s.list = s.list.Delete(t.ID)
			return nil, t, s.save()
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "clear_completed", Description: "Remove every todo that is done."},
		func(_ context.Context, _ *mcp.CallToolRequest, _ agent.NoInput) (*mcp.CallToolResult, todo.ContextView, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			var kept, gone []todo.Todo
			for _, t := range s.list.Todos {
				if t.Done {
					gone = append(gone, t)
				} else {
					kept = append(kept, t)
				}
			}
			s.list.Todos = kept
			return nil, todo.ContextView{Todos: gone}, s.save()
		})
	return srv
}
