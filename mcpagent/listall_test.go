package mcpagent_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/mcpagent"
)

// With ListAll a session-based client is listed every capability, whatever
// the Model, and is never told the list changed: it lists once. What the
// Model does not offer is refused when called, with the reason. A Server
// without it, on the same application, is told of the same change, so the
// silence is ListAll's and not a change that never happened.
func TestListAllListsEveryCapabilityOnce(t *testing.T) {
	a := startApp(t)
	every := make([]string, 0, len(fixtureContract.Describe().Capabilities))
	for _, d := range fixtureContract.Describe().Capabilities {
		every = append(every, d.Name)
	}
	slices.Sort(every) // the SDK lists by name

	evAll, evFollow := newEvents(), newEvents()
	_, all := connect(t, a.runtime(t, owner), &mcpagent.Options{ListAll: true}, evAll)
	_, follow := connect(t, a.runtime(t, owner), nil, evFollow)
	if got := toolNames(t, follow); !slices.Equal(got, []string{"create_todo"}) {
		t.Fatalf("an empty list offers %v, want only create_todo", got)
	}
	before := toolNames(t, all)
	if !slices.Equal(before, every) {
		t.Fatalf("ListAll lists %v on an empty list, want every capability %v", before, every)
	}

	res := call(t, all, "delete_selected_todo", map[string]any{})
	if !res.IsError || !strings.Contains(text(res), "not offered") || structured(t, res)["_tag"] != agent.TagUnavailable {
		t.Fatalf("a capability the Model does not offer: %v %q %v", res.IsError, text(res), structured(t, res))
	}
	if res := call(t, all, "create_todo", map[string]any{"title": "milk"}); res.IsError {
		t.Fatalf("create_todo: %q", text(res))
	}
	evFollow.waitFor(t, "the following client's list_changed", func() bool { return evFollow.listChangedCount() == 1 })
	time.Sleep(quiet) // nothing may come (see quiet)
	if n := evAll.listChangedCount(); n != 0 {
		t.Fatalf("ListAll's client was told %d times that the list changed", n)
	}
	if after := toolNames(t, all); !slices.Equal(after, before) {
		t.Fatalf("ListAll's list changed with the Model: %v, then %v", before, after)
	}
}
