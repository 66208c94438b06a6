package mcpagent_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/mcpagent"
)

// At its bound, an identity whose sessions were all used recently is
// refused a new one with 429, Retry-After and the bound named; no live
// session is ended for it, and other identities are not affected.
func TestSessionBoundRefusesRatherThanEvictingALiveClient(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.MaxSessionsPerPrincipal = 2 })
	a := f.openRaw(t, "owner-token")
	b := f.openRaw(t, "owner-token")
	status, h, body := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer owner-token"})
	if status != http.StatusTooManyRequests || h.Get("Mcp-Session-Id") != "" {
		t.Fatalf("third session: %d %q, want 429 and no session", status, body)
	}
	if ra := h.Get("Retry-After"); ra == "" || ra == "0" {
		t.Fatalf("Retry-After %q, want a positive hint", ra)
	}
	_, code, msg, data := rpcErrorOf(t, body)
	if code != -32000 || msg == "" || data["bound"] != "MaxSessionsPerPrincipal" || data["limit"] != 2.0 || data["perIdentity"] != true || data["retryAfterSeconds"] == nil {
		t.Fatalf("refusal: %d %q %v", code, msg, data)
	}
	for _, sid := range []string{a, b} {
		if status, _, _ := f.post(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{"Authorization": "Bearer owner-token", "Mcp-Session-Id": sid}); status != http.StatusOK {
			t.Fatalf("a live session after the refusal: %d", status)
		}
	}
	f.openRaw(t, "viewer-token")
	f.openRaw(t, "bob-token")
	if f.opened.Load() != 4 || f.handler.Sessions() != 4 {
		t.Fatalf("%d runtimes, %d sessions; want 4 and 4 (the refused one built nothing)", f.opened.Load(), f.handler.Sessions())
	}
}

// A session idle for EvictIdleAfter gives way to a new one of its
// identity.
func TestSessionBoundIdleSessionGivesWayAfterEvictIdleAfter(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) {
		o.MaxSessionsPerPrincipal = 1
		o.EvictIdleAfter = time.Nanosecond // idle at all is idle long enough
	})
	a := f.openRaw(t, "owner-token")
	f.openRaw(t, "owner-token")
	if status, _, _ := f.post(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{"Authorization": "Bearer owner-token", "Mcp-Session-Id": a}); status != http.StatusNotFound {
		t.Fatalf("the session that gave way answered %d, want 404", status)
	}
}

// The overall bound refuses a new session of any identity, and never
// ends another identity's session to make room.
func TestSessionBoundOverall(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) {
		o.MaxSessions = 3
		o.EvictIdleAfter = -1
	})
	own := f.openRaw(t, "owner-token")
	f.openRaw(t, "owner-token")
	f.openRaw(t, "viewer-token")
	status, h, body := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer bob-token"})
	if status != http.StatusTooManyRequests || h.Get("Retry-After") != "1" {
		t.Fatalf("past the overall bound: %d %q Retry-After %q", status, body, h.Get("Retry-After"))
	}
	_, _, _, data := rpcErrorOf(t, body)
	if data["bound"] != "MaxSessions" || data["perIdentity"] != false {
		t.Fatalf("refusal data %v", data)
	}
	if status, _, _ := f.post(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{"Authorization": "Bearer owner-token", "Mcp-Session-Id": own}); status != http.StatusOK {
		t.Fatalf("another identity's session was disturbed: %d", status)
	}
}

// Fifty clients sharing one token, each with its own session calling
// again and again, are all served under the default bounds: none is
// evicted, none refused (issue 41's k6 run lost 47% of calls at 32).
func TestSessionBoundFiftyClientsOnOneToken(t *testing.T) {
	f := startHTTPWith(t, true, nil)
	const clients, rounds = 50, 4
	var failed atomic.Int64
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		sessions[i] = f.client(t, "owner-token", nil)
	}
	var wg sync.WaitGroup
	for _, cs := range sessions {
		wg.Go(func() {
			for range rounds {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "create_todo", Arguments: map[string]any{"title": "x"}})
				if err != nil || res.IsError {
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := failed.Load(); n != 0 {
		t.Fatalf("%d of %d calls failed", n, clients*rounds)
	}
	if n := f.handler.Sessions(); n != clients {
		t.Fatalf("%d sessions open, want %d", n, clients)
	}
}
