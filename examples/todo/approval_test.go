package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/tmuxtest"
)

// ownerAgent is an owner's MCP client on the running app's HTTP endpoint.
type ownerAgent struct {
	t  *testing.T
	cs *mcp.ClientSession
}

type bearerToken string

func (b bearerToken) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

func connectOwner(t *testing.T, url, token string) *ownerAgent {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "owner-agent", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearerToken(token)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if _, err := cs.ListTools(context.Background(), nil); err != nil { // its first look
		t.Fatal(err)
	}
	return &ownerAgent{t: t, cs: cs}
}

type toolAnswer struct {
	isError bool
	text    string
	data    map[string]any
}

func (r toolAnswer) tag() string { s, _ := r.data["_tag"].(string); return s }

func (r toolAnswer) completed() bool {
	c, _ := r.data["completion"].(map[string]any)
	return !r.isError && c["status"] == "completed"
}

func (o *ownerAgent) call(name string, args map[string]any) toolAnswer {
	o.t.Helper()
	res, err := o.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		o.t.Fatalf("%s: %v", name, err)
	}
	a := toolAnswer{isError: res.IsError, text: res.Content[0].(*mcp.TextContent).Text}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &a.data)
	return a
}

// doneTodo creates a todo and marks it done.
func (o *ownerAgent) doneTodo(title string) {
	o.t.Helper()
	r := o.call("create_todo", map[string]any{"title": title})
	c, _ := r.data["completion"].(map[string]any)
	m, _ := c["message"].(map[string]any)
	td, _ := m["todo"].(map[string]any)
	id, _ := td["id"].(string)
	if !r.completed() || id == "" {
		o.t.Fatalf("create_todo: %+v", r)
	}
	if r := o.call("toggle_todo", map[string]any{"id": id}); !r.completed() {
		o.t.Fatalf("toggle_todo: %+v", r)
	}
}

// read reads the app's context: the agent's new look.
func (o *ownerAgent) read() {
	o.t.Helper()
	if _, err := o.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "app://context"}); err != nil {
		o.t.Fatalf("reading the context: %v", err)
	}
}

func (o *ownerAgent) clear() <-chan toolAnswer {
	out := make(chan toolAnswer, 1)
	go func() { out <- o.call("clear_completed", map[string]any{}) }()
	return out
}

func cleared(t *testing.T, ch <-chan toolAnswer) toolAnswer {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("clear_completed never answered")
		return toolAnswer{}
	}
}

// TestOwnerApprovesAnAgentsClearInTheApp runs the real binary in a
// terminal, as its owner, while owner agents call clear_completed over
// HTTP: each call waits with its card on screen naming the todos it
// removes; y approves it, n declines it (nothing removed); the person
// clearing the list themselves while it waits voids it; no answer
// withdraws it; two agents' requests are answered one by one.
func TestOwnerApprovesAnAgentsClearInTheApp(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal for several seconds")
	}
	bin := buildTodo(t)
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens.json")
	if err := os.WriteFile(tokens, []byte(`{"tok-alice": {"name": "alice", "role": "owner"}, "tok-bob": {"name": "bob", "role": "owner"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	term := tmuxtest.Start(t, "todo", bin+" -data "+filepath.Join(dir, "todos.json")+" -tokens "+tokens+" -approval-timeout 4s", 110, 44)
	screen := term.Wait("the endpoints", tmuxtest.Has("agents: MCP at http://", "/a2a (0.3 at http://", "/a2a/v0.3)", "actions at http://"))
	url := regexp.MustCompile(`MCP at (http://\S+/mcp)`).FindStringSubmatch(screen)[1]
	alice := connectOwner(t, url, "tok-alice")

	// Approved.
	alice.doneTodo("Buy milk")
	r := alice.clear()
	term.Wait("the card", tmuxtest.Has("APPROVE? Remove every todo that is done.", `doneTodos (watched): [{"id":"t1","title":"Buy milk","done":true}]`, "y approves, n declines"))
	term.Keys("y")
	if a := cleared(t, r); !a.completed() {
		t.Fatalf("approved clear: %+v", a)
	}
	term.Wait("the list cleared and the answer", func(s string) bool {
		return tmuxtest.Has("approval approved", "(no todos yet")(s) && tmuxtest.Lacks("APPROVE?")(s)
	})

	// Declined: nothing removed.
	alice.doneTodo("Walk the dog")
	r = alice.clear()
	term.Wait("the second card, settled", tmuxtest.Has(`"title":"Walk the dog"`, "y approves, n declines"))
	term.Keys("n")
	if a := cleared(t, r); a.tag() != "AgentDeclinedError" {
		t.Fatalf("declined clear: %+v", a)
	}
	term.Wait("the todo kept", func(s string) bool {
		return tmuxtest.Has("[x] Walk the dog", "approval declined")(s) && tmuxtest.Lacks("APPROVE?")(s)
	})

	// The owner clears it themselves while the agent's request waits:
	// what the request covers moved, so it is void.
	r = alice.clear()
	term.Wait("the third card", tmuxtest.Has("APPROVE?", `"title":"Walk the dog"`))
	term.Keys("c")
	if a := cleared(t, r); a.tag() != "AgentStaleViewError" {
		t.Fatalf("clear of a moved list: %+v", a)
	}
	term.Wait("the void card gone", func(s string) bool { return tmuxtest.Has("approval stale")(s) && tmuxtest.Lacks("APPROVE?")(s) })
	// Told to read again, alice reads: the todo the owner cleared is gone
	// from what she saw (no result of hers showed that).
	alice.read()

	// Nobody answers: withdrawn, nothing removed.
	alice.doneTodo("Call mom")
	r = alice.clear()
	term.Wait("the fourth card", tmuxtest.Has("APPROVE?", `"title":"Call mom"`))
	if a := cleared(t, r); a.tag() != "AgentApprovalTimeoutError" {
		t.Fatalf("unanswered clear: %+v", a)
	}
	term.Wait("the card gone", func(s string) bool {
		return tmuxtest.Has("approval timeout", "[x] Call mom")(s) && tmuxtest.Lacks("APPROVE?")(s)
	})

	// Two agents at once, answered one by one.
	bob := connectOwner(t, url, "tok-bob")
	first := alice.clear()
	term.Wait("alice's card", tmuxtest.Has("APPROVE?"))
	second := bob.clear()
	term.Wait("bob's card behind", tmuxtest.Has("card 1 of 2"))
	term.Wait("alice's card settled", tmuxtest.Has("card 1 of 2", "y approves, n declines"))
	term.Keys("n")
	if a := cleared(t, first); a.tag() != "AgentDeclinedError" {
		t.Fatalf("alice's clear: %+v", a)
	}
	term.Wait("bob's card alone, settled", func(s string) bool {
		return tmuxtest.Has("APPROVE?", "card 1 of 1", "y approves, n declines")(s) && tmuxtest.Lacks("card 1 of 2")(s)
	})
	term.Keys("y")
	if a := cleared(t, second); !a.completed() {
		t.Fatalf("bob's clear: %+v", a)
	}
	term.Wait("the list cleared", func(s string) bool { return tmuxtest.Has("(no todos yet")(s) && tmuxtest.Lacks("APPROVE?")(s) })
}
