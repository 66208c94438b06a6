package mcpagent_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// These tests cover a Handler whose sessions share a Feed, and so one SDK
// server: each session must still be served as its own principal, owned by
// its own identity, and ended and counted on its own.

func TestSharedHTTPServesEachSessionAsItsOwnPrincipal(t *testing.T) {
	f := startHTTPWith(t, true, nil)
	own := f.client(t, "owner-token", nil)
	f.doneTodo(t, own)

	// The viewer's session is served by the viewer's runtime: the shared
	// server lends it none of the owner's authority.
	v := f.client(t, "viewer-token", nil)
	res := call(t, v, "clear_completed", map[string]any{})
	if !res.IsError || structured(t, res)["_tag"] != agent.TagAuthorization {
		t.Fatalf("the viewer's clear_completed: %v %s", res.IsError, text(res))
	}
	if m := f.app.prog.Model(); len(m.Todos) != 1 {
		t.Fatalf("the viewer cleared todos: %+v", m.Todos)
	}
	res = call(t, own, "clear_completed", map[string]any{})
	if res.IsError {
		t.Fatalf("the owner's clear_completed: %s", text(res))
	}
	f.app.waitModel(t, "the list cleared", func(m todo.List) bool { return len(m.Todos) == 0 })
	if n := f.opened.Load(); n != 2 {
		t.Fatalf("runtimes opened = %d, want one per session", n)
	}
}

func TestSharedHTTPSessionOfAnotherIdentityIsAnsweredAsUnknown(t *testing.T) {
	f := startHTTPWith(t, true, nil)
	alice := f.client(t, "owner-token", nil)
	callBody := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_todo","arguments":{"title":"planted"}}}`
	stolenStatus, _, stolenBody := f.post(t, callBody, map[string]string{"Authorization": "Bearer bob-token", "Mcp-Session-Id": alice.ID()})
	unknownStatus, _, unknownBody := f.post(t, callBody, map[string]string{"Authorization": "Bearer bob-token", "Mcp-Session-Id": "no-such-session"})
	if stolenStatus != http.StatusNotFound || stolenStatus != unknownStatus || stolenBody != unknownBody {
		t.Fatalf("another identity's session: %d %q; unknown session: %d %q", stolenStatus, stolenBody, unknownStatus, unknownBody)
	}
	if res := call(t, alice, "create_todo", map[string]any{"title": "mine"}); res.IsError {
		t.Fatalf("the owner's call failed: %s", text(res))
	}
	f.app.waitModel(t, "the owner's todo", func(m todo.List) bool { return len(m.Todos) == 1 })
	if n := f.app.created.Load(); n != 1 {
		t.Fatalf("created %d todos, want only the owner's", n)
	}
}

func TestSharedHTTPNotifiesEverySession(t *testing.T) {
	f := startHTTPWith(t, true, nil)
	evOwn, evView := newEvents(), newEvents()
	own := f.client(t, "owner-token", evOwn)
	v := f.client(t, "viewer-token", evView)
	if err := own.Subscribe(context.Background(), &mcp.SubscribeParams{URI: mcpagent.URI("stats")}); err != nil {
		t.Fatal(err)
	}
	call(t, own, "create_todo", map[string]any{"title": "milk"})
	evOwn.waitFor(t, "the owner's list_changed", func() bool { return evOwn.listChangedCount() == 1 })
	evView.waitFor(t, "the viewer's list_changed", func() bool { return evView.listChangedCount() == 1 })
	evOwn.waitFor(t, "stats updated", func() bool { return slices.Contains(evOwn.updates(), mcpagent.URI("stats")) })
	for _, cs := range []*mcp.ClientSession{own, v} {
		if got := toolNames(t, cs); len(got) != 4 {
			t.Fatalf("tools = %v", got)
		}
	}
	if got := evView.updates(); len(got) != 0 {
		t.Fatalf("the viewer subscribed to nothing and heard %v", got)
	}
	// A session that ended leaves the others served and notified.
	own.Close()
	waitUntil(t, "the owner's session to end", func() bool { return f.handler.Sessions() == 1 })
	res, err := v.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpagent.URI("todos")})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("the viewer's read: %v %v", res, err)
	}
}

func TestSharedHTTPSessionsEndAndGiveBackTheirPlace(t *testing.T) {
	t.Run("expiry", func(t *testing.T) {
		f := startHTTPWith(t, true, func(o *mcpagent.HTTPOptions) {
			o.MaxSessionsPerPrincipal = 1
			o.SessionTimeout = 100 * time.Millisecond
		})
		sid := f.openRaw(t, "owner-token")
		waitUntil(t, "the idle session to expire", func() bool { return f.handler.Sessions() == 0 })
		status, _, _ := f.post(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{"Authorization": "Bearer owner-token", "Mcp-Session-Id": sid})
		if status != http.StatusNotFound {
			t.Fatalf("an expired session answered %d, want 404", status)
		}
		f.openRaw(t, "owner-token")
	})
	t.Run("DELETE and Close", func(t *testing.T) {
		f := startHTTPWith(t, true, func(o *mcpagent.HTTPOptions) { o.MaxSessionsPerPrincipal = 1 })
		a := f.client(t, "owner-token", nil)
		f.client(t, "viewer-token", nil)
		a.Close() // DELETE
		waitUntil(t, "DELETE to end the session", func() bool { return f.handler.Sessions() == 1 })
		f.openRaw(t, "owner-token")
		f.handler.Close()
		if n := f.handler.Sessions(); n != 0 {
			t.Fatalf("sessions after Close = %d", n)
		}
		status, _, _ := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer owner-token"})
		if status != http.StatusServiceUnavailable {
			t.Fatalf("a closed handler answered %d, want 503", status)
		}
	})
}

func TestSharedHTTPRefusesARuntimeOfAnotherContract(t *testing.T) {
	f := startHTTPWith(t, true, func(o *mcpagent.HTTPOptions) {
		o.MaxSessionsPerPrincipal = 1
		o.NewRuntime = func(context.Context, *auth.TokenInfo) (mcpagent.Runtime, error) {
			return workRuntime(t, newBlockingHost()), nil
		}
	})
	for range 2 { // the refused open gives its place back
		status, _, body := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer owner-token"})
		if status != http.StatusBadRequest {
			t.Fatalf("initialize with a foreign runtime: %d %q, want 400", status, body)
		}
	}
	if n := f.handler.Sessions(); n != 0 {
		t.Fatalf("sessions = %d", n)
	}
}
