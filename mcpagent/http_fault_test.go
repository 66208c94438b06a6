package mcpagent_test

// Fault tests for the streamable HTTP handler: what a hostile or broken
// client can do from outside, over loopback, each bounded in time.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/mcpagent"
)

// sameNameTokens are two tokens for one user name with different roles.
var sameNameTokens = map[string]todo.Principal{
	"olivia-owner":  {Name: "olivia", Role: todo.Owner},
	"olivia-viewer": {Name: "olivia", Role: todo.Viewer},
}

func verifySameName(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	u, ok := sameNameTokens[token]
	if !ok {
		return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{UserID: u.Name, Extra: map[string]any{"user": u}}, nil
}

// faultBound bounds every wait in these tests.
const faultBound = 10 * time.Second

// rawExchange sends req as written on a fresh connection and returns
// everything the server sent until it closed the connection, with the
// Date header (the one line that may differ between two answers) removed.
func rawExchange(t *testing.T, addr, req string) string {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, faultBound)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(faultBound))
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("reading the answer: %v (got %q)", err, b)
	}
	var out []string
	for line := range strings.SplitAfterSeq(string(b), "\r\n") {
		if !strings.HasPrefix(line, "Date: ") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}

func rawRequest(method, host, token, sid, body string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, host)
	fmt.Fprintf(&b, "Authorization: Bearer %s\r\nAccept: application/json, text/event-stream\r\n", token)
	fmt.Fprintf(&b, "MCP-Protocol-Version: 2025-11-25\r\n%s: %s\r\n", "Mcp-Session-Id", sid)
	if body != "" {
		fmt.Fprintf(&b, "Content-Type: application/json\r\nContent-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n")
	b.WriteString(body)
	return b.String()
}

// rpcErrorOf decodes a JSON-RPC error response body.
func rpcErrorOf(t *testing.T, body string) (id any, code int, message string, data map[string]any) {
	t.Helper()
	var resp struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int            `json:"code"`
			Message string         `json:"message"`
			Data    map[string]any `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &resp); err != nil || resp.JSONRPC != "2.0" {
		t.Fatalf("not a JSON-RPC error response: %q (%v)", body, err)
	}
	return resp.ID, resp.Error.Code, resp.Error.Message, resp.Error.Data
}

// openRaw opens and initializes a session with raw requests, returning
// its id.
func (f *httpFixture) openRaw(t *testing.T, token string) string {
	t.Helper()
	status, h, body := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer " + token})
	sid := h.Get("Mcp-Session-Id")
	if status != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d %q", status, body)
	}
	status, _, body = f.post(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		map[string]string{"Authorization": "Bearer " + token, "Mcp-Session-Id": sid})
	if status != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d %q", status, body)
	}
	return sid
}

func TestHTTPFaultSessionBorrowedBySameNamedWeakerToken(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.Verifier = verifySameName })
	f.audit = agent.NewAuditLog(agent.AuditOptions[todo.Principal]{
		Principal: func(u todo.Principal) string { return u.Name + "/" + u.Role },
	})
	own := f.client(t, "olivia-owner", nil)
	f.doneTodo(t, own)
	audited := f.audit.Len()
	sid := own.ID()

	addr := f.srv.Listener.Addr().String()
	clear := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"clear_completed","arguments":{}}}`
	for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		body := ""
		if method == http.MethodPost {
			body = clear
		}
		borrowed := rawExchange(t, addr, rawRequest(method, addr, "olivia-viewer", sid, body))
		unknown := rawExchange(t, addr, rawRequest(method, addr, "olivia-viewer", "no-such-session", body))
		if borrowed != unknown {
			t.Fatalf("%s: the owner's session borrowed by the viewer token is answered\n%q\nbut an unknown session\n%q", method, borrowed, unknown)
		}
		if !strings.HasPrefix(borrowed, "HTTP/1.1 404 ") {
			t.Fatalf("%s: borrowed session answered %q, want 404", method, borrowed)
		}
	}
	if m := f.app.prog.Model(); len(m.Todos) != 1 {
		t.Fatalf("the viewer token reached the owner's runtime: todos %+v", m.Todos)
	}
	if n := f.audit.Len(); n != audited {
		t.Fatalf("the refused requests were audited as invocations: %+v", f.audit.Entries()[audited:])
	}
	// The owner's session survived the DELETE and still acts as the owner.
	res := call(t, own, "clear_completed", map[string]any{})
	if res.IsError {
		t.Fatalf("the owner's clear_completed: %s", text(res))
	}
	f.app.waitModel(t, "the cleared list", func(m todo.List) bool { return len(m.Todos) == 0 })
	for _, e := range f.audit.Entries() {
		if e.Principal != "olivia/owner" {
			t.Fatalf("an invocation ran as %q: %+v", e.Principal, e)
		}
	}
	// The viewer token has sessions of its own, which act as the viewer.
	v := f.client(t, "olivia-viewer", nil)
	call(t, v, "create_todo", map[string]any{"title": "again"})
	f.app.waitModel(t, "a todo", func(m todo.List) bool { return len(m.Todos) == 1 })
	call(t, own, "toggle_todo", map[string]any{"id": "t2"})
	f.app.waitModel(t, "a done todo", func(m todo.List) bool { return len(m.Todos) == 1 && m.Todos[0].Done })
	res = call(t, v, "clear_completed", map[string]any{})
	if !res.IsError || structured(t, res)["_tag"] != agent.TagAuthorization {
		t.Fatalf("the viewer's own clear_completed: %v %s", res.IsError, text(res))
	}
}

