package mcpagent_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var tokens = map[string]todo.Principal{
	"owner-token":  owner,
	"viewer-token": viewer,
	"bob-token":    {Name: "bob", Role: todo.Owner},
}

type httpFixture struct {
	app     *app
	handler *mcpagent.Handler
	srv     *httptest.Server
	live    atomic.Int64 // runtime listeners currently registered
	opened  atomic.Int64 // runtimes created
	audit   *agent.AuditLog[todo.Principal]
}

func verifyToken(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	u, ok := tokens[token]
	if !ok {
		return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{UserID: u.Name, Extra: map[string]any{"user": u}}, nil
}

func startHTTP(t testing.TB, tune func(*mcpagent.HTTPOptions)) *httpFixture {
	t.Helper()
	return startHTTPWith(t, false, tune)
}

// startHTTPWith is startHTTP; withFeed gives the Handler's sessions a Feed
// over a viewer's runtime of the same program, as examples/todo does, so
// they share one SDK server.
func startHTTPWith(t testing.TB, withFeed bool, tune func(*mcpagent.HTTPOptions)) *httpFixture {
	t.Helper()
	f := &httpFixture{app: startApp(t)}
	var feed *mcpagent.Feed
	if withFeed {
		var err error
		if feed, err = mcpagent.NewFeed(f.app.runtime(t, viewer), &mcpagent.FeedOptions{Logger: quietLogger()}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { feed.Close() }) // after the Handler's cleanup
	}
	opts := mcpagent.HTTPOptions{
		Verifier: verifyToken,
		NewRuntime: func(_ context.Context, p *auth.TokenInfo) (mcpagent.Runtime, error) {
			f.opened.Add(1)
			rt, err := bindTodo(f.app.prog, p.Extra["user"].(todo.Principal), f.audit)
			if err != nil {
				return nil, err
			}
			return countingRuntime{rt, &f.live}, nil
		},
		AllowedOrigins: []string{"http://127.0.0.1:3000"},
		Server:         &mcpagent.Options{Logger: quietLogger(), Feed: feed},
		Logger:         quietLogger(),
	}
	if tune != nil {
		tune(&opts)
	}
	h, err := mcpagent.NewHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	f.handler = h
	f.srv = httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); f.srv.Close() })
	return f
}

// bearer adds a token to every request a client makes.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// doneTodo creates the list's first todo (t1) through c and toggles it
// done, waiting for each change to reach the Model: the state in which
// clear_completed is offered.
func (f *httpFixture) doneTodo(t testing.TB, c *mcp.ClientSession) {
	t.Helper()
	call(t, c, "create_todo", map[string]any{"title": "done"})
	f.app.waitModel(t, "a todo", func(m todo.List) bool { return len(m.Todos) == 1 })
	call(t, c, "toggle_todo", map[string]any{"id": "t1"})
	f.app.waitModel(t, "a done todo", func(m todo.List) bool { return m.Todos[0].Done })
}

func (f *httpFixture) client(t testing.TB, token string, ev *events) *mcp.ClientSession {
	t.Helper()
	tr := &mcp.StreamableClientTransport{
		Endpoint:   f.srv.URL,
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}},
		MaxRetries: -1,
	}
	var copts *mcp.ClientOptions
	if ev != nil {
		copts = ev.options()
	}
	// These tests are about sessions: the client speaks the newest
	// session-based revision (TestSessionless* cover the sessionless one).
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "0"}, copts).Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

