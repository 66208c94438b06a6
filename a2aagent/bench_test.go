package a2aagent_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/mcpagent"
)

// BenchmarkRoundTrip measures, in one run and interleaved, an A2A
// SendMessage round trip (a2a-go client, JSON-RPC over loopback HTTP, a
// blocking send that ends COMPLETED) and an MCP tools/call round trip
// (go-sdk client, streamable HTTP over loopback) for the same capability
// on the same application, and reports each and their ratio (a2a/mcp).
func BenchmarkRoundTrip(b *testing.B) {
	f := start(b, nil)
	a2aClient := f.client(b, "owner-tok")

	mh, err := mcpagent.NewHandler(mcpagent.HTTPOptions{
		Verifier: verifier,
		NewRuntime: func(_ context.Context, info *auth.TokenInfo) (mcpagent.Runtime, error) {
			u := info.Extra["user"].(user)
			return agent.Bind[model, msg, user](contract, f.prog, &agent.BindOptions[user]{
				Principal: func(context.Context, agent.Invocation) (user, error) { return u, nil },
			})
		},
		Logger: quietLogger(),
	})
	if err != nil {
		b.Fatal(err)
	}
	msrv := httptest.NewServer(mh)
	b.Cleanup(func() { msrv.Close(); mh.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: msrv.URL, HTTPClient: httpClient("owner-tok"), MaxRetries: -1}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })

	ctx := context.Background()
	args := map[string]any{"title": "x"}
	var a2aTime, mcpTime time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		res, err := a2aClient.SendMessage(ctx, skillMessage("add_item", args))
		if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
			b.Fatalf("A2A: %v %v", res, err)
		}
		t1 := time.Now()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add_item", Arguments: args})
		if err != nil || r.IsError {
			b.Fatalf("MCP: %v %v", r, err)
		}
		a2aTime += t1.Sub(t0)
		mcpTime += time.Since(t1)
	}
	n := float64(b.N)
	b.ReportMetric(float64(a2aTime.Nanoseconds())/n, "a2a-ns/call")
	b.ReportMetric(float64(mcpTime.Nanoseconds())/n, "mcp-ns/call")
	b.ReportMetric(float64(a2aTime)/float64(mcpTime), "a2a/mcp")
}
