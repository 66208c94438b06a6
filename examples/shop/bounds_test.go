package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/testbin"
	"github.com/foldagent/foldagent/journey/journeymcp"
)

// procFigures reads a process's resident memory (KiB) and open
// descriptors from /proc.
func procFigures(t *testing.T, pid int) (rssKiB, fds int) {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			rssKiB, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Skipf("cannot read the process's descriptors: %v", err)
	}
	return rssKiB, len(ents)
}

// The finding, from outside on the built binary: one token opened 2,000
// MCP sessions on the shop's HTTP endpoint and every one was kept. Now
// the endpoint keeps at most journeymcp.DefaultMaxSessionsPerPrincipal
// for the token, refuses the rest 429 with Retry-After, and a client that
// was talking before the flood keeps working throughout.
func TestFloodOfSessionsOnOneTokenIsBounded(t *testing.T) {
	bin := testbin.Build(t, "examples/shop")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-mcp", "http", "-token", "tok")
	cmd.Stderr = os.Stderr
	stdout := testbin.Start(t, cmd).Stdout
	var url string
	for lines := bufio.NewScanner(stdout); url == "" && lines.Scan(); {
		if u, ok := strings.CutPrefix(lines.Text(), "MCP "); ok {
			url = u
		}
	}
	if url == "" {
		t.Fatal("the shop printed no endpoint")
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	live, err := mcp.NewClient(&mcp.Implementation{Name: "live", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{"tok"}}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	liveCall := func() {
		t.Helper()
		res, err := live.CallTool(ctx, &mcp.CallToolParams{Name: "shop.whats_here"})
		if err != nil || res.IsError {
			t.Fatalf("the live client's call during the flood: %v %v", res, err)
		}
	}
	liveCall()
	rss0, fd0 := procFigures(t, cmd.Process.Pid)
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer c.CloseIdleConnections()
	const flood = 2000
	opened, refused := 0, 0
	for i := range flood {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"flood","version":"1"}}}`))
		req.Header.Set("Authorization", "Bearer tok")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusOK:
			opened++
		case http.StatusTooManyRequests:
			refused++
			if resp.Header.Get("Retry-After") == "" || !strings.Contains(string(body), `"bound":"MaxSessionsPerPrincipal"`) {
				t.Fatalf("refusal %d: %q Retry-After %q", i, body, resp.Header.Get("Retry-After"))
			}
		default:
			t.Fatalf("initialize %d: %d %q", i, resp.StatusCode, body)
		}
		if i%200 == 0 {
			liveCall()
		}
	}
	liveCall()
	rss1, fd1 := procFigures(t, cmd.Process.Pid)
	t.Logf("shop, %d initializes on one token: %d sessions kept, %d refused 429; RSS %d -> %d KiB, open fds %d -> %d", flood, opened, refused, rss0, rss1, fd0, fd1)
	// The live client's session holds one place.
	if opened != journeymcp.DefaultMaxSessionsPerPrincipal-1 || refused != flood-opened {
		t.Fatalf("%d opened, %d refused; want %d kept and the rest refused", opened, refused, journeymcp.DefaultMaxSessionsPerPrincipal-1)
	}
	if fd1-fd0 > 16 {
		t.Fatalf("open descriptors grew by %d", fd1-fd0)
	}
}
