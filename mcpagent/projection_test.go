package mcpagent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stock declares that it travels as a string, and keeps its word only for
// even counts: an odd count encodes as a JSON number.
type Stock int

func (Stock) WireSchema() json.RawMessage { return json.RawMessage(`{"type":"string"}`) }

func (s Stock) MarshalJSON() ([]byte, error) {
	if s%2 == 1 {
		return []byte(strconv.Itoa(int(s))), nil
	}
	return json.Marshal(strconv.Itoa(int(s)) + " in stock")
}

type shelf struct {
	Item  string `json:"item"`
	Stock Stock  `json:"stock"`
}

// shelfHost holds a stock count and reports changes to it.
type shelfHost struct {
	mu        sync.Mutex
	stock     Stock
	listeners map[int]func()
	next      int
}

func (h *shelfHost) Model() Stock {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stock
}

func (h *shelfHost) Dispatch(context.Context, Work) error { return nil }

func (h *shelfHost) Subscribe(listener func()) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.listeners == nil {
		h.listeners = map[int]func(){}
	}
	id := h.next
	h.next++
	h.listeners[id] = listener
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.listeners, id)
	}
}

func (h *shelfHost) set(s Stock) {
	h.mu.Lock()
	h.stock = s
	ls := make([]func(), 0, len(h.listeners))
	for _, l := range h.listeners {
		ls = append(ls, l)
	}
	h.mu.Unlock()
	for _, l := range ls {
		l()
	}
}

// syncBuffer is a log destination safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A context or resource whose value breaks its advertised schema is never
// served over MCP: resources/read answers a generic internal error, the
// cause is logged, and a subscriber is not told of the unservable value.
func TestProjectionThatBreaksItsSchemaIsNeverServed(t *testing.T) {
	h := &shelfHost{stock: 2}
	c := agent.Make(agent.Definition[Stock, agent.NoPrincipal]{
		Context: agent.Project(func(s Stock) shelf { return shelf{Item: "tea", Stock: s} }),
		Capabilities: []agent.Capability[Stock, agent.NoPrincipal]{
			agent.Expose(agent.Variant[Work, Stock, agent.NoPrincipal]{Description: "Do some work."}),
		},
		Resources: []agent.Resource[Stock]{
			agent.NewResource("stock", "How many are in stock.", func(s Stock) Stock { return s }),
		},
	})
	rt := agent.MustBind[Stock, Work, agent.NoPrincipal](c, h, nil)
	var logs syncBuffer
	ev := newEvents()
	_, cs := connect(t, rt, &mcpagent.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))}, ev)
	ctx := context.Background()

	read := func(uri string) (*mcp.ReadResourceResult, error) {
		return cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	}
	// The honest value is served as advertised.
	res, err := read("app://context")
	if err != nil || res.Contents[0].Text != `{"item":"tea","stock":"2 in stock"}` {
		t.Fatalf("honest context = %+v, %v", res, err)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "app://stock"}); err != nil {
		t.Fatal(err)
	}

	// Now the value breaks its schema.
	h.set(3)
	for _, c := range []struct{ uri, name string }{{"app://context", "context"}, {"app://stock", "stock"}} {
		res, err := read(c.uri)
		if res != nil {
			t.Fatalf("%s: a value that breaks its schema was served: %+v", c.uri, res.Contents)
		}
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInternalError {
			t.Fatalf("%s: err %v, want an internal error", c.uri, err)
		}
		if want := `Reading the resource "` + c.name + `" failed unexpectedly.`; rpcErr.Message != want {
			t.Fatalf("%s: message %q, want %q", c.uri, rpcErr.Message, want)
		}
		if strings.Contains(err.Error(), "3") || len(rpcErr.Data) != 0 {
			t.Fatalf("%s: the error reveals the value: %v %s", c.uri, err, rpcErr.Data)
		}
	}
	log := logs.String()
	for _, want := range []string{"AgentProjectionError", "projection=context", "projection=stock", "/stock"} {
		if !strings.Contains(log, want) {
			t.Fatalf("log does not mention %q:\n%s", want, log)
		}
	}

	// The unservable value is not announced to the subscriber...
	time.Sleep(quiet) // nothing may come (see quiet)
	if got := ev.updates(); len(got) != 0 {
		t.Fatalf("updates for an unservable value: %v", got)
	}
	// ...and once the value keeps its word again, it is.
	h.set(4)
	ev.waitFor(t, "stock updated", func() bool { return len(ev.updates()) == 1 })
	res, err = read("app://stock")
	if err != nil || res.Contents[0].Text != `"4 in stock"` {
		t.Fatalf("honest stock = %+v, %v", res, err)
	}
}
