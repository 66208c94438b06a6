package mcpleave_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/mcpleave"
)

// A DELETE of a session whose call waits is answered, and the call's
// context ended; without the wrapper the SDK's close waits for the call.
func TestDeleteEndsTheSessionsCalls(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	ended := make(chan struct{})
	mcp.AddTool(srv, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		<-ctx.Done()
		close(ended)
		return nil, nil, ctx.Err()
	})
	h := mcpleave.Track(srv).Handler(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	hs := httptest.NewServer(h)
	defer hs.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	started := make(chan struct{})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				close(started)
			}
			return next(ctx, method, req)
		}
	})
	go func() {
		_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{}})
	}()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the call never arrived")
	}
	del, _ := http.NewRequest(http.MethodDelete, hs.URL, nil)
	del.Header.Set("Mcp-Session-Id", cs.ID())
	del.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	answered := make(chan int, 1)
	go func() {
		resp, err := http.DefaultClient.Do(del)
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	select {
	case code := <-answered:
		if code != http.StatusNoContent {
			t.Fatalf("DELETE answered %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("DELETE not answered while a call waited")
	}
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the call's context never ended")
	}
}

// A session left before its call reaches the tracking (the DELETE came
// while the SDK was still dispatching the call) runs that call already
// cancelled, so the SDK's close never waits on it.
func TestACallAfterLeaveStartsCancelled(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	leave := mcpleave.Track(srv)
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	leave.Leave(cs.ID())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("the call was not answered: %v", err)
	}
	if !res.IsError {
		t.Fatalf("a call of a left session ran to the end: %+v", res)
	}
}