func TestHTTPDefaultSessionKeyNeedsComparableExtra(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) {
		o.Verifier = func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{UserID: "olivia", Extra: map[string]any{"user": owner, "hook": func() {}}}, nil
		}
	})
	if status, _, body := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer x"}); status != http.StatusInternalServerError {
		t.Fatalf("an Extra the default key cannot compare: %d %q, want 500", status, body)
	}
	if n := f.opened.Load(); n != 0 {
		t.Fatalf("%d runtimes opened", n)
	}
	// An application key makes it work, and an empty one refuses.
	g := startHTTP(t, func(o *mcpagent.HTTPOptions) {
		o.Verifier = func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{UserID: "olivia", Extra: map[string]any{"user": owner, "hook": func() {}, "key": tok}}, nil
		}
		o.SessionKey = func(info *auth.TokenInfo) string { return info.Extra["key"].(string) }
	})
	if status, _, body := g.post(t, initializeBody, map[string]string{"Authorization": "Bearer k1"}); status != http.StatusOK {
		t.Fatalf("with SessionKey: %d %q", status, body)
	}
	if status, _, _ := g.post(t, initializeBody, map[string]string{"Authorization": "Bearer "}); status != http.StatusUnauthorized {
		t.Fatalf("an empty key: %d, want 401", status)
	}
}

// slowBody sends a request declaring a 100000-byte body and only one byte
// of it, then waits for the answer without sending more. It returns the
// status, how long the answer took, and whether the server then closed
// the connection.
func slowBody(t *testing.T, addr string, header string) (status int, took time.Duration, closed bool) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, faultBound)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(faultBound))
	start := time.Now()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n%sContent-Length: 100000\r\n\r\n{", addr, header)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer to a slow body within %v: %v", faultBound, err)
	}
	took = time.Since(start)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	_, err = br.ReadByte()
	return resp.StatusCode, took, err == io.EOF
}

