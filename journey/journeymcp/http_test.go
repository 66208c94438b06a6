package journeymcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/fixed"
	"github.com/foldagent/foldagent/journey/journeymcp"
)

// boundedEndpoint serves a one-action journey's fixed tools through an
// HTTPHandler behind a bearer check with two tokens.
func boundedEndpoint(t *testing.T, opts *journeymcp.HTTPOptions) (*httptest.Server, *journeymcp.HTTPHandler) {
	t.Helper()
	g := journey.MustNewGraph("store", journey.GraphDef{
		Pages: []journey.Page{{ID: "home", Actions: []journey.Action{{Name: "quick", Does: "Do the quick thing", Writes: []string{"q"}}}}},
	})
	srv, err := journeymcp.NewServer(fixed.Serve(g.MustNewSession(journey.Options{}), fixed.Options{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := journeymcp.NewHTTPHandler(func(*http.Request) *mcp.Server { return srv.MCP() }, opts)
	verify := func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
		if tok != "flood" && tok != "other" {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: tok, Expiration: time.Now().Add(time.Hour)}, nil
	}
	hs := httptest.NewServer(auth.RequireBearerToken(verify, nil)(h))
	t.Cleanup(func() { h.Close(); hs.Close(); srv.Close() })
	return hs, h
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

func rawPost(t *testing.T, c *http.Client, url, token, sid, body string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func openFds() int {
	ents, _ := os.ReadDir("/proc/self/fd")
	return len(ents)
}

func heapMiB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapInuse) / (1 << 20)
}

// The shop's finding: one token opened 2,000 sessions and kept them all.
// Under the default bounds the flood holds DefaultMaxSessionsPerPrincipal
// and the rest are refused 429 with Retry-After, naming the bound, while
// another identity opens sessions and calls tools throughout.
func TestHTTPHandlerBoundsASessionFloodOnOneToken(t *testing.T) {
	hs, h := boundedEndpoint(t, nil)
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer c.CloseIdleConnections()
	heap0, fd0 := heapMiB(), openFds()
	const flood = 2000
	opened, refused := 0, 0
	for i := range flood {
		status, hdr, body := rawPost(t, c, hs.URL, "flood", "", initBody)
		switch status {
		case http.StatusOK:
			opened++
		case http.StatusTooManyRequests:
			refused++
			var e struct {
				Error struct {
					Code int            `json:"code"`
					Data map[string]any `json:"data"`
				} `json:"error"`
			}
			if json.Unmarshal([]byte(body), &e) != nil || e.Error.Code != -32000 || e.Error.Data["bound"] != "MaxSessionsPerPrincipal" || hdr.Get("Retry-After") == "" || hdr.Get("Mcp-Session-Id") != "" {
				t.Fatalf("refusal %d: %q Retry-After %q", i, body, hdr.Get("Retry-After"))
			}
		default:
			t.Fatalf("initialize %d: %d %q", i, status, body)
		}
		if i%250 == 0 {
			// Another identity keeps working meanwhile.
			status, hdr, body := rawPost(t, c, hs.URL, "other", "", initBody)
			sid := hdr.Get("Mcp-Session-Id")
			if status != http.StatusOK || sid == "" {
				t.Fatalf("the other identity during the flood: %d %q", status, body)
			}
			rawPost(t, c, hs.URL, "other", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			if status, _, body := rawPost(t, c, hs.URL, "other", sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"store.whats_here"}}`); status != http.StatusOK || !strings.Contains(body, "result") {
				t.Fatalf("the other identity's call during the flood: %d %q", status, body)
			}
		}
	}
	if opened != journeymcp.DefaultMaxSessionsPerPrincipal || refused != flood-opened {
		t.Fatalf("opened %d, refused %d; want %d kept and the rest refused", opened, refused, journeymcp.DefaultMaxSessionsPerPrincipal)
	}
	heap1, fd1 := heapMiB(), openFds()
	t.Logf("flood of %d sessions on one token: %d kept, %d refused; heap in use %.1f -> %.1f MiB, open fds %d -> %d", flood, opened, refused, heap0, heap1, fd0, fd1)
	if fd1-fd0 > 16 {
		t.Fatalf("open descriptors grew by %d", fd1-fd0)
	}
	if n := h.Sessions(); n != opened+flood/250 {
		t.Fatalf("%d sessions open, want %d", n, opened+flood/250)
	}
}

// A session whose owner is another identity is answered as unknown; a
// DELETE frees its place; with EvictIdleAfter negative an idle session
// gives way to a new one of its identity.
func TestHTTPHandlerSessionOwnershipAndPlaces(t *testing.T) {
	hs, h := boundedEndpoint(t, &journeymcp.HTTPOptions{MaxSessionsPerPrincipal: 1, EvictIdleAfter: -1})
	c := http.DefaultClient
	_, hdr, _ := rawPost(t, c, hs.URL, "flood", "", initBody)
	a := hdr.Get("Mcp-Session-Id")
	if status, _, _ := rawPost(t, c, hs.URL, "other", a, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); status != http.StatusNotFound {
		t.Fatalf("another identity naming the session: %d, want 404", status)
	}
	_, hdr, _ = rawPost(t, c, hs.URL, "flood", "", initBody)
	b := hdr.Get("Mcp-Session-Id")
	if b == "" || h.Sessions() != 1 {
		t.Fatalf("the idle session did not give way: %q, %d open", b, h.Sessions())
	}
	if status, _, _ := rawPost(t, c, hs.URL, "flood", a, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); status != http.StatusNotFound {
		t.Fatalf("the session that gave way answered %d", status)
	}
	req, _ := http.NewRequest(http.MethodDelete, hs.URL, nil)
	req.Header.Set("Authorization", "Bearer flood")
	req.Header.Set("Mcp-Session-Id", b)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if h.Sessions() != 0 {
		t.Fatalf("after DELETE (%d): %d sessions", resp.StatusCode, h.Sessions())
	}
}

// A request body is bounded as on every other foldagent HTTP surface (a
// mebibyte by default, HTTPOptions.MaxRequestBodyBytes when set): a tool
// call whose arguments are larger is refused 413 before it is decoded,
// and a call within the bound is answered.
func TestHTTPHandlerBoundsARequestBody(t *testing.T) {
	for _, c := range []struct {
		opts  *journeymcp.HTTPOptions
		bound int
	}{{nil, 1 << 20}, {&journeymcp.HTTPOptions{MaxRequestBodyBytes: 4 << 10}, 4 << 10}} {
		hs, _ := boundedEndpoint(t, c.opts)
		url := hs.URL
		code, h, body := rawPost(t, hs.Client(), url, "flood", "", initBody)
		sid := h.Get("Mcp-Session-Id")
		if code != http.StatusOK || sid == "" {
			t.Fatalf("initialize: %d %s", code, body)
		}
		call := func(n int) (int, string) {
			pad := strings.Repeat("a", n)
			code, _, body := rawPost(t, hs.Client(), url, "flood", sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"store.whats_here","arguments":{"pad":"`+pad+`"}}}`)
			return code, body
		}
		if code, body := call(c.bound - 200); code != http.StatusOK || !strings.Contains(body, `youAreOn`) {
			t.Fatalf("a call within %d bytes: %d %.200s", c.bound, code, body)
		}
		if code, body := call(c.bound + 1); code != http.StatusRequestEntityTooLarge {
			t.Fatalf("a call over %d bytes: %d %.200s", c.bound, code, body)
		}
	}
}
