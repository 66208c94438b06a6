package mcpagent_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/loopwait"
	"github.com/foldagent/foldagent/mcpagent"
)

// callAsync calls refund for order on cs and hands back its answer.
func callAsync(t *testing.T, cs *mcp.ClientSession, ctx context.Context, order string) <-chan *mcp.CallToolResult {
	out := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "refund", Arguments: map[string]any{"order": order}})
		if err != nil && ctx.Err() == nil {
			t.Error(err)
		}
		out <- res
	}()
	return out
}

// A call held for the person past the client's patience answers before
// it: a tool error tagged AgentHeldError that says nothing has been done
// and the person has not answered. The person's later answer runs it once,
// and the same caller asking the same again learns the outcome; asked a
// third time, it is a new call.
func TestHeldCallAnswersAtPatienceAndRunsOnceOnTheAnswer(t *testing.T) {
	prog, rt := registerRuntime(t)
	tick := make(chan time.Time)
	opts := &mcpagent.Options{Logger: quietLogger()}
	mcpagent.WithPatienceTick(opts, tick)
	srv, cs := connect(t, rt, opts, nil)

	res := callAsync(t, cs, context.Background(), "order-7")
	m := loopwait.Until(t, prog, "the request in the app", func(m register) bool { return len(m.Asked) == 1 })
	req := m.Asked[0]
	tick <- time.Now()
	held := <-res
	data := structured(t, held)
	if !held.IsError || data["_tag"] != agent.TagHeld || data["waitingFor"] != "person" || data["nothingDone"] != true ||
		data["capability"] != "refund" || data["request"] == "" || text(held) == "" {
		t.Fatalf("held answer = %s / %v", text(held), data)
	}
	if got := prog.Model().Refunded; len(got) != 0 {
		t.Fatalf("refunded before the person answered: %v", got)
	}
	if n := mcpagent.HeldCount(srv); n != 1 {
		t.Fatalf("held calls = %d, want 1", n)
	}

	// Asked again before the person answers: the same held request, and
	// still only one card.
	res = callAsync(t, cs, context.Background(), "order-7")
	tick <- time.Now()
	again := structured(t, <-res)
	if again["_tag"] != agent.TagHeld || again["request"] != data["request"] {
		t.Fatalf("asked again = %v, want the same held request %v", again, data["request"])
	}
	if a := prog.Model().Asked; len(a) != 1 || a[0].ID != req.ID {
		t.Fatalf("cards = %v, want the one request", a)
	}

	if err := prog.Dispatch(context.Background(), req.Approve("person")); err != nil {
		t.Fatal(err)
	}
	loopwait.Until(t, prog, "the refund", func(m register) bool { return len(m.Refunded) > 0 })
	out := call(t, cs, "refund", map[string]any{"order": "order-7"})
	if out.IsError || structured(t, out)["capability"] != "refund" {
		t.Fatalf("outcome = %s / %v", text(out), structured(t, out))
	}
	if got := prog.Model().Refunded; !slices.Equal(got, []string{"order-7"}) {
		t.Fatalf("refunded = %v, want order-7 once", got)
	}
	if n := mcpagent.HeldCount(srv); n != 0 {
		t.Fatalf("held calls after the outcome was read = %d", n)
	}

	// The outcome was read: the same call now is a new one, for the
	// person to answer again.
	ctx, cancel := context.WithCancel(context.Background())
	res = callAsync(t, cs, ctx, "order-7")
	loopwait.Until(t, prog, "a new request", func(m register) bool { return len(m.Asked) == 1 && m.Asked[0].ID != req.ID })
	cancel()
	<-res
	loopwait.Until(t, prog, "the new card withdrawn", func(m register) bool { return len(m.Asked) == 0 })
	if got := prog.Model().Refunded; !slices.Equal(got, []string{"order-7"}) {
		t.Fatalf("refunded = %v, want order-7 once", got)
	}
}

// A held call the person declines is told to its caller as declined when
// it asks again; nothing ran.
func TestHeldCallDeclinedIsToldOnTheNextAsk(t *testing.T) {
	prog, rt := registerRuntime(t)
	tick := make(chan time.Time)
	opts := &mcpagent.Options{Logger: quietLogger()}
	mcpagent.WithPatienceTick(opts, tick)
	_, cs := connect(t, rt, opts, nil)

	res := callAsync(t, cs, context.Background(), "order-9")
	req := loopwait.Until(t, prog, "the request in the app", func(m register) bool { return len(m.Asked) == 1 }).Asked[0]
	tick <- time.Now()
	if d := structured(t, <-res); d["_tag"] != agent.TagHeld {
		t.Fatalf("held answer = %v", d)
	}
	if err := prog.Dispatch(context.Background(), req.Decline("person", "not this one")); err != nil {
		t.Fatal(err)
	}
	loopwait.Until(t, prog, "the card withdrawn", func(m register) bool { return len(m.Asked) == 0 })
	out := call(t, cs, "refund", map[string]any{"order": "order-9"})
	if d := structured(t, out); !out.IsError || d["_tag"] != agent.TagDeclined {
		t.Fatalf("outcome = %v", d)
	}
	if got := prog.Model().Refunded; len(got) != 0 {
		t.Fatalf("a declined refund ran: %v", got)
	}
}

// A client that gives up before its patience withdraws the call, as
// before: the card goes, nothing runs, nothing is held.
func TestCallAbandonedBeforePatienceIsWithdrawn(t *testing.T) {
	prog, rt := registerRuntime(t)
	tick := make(chan time.Time) // never fires
	opts := &mcpagent.Options{Logger: quietLogger()}
	mcpagent.WithPatienceTick(opts, tick)
	srv, cs := connect(t, rt, opts, nil)
	ctx, cancel := context.WithCancel(context.Background())
	res := callAsync(t, cs, ctx, "order-1")
	loopwait.Until(t, prog, "the request in the app", func(m register) bool { return len(m.Asked) == 1 })
	cancel()
	<-res
	loopwait.Until(t, prog, "the card withdrawn", func(m register) bool { return len(m.Asked) == 0 })
	if n := mcpagent.HeldCount(srv); n != 0 || len(prog.Model().Refunded) != 0 {
		t.Fatalf("held = %d, refunded = %v", n, prog.Model().Refunded)
	}
}
