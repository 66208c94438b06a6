package journeymcp_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/stdio/stdiotest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestShopOverStdio is the same purchase as the TypeScript client's, with
// the Go SDK's client: examples/shop runs as a subprocess and is driven
// over its stdin and stdout, so this one needs no peer, and the person
// gives the delivery address at the shop's keyboard (-keys). A gift
// card's payment is then refused by the payment server.
func TestShopOverStdio(t *testing.T) {
	bin := buildShop(t)
	keys, types := personKeys(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "-mcp", "stdio", "-pay-delay", "400ms", "-keys", keys)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	addressGiven := false
	purchase := func(sku string) string {
		t.Helper()
		call(t, cs, "shop.journey.purchase", nil)
		for _, s := range []struct {
			step  string
			input map[string]any
		}{{"open-product", map[string]any{"sku": sku}}, {"add-to-cart", nil}, {"go-cart", nil}, {"checkout", nil}} {
			args := map[string]any{"step": s.step}
			if s.input != nil {
				args["input"] = s.input
			}
			if r, isErr := call(t, cs, "shop.journey.purchase", args); isErr || r["effectStatus"] != "performed" {
				t.Fatalf("%s: %v", s.step, r)
			}
		}
		if !addressGiven {
			// The address is the person's: the agent is refused, and the
			// person types it (a, the address, enter).
			if r, _ := call(t, cs, "shop.do_action", map[string]any{"action": "change-address"}); r["reason"] != "PRINCIPAL_NOT_ALLOWED" {
				t.Fatalf("the agent's address change: %v", r)
			}
			types("a1 Main St\r")
			addressGiven = true
		}
		var order string
		for deadline := time.Now().Add(10 * time.Second); ; {
			r, _ := call(t, cs, "shop.journey.purchase", map[string]any{"step": "open-review"})
			if r["effectStatus"] == "performed" {
				order = readyInstance(r, "checkout.review.order.pay")
				break
			}
			if r["reason"] != "TOOL_DISABLED" || time.Now().After(deadline) {
				t.Fatalf("open-review: %v", r)
			}
			// The person is still typing, in the app: polled over the
			// protocol, as the agent would ask again (no event of the
			// app reaches an MCP client).
			time.Sleep(20 * time.Millisecond)
		}
		// The person approves it on their screen: one question, asked
		// there, so the step fires at once.
		r, isErr := call(t, cs, "shop.journey.purchase", map[string]any{"step": "pay", "instance": order})
		if isErr || r["effectStatus"] != "pending" || r["settleWith"] == nil {
			t.Fatalf("pending: %v", r)
		}
		return r["transitionId"].(string)
	}
	poll := func(id string) map[string]any {
		t.Helper()
		for {
			r, isErr := call(t, cs, "shop.did_it_work", map[string]any{"transitionId": id})
			if isErr {
				t.Fatalf("did_it_work: %v", r)
			}
			if r["settled"] == true {
				return r
			}
			switch {
			case r["judgment"] == "awaiting-human" && r["askId"] != nil:
				// The shop holds the payment for the person, who
				// approves it at the keyboard.
				types("y")
			case r["judgment"] != "still-pending":
				t.Fatalf("did_it_work: %v", r)
			}
			select {
			case <-ctx.Done():
				t.Fatal("the payment never settled")
			case <-time.After(40 * time.Millisecond):
			}
		}
	}
	r := poll(purchase("dress-red"))
	if r["effectStatus"] != "performed" || r["outcome"] != "committed" || r["judgment"] != "done" {
		t.Fatalf("paid: %v", r)
	}
	// Back to the catalog along the declared hops whats_here names, once
	// the review is closed.
	if r, _ := call(t, cs, "shop.do_action", map[string]any{"action": "close-review"}); r["judgment"] != "done" {
		t.Fatalf("close-review: %v", r)
	}
	wh, _ := call(t, cs, "shop.whats_here", map[string]any{"routeTo": "catalog"})
	route, _ := wh["routeTo"].(map[string]any)
	hops, _ := route["hops"].([]any)
	if len(hops) != 2 {
		t.Fatalf("routeTo catalog: %v", wh["routeTo"])
	}
	for _, h := range hops {
		if r, isErr := call(t, cs, "shop.do_action", map[string]any{"action": h.(map[string]any)["action"]}); isErr || r["judgment"] != "done" {
			t.Fatalf("hop: %v", r)
		}
	}
	gift := purchase("gift-card")
	r = poll(gift)
	if r["effectStatus"] != "refused" || r["outcome"] != "rejected" || r["judgment"] != "rejected" {
		t.Fatalf("refused by the payment server: %v", r)
	}
	// The server's reason rides as data, and the journey marks the step
	// the app refused, so a driver does not pay a second time.
	if e, _ := r["error"].(map[string]any); e == nil || e["reason"] != "APP_FAILED" || !strings.Contains(fmt.Sprint(e["data"]), "gift card") {
		t.Fatalf("the refusal carries no reason: %v", r)
	}
	j, _ := call(t, cs, "shop.journey.purchase", nil)
	marked := false
	for _, list := range []string{"readySteps", "laterSteps"} {
		rows, _ := j[list].([]any)
		for _, x := range rows {
			if m := x.(map[string]any); m["step"] == "checkout.review.order.pay" {
				marked = m["lastFireRejected"] == gift && m["priorFireUnsettled"] == nil
			}
		}
	}
	if !marked || j["standing"] != "failed" {
		t.Fatalf("pay must carry lastFireRejected: %v", j)
	}
	// A SKU the store does not sell is refused by the store and never
	// arrives: the cursor stays on the catalog.
	call(t, cs, "shop.do_action", map[string]any{"action": "close-review"})
	call(t, cs, "shop.do_action", map[string]any{"action": "back-to-cart"})
	call(t, cs, "shop.do_action", map[string]any{"action": "shop-more"})
	bad, _ := call(t, cs, "shop.do_action", map[string]any{"action": "open-product", "input": map[string]any{"sku": "no-such-sku"}})
	if bad["effectStatus"] != "refused" || bad["youAreOn"] != "catalog" || bad["judgment"] != "rejected" || bad["data"] != nil {
		t.Fatalf("an unknown SKU: %v", bad)
	}
}

