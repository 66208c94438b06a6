package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/teahost"
)

// benchRevisions are the revisions the HTTP benchmarks run on: the one
// the go-sdk client picks when the server offers it (the sessionless
// 2026-07-28), and the session-based 2025-11-25 it falls back to with a
// stateful go-sdk handler.
var benchRevisions = []struct{ name, revision string }{
	{"sessionless", ""},
	{"2025-11-25", "2025-11-25"},
}

type benchBearer struct{ next http.RoundTripper }

func (t benchBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer bench")
	return t.next.RoundTrip(r)
}

// benchSelects connects the go-sdk client to h on revision (the client's
// choice when empty) and calls select_todo, alternating t1 and t2, once
// per iteration.
func benchSelects(b *testing.B, ctx context.Context, h http.Handler, revision string) {
	srv := httptest.NewServer(h)
	defer srv.Close()
	var opts *mcp.ClientSessionOptions
	if revision != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: revision}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: benchBearer{http.DefaultTransport}}}, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	ids := []string{"t1", "t2"}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "select_todo", Arguments: map[string]any{"id": ids[i%2]}})
		if err != nil || res.IsError {
			b.Fatalf("select_todo: %v %+v", err, res)
		}
		i++
	}
}

// BenchmarkHTTPSelect is `todo -mcp http` in one process, the way serve
// wires it (the headless App, BindWith, mcpHandler with the App's Feed),
// driven by the go-sdk client over streamable HTTP with select_todo: a
// call that saves nothing. It is there to be profiled (-cpuprofile) beside
// BenchmarkHTTPSelectHandwritten; internal/e2ebench compares the built
// binary with a hand-written server.
func BenchmarkHTTPSelect(b *testing.B) {
	for _, rev := range benchRevisions {
		b.Run(rev.name, func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			store := NewStore(filepath.Join(b.TempDir(), "todos.json"))
			list, _ := todo.List{}.Add("one")
			list, _ = list.Add("two")
			host := teahost.New[App, tea.Msg](NewApp(store, list), &teahost.Options{MaxQueue: 4096})
			app, err := BindWith(host, BindConfig{})
			if err != nil {
				b.Fatal(err)
			}
			done := make(chan struct{})
			go func() { defer close(done); _, _ = host.Run(ctx, headless...) }()
			defer func() { cancel(); <-done; store.Close() }()
			defer app.Close()
			logger := slog.New(slog.NewTextHandler(io.Discard, nil))
			h, err := mcpHandler(app, tokens{"bench": {Name: "bench", Role: todo.Owner}}, nil, logger)
			if err != nil {
				b.Fatal(err)
			}
			defer h.Close()
			benchSelects(b, ctx, h, rev.revision)
		})
	}
}

// BenchmarkHTTPSelectHandwritten is BenchmarkHTTPSelect's baseline: a
// select_todo written by hand on the go-sdk, behind the same bearer check.
// On the sessionless revision its handler is stateless, since a stateful
// go-sdk handler does not offer that revision.
func BenchmarkHTTPSelectHandwritten(b *testing.B) {
	for _, rev := range benchRevisions {
		b.Run(rev.name, func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			list, _ := todo.List{}.Add("one")
			list, _ = list.Add("two")
			srv := mcp.NewServer(&mcp.Implementation{Name: "hw", Version: "0"}, nil)
			mcp.AddTool(srv, &mcp.Tool{Name: "select_todo"}, func(_ context.Context, _ *mcp.CallToolRequest, in todo.SelectTodo) (*mcp.CallToolResult, todo.Todo, error) {
				mu.Lock()
				defer mu.Unlock()
				t, ok := list.Find(in.ID)
				if !ok {
					return nil, todo.Todo{}, errors.New("no such todo")
				}
				list.Selected = in.ID
				return nil, t, nil
			})
			verify := tokens{"bench": {Name: "bench", Role: todo.Owner}}.verify
			h := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(
				mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
					&mcp.StreamableHTTPOptions{Stateless: rev.revision == ""}))
			benchSelects(b, ctx, h, rev.revision)
		})
	}
}
