package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/internal/tmuxtest"
)

// The shop has one token: whoever holds it is one identity, however many
// MCP sessions it opens. Its held payments are bounded as one identity's
// (agent.DefaultMaxHeldPerIdentity): a second session of the same token
// cannot put more cards in front of the person; its payment is refused
// to retry later, and nothing is held for it.
func TestOneTokensSessionsShareTheHeldBound(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal")
	}
	term, a := reviewIn(t, "-approval-timeout 60s -patience 50s")
	a.read()

	ctx, giveUp := context.WithCancel(context.Background())
	paid := holdBound(ctx, term, a, "order-1")
	defer func() {
		giveUp()
		for _, ch := range paid {
			<-ch
		}
	}()
	held := len(paid)

	b := connectAgent(t, a.url, "s3cret")
	b.read()
	r := answerOf(t, b.pay("order-1"))
	if !r.isError || !strings.Contains(r.text+fmt.Sprint(r.data), "RetryLater") {
		t.Fatalf("a second session of the same token past the bound: %+v", r)
	}
	if s := term.Screen(); tmuxtest.Has(fmt.Sprintf("card 1 of %d", held+1))(s) {
		t.Fatalf("a card past the bound:\n%s", s)
	}
}