func TestHTTPFaultSlowBody(t *testing.T) {
	t.Run("authenticated", func(t *testing.T) {
		const deadline = 300 * time.Millisecond
		f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.BodyTimeout = deadline })
		addr := f.srv.Listener.Addr().String()
		status, took, closed := slowBody(t, addr, "Authorization: Bearer owner-token\r\n")
		if status != http.StatusRequestTimeout || !closed {
			t.Fatalf("slow body: status %d, connection closed %v; want 408 and closed", status, closed)
		}
		if took < deadline {
			t.Fatalf("answered after %v, before the %v deadline", took, deadline)
		}
		if f.opened.Load() != 0 || f.handler.Sessions() != 0 {
			t.Fatalf("a slow body opened %d runtimes, %d sessions", f.opened.Load(), f.handler.Sessions())
		}
	})
	t.Run("unauthenticated", func(t *testing.T) {
		// The body deadline is far away: the 401 comes without waiting
		// for the body at all.
		f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.BodyTimeout = time.Hour })
		addr := f.srv.Listener.Addr().String()
		for name, header := range map[string]string{
			"no token":     "",
			"forged token": "Authorization: Bearer forged\r\n",
		} {
			status, _, closed := slowBody(t, addr, header)
			if status != http.StatusUnauthorized || !closed {
				t.Fatalf("%s: status %d, connection closed %v; want 401 and closed", name, status, closed)
			}
		}
	})
	t.Run("unknown session", func(t *testing.T) {
		f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.BodyTimeout = time.Hour })
		addr := f.srv.Listener.Addr().String()
		status, _, closed := slowBody(t, addr, "Authorization: Bearer owner-token\r\nMcp-Session-Id: nope\r\n")
		if status != http.StatusNotFound || !closed {
			t.Fatalf("status %d, connection closed %v; want 404 and closed", status, closed)
		}
	})
}

