package mcpagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionlessClient connects a go-sdk client that asks for the newest
// revision (the SDK's default), through server/discover.
func (f *httpFixture) sessionlessClient(t testing.TB, token string, ev *events) *mcp.ClientSession {
	t.Helper()
	cs, err := f.connectSessionless(token, ev)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if v := cs.InitializeResult().ProtocolVersion; v != mcpagent.SessionlessRevision {
		t.Fatalf("negotiated %q, want %q", v, mcpagent.SessionlessRevision)
	}
	return cs
}

func (f *httpFixture) connectSessionless(token string, ev *events) (*mcp.ClientSession, error) {
	tr := &mcp.StreamableClientTransport{
		Endpoint:   f.srv.URL,
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}},
		MaxRetries: -1,
	}
	var copts *mcp.ClientOptions
	if ev != nil {
		copts = ev.options()
	}
	return mcp.NewClient(&mcp.Implementation{Name: "sessionless-test", Version: "0"}, copts).Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: mcpagent.SessionlessRevision})
}

// sessionlessPost sends one raw request of the sessionless revision.
func (f *httpFixture) sessionlessPost(t testing.TB, token, method, params string) (int, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
	header := map[string]string{
		"Authorization":        "Bearer " + token,
		"MCP-Protocol-Version": mcpagent.SessionlessRevision,
		"Mcp-Method":           method,
	}
	var named struct{ Name, URI string }
	_ = json.Unmarshal([]byte(params), &named)
	if name := named.Name + named.URI; name != "" {
		header["Mcp-Name"] = name
	}
	status, _, resp := f.post(t, body, header)
	return status, resp
}

// listen opens a raw subscriptions/listen stream and returns its status;
// the stream stays open until the test ends.
func (f *httpFixture) listen(t testing.TB, token string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	body := `{"jsonrpc":"2.0","id":9,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + sessionlessMeta + `}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.srv.URL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("MCP-Protocol-Version", mcpagent.SessionlessRevision)
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	return resp.StatusCode, ""
}

