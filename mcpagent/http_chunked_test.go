package mcpagent_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/internal/httpguard/httpguardtest"
	"github.com/foldagent/foldagent/mcpagent"
)

// A chunked body (no Content-Length) over the bound gets the same 413 as
// one that declares its length, and opens nothing; a chunked body within
// the bound is served.
func TestHTTPChunkedBodyOverTheBoundIs413(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.MaxRequestBodyBytes = 512 })
	big := strings.Replace(initializeBody, `"name":"raw"`, `"name":"`+strings.Repeat("x", 2048)+`"`, 1)
	hdr := map[string]string{
		"Authorization":        "Bearer owner-token",
		"Content-Type":         "application/json",
		"Accept":               "application/json, text/event-stream",
		"MCP-Protocol-Version": "2025-11-25",
	}
	wantStatus, wantHeader, want := f.post(t, big, hdr)
	if wantStatus != http.StatusRequestEntityTooLarge {
		t.Fatalf("declared over-bound body: %d", wantStatus)
	}
	status, got, body := httpguardtest.PostChunked(t, f.srv.URL, hdr, big)
	if status != http.StatusRequestEntityTooLarge || body != want || got.Get("Content-Type") != wantHeader.Get("Content-Type") {
		t.Fatalf("chunked over-bound body: %d %q %q, want 413 %q", status, got.Get("Content-Type"), body, want)
	}
	if n := f.handler.Sessions(); n != 0 {
		t.Fatalf("an over-bound chunked body left %d sessions", n)
	}
	if status, _, body := httpguardtest.PostChunked(t, f.srv.URL, hdr, initializeBody); status != http.StatusOK || f.handler.Sessions() != 1 {
		t.Fatalf("chunked initialize within the bound: %d %s, %d sessions", status, body, f.handler.Sessions())
	}
}
