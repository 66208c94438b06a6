package agent_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// A call's WhenDelivered hook is told, as the host takes the Message, the
// version that Message gives the Model: the version its Result names, one
// more than the host was at, before update has run.
func TestWhenDeliveredNamesTheMessagesVersion(t *testing.T) {
	h := newLaggingHost()
	rt, err := agent.Bind(shopContract(""), agent.Host[shopModel, shopMsg](h), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rt.TracksDelivery() {
		t.Fatal("a versioned host that tracks delivery must say so")
	}
	_, before := h.VersionedModel()
	var told []uint64
	ctx := agent.WhenDelivered(context.Background(), func(v uint64) { told = append(told, v) })
	res, err := rt.DispatchUnknown(ctx, "open_product", json.RawMessage(`{"sku":"hat"}`), agent.Invocation{})
	if err != nil {
		t.Fatal(err)
	}
	if len(told) != 1 || told[0] != before+1 || res.Version != told[0] {
		t.Fatalf("told %v, result version %d, host was at %d", told, res.Version, before)
	}
	// Refused before dispatch: nothing was delivered, nothing is told.
	if _, err := rt.DispatchUnknown(ctx, "no_such_capability", json.RawMessage(`{}`), agent.Invocation{}); err == nil {
		t.Fatal("an unknown capability was dispatched")
	}
	if len(told) != 1 {
		t.Fatalf("a refused call was reported delivered: %v", told)
	}
}

// On a host that does not number its Models the hook is never called,
// and the runtime says it does not track delivery.
func TestWhenDeliveredIsSilentOnAnUnversionedHost(t *testing.T) {
	plain := agent.Make(agent.Definition[shopModel, agent.NoPrincipal]{Capabilities: []agent.Capability[shopModel, agent.NoPrincipal]{
		agent.Expose(agent.Variant[OpenProduct, shopModel, agent.NoPrincipal]{Name: "open_product", Description: "Open a product."}),
	}})
	rt, err := agent.Bind(plain, agent.Host[shopModel, shopMsg](&unversioned{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rt.TracksDelivery() {
		t.Fatal("an unversioned host cannot say which version a Message makes")
	}
	called := false
	ctx := agent.WhenDelivered(context.Background(), func(uint64) { called = true })
	if _, err := rt.DispatchUnknown(ctx, "open_product", json.RawMessage(`{"sku":"hat"}`), agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	if called {
		t.Fatal("the hook was called on a host that cannot number the Message")
	}
}