// sessionlessMeta is the per-request _meta every request of the
// sessionless revision carries.
const sessionlessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}`

// sseResult returns the JSON-RPC message in a response body, which is
// either plain JSON or one server-sent event.
func sseResult(t testing.TB, body string) map[string]any {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			body = data
		}
	}
	var msg map[string]any
	if err := json.Unmarshal([]byte(body), &msg); err != nil {
		t.Fatalf("response %q: %v", body, err)
	}
	return msg
}

func TestSessionlessClientNegotiatesTheNewestRevision(t *testing.T) {
	f := startHTTP(t, nil)
	ev := newEvents()
	cs := f.sessionlessClient(t, "owner-token", ev)

	// The revision's tool list does not follow the Model: every tool of
	// the contract, whatever the list holds; what is not offered now is
	// refused when called, saying why.
	all := []string{"clear_completed", "create_todo", "delete_selected_todo", "rename_todo", "select_todo", "toggle_todo"}
	if got := toolNames(t, cs); !slices.Equal(got, all) {
		t.Fatalf("tools on an empty list = %v, want %v", got, all)
	}
	if res := call(t, cs, "delete_selected_todo", map[string]any{}); !res.IsError || !strings.Contains(text(res), "not offered") {
		t.Fatalf("delete_selected_todo on an empty list: error %v %q, want a not-offered refusal", res.IsError, text(res))
	}
	res := call(t, cs, "create_todo", map[string]any{"title": "milk"})
	if res.IsError {
		t.Fatalf("create_todo: %s", text(res))
	}
	f.app.waitModel(t, "the todo", func(m todo.List) bool { return len(m.Todos) == 1 })
	if got := toolNames(t, cs); !slices.Equal(got, all) {
		t.Fatalf("tools after the first todo = %v, want %v", got, all)
	}
	call(t, cs, "create_todo", map[string]any{"title": "eggs"})
	if n := ev.listChangedCount(); n != 0 {
		t.Fatalf("the sessionless client was told %d times that its tools changed", n)
	}

	if f.handler.Sessions() != 0 {
		t.Fatalf("the sessionless client opened %d sessions", f.handler.Sessions())
	}
	if f.handler.Principals() != 1 || f.opened.Load() != 1 {
		t.Fatalf("principals %d, runtimes built %d; want one runtime for the identity, whatever the requests", f.handler.Principals(), f.opened.Load())
	}
}

func TestSessionlessListsAreCacheableForTheirPrincipal(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.ListTTL = 1500 * time.Millisecond })
	for _, method := range []string{"tools/list", "resources/list", "server/discover"} {
		status, body := f.sessionlessPost(t, "owner-token", method, "{"+sessionlessMeta+"}")
		if status != http.StatusOK {
			t.Fatalf("%s: %d %s", method, status, body)
		}
		result, _ := sseResult(t, body)["result"].(map[string]any)
		if result["ttlMs"] != 1500.0 || result["cacheScope"] != "private" {
			t.Fatalf("%s: ttlMs %v cacheScope %v, want 1500 private (%s)", method, result["ttlMs"], result["cacheScope"], body)
		}
	}
	status, body := f.sessionlessPost(t, "owner-token", "resources/read", `{"uri":"app://stats",`+sessionlessMeta+`}`)
	result, _ := sseResult(t, body)["result"].(map[string]any)
	if status != http.StatusOK || result["ttlMs"] != 0.0 || result["cacheScope"] != "private" {
		t.Fatalf("resources/read: %d, ttlMs %v cacheScope %v, want an immediately stale private value (%s)", status, result["ttlMs"], result["cacheScope"], body)
	}
}

func TestSessionlessRequestsAreBoundToTheirTokensPrincipal(t *testing.T) {
	f := startHTTP(t, nil)
	owner := f.sessionlessClient(t, "owner-token", nil)
	viewer := f.sessionlessClient(t, "viewer-token", nil)
	call(t, owner, "create_todo", map[string]any{"title": "milk"})
	f.app.waitModel(t, "the todo", func(m todo.List) bool { return len(m.Todos) == 1 })
	call(t, owner, "toggle_todo", map[string]any{"id": "t1"})
	f.app.waitModel(t, "the todo done", func(m todo.List) bool { return m.AnyDone() })

	res := call(t, viewer, "clear_completed", map[string]any{})
	if !res.IsError || !strings.Contains(text(res), "owner") {
		t.Fatalf("a viewer's clear_completed: %v %q, want refused", res.IsError, text(res))
	}
	if res := call(t, owner, "clear_completed", map[string]any{}); res.IsError {
		t.Fatalf("the owner's clear_completed: %q", text(res))
	}
	if f.handler.Principals() != 2 || f.opened.Load() != 2 {
		t.Fatalf("principals %d, runtimes %d; want one per identity", f.handler.Principals(), f.opened.Load())
	}

	// GET and DELETE have nothing to serve without a session: 405, and
	// nothing is built.
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		req, _ := http.NewRequest(method, f.srv.URL, nil)
		req.Header.Set("Authorization", "Bearer bob-token")
		req.Header.Set("MCP-Protocol-Version", mcpagent.SessionlessRevision)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" || f.opened.Load() != 2 {
			t.Fatalf("sessionless %s: %d Allow %q, runtimes %d; want 405, POST, 2", method, resp.StatusCode, resp.Header.Get("Allow"), f.opened.Load())
		}
	}

	// No token, or a bad one: 401 before anything is built.
	status, body := f.sessionlessPost(t, "forged", "tools/list", "{"+sessionlessMeta+"}")
	if status != http.StatusUnauthorized || f.opened.Load() != 2 {
		t.Fatalf("a forged token: %d %s, runtimes %d", status, body, f.opened.Load())
	}
}

func TestBothRevisionsOnOneEndpoint(t *testing.T) {
	f := startHTTP(t, nil)
	sessioned := f.client(t, "owner-token", nil) // 2025-11-25
	if v := sessioned.InitializeResult().ProtocolVersion; v != "2025-11-25" {
		t.Fatalf("session client negotiated %q", v)
	}
	sessionless := f.sessionlessClient(t, "owner-token", nil)
	call(t, sessioned, "create_todo", map[string]any{"title": "from a session"})
	call(t, sessionless, "create_todo", map[string]any{"title": "without one"})
	f.app.waitModel(t, "both todos", func(m todo.List) bool { return len(m.Todos) == 2 })
	if f.handler.Sessions() != 1 || f.handler.Principals() != 1 {
		t.Fatalf("sessions %d, sessionless principals %d; want 1 and 1", f.handler.Sessions(), f.handler.Principals())
	}

	// A raw request of the sessionless revision needs no initialize; one
	// of an older revision still does.
	status, body := f.sessionlessPost(t, "owner-token", "tools/call", `{"name":"create_todo","arguments":{"title":"raw"},`+sessionlessMeta+`}`)
	if msg := sseResult(t, body); status != http.StatusOK || msg["result"] == nil {
		t.Fatalf("a sessionless tools/call: %d %s", status, body)
	}
	status, _, body = f.post(t, `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, map[string]string{"Authorization": "Bearer owner-token"})
	if status != http.StatusBadRequest {
		t.Fatalf("a 2025-11-25 request without a session: %d %s, want 400", status, body)
	}
	// server/discover lists every revision served, newest first.
	status, body = f.sessionlessPost(t, "owner-token", "server/discover", "{"+sessionlessMeta+"}")
	result, _ := sseResult(t, body)["result"].(map[string]any)
	versions, _ := result["supportedVersions"].([]any)
	want := append([]any{mcpagent.SessionlessRevision}, anys(mcpagent.ProtocolVersions())...)
	if status != http.StatusOK || !slices.Equal(versions, want) {
		t.Fatalf("server/discover: %d %s, want versions %v", status, body, want)
	}
}

