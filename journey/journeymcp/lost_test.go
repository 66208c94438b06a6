package journeymcp_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/fixed"
	"github.com/foldagent/foldagent/journey/journeymcp"
)

// A call whose client gave up while it waited for the fire (it cancelled,
// or left) was never answered: what that answer said for the first time
// (here what stateReported: false means) is said by the next answer the
// same conversation gets, not counted as said.
func TestAnAnswerTheClientNeverGotSaysNothingOnce(t *testing.T) {
	g := journey.MustNewGraph("store", journey.GraphDef{
		Pages: []journey.Page{{ID: "home", Actions: []journey.Action{
			{Name: "slow", Does: "Do the slow thing", Writes: []string{"s"}},
			{Name: "buy", Does: "Buy it", Writes: []string{"order"}},
		}}},
		Journeys: []journey.Journey{{ID: "shop", Does: "Shop for it", Steps: []string{"slow", "buy"}}},
	})
	s := g.MustNewSession(journey.Options{State: map[string]any{}})
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	if _, err := s.RegisterActions("home", journey.Registration{Handlers: map[string]journey.Handler{
		"slow": func(context.Context, any) (any, error) { <-release; return nil, nil },
		"buy":  func(context.Context, any) (any, error) { return nil, nil },
	}}); err != nil {
		t.Fatal(err)
	}
	built := make(chan fixed.CallResult, 1)
	port := fixed.Serve(s, fixed.Options{Observe: func(_ context.Context, tool string, _ map[string]any, answer fixed.CallResult) {
		if tool == "store.journey.shop" {
			select {
			case built <- answer: // the first: the call whose client gives up
			default:
			}
		}
	}})
	srv := newServer(t, port, &journeymcp.Options{SettleWithin: time.Minute})
	ended := make(chan struct{}, 4)
	srv.MCP().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/call" {
				select {
				case ended <- struct{}{}:
				default:
				}
			}
			return res, err
		}
	})
	cs := connect(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "store.journey.shop", Arguments: map[string]any{"step": "home.slow"}})
		gone <- err
	}()
	lost := <-built // the answer is made; the call waits for the fire
	means, _ := lost.Get("stateMeans")
	if means == nil {
		t.Fatalf("the lost answer says no stateMeans; the test needs one said: %s", lost.JSON())
	}
	cancel()
	if err := <-gone; err == nil {
		t.Fatal("the cancelled call was answered")
	}
	<-ended // the server is done with the call it could not answer
	m, _ := call(t, cs, "store.journey.shop", map[string]any{})
	if m["stateMeans"] != means {
		t.Fatalf("the client's first answer says stateMeans %v; %q was only in the answer it never got: %v", m["stateMeans"], means, m)
	}
	if m["laterStepsUnchanged"] != nil {
		t.Fatalf("the client's first journey answer counts later steps as given before: %v", m)
	}
	if lost.String("frame") != "" && (m["frame"] == nil || m["standing"] == nil) {
		t.Fatalf("the client's first journey answer leaves out the frame or standing only the lost answer gave: %v", m)
	}
	// What this answer said, it said: the next one leaves it out again.
	if m, _ := call(t, cs, "store.journey.shop", map[string]any{}); m["stateMeans"] != nil {
		t.Fatalf("a delivered stateMeans was said again: %v", m)
	}
}