func TestHTTPFaultRequestWithoutSessionIs400(t *testing.T) {
	f := startHTTP(t, nil)
	tok := map[string]string{"Authorization": "Bearer owner-token"}
	for name, body := range map[string]string{
		"call":         `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_todo","arguments":{"title":"x"}}}`,
		"list":         `{"jsonrpc":"2.0","id":"seven","method":"tools/list"}`,
		"notification": `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		"batch":        "[" + initializeBody + "]",
	} {
		status, h, resp := f.post(t, body, tok)
		if status != http.StatusBadRequest || h.Get("Content-Type") != "application/json" {
			t.Fatalf("%s without a session: %d %s %q, want 400 JSON", name, status, h.Get("Content-Type"), resp)
		}
		id, code, msg, _ := rpcErrorOf(t, resp)
		if code != -32600 || msg == "" {
			t.Fatalf("%s: code %d message %q, want -32600 with a message", name, code, msg)
		}
		switch name {
		case "call":
			if id != 7.0 {
				t.Fatalf("the error answers id %v, want 7", id)
			}
		case "list":
			if id != "seven" {
				t.Fatalf("the error answers id %v, want \"seven\"", id)
			}
		default:
			if id != nil {
				t.Fatalf("the error answers id %v, want null", id)
			}
		}
	}
	if f.opened.Load() != 0 || f.handler.Sessions() != 0 || f.app.created.Load() != 0 {
		t.Fatalf("requests without a session opened %d runtimes, %d sessions, created %d", f.opened.Load(), f.handler.Sessions(), f.app.created.Load())
	}
	// The initialize itself still opens one.
	if status, _, _ := f.post(t, initializeBody, tok); status != http.StatusOK {
		t.Fatalf("initialize: %d", status)
	}
}

func TestHTTPFaultTrailingDataIsRefused(t *testing.T) {
	f := startHTTP(t, nil)
	f.audit = agent.NewAuditLog(agent.AuditOptions[todo.Principal]{})
	tok := "owner-token"
	create := func(title string) string {
		return `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"create_todo","arguments":{"title":"` + title + `"}}}`
	}
	// Without a session: an initialize followed by anything opens nothing.
	for name, body := range map[string]string{
		"second message": initializeBody + create("smuggled"),
		"garbage":        initializeBody + " x",
	} {
		status, _, resp := f.post(t, body, map[string]string{"Authorization": "Bearer " + tok})
		if status != http.StatusBadRequest {
			t.Fatalf("initialize + %s: %d %q, want 400", name, status, resp)
		}
		if _, code, _, _ := rpcErrorOf(t, resp); code != -32600 {
			t.Fatalf("initialize + %s: code %d, want -32600", name, code)
		}
	}
	if n := f.opened.Load(); n != 0 {
		t.Fatalf("a refused initialize opened %d runtimes", n)
	}
	sid := f.openRaw(t, tok)
	hdr := map[string]string{"Authorization": "Bearer " + tok, "Mcp-Session-Id": sid}
	for name, tc := range map[string]struct {
		body string
		code int
	}{
		"second message":  {create("first") + "\n" + create("second"), -32600},
		"trailing object": {create("first") + `{"x":1}`, -32600},
		"trailing bytes":  {create("first") + "}", -32600},
		"not json":        {`{"jsonrpc":"2.0",`, -32700},
	} {
		status, h, resp := f.post(t, tc.body, hdr)
		if status != http.StatusBadRequest || h.Get("Content-Type") != "application/json" {
			t.Fatalf("%s: %d %q, want 400 JSON", name, status, resp)
		}
		if _, code, msg, _ := rpcErrorOf(t, resp); code != tc.code || msg == "" {
			t.Fatalf("%s: code %d %q, want %d", name, code, msg, tc.code)
		}
	}
	// Trailing whitespace is not data: the same call then goes through,
	// and it is the first thing the application sees.
	status, _, resp := f.post(t, create("only")+"\r\n\t \n", hdr)
	if status != http.StatusOK || !strings.Contains(resp, `"result"`) {
		t.Fatalf("a call with trailing whitespace: %d %q", status, resp)
	}
	f.app.waitModel(t, "one todo", func(m todo.List) bool { return len(m.Todos) == 1 })
	waitUntil(t, "the one CreateTodo observed", func() bool { return f.app.created.Load() == 1 })
	if m := f.app.prog.Model(); m.Todos[0].Title != "only" {
		t.Fatalf("todos %+v: a refused body was served", m.Todos)
	}
	if n := f.audit.Len(); n != 1 {
		t.Fatalf("audit has %d entries, want only the accepted call: %+v", n, f.audit.Entries())
	}
}

func TestHTTPFaultSessionsPerPrincipalAreBounded(t *testing.T) {
	t.Run("an idle session makes room", func(t *testing.T) {
		f := startHTTP(t, func(o *mcpagent.HTTPOptions) {
			o.MaxSessionsPerPrincipal = 2
			o.EvictIdleAfter = -1 // any idle session gives way at once
		})
		a := f.openRaw(t, "owner-token")
		b := f.openRaw(t, "owner-token")
		// b is used after a: a is the least recently used.
		if status, _, _ := f.post(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{"Authorization": "Bearer owner-token", "Mcp-Session-Id": b}); status != http.StatusOK {
			t.Fatalf("b's tools/list: %d", status)
		}
		c := f.openRaw(t, "owner-token") // a third: a gives way
		if c == "" || f.handler.Sessions() != 2 {
			t.Fatalf("third session %q, %d sessions; want it open and 2 sessions", c, f.handler.Sessions())
		}
		if status, _, _ := f.post(t, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, map[string]string{"Authorization": "Bearer owner-token", "Mcp-Session-Id": a}); status != http.StatusNotFound {
			t.Fatalf("the evicted session answered %d, want 404", status)
		}
		if status, _, _ := f.post(t, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, map[string]string{"Authorization": "Bearer owner-token", "Mcp-Session-Id": b}); status != http.StatusOK {
			t.Fatalf("b after the third opened: %d", status)
		}
	})
	t.Run("exceeded while busy, freed by DELETE", func(t *testing.T) {
		gate := make(chan struct{})
		t.Cleanup(func() {
			select {
			case <-gate:
			default:
				close(gate)
			}
		})
		f := startHTTP(t, func(o *mcpagent.HTTPOptions) {
			o.MaxSessionsPerPrincipal = 2
			next := o.NewRuntime
			o.NewRuntime = func(ctx context.Context, p *auth.TokenInfo) (mcpagent.Runtime, error) {
				rt, err := next(ctx, p)
				return gatedRuntime{rt, gate}, err
			}
		})
		a := f.openRaw(t, "owner-token")
		b := f.openRaw(t, "owner-token")
		// Both of the owner's sessions are busy with a call.
		call := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"create_todo","arguments":{"title":"x"}}}`
		var calls sync.WaitGroup
		for _, id := range []string{a, b} {
			calls.Go(func() {
				f.post(t, call, map[string]string{"Authorization": "Bearer owner-token", "Mcp-Session-Id": id})
			})
		}
		waitUntil(t, "both calls in flight", func() bool { return gatedCalls.Load() >= 2 })
		status, h, body := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer owner-token"})
		if status != http.StatusTooManyRequests || h.Get("Content-Type") != "application/json" || h.Get("Mcp-Session-Id") != "" {
			t.Fatalf("third session: %d %s session %q %q; want 429 JSON, no session", status, h.Get("Content-Type"), h.Get("Mcp-Session-Id"), body)
		}
		id, code, msg, data := rpcErrorOf(t, body)
		if id != 1.0 || code != -32000 || msg == "" || data["maxSessions"] != 2.0 {
			t.Fatalf("the refusal: id %v code %d %q data %v", id, code, msg, data)
		}
		if strings.Contains(msg, "2") || strings.Contains(msg, "olivia") {
			t.Fatalf("runtime values in the authored message: %q", msg)
		}
		if f.opened.Load() != 2 || f.handler.Sessions() != 2 {
			t.Fatalf("after the refusal: %d runtimes, %d sessions; want 2 and 2", f.opened.Load(), f.handler.Sessions())
		}
		// Other principals are not affected.
		f.openRaw(t, "viewer-token")
		f.openRaw(t, "bob-token")
		f.openRaw(t, "bob-token")
		close(gate)
		calls.Wait()
		// Ending one of the owner's sessions frees its place.
		req, _ := http.NewRequest(http.MethodDelete, f.srv.URL, nil)
		req.Header.Set("Authorization", "Bearer owner-token")
		req.Header.Set("Mcp-Session-Id", a)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("DELETE: %d", resp.StatusCode)
		}
		waitUntil(t, "the deleted session to end", func() bool { return f.handler.Sessions() == 4 })
		f.openRaw(t, "owner-token")
	})
	t.Run("freed by expiry", func(t *testing.T) {
		f := startHTTP(t, func(o *mcpagent.HTTPOptions) {
			o.MaxSessionsPerPrincipal = 1
			o.SessionTimeout = 100 * time.Millisecond
		})
		f.openRaw(t, "owner-token")
		waitUntil(t, "the idle session to expire", func() bool { return f.handler.Sessions() == 0 })
		f.openRaw(t, "owner-token")
	})
	t.Run("failed opens give their place back", func(t *testing.T) {
		var fail bool
		var mu sync.Mutex
		f := startHTTP(t, func(o *mcpagent.HTTPOptions) {
			o.MaxSessionsPerPrincipal = 1
			next := o.NewRuntime
			o.NewRuntime = func(ctx context.Context, p *auth.TokenInfo) (mcpagent.Runtime, error) {
				mu.Lock()
				defer mu.Unlock()
				if fail {
					return nil, fmt.Errorf("refused")
				}
				return next(ctx, p)
			}
		})
		mu.Lock()
		fail = true
		mu.Unlock()
		for range 3 {
			// Each failure answers without opening; a kept place would
			// make the third a 429.
			if status, _, _ := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer owner-token"}); status == http.StatusOK || status == http.StatusTooManyRequests {
				t.Fatalf("a failing NewRuntime answered %d", status)
			}
		}
		mu.Lock()
		fail = false
		mu.Unlock()
		f.openRaw(t, "owner-token")
	})
}

