package main

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/testbin"
	"github.com/foldagent/foldagent/internal/tmuxtest"
)

// payUntil calls pay until ctx is cancelled (the agent gives up) or it
// is answered; it reports whether the payment went through.
func (a *agentAt) payUntil(ctx context.Context, order string) <-chan bool {
	out := make(chan bool, 1)
	go func() {
		res, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: "pay", Arguments: map[string]any{"order": order}})
		out <- err == nil && !res.IsError
	}()
	return out
}

// holdBound starts as many payments of order as one identity may hold
// (agent.DefaultMaxHeldPerIdentity), each held for the person until ctx
// ends, and waits for a card for each on the screen. It returns whether
// each was paid, once it has ended.
func holdBound(ctx context.Context, term *tmuxtest.Terminal, a *agentAt, order string) []<-chan bool {
	a.t.Helper()
	paid := make([]<-chan bool, agent.DefaultMaxHeldPerIdentity)
	for i := range paid {
		paid[i] = a.payUntil(ctx, order)
	}
	term.Wait("a card for each held call", tmuxtest.Has(fmt.Sprintf("card 1 of %d", len(paid))))
	return paid
}

// An agent's payment of 120 waits on the person's screen; just before
// the person's y the agent gives it up, adds to the order and asks, in
// its place, to pay 215. The y lands on a card drawn a moment before: it pays
// nothing, and the card says so. The y after that card has settled pays
// the order it shows, and only that one.
func TestASwapJustBeforeTheKeyPaysNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal")
	}
	term, a := atReview(t)

	ctx, giveUp := context.WithCancel(context.Background())
	defer giveUp()
	small := a.payUntil(ctx, "order-1")
	term.Wait("the card for 120, settled", tmuxtest.Has(`orderUnderReview.order (watched): "order-1"`, "orderUnderReview.total (watched): 120", "y approves, n declines"))

	// The swap: the agent gives up its request and asks for a bigger
	// order; the person's y lands as the new card appears.
	giveUp()
	if <-small {
		t.Fatal("a payment the agent gave up went through")
	}
	a.must("close_review", nil)
	a.must("go_to_cart", nil)
	a.must("go_to_catalog", nil)
	a.must("open_product", map[string]any{"sku": "dress-blue"})
	a.must("add_to_cart", map[string]any{"qty": 1})
	a.must("go_to_cart", nil)
	a.must("checkout", nil)
	a.must("open_review", nil)
	a.read()
	big := a.pay("order-1") // the same order, now 215
	term.Wait("the card for 215", tmuxtest.Has(`orderUnderReview.order (watched): "order-1"`, "orderUnderReview.total (watched): 215", "read the card"))
	term.Keys("y")
	term.Wait("the key refused", tmuxtest.Has("orderUnderReview.total (watched): 215", "came too soon"))
	select {
	case r := <-big:
		t.Fatalf("the early y answered the new card: %+v", r)
	default:
	}
	if s := term.Screen(); tmuxtest.Has("  paid")(s) {
		t.Fatalf("something was paid:\n%s", s)
	}

	term.Wait("the card for 215, settled", tmuxtest.Has("orderUnderReview.total (watched): 215", "y approves, n declines"))
	term.Keys("y")
	if r := answerOf(t, big); !r.completed() {
		t.Fatalf("the payment approved once its card settled: %+v", r)
	}
	term.Wait("order-1 paid, at the total its card showed", tmuxtest.Has("order-1  215  paid"))
}

// atReview runs the real shop in a terminal and brings an agent to the
// order review of a red dress (120), the person having given the
// address, and the agent having read the order.
func atReview(t *testing.T) (*tmuxtest.Terminal, *agentAt) {
	t.Helper()
	term, a := reviewIn(t, "-approval-timeout 30s")
	a.read() // a result is a look only at what it showed: read the order before paying
	return term, a
}

// reviewIn runs the real shop (the token s3cret, a 20 ms payment server,
// and flags) in a terminal, and brings an agent over the dynamic tools to
// the order review of a red dress (120), the person typing the address.
// The agent has not read the order.
func reviewIn(t *testing.T, flags string) (*tmuxtest.Terminal, *agentAt) {
	t.Helper()
	bin := testbin.Build(t, "examples/shop")
	term := tmuxtest.Start(t, "shop", bin+" -token s3cret -pay-delay 20ms "+flags, 140, 45)
	screen := term.Wait("the endpoint", tmuxtest.Has("MCP: http://", "(fixed journey tools)"))
	url := regexp.MustCompile(`MCP: (http://\S+/mcp)`).FindStringSubmatch(screen)[1] + "/dynamic"
	a := connectAgent(t, url, "s3cret")

	a.must("open_product", map[string]any{"sku": "dress-red"})
	a.must("add_to_cart", map[string]any{"qty": 1})
	a.must("go_to_cart", nil)
	a.must("checkout", nil)
	term.Keys("a")
	term.Wait("the address prompt", tmuxtest.Has("enter gives it"))
	term.Keys("-l", "1 Main St")
	term.Keys("Enter")
	term.Wait("the address", tmuxtest.Has("address: 1 Main St"))
	a.must("open_review", nil)
	return term, a
}

// Held payments whose agents give up, as many as one identity may hold
// (agent.DefaultMaxHeldPerIdentity), leave no card on the screen.
func TestGivenUpPaymentsLeaveNoCard(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal")
	}
	term, a := atReview(t)
	ctx, giveUp := context.WithCancel(context.Background())
	paid := holdBound(ctx, term, a, "order-1")
	giveUp()
	for _, ch := range paid {
		if <-ch {
			t.Error("a payment its agent gave up went through")
		}
	}
	term.Wait("no card left", func(s string) bool {
		return tmuxtest.Lacks("APPROVE?")(s) && tmuxtest.Lacks("━━ approval")(s) && tmuxtest.Has("order-1  120  awaiting-payment")(s)
	})
}
