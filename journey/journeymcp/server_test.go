package journeymcp_test

import (
	"context"
	"encoding/json"
	"github.com/foldagent/foldagent/journey/fixed"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/journeymcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// app is a two-page store: a quick action, a slow one that waits for the
// test, and a high-effect one.
type app struct {
	s       *journey.Session
	release chan struct{}
}

func newApp(t *testing.T) *app {
	t.Helper()
	g := journey.MustNewGraph("store", journey.GraphDef{
		Pages: []journey.Page{{ID: "home", Actions: []journey.Action{
			{Name: "quick", Does: "Do the quick thing", Writes: []string{"q"}},
			{Name: "slow", Does: "Do the slow thing", Writes: []string{"s"}},
			{Name: "buy", Does: "Buy it", Confirm: true, Writes: []string{"order"}},
		}}},
		Journeys: []journey.Journey{{ID: "shop", Does: "Shop for it", Steps: []string{"quick", "buy"}}},
	})
	s := g.MustNewSession(journey.Options{State: map[string]any{}})
	a := &app{s: s, release: make(chan struct{})}
	report := func(key string, wait bool) journey.Handler {
		return func(ctx context.Context, in any) (any, error) {
			if wait {
				<-a.release
			}
			id, _ := journey.TransitionIDFrom(ctx)
			s.UpdateState(map[string]any{key: 1}, id)
			return map[string]any{"receipt": "r-" + key}, nil
		}
	}
	if _, err := s.RegisterActions("home", journey.Registration{Handlers: map[string]journey.Handler{
		"quick": report("q", false), "slow": report("s", true), "buy": report("order", false)}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-a.release:
		default:
			close(a.release)
		}
	})
	return a
}

