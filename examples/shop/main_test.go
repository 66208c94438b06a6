package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/testbin"
)

// The shop's HTTP endpoint, from outside: without the printed token a
// client is refused 401, with it the fixed journey tools are listed.
func TestHTTPNeedsTheToken(t *testing.T) {
	bin := testbin.Build(t, "examples/shop")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-mcp", "http", "-token", "s3cret")
	cmd.Stderr = os.Stderr
	stdout := testbin.Start(t, cmd).Stdout
	var url, token string
	lines := bufio.NewScanner(stdout)
	for (url == "" || token == "") && lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "MCP "); ok {
			url = u
		}
		if tk, ok := strings.CutPrefix(lines.Text(), "TOKEN "); ok {
			token = tk
		}
	}
	if url == "" || token != "s3cret" {
		t.Fatalf("printed url %q token %q", url, token)
	}

	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
		t.Fatalf("without the token: %d %v", resp.StatusCode, resp.Header)
	}

	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "shop.whats_here") {
		t.Fatalf("tools with the token: %v", names)
	}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
