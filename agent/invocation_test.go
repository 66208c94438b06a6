package agent_test

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// NewInvocationID mints canonical, distinct version 4 UUIDs.
func TestNewInvocationIDIsAVersion4UUID(t *testing.T) {
	seen := make(map[string]bool, 1000)
	for range 1000 {
		id := agent.NewInvocationID()
		if !uuidV4.MatchString(id) {
			t.Fatalf("%q is not a canonical version 4 UUID", id)
		}
		if seen[id] {
			t.Fatalf("%q minted twice", id)
		}
		seen[id] = true
	}
}

func BenchmarkNewInvocationID(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = agent.NewInvocationID()
	}
}

// The host reads, with an agent's Message, the invocation and the
// principal as the audit log names it; the projection runs once per call,
// its id the one the audit entry records.
func TestTheHostIsHandedTheInvocationAndItsPrincipal(t *testing.T) {
	h := &host{model: selectedModel()}
	projected := 0
	audit := agent.NewAuditLog(agent.AuditOptions[User]{Principal: func(u User) string { projected++; return u.ID }})
	opts := owner()
	opts.Audit = audit
	rt := bindTest(t, h, opts)
	var handed agent.Handed
	var ok bool
	h.dispatchFn = func(ctx context.Context, _ Msg) error {
		handed, ok = agent.InvocationFrom(ctx)
		return nil
	}
	inv := agent.Invocation{ID: "inv-1", Transport: agent.MCP}
	if _, err := rt.DispatchUnknown(context.Background(), "create_todo", json.RawMessage(`{"title":"Tea"}`), inv); err != nil {
		t.Fatal(err)
	}
	entries := audit.Entries()
	if !ok || handed.ID != "inv-1" || handed.Transport != agent.MCP || handed.Principal == "" || len(entries) != 1 || entries[0].Principal != handed.Principal {
		t.Fatalf("handed %+v (%v), audited %+v; want inv-1 over mcp with the audit's principal", handed, ok, entries)
	}
	if projected != 1 {
		t.Fatalf("the principal was projected %d times for one call; want 1", projected)
	}
	if _, ok := agent.InvocationFrom(context.Background()); ok {
		t.Fatal("a context the runtime did not hand carries an invocation")
	}
}

// Without an audit projection, the host is handed the invocation and no
// principal's name.
func TestNoProjectionHandsNoPrincipal(t *testing.T) {
	h := &host{model: selectedModel()}
	rt := bindTest(t, h, owner())
	var handed agent.Handed
	h.dispatchFn = func(ctx context.Context, _ Msg) error { handed, _ = agent.InvocationFrom(ctx); return nil }
	if _, err := rt.DispatchUnknown(context.Background(), "create_todo", json.RawMessage(`{"title":"Tea"}`), agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	if handed.ID == "" || handed.Transport != agent.InApp || handed.Principal != "" {
		t.Fatalf("handed %+v; want a minted id, in-app, no principal", handed)
	}
}