// newServer builds a Server and fails the test if it cannot.
func newServer(t *testing.T, port *fixed.Port, opts *journeymcp.Options) *journeymcp.Server {
	t.Helper()
	srv, err := journeymcp.NewServer(port, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func connect(t *testing.T, srv *journeymcp.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d contents", name, len(res.Content))
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m, res.IsError
}

func TestToolsListIsThePortsFixedSet(t *testing.T) {
	a := newApp(t)
	port := fixed.Serve(a.s, fixed.Options{})
	cs := connect(t, newServer(t, port, nil))
	if caps := cs.InitializeResult().Capabilities; caps.Tools == nil || caps.Tools.ListChanged {
		t.Fatalf("tools capability must say listChanged false: %+v", caps.Tools)
	}
	if cs.InitializeResult().ServerInfo.Name != "store" {
		t.Fatalf("server name defaults to the graph id: %q", cs.InitializeResult().ServerInfo.Name)
	}
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := port.Tools()
	if len(list.Tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(list.Tools), len(want))
	}
	for i, tool := range list.Tools {
		got, _ := json.Marshal(tool.InputSchema)
		var a, b any
		json.Unmarshal(got, &a)
		json.Unmarshal(want[i].InputSchema, &b)
		ga, _ := json.Marshal(a)
		gb, _ := json.Marshal(b)
		if tool.Name != want[i].Name || tool.Description != want[i].Description || string(ga) != string(gb) {
			t.Fatalf("tool %d: %s differs from the port's %s", i, tool.Name, want[i].Name)
		}
	}
}

func TestFoldWithinCeilingAndPendingPastIt(t *testing.T) {
	a := newApp(t)
	port := fixed.Serve(a.s, fixed.Options{})
	cs := connect(t, newServer(t, port, &journeymcp.Options{SettleWithin: 5 * time.Second}))
	// Settles within the ceiling: folded, pending-only keys dropped.
	r, isErr := call(t, cs, "store.do_action", map[string]any{"action": "quick"})
	if isErr || r["ok"] != true || r["effectStatus"] != "performed" || r["outcome"] != "committed" || r["judgment"] != "done" {
		t.Fatalf("folded: %v", r)
	}
	if r["howToSettle"] != nil || r["settleWith"] != nil {
		t.Fatalf("pending-only keys must be dropped: %v", r)
	}
	if d, _ := r["data"].(map[string]any); d["receipt"] != "r-q" {
		t.Fatalf("produced data rides the fold: %v", r)
	}
	// Past the ceiling: returned as is, pending, with the door out.
	cs2 := connect(t, newServer(t, port, &journeymcp.Options{SettleWithin: -1}))
	r, isErr = call(t, cs2, "store.do_action", map[string]any{"action": "slow"})
	if isErr || r["effectStatus"] != "pending" || r["howToSettle"] == nil || r["settleWith"] == nil || r["judgment"] != "navigate-or-wait" {
		t.Fatalf("pending: %v", r)
	}
	id := r["transitionId"].(string)
	r, _ = call(t, cs2, "store.did_it_work", map[string]any{"transitionId": id})
	if r["judgment"] != "still-pending" {
		t.Fatalf("still pending: %v", r)
	}
	close(a.release)
	if _, err := port.WhenSettled(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	r, _ = call(t, cs2, "store.did_it_work", map[string]any{"transitionId": id})
	if r["settled"] != true || r["effectStatus"] != "performed" {
		t.Fatalf("settled: %v", r)
	}
}

func TestIsErrorOnlyForUnknownTool(t *testing.T) {
	a := newApp(t)
	port := fixed.Serve(a.s, fixed.Options{JourneyTools: fixed.Single})
	cs := connect(t, newServer(t, port, &journeymcp.Options{SettleWithin: 2 * time.Second}))
	r, isErr := call(t, cs, "store.journey.shop", nil)
	if !isErr || r["reason"] != "UNKNOWN_TOOL" || !slices.Equal(toStrings(r["tools"]), port.ToolNames()) {
		t.Fatalf("UNKNOWN_TOOL: %v %v", isErr, r)
	}
	// A pause never waits and is never an error; nor is a refusal.
	r, isErr = call(t, cs, "store.do_action", map[string]any{"action": "buy"})
	if isErr || r["judgment"] != "needs-confirm" || r["transitionId"] != nil {
		t.Fatalf("needs-confirm: %v %v", isErr, r)
	}
	r, isErr = call(t, cs, "store.do_action", map[string]any{"action": "nope"})
	if isErr || r["reason"] != "UNKNOWN_ACTION" {
		t.Fatalf("refusal: %v %v", isErr, r)
	}
	r, isErr = call(t, cs, "store.journey", map[string]any{"journey": "shop", "step": "quick"})
	if isErr || r["effectStatus"] != "performed" || r["journey"] != "shop" {
		t.Fatalf("journey step folded: %v %v", isErr, r)
	}
}

func TestStreamableHTTP(t *testing.T) {
	a := newApp(t)
	srv := newServer(t, fixed.Serve(a.s, fixed.Options{}), nil)
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.MCP() }, nil))
	defer hs.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	r, isErr := call(t, cs, "store.whats_here", nil)
	if isErr || r["youAreOn"] != "home" || r["ok"] != true {
		t.Fatalf("whats_here over HTTP: %v", r)
	}
	r, _ = call(t, cs, "store.do_action", map[string]any{"action": "quick"})
	if r["effectStatus"] != "performed" {
		t.Fatalf("fire over HTTP: %v", r)
	}
}

func toStrings(v any) []string {
	xs, _ := v.([]any)
	out := []string{}
	for _, x := range xs {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// One port served to two MCP sessions (NewServer over HTTP): what a port
// says once was heard by the first session's model only, so the second
// session is told everything whole, from its first answer on.
func TestASharedPortSaysEverythingToASecondSession(t *testing.T) {
	a := newApp(t)
	srv := newServer(t, fixed.Serve(a.s, fixed.Options{}), nil)
	header := func(cs *mcp.ClientSession) string {
		t.Helper()
		m, _ := call(t, cs, "store.whats_here", nil)
		f, _ := m["facts"].(string)
		h, _, _ := strings.Cut(f, "\n")
		return h
	}
	first := connect(t, srv)
	full := header(first)
	if short := header(first); short == full {
		t.Fatalf("one session was told the facts header in full twice: %q", short)
	}
	second := connect(t, srv)
	if got := header(second); got != full {
		t.Fatalf("the second session's first facts header is %q, want the full %q", got, full)
	}
	if got := header(first); got != full {
		t.Fatalf("once shared, the port still shortens answers: %q", got)
	}
}
