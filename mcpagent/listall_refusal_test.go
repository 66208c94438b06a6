package mcpagent_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/mcpagent"
)

// A tool ListAll lists but the Model does not offer now is refused as not
// offered, changes nothing, and is audited exactly as the same call to a
// Server that follows the Model; a name the contract does not know is a
// protocol error on both, audited as unknown, not as not offered.
func TestListAllRefusesWhatIsNotOfferedAsBefore(t *testing.T) {
	a := startApp(t)
	var entries [2][]agent.AuditEntry
	for i, opts := range []*mcpagent.Options{{ListAll: true}, nil} {
		audit := agent.NewAuditLog(agent.AuditOptions[todo.Principal]{})
		rt, err := bindTodo(a.prog, owner, audit)
		if err != nil {
			t.Fatal(err)
		}
		_, cs := connect(t, rt, opts, newEvents())
		before := rt.Version()
		res := call(t, cs, "delete_selected_todo", map[string]any{})
		if !res.IsError || structured(t, res)["_tag"] != agent.TagUnavailable {
			t.Fatalf("ListAll %v: a capability not offered: %q %v", opts != nil, text(res), structured(t, res))
		}
		if rt.Version() != before || a.created.Load() != 0 {
			t.Fatalf("ListAll %v: the refused call changed the Model", opts != nil)
		}
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}}); err == nil {
			t.Fatalf("ListAll %v: a name the contract does not know was not a protocol error", opts != nil)
		}
		entries[i] = audit.Entries()
	}
	if len(entries[0]) != 2 || len(entries[1]) != 2 {
		t.Fatalf("audited %d calls with ListAll and %d without, want 2 and 2: %v", len(entries[0]), len(entries[1]), entries)
	}
	for k := range 2 {
		x, y := entries[0][k], entries[1][k]
		if x.Capability != y.Capability || x.Decision != y.Decision || x.Outcome != y.Outcome || x.Transport != y.Transport || x.Principal != y.Principal {
			t.Fatalf("audited with ListAll as %+v, without as %+v", x, y)
		}
	}
	if a, b := entries[0][0].Outcome, entries[0][1].Outcome; a == b || a == "" || b == "" {
		t.Fatalf("not offered now and not in the contract are audited alike: %q, %q", a, b)
	}
}