// smallBuffers wraps a listener so that each accepted connection has a
// small kernel send buffer: a client that stops reading blocks the
// server's writes after a few kilobytes instead of megabytes.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4096)
	}
	return c, err
}

func TestHTTPFaultClientThatNeverReadsCannotBlockTheServer(t *testing.T) {
	const writeTimeout = 300 * time.Millisecond
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.WriteTimeout = writeTimeout })
	// A context of about a megabyte: far more than the socket buffers
	// hold, so the server's write blocks until the client reads.
	title := strings.Repeat("x", 16<<10)
	for range 64 {
		if err := f.app.prog.Dispatch(context.Background(), todo.CreateTodo{Title: title}); err != nil {
			t.Fatal(err)
		}
	}
	f.app.waitModel(t, "64 todos", func(m todo.List) bool { return len(m.Todos) == 64 })
	sid := f.openRaw(t, "owner-token")

	closed := make(chan string, 16)
	srv := httptest.NewUnstartedServer(f.handler)
	srv.Listener = smallBuffers{srv.Listener}
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed <- c.RemoteAddr().String()
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)

	addr := srv.Listener.Addr().String()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4096)
	read := `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"app://context"}}`
	start := time.Now()
	req := rawRequest(http.MethodPost, addr, "owner-token", sid, read)
	if _, err := io.WriteString(conn, strings.Replace(req, "Connection: close\r\n", "", 1)); err != nil {
		t.Fatal(err)
	}
	// Never read. The server gives up on the write and closes the
	// connection.
	select {
	case who := <-closed:
		if who != conn.LocalAddr().String() {
			t.Fatalf("closed %s, not the client's connection %s", who, conn.LocalAddr())
		}
	case <-time.After(faultBound):
		t.Fatalf("the server was still writing to a client that never reads after %v", faultBound)
	}
	if took := time.Since(start); took < writeTimeout {
		t.Fatalf("closed after %v, before the %v write timeout", took, writeTimeout)
	}
	// What did arrive is cut short: the server gave up, it did not finish.
	conn.SetReadDeadline(time.Now().Add(faultBound))
	got, _ := io.ReadAll(conn)
	if bytes.Contains(got, []byte("\r\n0\r\n\r\n")) {
		t.Fatalf("the whole response arrived (%d bytes): the test did not block the server", len(got))
	}
	// The session is not stuck: it answers on another connection.
	status, _, body := f.post(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`,
		map[string]string{"Authorization": "Bearer owner-token", "Mcp-Session-Id": sid})
	if status != http.StatusOK || !strings.Contains(body, `"result"`) {
		t.Fatalf("ping after the stuck client: %d %q", status, body)
	}
	// And a full client on the session's owner gets the same large read.
	cs := f.client(t, "owner-token", nil)
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "app://context"})
	if err != nil || len(res.Contents) != 1 || len(res.Contents[0].Text) < 64*len(title) {
		t.Fatalf("a reading client: %v", err)
	}
}

// gatedCalls counts the calls gatedRuntime holds.
var gatedCalls atomic.Int64

// gatedRuntime holds every call until its gate closes: a session with a
// call in flight.
type gatedRuntime struct {
	mcpagent.Runtime
	gate chan struct{}
}

func (g gatedRuntime) DispatchUnknown(ctx context.Context, name string, payload json.RawMessage, inv agent.Invocation) (agent.Result, error) {
	gatedCalls.Add(1)
	select {
	case <-g.gate:
	case <-ctx.Done():
	}
	return g.Runtime.DispatchUnknown(ctx, name, payload, inv)
}