// post sends one raw JSON-RPC message and returns status, headers and body.
func (f *httpFixture) post(t testing.TB, body string, header map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.srv.URL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func TestHTTPMissingOrInvalidTokenIs401(t *testing.T) {
	f := startHTTP(t, nil)
	for name, hdr := range map[string]map[string]string{
		"missing":   nil,
		"invalid":   {"Authorization": "Bearer forged"},
		"not basic": {"Authorization": "Basic b3duZXI6dG9rZW4="},
	} {
		t.Run(name, func(t *testing.T) {
			status, h, _ := f.post(t, initializeBody, hdr)
			if status != http.StatusUnauthorized {
				t.Fatalf("status %d, want 401", status)
			}
			if !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
				t.Fatalf("WWW-Authenticate = %q", h.Get("WWW-Authenticate"))
			}
		})
	}
	if n := f.opened.Load(); n != 0 {
		t.Fatalf("%d runtimes were created for unauthenticated requests", n)
	}
	// The same request with a valid token opens a session.
	status, h, _ := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer owner-token"})
	if status != http.StatusOK || h.Get("Mcp-Session-Id") == "" {
		t.Fatalf("with a token: status %d, session %q", status, h.Get("Mcp-Session-Id"))
	}
}

func TestHTTPForeignOriginIs403(t *testing.T) {
	f := startHTTP(t, nil)
	auth := map[string]string{"Authorization": "Bearer owner-token"}
	status, _, _ := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer owner-token", "Origin": "http://evil.example"})
	if status != http.StatusForbidden {
		t.Fatalf("foreign origin: status %d, want 403", status)
	}
	// Refused before the token is even looked at.
	status, _, _ = f.post(t, initializeBody, map[string]string{"Origin": "http://evil.example"})
	if status != http.StatusForbidden {
		t.Fatalf("foreign origin without token: status %d, want 403", status)
	}
	auth["Origin"] = "http://127.0.0.1:3000"
	if status, _, body := f.post(t, initializeBody, auth); status != http.StatusOK {
		t.Fatalf("allowed origin: status %d %s", status, body)
	}
	if n := f.opened.Load(); n != 1 {
		t.Fatalf("runtimes created = %d, want 1 (the allowed request only)", n)
	}
}

func TestHTTPDNSRebindingProtectionStaysOn(t *testing.T) {
	f := startHTTP(t, nil)
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL, strings.NewReader(initializeBody))
	req.Host = "attacker.example:80"
	req.Header.Set("Authorization", "Bearer owner-token")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("status %d, want 403 for a non-loopback Host on loopback", resp.StatusCode)
	}
}

func TestHTTPRequestBodyIsBounded(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.MaxRequestBodyBytes = 512 })
	big := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"` + strings.Repeat("x", 2048) + `","version":"0"}}}`
	status, _, _ := f.post(t, big, map[string]string{"Authorization": "Bearer owner-token"})
	if status != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", status)
	}
	if n := f.handler.Sessions(); n != 0 {
		t.Fatalf("an oversized request left %d sessions", n)
	}
	if n := f.live.Load(); n != 0 {
		t.Fatalf("an oversized request left %d runtime listeners", n)
	}
}

func TestHTTPSessionOfAnotherPrincipalIsAnsweredAsUnknown(t *testing.T) {
	f := startHTTP(t, nil)
	alice := f.client(t, "owner-token", nil)
	sid := alice.ID()
	if sid == "" {
		t.Fatal("no session id")
	}
	callBody := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_todo","arguments":{"title":"planted"}}}`

	stolenStatus, _, stolenBody := f.post(t, callBody, map[string]string{"Authorization": "Bearer bob-token", "Mcp-Session-Id": sid})
	unknownStatus, _, unknownBody := f.post(t, callBody, map[string]string{"Authorization": "Bearer bob-token", "Mcp-Session-Id": "no-such-session"})
	if stolenStatus != http.StatusNotFound || stolenStatus != unknownStatus || stolenBody != unknownBody {
		t.Fatalf("another principal's session: %d %q; unknown session: %d %q", stolenStatus, stolenBody, unknownStatus, unknownBody)
	}
	// GET and DELETE are refused the same way, and the session survives.
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		req, _ := http.NewRequest(method, f.srv.URL, nil)
		req.Header.Set("Authorization", "Bearer bob-token")
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", sid)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("%s of another principal's session: %d, want 404", method, resp.StatusCode)
		}
	}
	// Not a wait for something to happen: nothing may (see quiet); the
	// pause gives a wrongly started dispatch the chance to show itself.
	time.Sleep(50 * time.Millisecond)
	if n := f.app.created.Load(); n != 0 || len(f.app.prog.Model().Todos) != 0 {
		t.Fatalf("the refused request dispatched: created %d", n)
	}
	// The owner's session is intact.
	res := call(t, alice, "create_todo", map[string]any{"title": "mine"})
	if res.IsError {
		t.Fatalf("owner's call failed: %s", text(res))
	}
	f.app.waitModel(t, "the owner's todo", func(m todo.List) bool { return len(m.Todos) == 1 })
}

