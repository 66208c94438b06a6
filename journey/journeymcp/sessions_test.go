package journeymcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/fixed"
	"github.com/foldagent/foldagent/journey/journeymcp"
)

// A server from NewSessionServer opens one port per MCP session, on its
// first tool call, names each session by its own caller key, serves every
// session the template's tool bytes, and releases each port when its
// session ends, or all of them when the server closes.
func TestSessionServerOnePortPerSession(t *testing.T) {
	g := journey.MustNewGraph("store", journey.GraphDef{
		Pages: []journey.Page{{ID: "home", Actions: []journey.Action{{Name: "quick", Does: "Do the quick thing", Writes: []string{"q"}}}}},
	})
	var mu sync.Mutex
	opened, released := map[string]bool{}, 0
	open := func(_ context.Context, caller string) (*fixed.Port, func(), error) {
		s := g.MustNewSession(journey.Options{State: map[string]any{}})
		if _, err := s.RegisterActions("home", journey.Registration{Handlers: map[string]journey.Handler{
			"quick": func(ctx context.Context, _ any) (any, error) {
				id, _ := journey.TransitionIDFrom(ctx)
				s.UpdateState(map[string]any{"q": 1}, id)
				return nil, nil
			}}}); err != nil {
			return nil, nil, err
		}
		mu.Lock()
		defer mu.Unlock()
		if opened[caller] {
			t.Errorf("caller %q opened twice", caller)
		}
		opened[caller] = true
		return fixed.Serve(s, fixed.Options{}), func() {
			mu.Lock()
			released++
			mu.Unlock()
		}, nil
	}
	template := fixed.Serve(g.MustNewSession(journey.Options{}), fixed.Options{})
	srv, err := journeymcp.NewSessionServer(template, open, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	connect := func() *mcp.ClientSession {
		st, ct := mcp.NewInMemoryTransports()
		if _, err := srv.Connect(ctx, st, nil); err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	facts := func(cs *mcp.ClientSession) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "store.whats_here"})
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &m)
		f, _ := m["facts"].(string)
		return f
	}
	a, b := connect(), connect()
	// Every session lists the same tools, the template's, in its order.
	var lists []string
	for _, cs := range []*mcp.ClientSession{a, b} {
		list, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(list.Tools)
		lists = append(lists, string(raw))
		var names []string
		for _, tl := range list.Tools {
			names = append(names, tl.Name)
		}
		if strings.Join(names, ",") != strings.Join(template.ToolNames(), ",") {
			t.Fatalf("a session's tools: %v, want %v", names, template.ToolNames())
		}
	}
	if lists[0] != lists[1] {
		t.Fatalf("two sessions list different tools:\n%s\n%s", lists[0], lists[1])
	}
	if _, err := a.CallTool(ctx, &mcp.CallToolParams{Name: "store.do_action", Arguments: map[string]any{"action": "quick"}}); err != nil {
		t.Fatal(err)
	}
	if f := facts(a); !strings.Contains(f, "agent fired home.quick") {
		t.Fatalf("A's facts: %s", f)
	}
	if f := facts(b); strings.Contains(f, "home.quick") {
		t.Fatalf("B's facts hold A's fire: %s", f)
	}
	mu.Lock()
	if len(opened) != 2 {
		t.Fatalf("ports opened: %v", opened)
	}
	mu.Unlock()
	a.Close()
	b.Close()
	srv.Close()
	mu.Lock()
	defer mu.Unlock()
	if released != 2 {
		t.Fatalf("ports released once the server closed: %d of 2", released)
	}
}
