package mcpagent_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/internal/loopwait"
	"github.com/foldagent/foldagent/mcpagent"
)

// Servers made on one runtime with no Feed share one: fifty of them
// register one listener on it, every connected client still hears that
// its tools changed, and the last Close releases the listener.
func TestServersOfOneRuntimeFollowTheModelOnce(t *testing.T) {
	a := startApp(t)
	prog := a.prog
	ctx := context.Background()
	// A pointer: Servers share by the runtime's identity.
	rt := &countingRuntime{todoRuntime: a.runtime(t, owner), live: new(atomic.Int64)}
	const n = 50
	// Each session is counted once, however many changes it hears: the
	// create and the toggle can reach a session as one change or two,
	// and a handler blocked on a full channel would hold its session's
	// Close for ever.
	changed := make(chan struct{}, n)
	var heard sync.Map
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(_ context.Context, req *mcp.ToolListChangedRequest) {
			if _, again := heard.LoadOrStore(req.Session, true); !again {
				changed <- struct{}{}
			}
		},
	})
	var servers []*mcpagent.Server
	for range n {
		s, err := mcpagent.NewServer(rt, &mcpagent.Options{Logger: quietLogger()})
		if err != nil {
			t.Fatal(err)
		}
		st, ct := mcp.NewInMemoryTransports()
		if _, err := s.Connect(ctx, st, nil); err != nil {
			t.Fatal(err)
		}
		cs, err := client.Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		servers = append(servers, s)
	}
	if got := rt.live.Load(); got != 1 {
		t.Fatalf("%d listeners on the runtime for %d Servers, want 1", got, n)
	}
	// A todo done: clear_completed is offered to every session.
	if err := prog.Dispatch(ctx, todo.CreateTodo{Title: "milk"}); err != nil {
		t.Fatal(err)
	}
	loopwait.Until(t, prog, "the todo applied", func(m todo.List) bool { return len(m.Todos) > 0 })
	if err := prog.Dispatch(ctx, todo.ToggleTodo{ID: prog.Model().Todos[0].ID}); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(10 * time.Second)
	for i := range n {
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("%d of %d sessions heard their tools changed", i, n)
		}
	}
	for _, s := range servers[:n-1] {
		s.Close()
	}
	if got := rt.live.Load(); got != 1 {
		t.Fatalf("%d listeners with one Server left, want 1", got)
	}
	servers[n-1].Close()
	if got := rt.live.Load(); got != 0 {
		t.Fatalf("%d listeners after every Server closed, want 0", got)
	}
}