func TestHTTPPrincipalComesOnlyFromTheToken(t *testing.T) {
	f := startHTTP(t, nil)
	owner := f.client(t, "owner-token", nil)
	f.doneTodo(t, owner)

	v := f.client(t, "viewer-token", nil)
	// A principal claimed in the arguments is not an input of the capability.
	res := call(t, v, "clear_completed", map[string]any{"principal": map[string]any{"name": "olivia", "role": "owner"}})
	if !res.IsError || structured(t, res)["_tag"] != agent.TagInvalidInput {
		t.Fatalf("claimed principal in arguments: %v %s", res.IsError, text(res))
	}
	// Nor does one claimed in _meta count: the token says viewer.
	p := &mcp.CallToolParams{Name: "clear_completed", Arguments: map[string]any{}}
	p.Meta = mcp.Meta{"principal": map[string]any{"name": "olivia", "role": "owner"}, "role": "owner"}
	res, err := v.CallTool(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || structured(t, res)["_tag"] != agent.TagAuthorization {
		t.Fatalf("claimed principal in _meta: %v %s", res.IsError, text(res))
	}
	// Not a wait for something to happen: nothing may (see quiet); the
	// pause gives a wrongly started dispatch the chance to show itself.
	time.Sleep(20 * time.Millisecond)
	if m := f.app.prog.Model(); len(m.Todos) != 1 {
		t.Fatalf("the viewer cleared todos: %+v", m.Todos)
	}
}

func TestHTTPToolsFollowTheModelPerSession(t *testing.T) {
	f := startHTTP(t, nil)
	ev := newEvents()
	cs := f.client(t, "owner-token", ev)
	call(t, cs, "create_todo", map[string]any{"title": "milk"})
	ev.waitFor(t, "list_changed over HTTP", func() bool { return ev.listChangedCount() == 1 })
	if got := toolNames(t, cs); len(got) != 4 {
		t.Fatalf("tools = %v", got)
	}
}

func TestHTTPIdleSessionsExpireAndReleaseListeners(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.SessionTimeout = 100 * time.Millisecond })
	cs := f.client(t, "owner-token", nil)
	toolNames(t, cs)
	if f.handler.Sessions() != 1 || f.live.Load() != 1 {
		t.Fatalf("sessions %d, listeners %d; want 1 and 1", f.handler.Sessions(), f.live.Load())
	}
	deadline := time.Now().Add(5 * time.Second)
	for f.handler.Sessions() != 0 || f.live.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("after the idle timeout: sessions %d, listeners %d", f.handler.Sessions(), f.live.Load())
		}
		// Sessions and listeners end on the Handler's idle clock, which
		// tells no one: read again after a pause, within a deadline.
		time.Sleep(10 * time.Millisecond)
	}
	_, err := cs.ListTools(context.Background(), nil)
	if err == nil {
		t.Fatal("an expired session still answered")
	}
}

