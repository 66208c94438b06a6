package mcpagent_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/loopwait"
	"github.com/foldagent/foldagent/mcpagent"
)

// A client that ends its session (DELETE) while its refund waits for the
// person is answered at once, and the refund is withdrawn: the card goes,
// nothing is pending, and the person's later y runs nothing. Before, the
// SDK's close waited for the held call, so the DELETE was answered only
// when the person answered, and that answer still ran the refund.
func TestDeleteWithAHeldCallAnswersAndWithdraws(t *testing.T) {
	leaveWhileHeld(t, "2025-11-25", func(t *testing.T, srv *httptest.Server, cs *mcp.ClientSession, _ context.CancelFunc) {
		del, _ := http.NewRequest(http.MethodDelete, srv.URL, nil)
		del.Header.Set("Mcp-Session-Id", cs.ID())
		del.Header.Set("Authorization", "Bearer t")
		del.Header.Set("Mcp-Protocol-Version", cs.InitializeResult().ProtocolVersion)
		answered := make(chan *http.Response, 1)
		began := time.Now()
		go func() {
			resp, err := http.DefaultClient.Do(del)
			if err != nil {
				t.Error(err)
			}
			answered <- resp
		}()
		select {
		case resp := <-answered:
			if resp == nil || resp.StatusCode != http.StatusNoContent {
				t.Fatalf("DELETE answered %v", resp)
			}
			resp.Body.Close()
			t.Logf("DELETE answered in %v with the call held", time.Since(began))
		case <-time.After(loopwait.Bound):
			t.Fatalf("DELETE not answered within %v while a call was held", loopwait.Bound)
		}
	})
}

// A client of the sessionless revision that closes its request while its
// refund waits withdraws the refund: nothing pending, nothing run later.
func TestClosedRequestWithAHeldCallWithdraws(t *testing.T) {
	leaveWhileHeld(t, mcpagent.SessionlessRevision, func(_ *testing.T, _ *httptest.Server, _ *mcp.ClientSession, giveUp context.CancelFunc) {
		giveUp()
	})
}

// leaveWhileHeld holds a refund for the person on a real server, has the
// client leave, and checks that the refund was withdrawn and that the
// person's later approval of the card runs nothing.
func leaveWhileHeld(t *testing.T, revision string, leave func(*testing.T, *httptest.Server, *mcp.ClientSession, context.CancelFunc)) {
	prog, base := registerRuntime(t)
	var rts []*agent.Runtime[register, any, agent.NoPrincipal]
	withdrawn := make(chan agent.ApprovalWithdrawn, 4)
	defer prog.Observe(func(msg any) {
		if w, ok := msg.(agent.ApprovalWithdrawn); ok {
			withdrawn <- w
		}
	})()
	h, err := mcpagent.NewHandler(mcpagent.HTTPOptions{
		Verifier: func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{UserID: "pat"}, nil
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (mcpagent.Runtime, error) {
			rt := agent.MustBind(base.Contract(), prog, &agent.BindOptions[agent.NoPrincipal]{
				ApprovalTimeout: time.Hour, // only the session's end can end the call
			})
			rts = append(rts, rt)
			return rt, nil
		},
		Logger: quietLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })

	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: bearer{"t", http.DefaultTransport}}},
		&mcp.ClientSessionOptions{ProtocolVersion: revision})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	called := make(chan *mcp.CallToolResult, 1)
	callCtx, giveUp := context.WithCancel(context.Background())
	defer giveUp() // on a failure, before the server closes
	go func() {
		res, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "refund", Arguments: map[string]any{"order": "order-7"}})
		if err != nil {
			res = nil
		}
		called <- res
	}()
	req := loopwait.Until(t, prog, "the card", func(m register) bool { return len(m.Asked) == 1 }).Asked[0]

	leave(t, srv, cs, giveUp)
	select {
	case w := <-withdrawn:
		if w.ID != req.ID || w.Why != agent.WithdrawnCancelled {
			t.Fatalf("withdrawn %+v", w)
		}
	case <-time.After(loopwait.Bound):
		t.Fatal("the card was never withdrawn")
	}
	if len(rts) != 1 || len(rts[0].PendingApprovals()) != 0 {
		t.Fatalf("runtimes %d, pending %+v", len(rts), rts[0].PendingApprovals())
	}
	loopwait.Until(t, prog, "the card gone", func(m register) bool { return len(m.Asked) == 0 })

	// The person's y on the card they had read, once applied, ran
	// nothing.
	applied := make(chan struct{})
	defer prog.Observe(func(msg any) {
		if a, ok := msg.(agent.ApprovalAnswer); ok && a.ID == req.ID {
			close(applied)
		}
	})()
	if err := prog.Dispatch(context.Background(), req.Approve("pat")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-applied:
	case <-time.After(loopwait.Bound):
		t.Fatal("the late answer was never applied")
	}
	if m := prog.Model(); m.Refunded != nil {
		t.Fatalf("refunded %v for a session that ended", m.Refunded)
	}
	select {
	case <-called:
	case <-time.After(loopwait.Bound):
		t.Fatal("the held call's client was never released")
	}
}