// readyInstance is the first instance a ready step of a journey frame
// lists.
func readyInstance(r map[string]any, step string) string {
	rows, _ := r["readySteps"].([]any)
	for _, x := range rows {
		if m := x.(map[string]any); m["step"] == step {
			if in, _ := m["instances"].([]any); len(in) > 0 {
				s, _ := in[0].(string)
				return s
			}
		}
	}
	return ""
}

// TestShopOverStdioSurvivesBadLines runs examples/shop over stdio and
// sends it a garbage line, a batch and a truncated request between good
// ones: each bad line gets its JSON-RPC error and the session goes on.
func TestShopOverStdioSurvivesBadLines(t *testing.T) {
	bin := buildShop(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := stdiotest.Start(ctx, t, bin, "-mcp", "stdio")

	p.Send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}` + "\r\n")
	p.Want("1", 0)
	p.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")

	p.Send("GET / HTTP/1.1\n")
	p.Want("null", -32700)
	p.Send(`[{"jsonrpc":"2.0","id":90,"method":"tools/list"},{"jsonrpc":"2.0","id":91,"method":"ping"}]` + "\n")
	p.Want("null", -32600)
	p.Send(`{"jsonrpc":"2.0","id":92,"method":"tools/call","params":{"name":"shop.wh` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n")
	p.Want("null", -32700)
	if r := p.Want("2", 0); !strings.Contains(string(r.Result), `"shop.whats_here"`) {
		t.Fatalf("tools/list has no shop.whats_here: %s", r.Result)
	}
	p.Send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"shop.whats_here","arguments":{}}}` + "\n")
	if r := p.Want("3", 0); strings.Contains(string(r.Result), `"isError":true`) {
		t.Fatalf("whats_here: %s", r.Result)
	}
	p.End()
}