func anys(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func TestSessionlessRuntimeExpiresWhenIdleAndCloseReleasesIt(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.SessionTimeout = 100 * time.Millisecond })
	cs := f.sessionlessClient(t, "owner-token", nil) // no listen stream: no handler
	toolNames(t, cs)
	if f.handler.Principals() != 1 {
		t.Fatalf("principals = %d", f.handler.Principals())
	}
	waitUntil(t, "the idle runtime to be released", func() bool { return f.handler.Principals() == 0 && f.live.Load() == 0 })
	// The next request builds it again; the client never noticed.
	call(t, cs, "create_todo", map[string]any{"title": "milk"})
	if f.opened.Load() != 2 {
		t.Fatalf("runtimes built = %d, want 2", f.opened.Load())
	}

	// An open listen stream keeps its identity's runtime.
	ev := newEvents()
	f.sessionlessClient(t, "viewer-token", ev)
	// Not a wait for something to happen: the runtime must NOT be
	// released, and no event marks an absence; three idle timeouts give a
	// wrong release the chance to show itself.
	time.Sleep(300 * time.Millisecond)
	if f.live.Load() < 1 || f.handler.Principals() < 1 {
		t.Fatalf("a listening identity's runtime was released: principals %d listeners %d", f.handler.Principals(), f.live.Load())
	}
	f.handler.Close()
	waitUntil(t, "Close to release every runtime", func() bool { return f.handler.Principals() == 0 && f.live.Load() == 0 })
	if status, _ := f.sessionlessPost(t, "owner-token", "tools/list", "{"+sessionlessMeta+"}"); status != http.StatusServiceUnavailable {
		t.Fatalf("a closed handler answered %d, want 503", status)
	}
}

func TestSessionlessListenStreamsAreBoundedPerIdentity(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.MaxSessionsPerPrincipal = 1 })
	if status, body := f.listen(t, "owner-token"); status != http.StatusOK {
		t.Fatalf("the first listen stream: %d %s", status, body)
	}
	status, body := f.listen(t, "owner-token")
	_, code, msg, data := rpcErrorOf(t, body)
	if status != http.StatusTooManyRequests || code != -32000 || msg == "" || data["maxStreams"] != 1.0 {
		t.Fatalf("a second listen stream: %d %s, want 429 -32000", status, body)
	}
	// Another identity is not affected, and nor are plain requests.
	if status, body := f.listen(t, "viewer-token"); status != http.StatusOK {
		t.Fatalf("another identity's listen stream: %d %s", status, body)
	}
	plain := f.sessionlessClient(t, "owner-token", nil)
	call(t, plain, "create_todo", map[string]any{"title": "milk"})
}

func TestSessionlessRuntimeThatCannotBeBuiltIsRetried(t *testing.T) {
	fail := true
	f2 := startHTTP(t, func(o *mcpagent.HTTPOptions) {
		next := o.NewRuntime
		o.NewRuntime = func(ctx context.Context, p *auth.TokenInfo) (mcpagent.Runtime, error) {
			if fail {
				return nil, errors.New("the store is unreachable")
			}
			return next(ctx, p)
		}
	})
	status, body := f2.sessionlessPost(t, "owner-token", "tools/list", "{"+sessionlessMeta+"}")
	msg := sseResult(t, body)
	rpcErr, _ := msg["error"].(map[string]any)
	if status != http.StatusInternalServerError || rpcErr["code"] != -32603.0 || strings.Contains(body, "unreachable") {
		t.Fatalf("a runtime that cannot be built: %d %s, want 500 -32603 without the cause", status, body)
	}
	if f2.handler.Principals() != 0 {
		t.Fatalf("a failed runtime is kept: principals %d", f2.handler.Principals())
	}
	fail = false
	if status, body := f2.sessionlessPost(t, "owner-token", "tools/list", "{"+sessionlessMeta+"}"); status != http.StatusOK {
		t.Fatalf("after the failure: %d %s", status, body)
	}
}

