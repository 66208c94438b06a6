//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/testbin"
)

// agentClient is one MCP client of a shop served over HTTP with the
// dynamic tools: a model that knows only what the server answers.
type agentClient struct {
	t    *testing.T
	name string
	cs   *mcp.ClientSession
}

// startHTTPShop runs the real shop binary headless over HTTP with the
// dynamic tools and returns its URL and audit file.
func startHTTPShop(t *testing.T) (url, audit string) {
	t.Helper()
	audit = filepath.Join(t.TempDir(), "audit.jsonl")
	return runHTTPShop(t, "-tools", "dynamic", "-audit", audit), audit
}

// runHTTPShop runs the real shop binary headless over HTTP with the token
// s3cret and args, and returns the URL it printed.
func runHTTPShop(t *testing.T, args ...string) (url string) {
	t.Helper()
	bin := testbin.Build(t, "examples/shop")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append([]string{"-mcp", "http", "-token", "s3cret"}, args...)...)
	cmd.Stderr = os.Stderr
	stdout := testbin.Start(t, cmd).Stdout
	t.Cleanup(cancel)
	lines := bufio.NewScanner(stdout)
	for url == "" && lines.Scan() {
		url, _ = strings.CutPrefix(lines.Text(), "MCP ")
	}
	if url == "" {
		t.Fatal("the shop printed no URL")
	}
	go func() {
		for lines.Scan() {
		}
	}()
	return url
}

func connect(t *testing.T, url, name string) *agentClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{"s3cret"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &agentClient{t: t, name: name, cs: cs}
}

// answer is one tool result as a model reads it.
type answer struct {
	isError bool
	text    string
	data    map[string]any
	version float64
}

func (a *agentClient) call(name string, args map[string]any) answer {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		a.t.Fatalf("%s %s: %v", a.name, name, err)
	}
	out := answer{isError: res.IsError, text: res.Content[0].(*mcp.TextContent).Text}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &out.data)
	if v, ok := res.Meta["foldagent/version"].(float64); ok {
		out.version = v
	}
	return out
}

// readContext reads the app's context resource: reading again.
func (a *agentClient) readContext() map[string]any {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := a.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "app://context"})
	if err != nil {
		a.t.Fatalf("%s reads the context: %v", a.name, err)
	}
	if _, ok := res.Meta["foldagent/version"].(float64); !ok {
		a.t.Errorf("a context read carries no version: %v", res.Meta)
	}
	var view map[string]any
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &view); err != nil {
		a.t.Fatal(err)
	}
	return view
}

func (ans answer) tag() string { s, _ := ans.data["_tag"].(string); return s }

// open puts sku on the product page, going back to the catalog first
// when another client left the shop elsewhere, and retrying what the
// other client's moves made unavailable meanwhile.
func (a *agentClient) open(sku string) {
	a.t.Helper()
	for range 50 {
		a.call("go_to_catalog", nil) // refused when already there; harmless
		if r := a.call("open_product", map[string]any{"sku": sku}); !r.isError {
			return
		}
	}
	a.t.Fatalf("%s could not open %s", a.name, sku)
}

// Two agents on one shop, one step each in turn: A opens the red dress,
// B the blue one, and A's add, built from what A saw, is refused as stale
// instead of putting B's dress in the cart.
func TestTwoAgentsInterleavedOverHTTP(t *testing.T) {
	url, audit := startHTTPShop(t)
	a, b := connect(t, url, "agent-a"), connect(t, url, "agent-b")
	const rounds = 200
	// What A is told must be the same every round, but for the version.
	var first string
	for i := range rounds {
		a.open("dress-red")
		b.open("dress-blue")
		r := a.call("add_to_cart", nil)
		if !r.isError || r.tag() != "AgentStaleViewError" {
			t.Fatalf("round %d: A's add after B opened another product: %v %s", i, r.isError, r.text)
		}
		if moved, _ := r.data["moved"].([]any); len(moved) != 1 || moved[0] != "openProduct" {
			t.Fatalf("round %d: the refusal names %v", i, r.data["moved"])
		}
		if v, _ := r.data["version"].(float64); v == 0 {
			t.Fatalf("round %d: the refusal names no current version: %v", i, r.data)
		}
		if strings.Contains(r.text, "dress") {
			t.Fatalf("round %d: a runtime value in the sentence: %q", i, r.text)
		}
		delete(r.data, "version")
		delete(r.data, "seenVersion")
		same, _ := json.Marshal(r.data)
		if first == "" {
			first = r.text + string(same)
		} else if r.text+string(same) != first {
			t.Fatalf("round %d: told %s%s, first told %s", i, r.text, same, first)
		}
		if r := b.call("add_to_cart", nil); r.isError {
			t.Fatalf("round %d: B's own add: %s", i, r.text)
		}
		// A reads again, sees the blue dress open, and opens its own.
		if view := a.readContext(); fmt.Sprint(view["product"].(map[string]any)["sku"]) != "dress-blue" {
			t.Fatalf("round %d: A read %v", i, view["product"])
		}
		a.open("dress-red")
		if r := a.call("add_to_cart", nil); r.isError {
			t.Fatalf("round %d: A's add after reading again: %s", i, r.text)
		}
	}
	view := a.readContext()
	cart := map[string]float64{}
	for _, l := range view["cart"].([]any) {
		line := l.(map[string]any)
		cart[line["sku"].(string)] = line["qty"].(float64)
	}
	if cart["dress-red"] != rounds || cart["dress-blue"] != rounds {
		t.Errorf("cart = %v, want %d of each", cart, rounds)
	}
	stale := auditOutcomes(t, audit, "add_to_cart")
	if stale["AgentStaleViewError/refused"] != rounds || stale["dispatched/dispatched"] != 2*rounds || len(stale) != 2 {
		t.Errorf("audit of add_to_cart: %v", stale)
	}
}

