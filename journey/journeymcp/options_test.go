package journeymcp_test

import (
	"context"
	"github.com/foldagent/foldagent/journey/fixed"
	"testing"
	"time"

	"github.com/foldagent/foldagent/journey/journeymcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestNewServerWithoutAPortIsAnError(t *testing.T) {
	srv, err := journeymcp.NewServer(nil, nil)
	if err == nil || srv != nil {
		t.Fatalf("NewServer(nil) = %v, %v; want nil and an error", srv, err)
	}
}

// The shared fields default as mcpagent's do: a nil Implementation, or an
// empty field in one, takes the default for that field alone, and the
// caller's value is left as it was.
func TestImplementationAndInstructions(t *testing.T) {
	a := newApp(t)
	port := fixed.Serve(a.s, fixed.Options{})
	impl := &mcp.Implementation{Title: "The Store", Version: "2.1.0"}
	cs := connect(t, newServer(t, port, &journeymcp.Options{Implementation: impl, Instructions: "Shop carefully."}))
	got := cs.InitializeResult()
	if info := got.ServerInfo; info.Name != "store" || info.Version != "2.1.0" || info.Title != "The Store" {
		t.Fatalf("server info %+v, want name from the graph and the given version and title", info)
	}
	if impl.Name != "" {
		t.Fatalf("the caller's Implementation was changed: %+v", impl)
	}
	if got.Instructions != "Shop carefully." {
		t.Fatalf("instructions %q", got.Instructions)
	}
	cs = connect(t, newServer(t, port, nil))
	if info := cs.InitializeResult().ServerInfo; info.Name != "store" || info.Version != "0.1.0" {
		t.Fatalf("default server info %+v", info)
	}
}

// Close ends the sessions it serves and refuses new ones; the port and its
// journey session stay usable.
func TestCloseEndsSessionsAndRefusesConnect(t *testing.T) {
	a := newApp(t)
	port := fixed.Serve(a.s, fixed.Options{})
	srv := newServer(t, port, nil)
	cs := connect(t, srv)
	if _, isErr := call(t, cs, "store.whats_here", nil); isErr {
		t.Fatal("whats_here before Close")
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "store.whats_here"}); err == nil {
		t.Fatal("a session outlived Close")
	}
	_, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err == nil {
		t.Fatal("Connect after Close succeeded")
	}
	if err := srv.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if r := port.Call(ctx, "store.whats_here", nil); !r.OK() {
		t.Fatalf("the port after Close: %s", r.JSON())
	}
}

// Run serves one session and closes the server when the client leaves.
func TestRunServesOneSessionThenCloses(t *testing.T) {
	a := newApp(t)
	srv := newServer(t, fixed.Serve(a.s, fixed.Options{}), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ct, st := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, isErr := call(t, cs, "store.do_action", map[string]any{"action": "quick"}); isErr || r["judgment"] != "done" {
		t.Fatalf("over Run: %v", r)
	}
	cs.Close()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("Run did not return after the client left")
	}
	_, st2 := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st2, nil); err == nil {
		t.Fatal("Connect after Run returned succeeded")
	}
}
