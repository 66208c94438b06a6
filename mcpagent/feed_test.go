package mcpagent_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// feedFor makes a Feed over a viewer's runtime of a, counting its
// listeners in live.
func feedFor(t *testing.T, a *app, live *atomic.Int64) *mcpagent.Feed {
	t.Helper()
	f, err := mcpagent.NewFeed(countingRuntime{a.runtime(t, viewer), live}, &mcpagent.FeedOptions{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestFeedFollowsTheModelForEverySessionWithOneListener(t *testing.T) {
	a := startApp(t)
	var feedLive, serverLive atomic.Int64
	feed := feedFor(t, a, &feedLive)
	opts := &mcpagent.Options{Feed: feed, Logger: quietLogger()}
	evOwner, evViewer := newEvents(), newEvents()
	srvOwner, csOwner := connect(t, countingRuntime{a.runtime(t, owner), &serverLive}, opts, evOwner)
	srvViewer, csViewer := connect(t, countingRuntime{a.runtime(t, viewer), &serverLive}, opts, evViewer)
	if feedLive.Load() != 1 || serverLive.Load() != 0 {
		t.Fatalf("listeners: feed %d, servers %d; want 1 and 0 (idle servers follow the Feed)", feedLive.Load(), serverLive.Load())
	}
	for _, cs := range []*mcp.ClientSession{csOwner, csViewer} {
		if got := toolNames(t, cs); !slices.Equal(got, []string{"create_todo"}) {
			t.Fatalf("tools = %v", got)
		}
	}
	// changes checks how often each Server changed its advertised set
	// since it first listed create_todo.
	// (A client hears of each change at least once; the SDK debounces
	// its notices by time, so a change may reach it as one or two.)
	changes := func(when string, want uint64) {
		t.Helper()
		for _, s := range []*mcpagent.Server{srvOwner, srvViewer} {
			if n := mcpagent.ToolChanges(s) - 1; n != want {
				t.Fatalf("%s: the tool set changed %d times, want %d", when, n, want)
			}
		}
	}

	// A change made through one session reaches both.
	call(t, csOwner, "create_todo", map[string]any{"title": "milk"})
	want := []string{"create_todo", "rename_todo", "select_todo", "toggle_todo"}
	for _, ev := range []*events{evOwner, evViewer} {
		ev.waitFor(t, "list_changed after the first todo", func() bool { return ev.listChangedCount() >= 1 })
	}
	for _, cs := range []*mcp.ClientSession{csOwner, csViewer} {
		if got := toolNames(t, cs); !sameSet(got, want) {
			t.Fatalf("tools = %v, want %v", got, want)
		}
	}
	changes("after the first todo", 1)

	// A change made outside any session, which leaves the set as it was,
	// changes nothing; one that changes it reaches both. (A tools/list
	// brings the Feed up to the Model it reads, so once it answers the
	// rename has been weighed.)
	if err := a.prog.Dispatch(context.Background(), todo.RenameTodo{ID: "t1", Title: "oat milk"}); err != nil {
		t.Fatal(err)
	}
	a.waitModel(t, "the rename", func(l todo.List) bool { return l.Todos[0].Title == "oat milk" })
	if got := toolNames(t, csViewer); !sameSet(got, want) {
		t.Fatalf("after the rename, tools = %v, want %v", got, want)
	}
	changes("after the rename", 1)
	heard := []int{evOwner.listChangedCount(), evViewer.listChangedCount()}
	if err := a.prog.Dispatch(context.Background(), todo.SelectTodo{ID: "t1"}); err != nil {
		t.Fatal(err)
	}
	for i, ev := range []*events{evOwner, evViewer} {
		ev.waitFor(t, "list_changed after a selection", func() bool { return ev.listChangedCount() > heard[i] })
	}
	if got := toolNames(t, csViewer); !slices.Contains(got, "delete_selected_todo") {
		t.Fatalf("after select, tools = %v", got)
	}
	toolNames(t, csOwner)
	changes("after the selection", 2)
}

func TestFeedServerFollowsItsRuntimeOnlyForSubscribedResources(t *testing.T) {
	a := startApp(t)
	var feedLive, serverLive atomic.Int64
	feed := feedFor(t, a, &feedLive)
	ev := newEvents()
	srv, cs := connect(t, countingRuntime{a.runtime(t, owner), &serverLive}, &mcpagent.Options{Feed: feed, Logger: quietLogger()}, ev)
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "app://stats"}); err != nil {
		t.Fatal(err)
	}
	if serverLive.Load() != 1 {
		t.Fatalf("server listeners after a subscription = %d, want 1", serverLive.Load())
	}
	if err := a.prog.Dispatch(context.Background(), todo.CreateTodo{Title: "milk"}); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "stats updated", func() bool { return len(ev.updates()) == 1 })
	ev.waitFor(t, "list_changed", func() bool { return ev.listChangedCount() == 1 })

	srv.Close()
	if serverLive.Load() != 0 || feedLive.Load() != 1 {
		t.Fatalf("after Close, listeners: server %d, feed %d; want 0 and 1", serverLive.Load(), feedLive.Load())
	}
	// The closed Server has left the Feed: a change says nothing to it.
	if err := a.prog.Dispatch(context.Background(), todo.SelectTodo{ID: "t1"}); err != nil {
		t.Fatal(err)
	}
	a.waitModel(t, "the selection", func(l todo.List) bool { return l.Selected == "t1" })
	time.Sleep(quiet) // nothing may come (see quiet)
	if n := ev.listChangedCount(); n != 1 {
		t.Fatalf("list_changed sent %d times, want 1: the server was closed", n)
	}
}

func TestFeedRefusesARuntimeOfAnotherContract(t *testing.T) {
	a := startApp(t)
	feed := feedFor(t, a, new(atomic.Int64))
	other := fakeRuntime{list: []agent.Descriptor{{Name: "something_else", Description: "Another contract.", InputSchema: json.RawMessage(`{"type":"object"}`)}}}
	_, err := mcpagent.NewServer(other, &mcpagent.Options{Feed: feed, Logger: quietLogger()})
	if err == nil || !strings.Contains(err.Error(), "Feed") {
		t.Fatalf("NewServer with another contract's Feed: %v, want an error naming the Feed", err)
	}
	if _, err := mcpagent.NewFeed(nil, nil); err == nil {
		t.Fatal("NewFeed(nil) succeeded")
	}
}

// A Feed that no Server follows skips the Model's changes; the first
// Server added to it later is offered what the Model offers then.
func TestFeedWithNoServerCatchesUpWhenOneIsAdded(t *testing.T) {
	a := startApp(t)
	feed, err := mcpagent.NewFeed(a.runtime(t, viewer), &mcpagent.FeedOptions{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { feed.Close() })
	if err := a.prog.Dispatch(context.Background(), todo.CreateTodo{Title: "milk"}); err != nil {
		t.Fatal(err)
	}
	a.waitModel(t, "the first todo", func(l todo.List) bool { return len(l.Todos) == 1 })
	_, cs := connect(t, a.runtime(t, owner), &mcpagent.Options{Feed: feed, Logger: quietLogger()}, newEvents())
	want := []string{"create_todo", "rename_todo", "select_todo", "toggle_todo"}
	if got := toolNames(t, cs); !sameSet(got, want) {
		t.Fatalf("tools = %v, want %v", got, want)
	}
}
