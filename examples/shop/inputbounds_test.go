//go:build unix

package main

import (
	"fmt"
	"strings"
	"testing"
)

// The shop's inputs are bounded in its contract: a quantity outside 1–99
// and a search of more than 100 characters are refused over HTTP on the
// built binary as correctable invalid input at the field's path, the
// schema in the refusal saying the bound, and the cart is unchanged.
func TestBoundedInputsAreRefusedOverHTTP(t *testing.T) {
	url, _ := startHTTPShop(t)
	a := connect(t, url, "agent")
	if r := a.call("search", map[string]any{"q": strings.Repeat("a", 101)}); r.tag() != "AgentInvalidInputError" ||
		fmt.Sprint(r.data["problems"]) != "[map[code:invalid path:/q]]" {
		t.Fatalf("a search of 101 characters: %s %v", r.text, r.data["problems"])
	}
	if r := a.call("search", map[string]any{"q": strings.Repeat("a", 100)}); r.isError {
		t.Fatalf("a search of 100 characters: %s", r.text)
	}
	a.open("dress-red")
	for _, qty := range []int{0, 100, 1 << 40} {
		r := a.call("add_to_cart", map[string]any{"qty": qty})
		schema, _ := r.data["inputSchema"].(map[string]any)
		q, _ := schema["properties"].(map[string]any)["qty"].(map[string]any)
		if r.tag() != "AgentInvalidInputError" || fmt.Sprint(r.data["problems"]) != "[map[code:invalid path:/qty]]" ||
			q["minimum"] != 1.0 || q["maximum"] != 99.0 {
			t.Fatalf("add_to_cart of %d: %s %v", qty, r.text, r.data)
		}
	}
	if r := a.call("add_to_cart", map[string]any{"qty": 99}); r.isError {
		t.Fatalf("add_to_cart of 99: %s", r.text)
	}
	cart := a.readContext()["cart"].([]any)
	if len(cart) != 1 || cart[0].(map[string]any)["qty"] != 99.0 {
		t.Fatalf("cart %v, want the one add of 99", cart)
	}
}
