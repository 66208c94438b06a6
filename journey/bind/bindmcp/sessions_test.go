package bindmcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
	"github.com/foldagent/foldagent/journey/bind/bindmcp"
)

// counterServer serves the counter of ExampleNewServer with the fixed
// tools, one journey per MCP session.
func counterServer(t *testing.T) (bindmcp.Server, *bind.Sessions[counter, np], *loop.Program[counter, any]) {
	t.Helper()
	p := loop.New(loop.Funcs(func() (counter, loop.Cmd[any]) { return counter{Page: "home"}, nil },
		func(m counter, msg any) (counter, loop.Cmd[any]) {
			if _, ok := msg.(Increment); ok {
				m.Count++
			}
			return m, nil
		}), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = p.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	inc := agent.Expose(agent.Variant[Increment, counter, np]{Name: "increment", Description: "Add one."})
	rt, err := agent.Bind(agent.Make(agent.Definition[counter, np]{Capabilities: []agent.Capability[counter, np]{inc}}), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	def := bind.Def[counter, np]{
		Page:  func(m counter) string { return m.Page },
		State: func(m counter) map[string]any { return map[string]any{"count": m.Count} },
		Pages: []bind.Page[counter, np]{{ID: "home", Actions: []bind.Action[counter, np]{
			{Name: "increment", Does: "Add one.", Capability: inc, Writes: []string{"count"}},
		}}},
		Journeys: []journey.Journey{{ID: "count", Does: "Count.", Steps: []string{"increment"}}},
	}
	srv, ss, err := bindmcp.NewServer("counter", rt, p.Model, def, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, ss, p
}

func text(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Many MCP sessions come and go, in memory and over streamable HTTP: each
// gets a journey of its own on its first call, the tool array is the same
// bytes in every one, and once they have all closed no journey is left.
// One session's increment is its own attempt; in another it is another
// agent's change.
func TestFixedServerOneJourneyPerSession(t *testing.T) {
	srv, ss, _ := counterServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.MCP() }, nil))
	t.Cleanup(hs.Close)

	var tools string
	var sessions []*mcp.ClientSession
	for i := range 40 {
		var t2 mcp.Transport
		if i%2 == 0 {
			st, ct := mcp.NewInMemoryTransports()
			if _, err := srv.Connect(ctx, st, nil); err != nil {
				t.Fatal(err)
			}
			t2 = ct
		} else {
			t2 = &mcp.StreamableClientTransport{Endpoint: hs.URL}
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, t2, nil)
		if err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, cs)
		t.Cleanup(func() { cs.Close() })
		list, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(list.Tools)
		if tools == "" {
			tools = string(b)
		} else if string(b) != tools {
			t.Fatalf("session %d lists other tool bytes:\n%s\n%s", i, b, tools)
		}
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "counter.whats_here"}); err != nil {
			t.Fatal(err)
		}
	}
	if n := ss.Live(); n != 40 {
		t.Fatalf("live journeys with 40 sessions: %d", n)
	}

	// The first session counts; the second sees it as another's.
	a, b := sessions[0], sessions[1]
	r, err := a.CallTool(ctx, &mcp.CallToolParams{Name: "counter.do_action", Arguments: map[string]any{"action": "increment"}})
	if err != nil {
		t.Fatal(err)
	}
	if m := text(t, r); m["ok"] != true {
		t.Fatalf("A's increment: %v", m)
	}
	var facts string
	for facts == "" || !strings.Contains(facts, "another agent") {
		r, err := b.CallTool(ctx, &mcp.CallToolParams{Name: "counter.whats_here"})
		if err != nil {
			t.Fatal(err)
		}
		facts, _ = text(t, r)["facts"].(string)
		if ctx.Err() != nil {
			t.Fatalf("B's facts never named A's increment: %q", facts)
		}
	}
	if strings.Contains(facts, "agent fired") {
		t.Fatalf("B's facts list A's increment as B's own attempt: %q", facts)
	}
	r, err = a.CallTool(ctx, &mcp.CallToolParams{Name: "counter.whats_here"})
	if err != nil {
		t.Fatal(err)
	}
	if f, _ := text(t, r)["facts"].(string); !strings.Contains(f, "agent fired home.increment") || strings.Contains(f, "another agent") {
		t.Fatalf("A's facts: %q", f)
	}

	for _, cs := range sessions {
		if err := cs.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if n := ss.WaitLive(ctx, 0); n != 0 {
		t.Fatalf("live journeys once every session closed: %d (of %d)", n, len(sessions))
	}
}
