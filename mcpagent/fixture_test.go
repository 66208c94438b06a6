package mcpagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/foldagent/foldagent/mcpagent/internal/todo"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// app is a running todo application.
type app struct {
	prog    *todo.Program
	created atomic.Int64 // CreateTodo Messages update applied
}

func startApp(t testing.TB) *app {
	t.Helper()
	a := &app{prog: todo.New()}
	a.prog.Observe(func(msg todo.Msg) {
		if _, ok := msg.(todo.CreateTodo); ok {
			a.created.Add(1)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = a.prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return a
}

// countingRuntime wraps a runtime and counts live Subscribe listeners, so a
// test can see that a closed server released its listener.
type countingRuntime struct {
	*todo.Runtime
	live *atomic.Int64
}

func (c countingRuntime) Subscribe(listener func()) func() {
	c.live.Add(1)
	unsub := c.Runtime.Subscribe(listener)
	var once sync.Once
	return func() { once.Do(func() { c.live.Add(-1); unsub() }) }
}

func (a *app) runtime(t testing.TB, u todo.User) *todo.Runtime {
	t.Helper()
	rt, err := todo.Bind(a.prog, u)
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

var (
	owner  = todo.User{Name: "olivia", Role: todo.Owner}
	viewer = todo.User{Name: "victor", Role: todo.Viewer}
)

// events collects what a client hears from the server.
type events struct {
	mu          sync.Mutex
	listChanged int
	updated     []string
	progress    []*mcp.ProgressNotificationParams
	signal      chan struct{}
}

func newEvents() *events { return &events{signal: make(chan struct{}, 1000)} }

func (e *events) note(f func()) {
	e.mu.Lock()
	f()
	e.mu.Unlock()
	select {
	case e.signal <- struct{}{}:
	default:
	}
}

func (e *events) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			e.note(func() { e.listChanged++ })
		},
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			e.note(func() { e.updated = append(e.updated, r.Params.URI) })
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			e.note(func() { e.progress = append(e.progress, r.Params) })
		},
	}
}

func (e *events) listChangedCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.listChanged
}

func (e *events) updates() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.updated...)
}

func (e *events) progressed() []*mcp.ProgressNotificationParams {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]*mcp.ProgressNotificationParams(nil), e.progress...)
}

// waitFor waits up to five seconds for cond to hold.
func (e *events) waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for !cond() {
		select {
		case <-e.signal:
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// quiet is how long a test listens to show that a notification does not
// come: well past the SDK's 10 ms notification debounce.
const quiet = 150 * time.Millisecond

// connect serves rt through a new mcpagent.Server over an in-memory
// transport and returns a connected client session.
func connect(t testing.TB, rt mcpagent.Runtime, opts *mcpagent.Options, ev *events) (*mcpagent.Server, *mcp.ClientSession) {
	t.Helper()
	srv, err := mcpagent.NewServer(rt, opts)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	var copts *mcp.ClientOptions
	if ev != nil {
		copts = ev.options()
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); srv.Close() })
	return srv, cs
}

func toolNames(t testing.TB, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

func call(t testing.TB, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// structured decodes a result's structuredContent.
func structured(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
	return m
}

func rpcCode(err error) int64 {
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		return werr.Code
	}
	return 0
}

// blockingHost is a host whose Dispatch waits until released (or its
// context ends), to observe progress and cancellation.
type blockingHost struct {
	mu        sync.Mutex
	model     int
	release   chan struct{}
	entered   chan struct{}
	cancelled chan struct{}
	fail      error
}

type slowModel = int

type Work struct {
	Steps int `json:"steps"`
}

func newBlockingHost() *blockingHost {
	return &blockingHost{release: make(chan struct{}), entered: make(chan struct{}, 10), cancelled: make(chan struct{}, 10)}
}

func (h *blockingHost) Model() slowModel {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.model
}

func (h *blockingHost) Dispatch(ctx context.Context, msg Work) error {
	h.entered <- struct{}{}
	if h.fail != nil {
		return h.fail
	}
	select {
	case <-h.release:
		h.mu.Lock()
		h.model += msg.Steps
		h.mu.Unlock()
		return nil
	case <-ctx.Done():
		h.cancelled <- struct{}{}
		return ctx.Err()
	}
}

func workRuntime(t testing.TB, h *blockingHost) *agent.Runtime[slowModel, Work, agent.NoPrincipal] {
	t.Helper()
	c := agent.Make(agent.Definition[slowModel, agent.NoPrincipal]{
		Capabilities: []agent.Capability[slowModel, agent.NoPrincipal]{
			agent.Expose(agent.Variant[Work, slowModel, agent.NoPrincipal]{Description: "Do some work."}),
		},
	})
	rt, err := agent.Bind[slowModel, Work, agent.NoPrincipal](c, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// waitModel waits up to five seconds for the Model to satisfy cond: the
// loop host applies a dispatched Message shortly after accepting it.
func (a *app) waitModel(t testing.TB, what string, cond func(todo.Model) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond(a.prog.Model()) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for the Model: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
