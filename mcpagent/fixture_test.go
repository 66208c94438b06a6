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
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The adapter tests serve the shared todo list (examples/todo/todo: its
// List, Messages and Update, run by host/loop) under a contract of their
// own, shaped to exercise the adapter: only create_todo is offered on an
// empty list, so the first todo changes the tool list; create_todo has no
// completion contract, so a call answers as soon as it is dispatched; and
// clear_completed refuses a viewer in words of its own. The peer tests
// serve the example's contract, through the example's binary.
var fixtureContract = agent.Make(agent.Definition[todo.List, todo.Principal]{
	Context: agent.Project(func(l todo.List) todo.ContextView {
		return todo.ContextView{Todos: l.Todos, Selected: l.Selected}
	}),
	Capabilities: []agent.Capability[todo.List, todo.Principal]{
		agent.ExposeMapped(agent.Mapped[todo.CreateInput, todo.CreateTodo, todo.List, todo.Principal]{
			Name:        "create_todo",
			Description: "Add a todo with the given title to the end of the list.",
			ToMessage: func(in todo.CreateInput, _ todoCall) todo.CreateTodo {
				return todo.CreateTodo{Title: in.Title}
			},
		}),
		agent.Expose(todoCapability[todo.RenameTodo]{Description: "Change the title of a todo.", Available: hasTodos}),
		agent.Expose(todoCapability[todo.SelectTodo]{Description: "Select a todo, so that it can be deleted.", Available: hasTodos}),
		agent.Expose(todoCapability[todo.ToggleTodo]{Description: "Mark a todo done, or not done again.", Available: hasTodos}),
		agent.ExposeMapped(agent.Mapped[agent.NoInput, todo.DeleteTodo, todo.List, todo.Principal]{
			Name:        "delete_selected_todo",
			Description: "Delete the selected todo.",
			Available:   func(l todo.List) bool { return l.Selected != "" },
			Watches:     []agent.Watch[todo.List]{todo.SelectedWatch},
			ToMessage:   func(_ agent.NoInput, c todoCall) todo.DeleteTodo { return todo.DeleteTodo{ID: c.Model.Selected} },
		}),
		agent.Expose(todoCapability[todo.ClearCompleted]{
			Description: "Remove every todo that is done. Only the list's owner may do this.",
			Available:   todo.List.AnyDone,
			Authorize: func(_ context.Context, _ todo.ClearCompleted, c todoCall) (agent.Decision, error) {
				if c.Principal.Role != todo.Owner {
					return agent.RefuseBecause("Only the owner of this list may clear completed todos."), nil
				}
				return agent.Allow, nil
			},
		}),
	},
	Resources: []agent.Resource[todo.List]{
		agent.NewResource("todos", "Every todo in the list, in order.", func(l todo.List) []todo.Todo { return l.Todos }),
		agent.NewResource("stats", "How many todos there are, and how many are done.", todo.List.Stats),
	},
})

type (
	todoCapability[M any] = agent.Variant[M, todo.List, todo.Principal]
	todoCall              = agent.Call[todo.List, todo.Principal]
	todoRuntime           = agent.Runtime[todo.List, todo.Msg, todo.Principal]
)

func hasTodos(l todo.List) bool { return len(l.Todos) > 0 }

// bindTodo binds the fixture contract to prog for one principal: every
// invocation through the returned runtime is made as p, and recorded in
// audit when it is not nil.
func bindTodo(prog *loop.Program[todo.List, todo.Msg], p todo.Principal, audit *agent.AuditLog[todo.Principal]) (*todoRuntime, error) {
	opts := todo.As(p)
	opts.Audit = audit
	return agent.Bind(fixtureContract, prog, opts)
}

// app is a running todo application.
type app struct {
	prog    *loop.Program[todo.List, todo.Msg]
	created atomic.Int64 // CreateTodo Messages update applied
}

func startApp(t testing.TB) *app {
	t.Helper()
	a := &app{prog: loop.New(todo.Loop(), nil)}
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
	*todoRuntime
	live *atomic.Int64
}

func (c countingRuntime) Subscribe(listener func()) func() {
	c.live.Add(1)
	unsub := c.todoRuntime.Subscribe(listener)
	var once sync.Once
	return func() { once.Do(func() { c.live.Add(-1); unsub() }) }
}

func (a *app) runtime(t testing.TB, u todo.Principal) *todoRuntime {
	t.Helper()
	rt, err := bindTodo(a.prog, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

var (
	owner  = todo.Principal{Name: "olivia", Role: todo.Owner}
	viewer = todo.Principal{Name: "victor", Role: todo.Viewer}
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
//
// Each pause of quiet is not a wait for something to happen: it follows
// an action after which nothing may happen, and no event marks an
// absence. It gives a wrong notification the chance to show itself; the
// check after it can only fail for a defect, never pass by timing.
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

// waitModel waits for the Model to satisfy cond, on the program's
// publications: the loop host applies a dispatched Message shortly after
// accepting it.
func (a *app) waitModel(t testing.TB, what string, cond func(todo.List) bool) {
	t.Helper()
	loopwait.Until(t, a.prog, what, cond)
}
