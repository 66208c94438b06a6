package mcpagent_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/mcpagent"
)

// rawList sends one tools/list of the sessionless revision on its own
// connection (a fresh transport) and returns the body.
func rawList(t *testing.T, f *httpFixture, token string) string {
	t.Helper()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	req, err := http.NewRequest(http.MethodPost, f.srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+sessionlessMeta+`}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("MCP-Protocol-Version", mcpagent.SessionlessRevision)
	req.Header.Set("Mcp-Method", "tools/list")
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("tools/list: %d %s", resp.StatusCode, b)
	}
	return string(b)
}

// On the sessionless revision a tool list may vary by the request's
// authorization only: two connections, and one connection before and
// after calls that change the Model (and what it offers), are listed the
// same bytes, names in the same order; so are two principals of
// different roles, since the list is the whole contract.
func TestSessionlessToolListIsTheSameWhateverTheModel(t *testing.T) {
	f := startHTTP(t, nil)
	first := rawList(t, f, "owner-token")
	if second := rawList(t, f, "owner-token"); second != first {
		t.Fatalf("two connections were listed different tools:\n%s\n%s", first, second)
	}
	for _, name := range []string{"clear_completed", "create_todo", "delete_selected_todo", "rename_todo", "select_todo", "toggle_todo"} {
		if !strings.Contains(first, `"name":"`+name+`"`) {
			t.Fatalf("the list lacks %s: %s", name, first)
		}
	}
	if strings.Index(first, `"name":"create_todo"`) > strings.Index(first, `"name":"toggle_todo"`) {
		t.Fatalf("tools not in name order: %s", first)
	}
	// State-changing calls, each of which changes what the Model offers.
	if status, body := f.sessionlessPost(t, "owner-token", "tools/call", `{"name":"create_todo","arguments":{"title":"milk"},`+sessionlessMeta+`}`); status != http.StatusOK || strings.Contains(body, `"isError":true`) {
		t.Fatalf("create_todo: %d %s", status, body)
	}
	f.app.waitModel(t, "the todo", func(m todo.List) bool { return len(m.Todos) == 1 })
	if after := rawList(t, f, "owner-token"); after != first {
		t.Fatalf("the list changed after a call:\nbefore %s\nafter  %s", first, after)
	}
	id := f.app.prog.Model().Todos[0].ID
	if status, body := f.sessionlessPost(t, "owner-token", "tools/call", `{"name":"toggle_todo","arguments":{"id":"`+id+`"},`+sessionlessMeta+`}`); status != http.StatusOK || strings.Contains(body, `"isError":true`) {
		t.Fatalf("toggle_todo: %d %s", status, body)
	}
	f.app.waitModel(t, "the todo done", func(m todo.List) bool { return len(m.Todos) == 1 && m.Todos[0].Done })
	if after := rawList(t, f, "owner-token"); after != first {
		t.Fatalf("the list changed after a second call:\nbefore %s\nafter  %s", first, after)
	}
	if viewer := rawList(t, f, "viewer-token"); viewer != first {
		t.Fatalf("another principal was listed other tools:\n%s\n%s", first, viewer)
	}
	// A session-based client still gets the Model's list: the todo is
	// done, so clear_completed is offered, and nothing is offered that
	// the Model does not.
	cs := f.client(t, "owner-token", nil)
	names := toolNames(t, cs)
	if len(names) == 6 || !contains(names, "clear_completed") {
		t.Fatalf("a session on the older revision was listed %v, want the Model's offer", names)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// The list carries no version, but it is still the caller's look: an
// agent that lists and then calls is not refused as one that never
// looked, while one that never listed nor read is.
func TestSessionlessToolListIsTheCallersLook(t *testing.T) {
	f := startHTTP(t, nil)
	owner := f.sessionlessClient(t, "owner-token", nil)
	call(t, owner, "create_todo", map[string]any{"title": "milk"})
	f.app.waitModel(t, "the todo", func(m todo.List) bool { return len(m.Todos) == 1 })
	call(t, owner, "select_todo", map[string]any{"id": f.app.prog.Model().Todos[0].ID})
	f.app.waitModel(t, "the selection", func(m todo.List) bool { return m.Selected != "" })

	bob := f.sessionlessClient(t, "bob-token", nil)
	if res := call(t, bob, "delete_selected_todo", map[string]any{}); !res.IsError || structured(t, res)["unseen"] != true {
		t.Fatalf("a call by an identity that never looked: error %v %v", res.IsError, structured(t, res))
	}
	toolNames(t, bob)
	if res := call(t, bob, "delete_selected_todo", map[string]any{}); res.IsError {
		t.Fatalf("a call after listing was refused: %s", text(res))
	}
}