func TestHTTPDeleteAndCloseReleaseListeners(t *testing.T) {
	f := startHTTP(t, nil)
	a := f.client(t, "owner-token", nil)
	f.client(t, "viewer-token", nil)
	if f.live.Load() != 2 {
		t.Fatalf("listeners = %d, want 2", f.live.Load())
	}
	a.Close() // DELETE
	waitUntil(t, "DELETE to release its runtime", func() bool { return f.live.Load() == 1 && f.handler.Sessions() == 1 })
	f.handler.Close()
	waitUntil(t, "Close to release every runtime", func() bool { return f.live.Load() == 0 && f.handler.Sessions() == 0 })
	status, _, _ := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer owner-token"})
	if status != http.StatusServiceUnavailable {
		t.Fatalf("a closed handler answered %d, want 503", status)
	}
}

func TestNewHandlerNeedsVerifierAndFactory(t *testing.T) {
	if _, err := mcpagent.NewHandler(mcpagent.HTTPOptions{}); err == nil {
		t.Fatal("NewHandler without a verifier succeeded")
	}
	if _, err := mcpagent.NewHandler(mcpagent.HTTPOptions{Verifier: verifyToken}); err == nil {
		t.Fatal("NewHandler without NewRuntime succeeded")
	}
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) {
		o.Verifier = func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{}, nil // names no user
		}
	})
	if status, _, _ := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer x"}); status != http.StatusUnauthorized {
		t.Fatalf("a token naming no user: status %d, want 401", status)
	}
	f2 := startHTTP(t, func(o *mcpagent.HTTPOptions) {
		o.NewRuntime = func(context.Context, *auth.TokenInfo) (mcpagent.Runtime, error) { return nil, errors.New("no") }
	})
	if status, _, _ := f2.post(t, initializeBody, map[string]string{"Authorization": "Bearer owner-token"}); status == http.StatusOK {
		t.Fatal("a failing NewRuntime opened a session")
	}
}

func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		// For state no event announces (a Handler's counts, an atomic a
		// listener bumps): read again after a pause, within a deadline.
		time.Sleep(5 * time.Millisecond)
	}
}

func TestHTTPSameLoopbackOriginIsAllowed(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.AllowedOrigins = nil })
	host := strings.TrimPrefix(f.srv.URL, "http://")
	status, _, body := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer owner-token", "Origin": "http://" + host})
	if status != http.StatusOK {
		t.Fatalf("same loopback origin: %d %s", status, body)
	}
	// A rebinding page claims its own name as both Host and Origin: refused.
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL, strings.NewReader(initializeBody))
	req.Host = "rebind.example:80"
	req.Header.Set("Origin", "http://rebind.example:80")
	req.Header.Set("Authorization", "Bearer owner-token")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("rebinding origin: %d, want 403", resp.StatusCode)
	}
}

func TestHTTPClientCancellationCancelsTheInvocation(t *testing.T) {
	checkCancellationCancels(t, "notifications/cancelled over HTTP", func(f *httpFixture) *mcp.ClientSession {
		return f.client(t, "owner-token", nil)
	})
}

// checkCancellationCancels serves a runtime whose work blocks, opens a
// client with open, and checks that cancelling a call's context cancels
// the invocation and that the call does not report success.
func checkCancellationCancels(t *testing.T, what string, open func(*httpFixture) *mcp.ClientSession) {
	t.Helper()
	h := newBlockingHost()
	handler, err := mcpagent.NewHandler(mcpagent.HTTPOptions{
		Verifier: verifyToken,
		NewRuntime: func(context.Context, *auth.TokenInfo) (mcpagent.Runtime, error) {
			return workRuntime(t, h), nil
		},
		Logger: quietLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(func() { handler.Close(); srv.Close() })
	cs := open(&httpFixture{srv: srv, handler: handler})

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "work", Arguments: map[string]any{"steps": 1}})
		errc <- err
	}()
	<-h.entered
	cancel()
	select {
	case <-h.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s did not cancel the invocation", what)
	}
	if err := <-errc; err == nil {
		t.Fatal("the cancelled call reported success")
	}
}
