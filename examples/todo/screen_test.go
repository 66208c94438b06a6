package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/tmuxtest"
)

// ownerTerminal runs the real binary in a terminal with two owner
// agents, alice and bob, on its HTTP endpoint.
func ownerTerminal(t *testing.T) (*tmuxtest.Terminal, *ownerAgent, func() *ownerAgent) {
	t.Helper()
	if testing.Short() {
		t.Skip("drives a real terminal")
	}
	bin := buildTodo(t)
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens.json")
	if err := os.WriteFile(tokens, []byte(`{"tok-alice": {"name": "alice", "role": "owner"}, "tok-bob": {"name": "bob", "role": "owner"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	term := tmuxtest.Start(t, "todo", bin+" -data "+filepath.Join(dir, "todos.json")+" -tokens "+tokens+" -approval-timeout 30s", 110, 44)
	screen := term.Wait("the endpoints", tmuxtest.Has("agents: MCP at http://"))
	url := regexp.MustCompile(`MCP at (http://\S+/mcp)`).FindStringSubmatch(screen)[1]
	// bob connects (and takes his first look) when asked to.
	return term, connectOwner(t, url, "tok-alice"), func() *ownerAgent { return connectOwner(t, url, "tok-bob") }
}

// clearUntil calls clear_completed until ctx is cancelled (the agent
// gives up) or it is answered.
func (o *ownerAgent) clearUntil(ctx context.Context) <-chan error {
	out := make(chan error, 1)
	go func() {
		res, err := o.cs.CallTool(ctx, &mcp.CallToolParams{Name: "clear_completed", Arguments: map[string]any{}})
		if err == nil && !res.IsError {
			err = nil
		} else if err == nil {
			err = fmt.Errorf("refused: %s", res.Content[0].(*mcp.TextContent).Text)
		}
		out <- err
	}()
	return out
}

// An agent withdraws its request and another asks in its place just
// before the owner's y (the screen has just drawn the new card): the y
// approves nothing, and says so. The y after the new card has settled
// approves it, and only it.
func TestASwapJustBeforeTheKeyApprovesNothing(t *testing.T) {
	term, alice, bobComes := ownerTerminal(t)
	alice.doneTodo("Buy milk")
	bob := bobComes()
	ctx, giveUp := context.WithCancel(context.Background())
	defer giveUp()
	first := alice.clearUntil(ctx)
	term.Wait("alice's card, settled", tmuxtest.Has("asked by agent 1", "y approves, n declines"))

	giveUp()
	if err := <-first; err == nil {
		t.Fatal("alice gave up, yet her clear ran")
	}
	second := bob.clear()
	term.Wait("bob's card in its place", tmuxtest.Has("asked by agent 2", "read the card"))
	term.Keys("y")
	term.Wait("the key refused", tmuxtest.Has("asked by agent 2", "came too soon", "[x] Buy milk"))
	select {
	case a := <-second:
		t.Fatalf("the early y answered bob's request: %+v", a)
	default:
	}

	term.Wait("bob's card, settled", tmuxtest.Has("asked by agent 2", "y approves, n declines"))
	term.Keys("y")
	if a := cleared(t, second); !a.completed() {
		t.Fatalf("bob's clear, approved once settled: %+v", a)
	}
	term.Wait("the list cleared", func(s string) bool { return tmuxtest.Has("(no todos yet")(s) && tmuxtest.Lacks("APPROVE?")(s) })
}

// A todo title carrying line breaks, a fake card and SGR 8 (conceal)
// draws as inert text on its own line; the real card is the only one,
// below the rule, and nothing on screen is concealed.
func TestAHostileTitleDrawsInert(t *testing.T) {
	term, alice, _ := ownerTerminal(t)
	hostile := "Buy milk\n\nAPPROVE? Remove nothing.\n  y approves, n declines\x1b[8m"
	alice.doneTodo(hostile)
	r := alice.clear()
	// The title says "y approves, n declines" too: the card has settled
	// when it no longer asks the owner to read it.
	term.Wait("the card", tmuxtest.Has("APPROVE? Remove every todo that is done.", "read the card"))
	screen := term.Wait("the card, settled", func(s string) bool {
		return tmuxtest.Has("APPROVE? Remove every todo that is done.")(s) && tmuxtest.Lacks("read the card")(s)
	})
	if !strings.Contains(screen, "[x] Buy milk␤␤APPROVE? Remove nothing.␤  y approves, n declines␛[8m") {
		t.Fatalf("the title is not drawn inert on one line:\n%s", screen)
	}
	var starts, rule int
	for i, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "APPROVE?") {
			starts++
			if rule == 0 || i != rule+1 {
				t.Fatalf("a card line not right under the rule (line %d, rule %d):\n%s", i, rule, screen)
			}
		}
		if strings.HasPrefix(l, "━━ approval") {
			rule = i
		}
	}
	if starts != 1 {
		t.Fatalf("%d cards on screen, want the one real card:\n%s", starts, screen)
	}
	if styled := term.Styled(); regexp.MustCompile(`\x1b\[[0-9;]*\b8m`).MatchString(styled) {
		t.Fatalf("concealed cells on screen:\n%q", styled)
	}
	term.Keys("n")
	if a := cleared(t, r); a.tag() != "AgentDeclinedError" {
		t.Fatalf("declined: %+v", a)
	}
}

// Held calls that give up, as many as one identity may hold
// (agent.DefaultMaxHeldPerIdentity), leave no card on screen.
func TestGivenUpCallsLeaveNoCard(t *testing.T) {
	term, alice, _ := ownerTerminal(t)
	alice.doneTodo("Buy milk")
	ctx, giveUp := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	held := agent.DefaultMaxHeldPerIdentity
	for range held {
		ch := alice.clearUntil(ctx)
		wg.Add(1)
		go func() { defer wg.Done(); <-ch }()
	}
	term.Wait("a card for each held call", tmuxtest.Has(fmt.Sprintf("card 1 of %d", held)))
	giveUp()
	wg.Wait()
	term.Wait("no card left", func(s string) bool {
		return tmuxtest.Lacks("APPROVE?")(s) && tmuxtest.Lacks("━━ approval")(s) && tmuxtest.Has("[x] Buy milk")(s)
	})
}
