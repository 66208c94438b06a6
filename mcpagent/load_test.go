package mcpagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPLoad opens 200 concurrent streamable HTTP sessions on loopback,
// each making 50 create_todo calls, and checks that there is no protocol
// error and that every accepted call was applied exactly once: the
// Model's todo count, the Messages update applied and the audit log all
// agree with the calls the clients saw accepted, and each was made as the
// principal of its session's token. It reports p50 and p99
// call latency. Under -race it runs 40 sessions x 10 calls.
func TestHTTPLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped under -short")
	}
	sessions, calls := 200, 50
	if raceEnabled {
		// The race detector slows this tenfold; keep the concurrency and
		// check the same invariants on a smaller run. The full run is
		// `go test -run TestHTTPLoad ./mcpagent/` without -race.
		sessions, calls = 40, 10
	}
	// A few tokens open every session: lift the per-identity bound.
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.MaxSessionsPerPrincipal = sessions })
	f.audit = agent.NewAuditLog(agent.AuditOptions[todo.Principal]{
		Capacity:  sessions*calls + 1000,
		Principal: func(u todo.Principal) string { return u.Name },
	})
	transport := &http.Transport{MaxIdleConns: 2 * sessions, MaxIdleConnsPerHost: 2 * sessions, MaxConnsPerHost: 0}
	t.Cleanup(transport.CloseIdleConnections)

	// Bounded by progress, not by a total time: the run ends when the
	// calls do, and fails when no call ends for a whole stall window (a
	// hang), however slow a loaded machine makes each call.
	var ended atomic.Int64
	ctx := stallGuard(t, &ended, time.Minute)
	var (
		mu        sync.Mutex
		latencies []time.Duration
		accepted  []string              // invocation ids the clients saw accepted
		callerOf  = map[string]string{} // invocation id -> user of the session's token
		failures  []string
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		if len(failures) < 20 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
		mu.Unlock()
	}
	start := time.Now()
	var wg sync.WaitGroup
	for s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			token := "owner-token"
			if s%2 == 1 {
				token = "bob-token"
			}
			user := tokens[token].Name
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{
				Endpoint:   f.srv.URL,
				HTTPClient: &http.Client{Transport: bearer{token, transport}},
				MaxRetries: -1,
			}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}) // sessions, as the name says
			if err != nil {
				fail("session %d: connect: %v", s, err)
				return
			}
			defer cs.Close()
			local := make([]time.Duration, 0, calls)
			ids := make([]string, 0, calls)
			for c := range calls {
				t0 := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_todo", Arguments: map[string]any{"title": fmt.Sprintf("s%d-c%d", s, c)}})
				local = append(local, time.Since(t0))
				ended.Add(1)
				if err != nil {
					fail("session %d call %d: %v (%v)", s, c, err, context.Cause(ctx))
					continue
				}
				if res.IsError {
					fail("session %d call %d: isError %q", s, c, text(res))
					continue
				}
				var sc struct {
					Invocation agent.Invocation `json:"invocation"`
				}
				b, _ := json.Marshal(res.StructuredContent)
				if err := json.Unmarshal(b, &sc); err != nil || sc.Invocation.ID == "" {
					fail("session %d call %d: structuredContent %s", s, c, b)
					continue
				}
				ids = append(ids, sc.Invocation.ID)
			}
			mu.Lock()
			latencies = append(latencies, local...)
			accepted = append(accepted, ids...)
			for _, id := range ids {
				callerOf[id] = user
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(failures) > 0 {
		t.Fatalf("protocol errors (first %d):\n%v", len(failures), failures)
	}
	total := sessions * calls
	if len(accepted) != total {
		t.Fatalf("%d calls accepted, want %d", len(accepted), total)
	}
	f.app.waitModel(t, "every accepted todo", func(m todo.List) bool { return len(m.Todos) >= total })
	// Observe listeners run just after the Model they follow is visible.
	waitUntil(t, "every CreateTodo observed", func() bool { return f.app.created.Load() >= int64(total) })
	// Not a wait for something to happen: no extra CreateTodo may come,
	// and no event marks an absence (see quiet).
	time.Sleep(20 * time.Millisecond)
	if n := len(f.app.prog.Model().Todos); n != total {
		t.Fatalf("the Model holds %d todos, want exactly %d", n, total)
	}
	if n := f.app.created.Load(); n != int64(total) {
		t.Fatalf("update applied %d CreateTodo, want exactly %d", n, total)
	}
	var audited []string
	for _, e := range f.audit.Entries() {
		if e.Capability != "create_todo" || e.Decision != agent.DecisionDispatched || e.Transport != agent.MCP {
			t.Fatalf("unexpected audit entry %+v", e)
		}
		if e.Principal != callerOf[e.Invocation] {
			t.Fatalf("invocation %s was made as %q, but its session's token is %q's", e.Invocation, e.Principal, callerOf[e.Invocation])
		}
		audited = append(audited, e.Invocation)
	}
	slices.Sort(audited)
	slices.Sort(accepted)
	if !slices.Equal(audited, accepted) {
		t.Fatalf("audit log (%d entries) and accepted calls (%d) disagree", len(audited), len(accepted))
	}
	if len(slices.Compact(slices.Clone(accepted))) != total {
		t.Fatal("an invocation id was reported twice")
	}
	slices.Sort(latencies)
	p := func(q float64) time.Duration { return latencies[int(q*float64(len(latencies)-1))] }
	t.Logf("%d sessions x %d calls = %d calls in %v (%.0f calls/s); latency p50 %v, p99 %v, max %v",
		sessions, calls, total, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds(),
		p(0.50).Round(time.Microsecond), p(0.99).Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond))
}

// stallGuard returns a context that is cancelled when ended has not moved
// for a whole window (the run hangs), or when the test ends. A load run is
// bounded by its count of calls and by this: a busy machine makes each
// call slower, which is no failure, while a call that never ends is.
func stallGuard(t *testing.T, ended *atomic.Int64, window time.Duration) context.Context {
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop); cancel(nil) })
	go func() {
		tick := time.NewTicker(window)
		defer tick.Stop()
		last := ended.Load()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				// A watchdog, not a wait for something to happen: it
				// fires only when nothing ended for a whole window.
				now := ended.Load()
				if now == last {
					cancel(fmt.Errorf("no call ended for %s: the run is stalled", window))
					return
				}
				last = now
			}
		}
	}()
	return ctx
}
