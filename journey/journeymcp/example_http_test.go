package journeymcp_test

import (
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/fixed"
	"github.com/foldagent/foldagent/journey/journeymcp"
)

// Serving fixed tools over streamable HTTP with every identity's sessions
// bounded: here one session per identity, so a second initialize of the
// same identity is refused with a retry hint while the first is in use.
func ExampleNewHTTPHandler() {
	g := journey.MustNewGraph("notes", journey.GraphDef{
		Pages: []journey.Page{{ID: "list", Actions: []journey.Action{{Name: "add", Does: "Add a note", Writes: []string{"notes"}}}}},
	})
	srv, err := journeymcp.NewServer(fixed.Serve(g.MustNewSession(journey.Options{}), fixed.Options{}), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	h := journeymcp.NewHTTPHandler(func(*http.Request) *mcp.Server { return srv.MCP() }, &journeymcp.HTTPOptions{
		Identity:                func(r *http.Request) string { return r.Header.Get("X-Team") }, // behind the application's own authentication
		MaxSessionsPerPrincipal: 1,
	})
	defer h.Close()
	hs := httptest.NewServer(h)
	defer hs.Close()
	initialize := func(team string) {
		req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
		req.Header.Set("X-Team", team)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		resp.Body.Close()
		fmt.Println(team, resp.StatusCode, "retry hint:", resp.Header.Get("Retry-After") != "")
	}
	initialize("red")
	initialize("red")
	initialize("blue")
	fmt.Println(h.Sessions(), "sessions")
	// Output:
	// red 200 retry hint: false
	// red 429 retry hint: true
	// blue 200 retry hint: false
	// 2 sessions
}
