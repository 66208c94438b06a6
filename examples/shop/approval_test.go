package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/peer"
	"github.com/foldagent/foldagent/internal/testbin"
)

// terminal is the real binary in tmux: what a person sees and types.
type terminal struct {
	t       *testing.T
	tmux    string
	session string
}

func newTerminal(t *testing.T, command string) *terminal {
	t.Helper()
	tmux := peer.Program(t, "tmux")
	session := fmt.Sprintf("foldagent-shop-%d-%s", os.Getpid(), filepath.Base(filepath.Dir(t.TempDir())))
	term := &terminal{t: t, tmux: tmux, session: session}
	term.run("new-session", "-d", "-s", session, "-x", "140", "-y", "45", command)
	t.Cleanup(func() { _ = exec.Command(tmux, "-L", session, "kill-server").Run() })
	return term
}

func (term *terminal) run(args ...string) string {
	term.t.Helper()
	out, err := exec.Command(term.tmux, append([]string{"-L", term.session}, args...)...).CombinedOutput()
	if err != nil {
		term.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (term *terminal) keys(keys ...string) {
	term.run(append([]string{"send-keys", "-t", term.session}, keys...)...)
}

// wait returns the screen once cond holds of it.
func (term *terminal) wait(what string, cond func(string) bool) string {
	term.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := term.run("capture-pane", "-p", "-t", term.session)
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func has(parts ...string) func(string) bool {
	return func(s string) bool {
		for _, p := range parts {
			if !strings.Contains(s, p) {
				return false
			}
		}
		return true
	}
}

func lacks(part string) func(string) bool {
	return func(s string) bool { return !strings.Contains(s, part) }
}

// agentAt is one agent on the shop's dynamic tools over HTTP.
type agentAt struct {
	t  *testing.T
	cs *mcp.ClientSession
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
	return &agentAt{t: t, cs: cs}
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
	bin := testbin.Build(t, "examples/shop")
	term := newTerminal(t, bin+" -token s3cret -pay-delay 20ms -approval-timeout 2s")
	screen := term.wait("the endpoint", has("MCP: http://", "(fixed journey tools)"))
	url := regexp.MustCompile(`MCP: (http://\S+/mcp)`).FindStringSubmatch(screen)[1] + "/dynamic"
	a := connectAgent(t, url, "s3cret")

	// To checkout with the red dress; the person gives the address.
	a.must("open_product", map[string]any{"sku": "dress-red"})
	a.must("add_to_cart", map[string]any{"qty": 1})
	a.must("go_to_cart", nil)
	a.must("checkout", nil)
	term.keys("a")
	term.wait("the address prompt", has("enter gives it"))
	term.keys("-l", "1 Main St")
	term.keys("Enter")
	term.wait("the address", has("address: 1 Main St"))
	a.must("open_review", nil)

	// Approved.
	paid := a.pay("order-1")
	term.wait("the card", has("APPROVE? Pay for the order under review.", "order order-1  total 120  deliver to 1 Main St", "y approves, n declines"))
	term.keys("y")
	if r := answerOf(t, paid); !r.completed() {
		t.Fatalf("approved payment: %+v", r)
	}
	term.wait("the paid order and the answer", has("order-1  120  paid", "pay {\"order\":\"order-1\"} → approval approved"))

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
	term.wait("the second card", has("order order-2"))
	term.keys("n")
	if r := answerOf(t, declined); !r.isError || r.tag() != "AgentDeclinedError" {
		t.Fatalf("declined payment: %+v", r)
	}
	term.wait("the declined answer", has("order-2  95  awaiting-payment", "→ approval declined"))

	// The person changes the address while the payment waits: void.
	stale := a.pay("order-2")
	term.wait("the third card", has("order order-2", "deliver to 1 Main St"))
	term.keys("x") // close the review to edit the address
	term.wait("the review closed", has("review: closed"))
	term.keys("a")
	term.keys("-l", " Apt 2")
	term.keys("Enter")
	if r := answerOf(t, stale); !r.isError || r.tag() != "AgentStaleViewError" {
		t.Fatalf("payment of a moved order: %+v", r)
	}
	term.wait("the void card gone", func(s string) bool {
		return has("order-2  95  awaiting-payment", "→ approval stale")(s) && lacks("APPROVE?")(s)
	})
	a.must("open_review", nil) // the agent acts again, on what it now sees

	// Nobody answers: withdrawn, nothing paid.
	timeout := a.pay("order-2")
	term.wait("the fourth card", has("order order-2", "deliver to 1 Main St Apt 2"))
	if r := answerOf(t, timeout); !r.isError || r.tag() != "AgentApprovalTimeoutError" {
		t.Fatalf("unanswered payment: %+v", r)
	}
	term.wait("the card gone", func(s string) bool { return has("→ approval timeout")(s) && lacks("APPROVE?")(s) })

	// Two agents at once, each answered on its own.
	b := connectAgent(t, url, "s3cret")
	first := a.pay("order-2")
	term.wait("a's card", has("APPROVE?"))
	second := b.pay("order-2")
	term.wait("b's card waiting behind", has("(1 more waiting)"))
	term.keys("n")
	if r := answerOf(t, first); r.tag() != "AgentDeclinedError" {
		t.Fatalf("a's payment: %+v", r)
	}
	term.wait("b's card alone", func(s string) bool { return has("APPROVE?")(s) && lacks("more waiting")(s) })
	term.keys("y")
	if r := answerOf(t, second); !r.completed() {
		t.Fatalf("b's payment: %+v", r)
	}
	term.wait("order-2 paid", has("order-2  95  paid"))
}
