package mcpagent_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
	"github.com/foldagent/foldagent/mcpagent"
)

// The finding: one identity held 1,500 calls waiting for the person's
// approval at once (+157 MiB, 1,500 descriptors), none refused. Served
// over loopback HTTP with a runtime per session sharing one HeldBound
// keyed by principal (as examples/todo binds), the flood gets
// DefaultMaxHeldPerIdentity held and every other call is refused at once
// with AgentRetryLaterError, while another identity's call is still held
// for the person.
func TestHeldApprovalFloodIsBoundedPerIdentity(t *testing.T) {
	refund := agent.Expose(agent.Variant[Refund, register, string]{
		Name: "refund", Description: "Refund an order.",
		Approval: &agent.Approval[Refund, register, string]{Summary: "Refund this order."},
	})
	c := agent.Make(agent.Definition[register, string]{Capabilities: []agent.Capability[register, string]{refund}})
	prog := loop.New(loop.Funcs(func() (register, loop.Cmd[any]) { return register{}, nil },
		func(m register, msg any) (register, loop.Cmd[any]) {
			switch msg := msg.(type) {
			case agent.ApprovalAsked:
				m.Asked = append(slices.Clone(m.Asked), msg.Request)
			case agent.ApprovalWithdrawn:
				m.Asked = slices.DeleteFunc(slices.Clone(m.Asked), func(q agent.ApprovalRequest) bool { return q.ID == msg.ID })
			}
			return m, nil
		}), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	held := agent.NewHeldBound(0, 0, func(_ context.Context, who string) string { return who })
	h, err := mcpagent.NewHandler(mcpagent.HTTPOptions{
		Verifier: func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
			if tok != "flood" && tok != "other" {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{UserID: tok}, nil
		},
		NewRuntime: func(_ context.Context, p *auth.TokenInfo) (mcpagent.Runtime, error) {
			who := p.UserID
			return agent.Bind(c, prog, &agent.BindOptions[string]{
				HeldBound: held,
				Principal: func(context.Context, agent.Invocation) (string, error) { return who, nil },
			})
		},
		Server: &mcpagent.Options{Logger: quietLogger()},
		Logger: quietLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); srv.Close() })
	f := &httpFixture{handler: h, srv: srv}

	heap := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapInuse) / (1 << 20)
	}
	fds := func() int { e, _ := os.ReadDir("/proc/self/fd"); return len(e) }
	heap0, fd0 := heap(), fds()

	const sessions, flood = 8, 1500
	sids := make([]string, sessions)
	for i := range sids {
		sids[i] = f.openRaw(t, "flood")
	}
	other := f.openRaw(t, "other")
	callCtx, stopCalls := context.WithCancel(context.Background())
	defer stopCalls()
	tr := &http.Transport{MaxConnsPerHost: 64, MaxIdleConnsPerHost: 64}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	post := func(ctx context.Context, tok, sid string, i int) (string, error) {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"refund","arguments":{"order":"o-%d"}}}`, i, i)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		resp, err := client.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	var refused atomic.Int64
	var wg sync.WaitGroup
	answered := make(chan bool, flood)
	for i := range flood {
		wg.Go(func() {
			b, err := post(callCtx, "flood", sids[i%sessions], i+1)
			switch {
			case err != nil:
				t.Errorf("flood call %d: %v", i, err)
			case strings.Contains(b, `AgentRetryLaterError`):
				refused.Add(1)
				answered <- true
			case strings.Contains(b, `AgentDeclinedError`):
				// A held call, declined by the person at the end.
			default:
				t.Errorf("flood call %d answered %.300q", i, b)
				answered <- false
			}
		})
	}
	// Every call but the held ones answers at once, refused.
	loopwait.Until(t, prog, "the flood held at its bound", func(m register) bool { return len(m.Asked) == agent.DefaultMaxHeldPerIdentity })
	for i := range flood - agent.DefaultMaxHeldPerIdentity {
		select {
		case <-answered:
		case <-time.After(loopwait.Bound):
			t.Fatalf("only %d of the flood's calls answered; the rest are held: the bound does not hold", i)
		}
	}
	// Another identity is still held for the person meanwhile.
	go func() { _, _ = post(callCtx, "other", other, 9999) }()
	m := loopwait.Until(t, prog, "the other identity's call held", func(m register) bool {
		return len(m.Asked) == agent.DefaultMaxHeldPerIdentity+1
	})
	heap1, fd1 := heap(), fds()
	t.Logf("%d held calls from one identity: %d held, %d refused AgentRetryLaterError; heap in use %.1f -> %.1f MiB, open fds %d -> %d",
		flood, agent.DefaultMaxHeldPerIdentity, refused.Load(), heap0, heap1, fd0, fd1)
	if refused.Load() != flood-agent.DefaultMaxHeldPerIdentity || held.Held() != agent.DefaultMaxHeldPerIdentity+1 || len(m.Asked) != agent.DefaultMaxHeldPerIdentity+1 {
		t.Fatalf("refused %d, held %d, asked %d", refused.Load(), held.Held(), len(m.Asked))
	}
	if fd1-fd0 > 2*64+sessions+16 { // both ends of each connection are in this process
		t.Fatalf("open descriptors grew by %d", fd1-fd0)
	}
	// The person declines every held call (the other identity's too):
	// each ends, and gives its place back.
	for _, q := range m.Asked {
		if err := prog.Dispatch(context.Background(), q.Decline("person", "")); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	loopwait.Until(t, prog, "every held call withdrawn", func(m register) bool { return len(m.Asked) == 0 })
	if n := held.Held(); n != 0 {
		t.Fatalf("%d places held after every held call ended", n)
	}
}
