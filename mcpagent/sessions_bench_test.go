package mcpagent_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkManySessions measures what idle sessions cost, as ratios taken
// in one run (medians of paired rounds, so a noisy machine moves both
// sides of each ratio alike):
//
//   - idle: the cost of one applied Message (dispatched to the host and
//     observed applied) with 1,000 idle streamable HTTP sessions open on
//     a Handler, against the same with none. The Message changes the
//     Model but not what it offers, the common case. Target: at most
//     1.5×.
//   - idle-availability: the same with a Message that changes what every
//     session is offered (it marks the todo done or not done, so
//     clear_completed comes and goes): each session is told its tools
//     changed. Target: at most 1.5×.
//   - newservers-availability: the same Message with 1,000
//     mcpagent.NewServers on one runtime, each with a connected client
//     session (in memory), made as a user who never heard of Feed makes
//     them. Target: at most 1.5×.
//   - session: the memory (heap and goroutine stacks) each idle HTTP
//     session holds, and the time to open one (initialize and
//     notifications/initialized), on a Handler serving the todo example's
//     contract as the example binds it, against a hand-written go-sdk
//     server (mcp.NewServer and mcp.AddTool for the same six tools behind
//     the same bearer check, on the SDK's streamable HTTP handler).
//     Target: at most 1.2× for each.
//
// Sessions are opened with plain HTTP requests on one kept-alive
// connection, so the client side costs nothing per session and only the
// server's memory is counted. Run it once:
//
//	go test -run '^$' -bench ManySessions -benchtime 1x ./mcpagent/
func BenchmarkManySessions(b *testing.B) {
	b.Run("idle", func(b *testing.B) { benchIdleSessions(b, overHTTP, (*benchApp).rename) })
	b.Run("idle-availability", func(b *testing.B) { benchIdleSessions(b, overHTTP, (*benchApp).toggle) })
	b.Run("newservers-availability", func(b *testing.B) { benchIdleSessions(b, newServers, (*benchApp).toggle) })
	b.Run("session", benchSessionCost)
}

// benchRuntime is how the benchmark's Handlers bind a session: the todo
// example's contract, bound as examples/todo binds it (Bound.RuntimeFor),
// to prog for the token's principal.
func benchRuntime(prog *loop.Program[todo.List, todo.Msg]) func(context.Context, *auth.TokenInfo) (mcpagent.Runtime, error) {
	return func(_ context.Context, info *auth.TokenInfo) (mcpagent.Runtime, error) {
		return agent.Bind(todo.Contract(), prog, todo.As(info.Extra["user"].(todo.Principal)))
	}
}

// benchApp runs a todo list holding one todo, and reports each applied
// RenameTodo or ToggleTodo on applied.
type benchApp struct {
	prog    *loop.Program[todo.List, todo.Msg]
	applied chan struct{}
	id      string
}

