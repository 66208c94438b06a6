//go:build unix

package main

import (
	"testing"
)

// A result is a look only at what it showed. A opens the red dress; B
// opens the gift card; A goes to the cart, and that result's version holds
// B's gift card, which the result never showed A; B opens the gift card's
// page again. A's add_to_cart, built on the product page A last saw (the
// red dress), is refused stale: it must not add the gift card.
func TestAResultIsNotALookAtWhatItDidNotShow(t *testing.T) {
	url, audit := startHTTPShop(t)
	a, b := connect(t, url, "agent-a"), connect(t, url, "agent-b")
	a.open("dress-red")
	b.open("gift-card")
	if r := a.call("go_to_cart", nil); r.isError {
		t.Fatalf("A goes to the cart: %s", r.text)
	}
	b.open("gift-card")
	r := a.call("add_to_cart", nil)
	if !r.isError || r.tag() != "AgentStaleViewError" {
		t.Fatalf("A's add after B opened the gift card: %v %s", r.isError, r.text)
	}
	if moved, _ := r.data["moved"].([]any); len(moved) != 1 || moved[0] != "openProduct" {
		t.Fatalf("the refusal names %v", r.data["moved"])
	}
	if cart := a.readContext()["cart"].([]any); len(cart) != 0 {
		t.Fatalf("the cart holds %v", cart)
	}
	// A has read again: it saw the gift card, and its add goes through.
	if r := a.call("add_to_cart", nil); r.isError {
		t.Fatalf("A's add after reading: %s", r.text)
	}
	// A's own moves are what A knows: it opens the red dress, adds it,
	// goes to the cart and back, opens it again, and adds again without
	// reading, no one else having moved anything.
	a.open("dress-red")
	for _, step := range []string{"add_to_cart", "go_to_cart"} {
		if r := a.call(step, nil); r.isError {
			t.Fatalf("%s: %s", step, r.text)
		}
	}
	a.open("dress-red")
	if r := a.call("add_to_cart", nil); r.isError {
		t.Fatalf("A's add on what only A moved: %s", r.text)
	}
	if got := auditOutcomes(t, audit, "add_to_cart"); got["AgentStaleViewError/refused"] != 1 || got["dispatched/dispatched"] != 3 {
		t.Errorf("audit of add_to_cart: %v", got)
	}
}
