//go:build unix

package main

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/testbin"
)

// dynamicByteBudget is what the two purchases may cost a model on the
// dynamic tools: every byte the client receives (tool lists, calls,
// reads, notifications), issue 42's budget.
const dynamicByteBudget = 20_000

// counted counts the bytes the client receives. While paused, bytes are
// not counted: the test's own waiting for the person is not the model's.
type counted struct {
	n      atomic.Int64
	paused atomic.Bool
}

func (c *counted) add(n int) {
	if !c.paused.Load() {
		c.n.Add(int64(n))
	}
}

type countingReader struct {
	io.ReadCloser
	c *counted
}

func (r countingReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	r.c.add(n)
	return n, err
}

type countingTransport struct {
	next http.RoundTripper
	c    *counted
}

func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := t.next.RoundTrip(r)
	if err == nil {
		res.Body = countingReader{res.Body, t.c}
	}
	return res, err
}

// model drives the dynamic tools as a model's client would: it lists the
// tools at first and again only after the server said the list changed
// (notifications/tools/list_changed), and reads the context only when a
// call's answer did not say what the model needs to know next.
type model struct {
	t                   *testing.T
	cs                  *mcp.ClientSession
	keys                string
	bytes               *counted
	calls, lists, reads int
	transcript          []string
	// told counts the list changes the server announced; seen, those
	// the model has listed after.
	told atomic.Int64
	seen int64
}

// clientOptions counts m's list-change notifications.
func (m *model) clientOptions() *mcp.ClientOptions {
	return &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { m.told.Add(1) }}
}

func (m *model) note(kind string, v any) {
	m.t.Helper()
	answer := mustMap(m.t, v)
	if data, ok := answer["data"].(map[string]any); ok {
		if c, ok := data["changed"].(map[string]any); ok {
			c["from"], c["to"] = "<from>", "<to>" // versions, as normalized sets them aside
		}
	}
	m.transcript = append(m.transcript, kind+" "+normalized(m.t, answer))
}

func mustMap(t *testing.T, v any) map[string]any {
	t.Helper()
	var out map[string]any
	b, err := json.Marshal(v)
	if err != nil || json.Unmarshal(b, &out) != nil {
		t.Fatalf("not an object: %v", v)
	}
	return out
}

func (m *model) list() {
	m.t.Helper()
	res, err := m.cs.ListTools(context.Background(), nil)
	if err != nil {
		m.t.Fatal(err)
	}
	m.lists++
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	m.note("tools", map[string]any{"names": names})
}

// call calls a tool; when the server has said the tool list changed
// since the model last listed, the model lists again.
func (m *model) call(name string, args map[string]any) reply {
	m.t.Helper()
	res, err := m.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		m.t.Fatalf("%s: %v", name, err)
	}
	m.calls++
	r := reply{isError: res.IsError, text: res.Content[0].(*mcp.TextContent).Text}
	r.data = mustMap(m.t, res.StructuredContent)
	m.checkCopy(name, res, r)
	m.note(name, map[string]any{"text": r.text, "data": r.data})
	if n := m.told.Load(); n != m.seen {
		m.seen = n
		m.list()
	}
	return r
}

// checkCopy checks that a client reading only content learns every fact
// of the result: its JSON text block is the structured content less what
// the request and the sentence already say (the capability, the tag, the
// invocation, a refusal's message that is the sentence).
func (m *model) checkCopy(name string, res *mcp.CallToolResult, r reply) {
	m.t.Helper()
	want := maps.Clone(r.data)
	for _, k := range []string{"capability", "tag", "invocation"} {
		delete(want, k)
	}
	if want["message"] == r.text {
		delete(want, "message")
	}
	var got map[string]any
	if len(res.Content) != 2 || json.Unmarshal([]byte(res.Content[1].(*mcp.TextContent).Text), &got) != nil || !reflect.DeepEqual(got, want) {
		m.t.Fatalf("%s: the text copy %v, want %v", name, res.Content, want)
	}
}

// read reads the context; it returns the view.
func (m *model) read() map[string]any {
	m.t.Helper()
	res, err := m.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "app://context"})
	if err != nil {
		m.t.Fatal(err)
	}
	m.reads++
	var view map[string]any
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &view); err != nil {
		m.t.Fatal(err)
	}
	m.note("read", view)
	return view
}

// learn returns the value at path after a call: from the call's own
// answer (its "changed" paths, path itself or a path above it) when it
// says, from a read of the context when it does not.
func (m *model) learn(r reply, path string) any {
	m.t.Helper()
	if c, ok := r.data["changed"].(map[string]any); ok {
		for _, p := range list(c["paths"]) {
			at, _ := p["path"].(string)
			if rest, ok := strings.CutPrefix(path, at); ok && (rest == "" || rest[0] == '/') {
				return pointerAt(p["value"], rest)
			}
		}
	}
	return pointerAt(m.read(), path)
}

// pointerAt follows a JSON Pointer of object members into v.
func pointerAt(v any, pointer string) any {
	for _, k := range strings.Split(pointer, "/")[1:] {
		o, _ := v.(map[string]any)
		v = o[k]
	}
	return v
}

// approvedPay pays order while the person presses y on the card.
func (m *model) approvedPay(order string) reply {
	m.t.Helper()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); pressUntil(m.t, m.keys, stop) }()
	r := m.call("pay", map[string]any{"order": order})
	close(stop)
	<-done
	return r
}