func TestSessionlessClientCancellationCancelsTheInvocation(t *testing.T) {
	checkCancellationCancels(t, "a cancelled sessionless call", func(f *httpFixture) *mcp.ClientSession {
		return f.sessionlessClient(t, "owner-token", nil)
	})
}

func TestSessionlessConcurrentFirstRequestsBuildOneRuntime(t *testing.T) {
	f := startHTTP(t, nil)
	const n = 16
	statuses := make(chan string, n)
	for range n {
		go func() {
			req, _ := http.NewRequest(http.MethodPost, f.srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+sessionlessMeta+`}}`))
			req.Header.Set("Authorization", "Bearer bob-token")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", mcpagent.SessionlessRevision)
			req.Header.Set("Mcp-Method", "tools/list")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				statuses <- err.Error()
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			statuses <- resp.Status
		}()
	}
	for range n {
		if status := <-statuses; status != "200 OK" {
			t.Fatalf("a concurrent first request: %s", status)
		}
	}
	if f.opened.Load() != 1 || f.handler.Principals() != 1 || f.live.Load() != 1 {
		t.Fatalf("%d concurrent first requests built %d runtimes (principals %d, listeners %d), want 1", n, f.opened.Load(), f.handler.Principals(), f.live.Load())
	}
}

// A 2026-07-28 client refuses a tools/call or resources/read result that
// does not say resultType (the Agent Native framework's MCP client did,
// against examples/todo): results the adapter answers itself carry
// "complete" on that revision, and only there.
func TestSessionlessResultsSayTheyAreComplete(t *testing.T) {
	f := startHTTP(t, nil)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	for _, tc := range []struct{ method, name, params string }{
		{"tools/call", "create_todo", `{"name":"create_todo","arguments":{"title":"Milk"},` + meta + `}`},
		{"tools/call", "rename_todo", `{"name":"rename_todo","arguments":{"id":"nope","title":"x"},` + meta + `}`},
		{"resources/read", "app://todos", `{"uri":"app://todos",` + meta + `}`},
	} {
		status, _, body := f.post(t, `{"jsonrpc":"2.0","id":1,"method":"`+tc.method+`","params":`+tc.params+`}`, map[string]string{
			"Authorization":        "Bearer owner-token",
			"MCP-Protocol-Version": "2026-07-28",
			"Mcp-Method":           tc.method,
			"Mcp-Name":             tc.name,
		})
		if status != http.StatusOK || !strings.Contains(body, `"resultType":"complete"`) {
			t.Fatalf("%s %s: %d %s", tc.method, tc.name, status, body)
		}
	}
	// A session on an older revision is answered as that revision says.
	ss := f.client(t, "owner-token", nil)
	if v := ss.InitializeResult().ProtocolVersion; v >= "2026-07-28" {
		t.Fatalf("the session client negotiated %s", v)
	}
}

func TestSessionlessUnsupportedRevisionBuildsNothing(t *testing.T) {
	f := startHTTP(t, nil)
	post := func(header, metaVersion string) (int, map[string]any) {
		t.Helper()
		meta := strings.Replace(sessionlessMeta, `"2026-07-28"`, `"`+metaVersion+`"`, 1)
		body := `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{` + meta + `}}`
		status, _, resp := f.post(t, body, map[string]string{
			"Authorization":        "Bearer owner-token",
			"MCP-Protocol-Version": header,
			"Mcp-Method":           "tools/list",
		})
		return status, sseResult(t, resp)
	}
	status, msg := post("2099-01-01", "2099-01-01")
	rpcErr, _ := msg["error"].(map[string]any)
	data, _ := rpcErr["data"].(map[string]any)
	if status != http.StatusBadRequest || rpcErr["code"] != float64(mcp.CodeUnsupportedProtocolVersion) || data["requested"] != "2099-01-01" || msg["id"] != 7.0 {
		t.Fatalf("a future revision: %d %v, want 400 with -32022 naming the revision", status, msg)
	}
	if supported, _ := data["supported"].([]any); len(supported) == 0 || supported[0] != mcpagent.SessionlessRevision {
		t.Fatalf("supported %v does not lead with the sessionless revision", data["supported"])
	}
	status, msg = post(mcpagent.SessionlessRevision, "2099-01-01")
	if rpcErr, _ := msg["error"].(map[string]any); status != http.StatusBadRequest || rpcErr["code"] != float64(mcp.CodeHeaderMismatch) {
		t.Fatalf("_meta naming another revision than the header: %d %v, want 400 with -32020", status, msg)
	}
	if f.opened.Load() != 0 || f.handler.Principals() != 0 {
		t.Fatalf("refused requests built %d runtimes (principals %d), want none", f.opened.Load(), f.handler.Principals())
	}
	if status, _ := post(mcpagent.SessionlessRevision, mcpagent.SessionlessRevision); status != http.StatusOK {
		t.Fatalf("the served revision: %d", status)
	}
}

