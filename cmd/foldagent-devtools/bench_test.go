package main_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkCall compares a tool call made to a stand-in app directly
// (streamable HTTP with its token) with the same call through the command
// (stdio, a registry read, then the same HTTP): the ratio is what the
// command costs a coding agent per call.
func BenchmarkCall(b *testing.B) {
	reg, proj, sub, _ := project(b)
	a := startApp(b, reg, appSpec{name: "shop", dir: sub, tools: []string{"echo"}})
	args := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}
	run := func(b *testing.B, s *mcp.ClientSession) {
		ctx := context.Background()
		for b.Loop() {
			if res, err := s.CallTool(ctx, args); err != nil || res.IsError {
				b.Fatalf("call: %v %+v", err, res)
			}
		}
	}
	b.Run("direct", func(b *testing.B) {
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		s, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
			Endpoint:   a.entry.URL,
			HTTPClient: &http.Client{Transport: headerRT{token: a.entry.Token}},
		}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		run(b, s)
	})
	b.Run("through-command", func(b *testing.B) {
		ag := startCommand(b, proj, nil, "-registry", reg)
		run(b, ag.session)
	})
}

type headerRT struct{ token string }

func (h headerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+h.token)
	return http.DefaultTransport.RoundTrip(r)
}