// twoDynamicPurchases is the twelve-answer test's purchase on the dynamic
// tools: one paid, one refused, and the first order paid again.
func twoDynamicPurchases(t *testing.T, m *model) {
	m.list()
	found := m.learn(m.call("search", map[string]any{"q": "dress"}), "/results")
	if mustJSON(t, found) != `[{"name":"Red dress","price":120,"sku":"dress-red"},{"name":"Blue dress","price":95,"sku":"dress-blue"}]` {
		t.Fatalf("the search found %v", found)
	}
	if r := m.call("open_product", map[string]any{"sku": "no-such-sku"}); !r.isError || strings.Contains(r.text, "catalog") {
		t.Fatalf("an unknown SKU: %+v", r)
	}
	m.call("open_product", map[string]any{"sku": "dress-red"})
	if cart := m.learn(m.call("add_to_cart", map[string]any{}), "/cart"); mustJSON(t, cart) != `[{"qty":1,"sku":"dress-red"}]` {
		t.Fatalf("the cart: %v", cart)
	}
	m.call("go_to_cart", nil)
	if id := m.learn(m.call("checkout", nil), "/checkout/id"); id != "order-1" {
		t.Fatalf("the checkout: %v", id)
	}
	if r := m.call("open_review", nil); !r.isError {
		t.Fatalf("the review before the address: %+v", r)
	}
	// The person gives the address; the test waits for it uncounted, then
	// the model looks once.
	m.bytes.paused.Store(true)
	typeInto(t, m.keys, "a1 Main St\r")
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := m.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "app://context"})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Contents[0].Text, `"address":"1 Main St"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the address never arrived")
		}
		time.Sleep(20 * time.Millisecond) // the other process works meanwhile
	}
	m.bytes.paused.Store(false)
	m.read()
	m.call("open_review", nil)
	if r := m.approvedPay("order-1"); !r.completed() {
		t.Fatalf("the payment: %+v", r)
	}
	for _, name := range []string{"close_review", "go_to_cart", "go_to_catalog"} {
		m.call(name, nil)
	}
	m.call("open_product", map[string]any{"sku": "gift-card"})
	m.call("add_to_cart", map[string]any{})
	m.call("go_to_cart", nil)
	if id := m.learn(m.call("checkout", nil), "/checkout/id"); id != "order-2" {
		t.Fatalf("the second checkout: %v", id)
	}
	m.call("open_review", nil)
	if r := m.approvedPay("order-2"); !r.isError || r.text != "Failed: PaymentRefused" {
		t.Fatalf("the gift card's payment: %+v", r)
	}
	if r := m.call("pay", map[string]any{"order": "order-1"}); !r.isError {
		t.Fatalf("order-1 again: %+v", r)
	}
}

// TestDynamicPurchasesInFewBytes drives the real binary's dynamic tools,
// over stdio and HTTP, through the twelve-answer test's two purchases
// with the person approving each payment, counts every byte the client
// receives and holds them to dynamicByteBudget; each transport
// runs twice and the answers, ids and versions aside, are byte-identical.
// Every call's effect is in its own answer: the model reads the context
// once, to see what the person gave, and never to learn what a call did.
func TestDynamicPurchasesInFewBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the real binary through two purchases, four times")
	}
	for _, tr := range []struct {
		name  string
		start func(*testing.T) *model
	}{{"stdio", startDynamicStdio}, {"http", startDynamicHTTP}} {
		t.Run(tr.name, func(t *testing.T) {
			var runs [2]*model
			for i := range runs {
				runs[i] = tr.start(t)
				twoDynamicPurchases(t, runs[i])
				m := runs[i]
				t.Logf("run %d: %d B received in %d calls, %d tool lists, %d reads", i+1, m.bytes.n.Load(), m.calls, m.lists, m.reads)
				if m.lists != 1 || m.told.Load() != 0 {
					t.Errorf("the model listed the tools %d times, told %d times that they changed; every tool is listed once (mcpagent.Options.ListAll)", m.lists, m.told.Load())
				}
				if m.reads != 1 {
					t.Errorf("the model read the context %d times; once is for the person's address, any other to learn what a call did", m.reads)
				}
				if n := m.bytes.n.Load(); n > dynamicByteBudget {
					t.Errorf("the two purchases cost the model %d B, over issue 42's budget of %d B", n, dynamicByteBudget)
				}
			}
			a, b := runs[0].transcript, runs[1].transcript
			if len(a) != len(b) {
				t.Fatalf("the runs gave %d and %d answers", len(a), len(b))
			}
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("answer %d differs between runs:\n%s\n%s", i, a[i], b[i])
				}
			}
		})
	}
}

func startDynamicStdio(t *testing.T) *model {
	t.Helper()
	bin := testbin.Build(t, "examples/shop")
	keys := keyPipe(t)
	cmd := exec.Command(bin, "-mcp", "stdio", "-tools", "dynamic", "-keys", keys, "-pay-delay", "20ms")
	cmd.Stderr = os.Stderr
	p := testbin.StartPiped(t, cmd)
	stdin, stdout := p.Stdin, p.Stdout
	m := &model{t: t, keys: keys, bytes: &counted{}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "model", Version: "1"}, m.clientOptions()).Connect(context.Background(),
		&mcp.IOTransport{Reader: countingReader{stdout, m.bytes}, Writer: stdin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	m.cs = cs
	return m
}

func startDynamicHTTP(t *testing.T) *model {
	t.Helper()
	keys := keyPipe(t)
	url := runHTTPShop(t, "-tools", "dynamic", "-keys", keys, "-pay-delay", "20ms")
	m := &model{t: t, keys: keys, bytes: &counted{}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "model", Version: "1"}, m.clientOptions()).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: countingTransport{bearer{"s3cret"}, m.bytes}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	m.cs = cs
	return m
}
