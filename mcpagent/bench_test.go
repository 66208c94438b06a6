package mcpagent_test

import (
	"context"
	"sync"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools/call benchmarks make one round trip per iteration over an
// in-memory transport with the SDK's own client: BenchmarkToolsCall goes
// through mcpagent and the agent runtime; BenchmarkToolsCallBaseline is the
// same SDK server with a hand-written mcp.AddTool handler that decodes the
// same input and makes the same host dispatch, which is what an
// application would write instead. Compare their ns/op in one run:
//
//	go test -run '^$' -bench 'ToolsCall' -benchmem ./mcpagent/

type Note struct {
	Title string `json:"title"`
}

// counterHost applies every Note at once.
type counterHost struct {
	mu sync.Mutex
	n  int
}

func (h *counterHost) Model() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

func (h *counterHost) Dispatch(_ context.Context, _ Note) error {
	h.mu.Lock()
	h.n++
	h.mu.Unlock()
	return nil
}

func benchClient(b *testing.B, connect func(t mcp.Transport)) *mcp.ClientSession {
	st, ct := mcp.NewInMemoryTransports()
	connect(st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

func runCalls(b *testing.B, cs *mcp.ClientSession, h *counterHost) {
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "note", Arguments: map[string]any{"title": "milk"}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
	b.StopTimer()
	if h.Model() != b.N {
		b.Fatalf("host applied %d notes, want %d", h.Model(), b.N)
	}
}

func BenchmarkToolsCall(b *testing.B) {
	h := &counterHost{}
	c := agent.Make(agent.Definition[int, agent.NoPrincipal]{
		Capabilities: []agent.Capability[int, agent.NoPrincipal]{
			agent.Expose(agent.Variant[Note, int, agent.NoPrincipal]{Description: "Add a note."}),
		},
	})
	rt := agent.MustBind[int, Note, agent.NoPrincipal](c, h, nil)
	srv, err := mcpagent.NewServer(rt, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	cs := benchClient(b, func(t mcp.Transport) {
		if _, err := srv.Connect(context.Background(), t, nil); err != nil {
			b.Fatal(err)
		}
	})
	runCalls(b, cs, h)
}

func BenchmarkToolsCallBaseline(b *testing.B) {
	h := &counterHost{}
	s := mcp.NewServer(&mcp.Implementation{Name: "baseline", Version: "0"}, &mcp.ServerOptions{Logger: quietLogger()})
	mcp.AddTool(s, &mcp.Tool{Name: "note", Description: "Add a note."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in Note) (*mcp.CallToolResult, any, error) {
			if err := h.Dispatch(ctx, in); err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Dispatched Note"}}}, nil, nil
		})
	cs := benchClient(b, func(t mcp.Transport) {
		if _, err := s.Connect(context.Background(), t, nil); err != nil {
			b.Fatal(err)
		}
	})
	runCalls(b, cs, h)
}