// The same two agents at the same moment, each on its own goroutine, with
// a different quantity: every add that went through added the product its
// caller opened, so the cart's quantities are exact multiples.
func TestTwoAgentsConcurrentlyOverHTTP(t *testing.T) {
	url, audit := startHTTPShop(t)
	var mu sync.Mutex
	added := map[string]int{}
	stale := 0
	var wg sync.WaitGroup
	for i, sku := range []string{"dress-red", "dress-blue"} {
		c := connect(t, url, "agent-"+sku)
		qty := i + 1
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				c.open(sku)
				r := c.call("add_to_cart", map[string]any{"qty": qty})
				mu.Lock()
				switch {
				case !r.isError:
					added[sku]++
				case r.tag() == "AgentStaleViewError":
					stale++
				case r.tag() == "AgentCapabilityUnavailableError":
					// The other agent left the product page meanwhile.
				default:
					t.Errorf("%s: %s", sku, r.text)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	view := connect(t, url, "reader").readContext()
	cart := map[string]int{}
	for _, l := range view["cart"].([]any) {
		line := l.(map[string]any)
		cart[line["sku"].(string)] = int(line["qty"].(float64))
	}
	if cart["dress-red"] != added["dress-red"]*1 || cart["dress-blue"] != added["dress-blue"]*2 {
		t.Errorf("cart %v after adds %v: an add reached a product its caller did not open", cart, added)
	}
	outcomes := auditOutcomes(t, audit, "add_to_cart")
	if outcomes["AgentStaleViewError/refused"] != stale {
		t.Errorf("audit %v, stale refusals seen %d", outcomes, stale)
	}
	t.Logf("adds %v, stale refusals %d", added, stale)
}

// auditOutcomes counts the audit file's entries for capability by
// outcome/decision. Each entry is written before its call is answered.
func auditOutcomes(t *testing.T, path, capability string) map[string]int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e struct{ Capability, Outcome, Decision string }
		if json.Unmarshal([]byte(line), &e) == nil && e.Capability == capability {
			got[e.Outcome+"/"+e.Decision]++
		}
	}
	return got
}

// A call to a capability that is not offered says why, in the contract's
// own words: the model learns the person gives the address first.
func TestNotOfferedSaysWhyOverHTTP(t *testing.T) {
	url, _ := startHTTPShop(t)
	a := connect(t, url, "agent")
	r := a.call("open_review", nil)
	if !r.isError || r.tag() != "AgentCapabilityUnavailableError" || r.data["reason"] != "The review opens at checkout: check out the cart first." {
		t.Fatalf("open_review on the catalog: %s %v", r.text, r.data)
	}
	a.open("gift-card")
	for _, step := range []string{"add_to_cart", "go_to_cart", "checkout"} {
		if r := a.call(step, nil); r.isError {
			t.Fatalf("%s: %s", step, r.text)
		}
	}
	r = a.call("open_review", nil)
	if !r.isError || r.data["reason"] != "The person gives the delivery address first." || !strings.HasSuffix(r.text, "The person gives the delivery address first.") {
		t.Fatalf("open_review before the address: %s %v", r.text, r.data)
	}
	r = a.call("open_product", map[string]any{"sku": "socks"})
	if r.tag() != "AgentCapabilityUnavailableError" {
		t.Fatalf("open_product off the catalog page: %s", r.text)
	}
	a.call("go_to_cart", nil)
	a.call("go_to_catalog", nil)
	r = a.call("open_product", map[string]any{"sku": "socks"})
	if r.tag() != "AgentNotFoundError" || r.data["path"] != "/sku" || strings.Contains(r.text, "socks") {
		t.Fatalf("an unknown SKU: %s %v", r.text, r.data)
	}
}
