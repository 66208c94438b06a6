package main

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/tmuxtest"
)

// agentAt is one agent on the shop's dynamic tools over HTTP.
type agentAt struct {
	t   *testing.T
	cs  *mcp.ClientSession
	url string // the endpoint it connected to, where another agent may connect too
}

func connectAgent(t *testing.T, url, token string) *agentAt {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if _, err := cs.ListTools(context.Background(), nil); err != nil { // the agent's first look
		t.Fatal(err)
	}
	return &agentAt{t: t, cs: cs, url: url}
}

type reply struct {
	isError bool
	text    string
	data    map[string]any
}

func (a *agentAt) call(name string, args map[string]any) reply {
	a.t.Helper()
	res, err := a.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		a.t.Fatalf("%s: %v", name, err)
	}
	r := reply{isError: res.IsError, text: res.Content[0].(*mcp.TextContent).Text}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &r.data)
	return r
}

// read reads the shop's context: the agent's new look at every watched
// value it shows.
func (a *agentAt) read() {
	a.t.Helper()
	if _, err := a.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "app://context"}); err != nil {
		a.t.Fatalf("reading the context: %v", err)
	}
}

func (a *agentAt) must(name string, args map[string]any) reply {
	a.t.Helper()
	r := a.call(name, args)
	if r.isError {
		a.t.Fatalf("%s: %s", name, r.text)
	}
	return r
}

// pay calls pay in the background: it waits for the person.
func (a *agentAt) pay(order string) <-chan reply {
	out := make(chan reply, 1)
	go func() { out <- a.call("pay", map[string]any{"order": order}) }()
	return out
}

func answerOf(t *testing.T, ch <-chan reply) reply {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("the payment never answered")
		return reply{}
	}
}

func (r reply) tag() string { s, _ := r.data["_tag"].(string); return s }

func (r reply) completed() bool {
	c, _ := r.data["completion"].(map[string]any)
	return !r.isError && c["status"] == "completed"
}

// TestPersonApprovesPaymentsInTheApp drives the real binary in a terminal,
// as the person, while agents pay over HTTP: each payment waits with its
// card on screen, showing the order, its total and the delivery address.
// y approves it (paid); n declines it (AgentDeclinedError, nothing paid);
// a change of address while it waits voids it (AgentStaleViewError,
// nothing paid); no answer withdraws it (AgentApprovalTimeoutError, the
// card gone, nothing paid); two agents' requests wait at once and are
// answered one by one.
func TestPersonApprovesPaymentsInTheApp(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal for several seconds")
	}
	// To the review of the red dress; the person gives the address.
	term, a := reviewIn(t, "-approval-timeout 4s")
	// The address the person gave is in the order under review, and no
	// result showed it to the agent (a result is a look only at what it
	// showed): its payment is refused stale until it reads.
	if r := a.call("pay", map[string]any{"order": "order-1"}); r.tag() != "AgentStaleViewError" {
		t.Fatalf("a payment of an address the agent never saw: %+v", r)
	}
	a.read()

	// Approved.
	paid := a.pay("order-1")
	term.Wait("the card", tmuxtest.Has("APPROVE? Pay for the order under review.", `orderUnderReview.order (watched): "order-1"`, "orderUnderReview.total (watched): 120", `orderUnderReview.address (watched): "1 Main St"`, "y approves, n declines"))
	term.Keys("y")
	if r := answerOf(t, paid); !r.completed() {
		t.Fatalf("approved payment: %+v", r)
	}
	term.Wait("the paid order and the answer", tmuxtest.Has("order-1  120  paid", "pay {\"order\":\"order-1\"} → approval approved"))

	// A second order, for the rest.
	a.must("close_review", nil)
	a.must("go_to_cart", nil)
	a.must("go_to_catalog", nil)
	a.must("open_product", map[string]any{"sku": "dress-blue"})
	a.must("add_to_cart", map[string]any{"qty": 1})
	a.must("go_to_cart", nil)
	a.must("checkout", nil)
	a.must("open_review", nil)

	// Declined: nothing paid.
	declined := a.pay("order-2")
	term.Wait("the second card, settled", tmuxtest.Has(`orderUnderReview.order (watched): "order-2"`, "y approves, n declines"))
	term.Keys("n")
	if r := answerOf(t, declined); !r.isError || r.tag() != "AgentDeclinedError" {
		t.Fatalf("declined payment: %+v", r)
	}
	term.Wait("the declined answer", tmuxtest.Has("order-2  95  awaiting-payment", "→ approval declined"))

	// The person changes the address while the payment waits: void.
	stale := a.pay("order-2")
	term.Wait("the third card", tmuxtest.Has(`orderUnderReview.order (watched): "order-2"`, `orderUnderReview.address (watched): "1 Main St"`))
	term.Keys("x") // close the review to edit the address
	term.Wait("the review closed", tmuxtest.Has("review: closed"))
	term.Keys("a")
	term.Keys("-l", " Apt 2")
	term.Keys("Enter")
	if r := answerOf(t, stale); !r.isError || r.tag() != "AgentStaleViewError" {
		t.Fatalf("payment of a moved order: %+v", r)
	}
	term.Wait("the void card gone", func(s string) bool {
		return tmuxtest.Has("order-2  95  awaiting-payment", "→ approval stale")(s) && tmuxtest.Lacks("APPROVE?")(s)
	})
	a.must("open_review", nil)
	a.read() // the agent acts again, on what it now sees

	// Nobody answers: withdrawn, nothing paid.
	timeout := a.pay("order-2")
	term.Wait("the fourth card", tmuxtest.Has(`orderUnderReview.order (watched): "order-2"`, `orderUnderReview.address (watched): "1 Main St Apt 2"`))
	if r := answerOf(t, timeout); !r.isError || r.tag() != "AgentApprovalTimeoutError" {
		t.Fatalf("unanswered payment: %+v", r)
	}
	term.Wait("the card gone", func(s string) bool { return tmuxtest.Has("→ approval timeout")(s) && tmuxtest.Lacks("APPROVE?")(s) })

	// Two agents at once, each answered on its own.
	b := connectAgent(t, a.url, "s3cret")
	first := a.pay("order-2")
	term.Wait("a's card", tmuxtest.Has("APPROVE?"))
	second := b.pay("order-2")
	term.Wait("b's card waiting behind", tmuxtest.Has("card 1 of 2"))
	term.Wait("a's card settled", tmuxtest.Has("card 1 of 2", "y approves, n declines"))
	term.Keys("n")
	if r := answerOf(t, first); r.tag() != "AgentDeclinedError" {
		t.Fatalf("a's payment: %+v", r)
	}
	term.Wait("b's card alone, settled", func(s string) bool {
		return tmuxtest.Has("APPROVE?", "card 1 of 1", "y approves, n declines")(s) && tmuxtest.Lacks("card 1 of 2")(s)
	})
	term.Keys("y")
	if r := answerOf(t, second); !r.completed() {
		t.Fatalf("b's payment: %+v", r)
	}
	term.Wait("order-2 paid", tmuxtest.Has("order-2  95  paid"))
}