func startBenchApp(b *testing.B) *benchApp {
	a := &benchApp{prog: loop.New(todo.Loop(), nil), applied: make(chan struct{}, 1)}
	a.prog.Observe(func(msg todo.Msg) {
		switch msg.(type) {
		case todo.RenameTodo, todo.ToggleTodo:
			a.applied <- struct{}{}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = a.prog.Run(ctx) }()
	b.Cleanup(func() { cancel(); <-done })
	if err := a.prog.Dispatch(ctx, todo.CreateTodo{Title: "milk"}); err != nil {
		b.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); len(a.prog.Model().Todos) == 0; {
		if time.Now().After(deadline) {
			b.Fatal("the first todo was never applied")
		}
		runtime.Gosched()
	}
	a.id = a.prog.Model().Todos[0].ID
	return a
}

// rename is the i-th Message of a round that changes the Model but not
// what it offers.
func (a *benchApp) rename(i int) todo.Msg {
	return todo.RenameTodo{ID: a.id, Title: "title " + strconv.Itoa(i%2)}
}

// toggle is the i-th Message of a round that changes what is offered:
// the todo done or not, so clear_completed comes and goes.
func (a *benchApp) toggle(int) todo.Msg { return todo.ToggleTodo{ID: a.id} }

// apply dispatches n Messages made by msg one after another, each waiting
// until it was applied, and returns the time per Message.
func (a *benchApp) apply(b *testing.B, n int, msg func(*benchApp, int) todo.Msg) time.Duration {
	ctx := context.Background()
	start := time.Now()
	for i := range n {
		if err := a.prog.Dispatch(ctx, msg(a, i)); err != nil {
			b.Fatal(err)
		}
		<-a.applied
	}
	return time.Since(start) / time.Duration(n)
}

// sessionOpener opens and ends streamable HTTP sessions with plain
// requests.
type sessionOpener struct {
	url    string
	addr   string
	token  string
	client *http.Client
}

const benchInitializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`

func (o *sessionOpener) post(b *testing.B, id, body string, want int) string {
	req, err := http.NewRequest(http.MethodPost, o.url, bytes.NewReader([]byte(body)))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+o.token)
	if id != "" {
		req.Header.Set("Mcp-Session-Id", id)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := o.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != want {
		b.Fatalf("POST answered %d, want %d", resp.StatusCode, want)
	}
	return resp.Header.Get("Mcp-Session-Id")
}

// idleSession is an open session and the connection holding its
// standalone stream.
type idleSession struct {
	id     string
	stream net.Conn
}

// open opens one idle session as an MCP client leaves it: initialize,
// notifications/initialized, and the standalone GET stream open for
// server-to-client messages. The stream is a bare connection whose
// response the client reads no further than its status line, so it costs
// the client no goroutine.
func (o *sessionOpener) open(b *testing.B) idleSession {
	id := o.post(b, "", benchInitializeBody, http.StatusOK)
	if id == "" {
		b.Fatal("initialize returned no session id")
	}
	o.post(b, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, http.StatusAccepted)
	c, err := net.Dial("tcp", o.addr)
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nAuthorization: Bearer %s\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-11-25\r\n\r\n", o.addr, o.token, id)
	status := make([]byte, len("HTTP/1.1 200"))
	if _, err := io.ReadFull(c, status); err != nil || string(status) != "HTTP/1.1 200" {
		b.Fatalf("GET stream: %q, %v", status, err)
	}
	return idleSession{id: id, stream: c}
}

func (o *sessionOpener) end(b *testing.B, s idleSession) {
	s.stream.Close()
	id := s.id
	req, err := http.NewRequest(http.MethodDelete, o.url, nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+o.token)
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := o.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}

func newOpener(b *testing.B, h http.Handler) *sessionOpener {
	srv := httptest.NewServer(h)
	tr := &http.Transport{MaxIdleConnsPerHost: 4}
	b.Cleanup(func() { tr.CloseIdleConnections(); srv.Close() })
	return &sessionOpener{url: srv.URL, addr: srv.Listener.Addr().String(), token: "owner-token", client: &http.Client{Transport: tr}}
}

// benchHandler is a Handler serving the todo example's contract on prog.
//
// As the example does, its sessions share a Feed made over a runtime bound
// to the same program.
func benchHandler(b *testing.B, prog *loop.Program[todo.List, todo.Msg]) *mcpagent.Handler {
	rt, err := agent.Bind(todo.Contract(), prog, todo.As(todo.Principal{Name: "feed", Role: todo.Viewer}))
	if err != nil {
		b.Fatal(err)
	}
	feed, err := mcpagent.NewFeed(rt, &mcpagent.FeedOptions{Logger: quietLogger()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { feed.Close() })
	h, err := mcpagent.NewHandler(mcpagent.HTTPOptions{
		Verifier:                verifyToken,
		NewRuntime:              benchRuntime(prog),
		MaxSessionsPerPrincipal: -1,
		Server:                  &mcpagent.Options{Logger: quietLogger(), Feed: feed},
		Logger:                  quietLogger(),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { h.Close() })
	return h
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// overHTTP opens n idle streamable HTTP sessions on a Handler over prog,
// as the todo example serves it (with a Feed).
func overHTTP(b *testing.B, prog *loop.Program[todo.List, todo.Msg], n int) {
	o := newOpener(b, benchHandler(b, prog))
	streams := make([]net.Conn, 0, n)
	// Run before the server's Close (cleanups run last first), which
	// would otherwise wait for these streams and give up after 5s.
	b.Cleanup(func() {
		for _, c := range streams {
			c.Close()
		}
	})
	for range n {
		streams = append(streams, o.open(b).stream)
	}
}

// newServers makes n mcpagent.NewServers on one runtime over prog, with
// no Feed, and connects a client session to each in memory: the clients
// accept tools/list_changed and read nothing.
func newServers(b *testing.B, prog *loop.Program[todo.List, todo.Msg], n int) {
	rt, err := agent.Bind(todo.Contract(), prog, todo.As(todo.Principal{Name: "owner", Role: todo.Owner}))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, &mcp.ClientOptions{Logger: quietLogger()})
	for range n {
		s, err := mcpagent.NewServer(rt, &mcpagent.Options{Logger: quietLogger()})
		if err != nil {
			b.Fatal(err)
		}
		st, ct := mcp.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st, nil)
		if err != nil {
			b.Fatal(err)
		}
		cs, err := client.Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cs.Close(); ss.Close(); s.Close() })
	}
}

func benchIdleSessions(b *testing.B, open func(*testing.B, *loop.Program[todo.List, todo.Msg], int), msg func(*benchApp, int) todo.Msg) {
	const idle, rounds, perRound = 1000, 9, 300
	none, many := startBenchApp(b), startBenchApp(b)
	open(b, many.prog, idle)
	none.apply(b, perRound, msg) // warm both up
	many.apply(b, perRound, msg)
	var ratios, tNone, tMany []float64
	for r := range rounds {
		var a, m time.Duration
		if r%2 == 0 {
			a, m = none.apply(b, perRound, msg), many.apply(b, perRound, msg)
		} else {
			m, a = many.apply(b, perRound, msg), none.apply(b, perRound, msg)
		}
		tNone = append(tNone, float64(a.Nanoseconds()))
		tMany = append(tMany, float64(m.Nanoseconds()))
		ratios = append(ratios, float64(m)/float64(a))
	}
	b.ReportMetric(median(tNone)/1e3, "µs/msg-0-sessions")
	b.ReportMetric(median(tMany)/1e3, fmt.Sprintf("µs/msg-%d-sessions", idle))
	b.ReportMetric(median(ratios), "ratio")
}

// heapAndStacks is the memory live objects and goroutine stacks hold.
func heapAndStacks() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc + ms.StackInuse
}

// openRound opens n sessions, returning the memory each holds once open
// and the time each took to open, then ends them.
func openRound(b *testing.B, o *sessionOpener, n int) (perSession float64, open time.Duration) {
	ids := make([]idleSession, 0, n)
	before := heapAndStacks()
	start := time.Now()
	for range n {
		ids = append(ids, o.open(b))
	}
	open = time.Since(start) / time.Duration(n)
	after := heapAndStacks()
	for _, id := range ids {
		o.end(b, id)
	}
	return (float64(after) - float64(before)) / float64(n), open
}

func benchSessionCost(b *testing.B) {
	const n, rounds = 200, 7
	app := startBenchApp(b)
	ours := newOpener(b, benchHandler(b, app.prog))
	base := newOpener(b, baselineHandler(app.prog))
	openRound(b, ours, n) // warm both up
	openRound(b, base, n)
	var memRatio, openRatio, memOurs, memBase, openOurs, openBase []float64
	for r := range rounds {
		var mo, mb float64
		var to, tb time.Duration
		if r%2 == 0 {
			mo, to = openRound(b, ours, n)
			mb, tb = openRound(b, base, n)
		} else {
			mb, tb = openRound(b, base, n)
			mo, to = openRound(b, ours, n)
		}
		memOurs, memBase = append(memOurs, mo), append(memBase, mb)
		openOurs, openBase = append(openOurs, float64(to.Nanoseconds())), append(openBase, float64(tb.Nanoseconds()))
		memRatio = append(memRatio, mo/mb)
		openRatio = append(openRatio, float64(to)/float64(tb))
	}
	b.ReportMetric(median(memOurs)/1024, "KiB/session")
	b.ReportMetric(median(memBase)/1024, "KiB/session-baseline")
	b.ReportMetric(median(memRatio), "mem-ratio")
	b.ReportMetric(median(openOurs)/1e3, "µs/open")
	b.ReportMetric(median(openBase)/1e3, "µs/open-baseline")
	b.ReportMetric(median(openRatio), "open-ratio")
}

// baselineHandler is what an application would write by hand on the
// go-sdk for the same six tools: one server, each tool added with
// mcp.AddTool over the same input types, each call dispatching to the
// host; the same bearer check in front of the SDK's streamable HTTP
// handler.
func baselineHandler(prog *loop.Program[todo.List, todo.Msg]) http.Handler {
	s := baselineServer(prog)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Logger: quietLogger()})
	return auth.RequireBearerToken(verifyToken, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
}

// baselineServer is the hand-written go-sdk server of baselineHandler.
func baselineServer(prog *loop.Program[todo.List, todo.Msg]) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "baseline", Version: "0"}, &mcp.ServerOptions{Logger: quietLogger()})
	addBaselineTool(s, prog, "create_todo", "Create a todo with the given title.",
		func(in todo.CreateInput) todo.Msg { return todo.CreateTodo{Title: in.Title} })
	addBaselineTool(s, prog, "rename_todo", "Give the todo with the given id a new title.",
		func(in todo.RenameTodo) todo.Msg { return in })
	addBaselineTool(s, prog, "select_todo", "Select the todo with the given id.",
		func(in todo.SelectTodo) todo.Msg { return in })
	addBaselineTool(s, prog, "toggle_todo", "Mark the todo with the given id done, or not done.",
		func(in todo.ToggleTodo) todo.Msg { return in })
	addBaselineTool(s, prog, "delete_selected_todo", "Delete the selected todo.",
		func(agent.NoInput) todo.Msg { return todo.DeleteTodo{ID: prog.Model().Selected} })
	addBaselineTool(s, prog, "clear_completed", "Remove every todo that is done.",
		func(in todo.ClearCompleted) todo.Msg { return in })
	return s
}

func addBaselineTool[In any](s *mcp.Server, prog *loop.Program[todo.List, todo.Msg], name, description string, msg func(In) todo.Msg) {
	mcp.AddTool(s, &mcp.Tool{Name: name, Description: description},
		func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
			if req.Extra == nil || req.Extra.TokenInfo == nil {
				return nil, nil, fmt.Errorf("no principal")
			}
			if err := prog.Dispatch(ctx, msg(in)); err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Dispatched."}}}, nil, nil
		})
}