func TestSessionlessRuntimesAreBoundedLeastRecentlyUsedFirst(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.MaxRuntimes = 2 })
	list := func(token string) {
		t.Helper()
		if status, body := f.sessionlessPost(t, token, "tools/list", "{"+sessionlessMeta+"}"); status != http.StatusOK {
			t.Fatalf("%s: %d %s", token, status, body)
		}
	}
	list("owner-token")
	list("viewer-token")
	list("owner-token") // the viewer's is now the least recently used
	list("bob-token")
	if f.handler.Principals() != 2 || f.opened.Load() != 3 {
		t.Fatalf("principals %d, runtimes built %d; want 2 kept of 3 built", f.handler.Principals(), f.opened.Load())
	}
	list("owner-token") // kept: built no runtime
	if f.opened.Load() != 3 {
		t.Fatalf("the recently used identity's runtime was evicted: %d built", f.opened.Load())
	}
	list("viewer-token") // evicted: built again
	if f.opened.Load() != 4 || f.handler.Principals() != 2 {
		t.Fatalf("the evicted identity: %d built, principals %d; want 4 and 2", f.opened.Load(), f.handler.Principals())
	}
}

func TestSessionlessEvictionLetsAnInFlightCallFinish(t *testing.T) {
	h := newBlockingHost()
	var built, closed atomic.Int64
	handler, err := mcpagent.NewHandler(mcpagent.HTTPOptions{
		Verifier: verifyToken,
		NewRuntime: func(context.Context, *auth.TokenInfo) (mcpagent.Runtime, error) {
			built.Add(1)
			return closeCounting{workRuntime(t, h), &closed}, nil
		},
		MaxRuntimes: 1,
		Logger:      quietLogger(),
		Server:      &mcpagent.Options{Logger: quietLogger()},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(func() { handler.Close(); srv.Close() })
	var releaseOnce sync.Once
	release := func() { releaseOnce.Do(func() { close(h.release) }) }
	t.Cleanup(release) // runs first: a failing test leaves no call waiting
	f := &httpFixture{srv: srv, handler: handler}
	cs := f.sessionlessClient(t, "owner-token", nil)
	res := make(chan *mcp.CallToolResult, 1)
	errc := make(chan error, 1)
	go func() {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "work", Arguments: map[string]any{"steps": 2}})
		res <- r
		errc <- err
	}()
	<-h.entered
	// Another identity takes the only place while the owner's call waits.
	f.sessionlessClient(t, "bob-token", nil)
	if handler.Principals() != 1 || built.Load() != 2 {
		t.Fatalf("principals %d, built %d; want the owner's evicted for bob's", handler.Principals(), built.Load())
	}
	if closed.Load() != 0 {
		t.Fatal("the evicted runtime was released while its call was in flight")
	}
	release()
	if err := <-errc; err != nil {
		t.Fatalf("the in-flight call failed after eviction: %v", err)
	}
	if r := <-res; r.IsError || h.Model() != 2 {
		t.Fatalf("the in-flight call: isError %v, model %d", r.IsError, h.Model())
	}
	waitUntil(t, "the evicted runtime to be released once its call ended", func() bool { return closed.Load() == 1 })
}

// closeCounting counts the listeners released on a runtime, which is what
// closing its Server does.
type closeCounting struct {
	mcpagent.Runtime
	released *atomic.Int64
}

func (c closeCounting) CanSubscribe() bool { return true }

func (c closeCounting) Subscribe(listener func()) func() {
	stop := c.Runtime.Subscribe(listener)
	return func() { stop(); c.released.Add(1) }
}
