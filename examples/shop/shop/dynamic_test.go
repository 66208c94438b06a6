package shop_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/examples/shop/shop"
	"github.com/foldagent/foldagent/mcpagent"
)

// dynamicCall is one call of the store's dynamic tools (one per
// capability), in process over MCP.
type dynamicCall func(name string, args map[string]any) (isError bool, text string, data map[string]any)

func dynamicTools(t *testing.T) dynamicCall {
	t.Helper()
	st, err := shop.Start(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := mcpagent.NewServer(st.Runtime, nil)
	if err != nil {
		t.Fatal(err)
	}
	ct, sst := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, sst, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "model", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return func(name string, args map[string]any) (bool, string, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var data map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &data); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res.IsError, res.Content[0].(*mcp.TextContent).Text, data
	}
}

// changedValue is the new value the result's changed data gives path.
func changedValue(t *testing.T, data map[string]any, path string) string {
	t.Helper()
	c, _ := data["changed"].(map[string]any)
	paths, _ := c["paths"].([]any)
	for _, p := range paths {
		if p, _ := p.(map[string]any); p["path"] == path {
			b, _ := json.Marshal(p["value"])
			return string(b)
		}
	}
	t.Fatalf("the result does not say %s changed: %v", path, data)
	return ""
}

// Issue 42: search answered "Dispatched Search" and nothing else; its
// results were only in a read of the context. The result carries them.
func TestDynamicSearchAnswersWithItsResults(t *testing.T) {
	call := dynamicTools(t)
	isErr, text, data := call("search", map[string]any{"q": "dress"})
	if isErr || strings.Contains(text, "dress") {
		t.Fatalf("search: %v %q", isErr, text)
	}
	if got := changedValue(t, data, "/results"); got != `[{"name":"Red dress","price":120,"sku":"dress-red"},{"name":"Blue dress","price":95,"sku":"dress-blue"}]` {
		t.Fatalf("the results: %s", got)
	}
}

// Issue 42: add_to_cart {} did not say which product it added.
func TestDynamicAddToCartSaysWhatItAdded(t *testing.T) {
	call := dynamicTools(t)
	call("open_product", map[string]any{"sku": "dress-blue"})
	isErr, _, data := call("add_to_cart", map[string]any{})
	if isErr {
		t.Fatalf("add_to_cart: %v", data)
	}
	if got := changedValue(t, data, "/cart"); got != `[{"qty":1,"sku":"dress-blue"}]` {
		t.Fatalf("the cart: %s", got)
	}
}

// Issue 42: an unknown SKU's refusal pointed at "the catalog", which the
// dynamic tools have no tool to list. It names the tool that does.
func TestDynamicUnknownSKUNamesTheToolThatListsThem(t *testing.T) {
	call := dynamicTools(t)
	isErr, text, _ := call("open_product", map[string]any{"sku": "no-such-sku"})
	if !isErr || !strings.Contains(text, "search") || strings.Contains(text, "catalog") || strings.Contains(text, "no-such-sku") {
		t.Fatalf("an unknown SKU: %q", text)
	}
	// What it says works: an empty search lists every SKU the store sells.
	_, _, data := call("search", map[string]any{"q": ""})
	var found []shop.Product
	if err := json.Unmarshal([]byte(changedValue(t, data, "/results")), &found); err != nil || len(found) != len(shop.Catalog) {
		t.Fatalf("an empty search found %v (%v)", found, err)
	}
}
