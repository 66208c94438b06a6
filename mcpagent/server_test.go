package mcpagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
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

func jsonEqual(t *testing.T, a, b any) bool {
	t.Helper()
	norm := func(v any) any {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var out any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

func TestToolsAreTheAvailableCapabilitiesAsDerived(t *testing.T) {
	a := startApp(t)
	rt := a.runtime(t, owner)
	_, cs := connect(t, rt, nil, nil)

	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	avail, err := rt.Available()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(avail) || len(avail) != 1 {
		t.Fatalf("tools = %d, available = %d; want the one capability an empty list offers", len(res.Tools), len(avail))
	}
	for i, d := range avail {
		tool := res.Tools[i]
		if tool.Name != d.Name || tool.Description != d.Description {
			t.Errorf("tool %q %q, want %q %q", tool.Name, tool.Description, d.Name, d.Description)
		}
		if !jsonEqual(t, tool.InputSchema, d.InputSchema) {
			t.Errorf("tool %s inputSchema %v, want %s", tool.Name, tool.InputSchema, d.InputSchema)
		}
	}
}

func TestToolsFollowTheModel(t *testing.T) {
	a := startApp(t)
	ev := newEvents()
	srv, cs := connect(t, a.runtime(t, owner), nil, ev)
	if got := toolNames(t, cs); !slices.Equal(got, []string{"create_todo"}) {
		t.Fatalf("tools = %v", got)
	}
	base := mcpagent.ToolChanges(srv) // the first list registered create_todo

	// A client hears of each change at least once (the SDK debounces its
	// notices by time); the Server changes its set once per change.
	call(t, cs, "create_todo", map[string]any{"title": "milk"})
	ev.waitFor(t, "list_changed after the first todo", func() bool { return ev.listChangedCount() >= 1 })
	want := []string{"create_todo", "rename_todo", "select_todo", "toggle_todo"}
	if got := toolNames(t, cs); !sameSet(got, want) {
		t.Fatalf("tools = %v, want %v", got, want)
	}
	if n := mcpagent.ToolChanges(srv) - base; n != 1 {
		t.Fatalf("the tool set changed %d times, want 1", n)
	}

	heard := ev.listChangedCount()
	call(t, cs, "select_todo", map[string]any{"id": "t1"})
	ev.waitFor(t, "list_changed after a selection", func() bool { return ev.listChangedCount() > heard })
	if got := toolNames(t, cs); !slices.Contains(got, "delete_selected_todo") {
		t.Fatalf("after select, tools = %v", got)
	}

	// A Model change that leaves the advertised set as it was changes
	// nothing (a tools/list weighs the Model the calls left).
	call(t, cs, "rename_todo", map[string]any{"id": "t1", "title": "oat milk"})
	call(t, cs, "create_todo", map[string]any{"title": "bread"})
	a.waitModel(t, "two todos", func(m todo.List) bool { return len(m.Todos) == 2 })
	toolNames(t, cs)
	if n := mcpagent.ToolChanges(srv) - base; n != 2 {
		t.Fatalf("the tool set changed %d times, want 2: the last two calls left it as it was", n)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func TestNoListChangedAfterCloseAndListenerReleased(t *testing.T) {
	a := startApp(t)
	var live atomic.Int64
	rt := countingRuntime{a.runtime(t, owner), &live}
	ev := newEvents()
	srv, cs := connect(t, rt, nil, ev)
	if live.Load() != 1 {
		t.Fatalf("live listeners = %d, want 1", live.Load())
	}
	toolNames(t, cs)
	srv.Close()
	if live.Load() != 0 {
		t.Fatalf("after Close, live listeners = %d, want 0", live.Load())
	}
	// The Model changes through another route; the closed server says nothing.
	if err := a.prog.Dispatch(context.Background(), todo.CreateTodo{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(quiet) // nothing may come (see quiet)
	if n := ev.listChangedCount(); n != 0 {
		t.Fatalf("list_changed sent %d times after Close", n)
	}
	if _, err := srv.Connect(context.Background(), nil, nil); err == nil {
		t.Fatal("Connect after Close succeeded")
	}
}

func TestCallResultCarriesSummaryAndStructuredContent(t *testing.T) {
	a := startApp(t)
	_, cs := connect(t, a.runtime(t, owner), nil, nil)
	res := call(t, cs, "create_todo", map[string]any{"title": "milk"})
	if res.IsError {
		t.Fatalf("isError: %s", text(res))
	}
	if got := text(res); got != "Dispatched CreateTodo" {
		t.Fatalf("text = %q", got)
	}
	sc := structured(t, res)
	if sc["capability"] != "create_todo" || sc["tag"] != "CreateTodo" {
		t.Fatalf("structuredContent = %v", sc)
	}
	inv, _ := sc["invocation"].(map[string]any)
	if inv["transport"] != "mcp" || inv["id"] == "" || inv["id"] == nil {
		t.Fatalf("invocation = %v", inv)
	}
	if _, has := sc["completion"]; has {
		t.Fatalf("completion present without a completion contract: %v", sc)
	}
	if len(res.Content) != 2 {
		t.Fatalf("content has %d blocks, want the summary and the JSON", len(res.Content))
	}
	var echoed map[string]any
	if err := json.Unmarshal([]byte(res.Content[1].(*mcp.TextContent).Text), &echoed); err != nil || !reflect.DeepEqual(echoed, copyOf(sc, text(res))) || echoed["changed"] == nil {
		t.Fatalf("second block %v does not repeat the structured content %v less what the request says (%v)", echoed, sc, err)
	}
	// Observe listeners run just after the new Model is visible, so wait
	// for the observed count itself, then check that it stays at one.
	waitUntil(t, "update to apply the CreateTodo", func() bool { return a.created.Load() >= 1 })
	// Not a wait for something to happen: a second CreateTodo may not
	// come, and no event marks an absence (see quiet).
	time.Sleep(20 * time.Millisecond)
	if got := a.created.Load(); got != 1 || len(a.prog.Model().Todos) != 1 {
		t.Fatalf("update applied %d CreateTodo (%d todos), want exactly 1", got, len(a.prog.Model().Todos))
	}
}

func TestRefusalsAreToolErrorsTheModelCanRead(t *testing.T) {
	a := startApp(t)
	_, cs := connect(t, a.runtime(t, owner), nil, nil)
	_, viewerCS := connect(t, a.runtime(t, viewer), nil, nil)

	cases := []struct {
		name string
		cs   *mcp.ClientSession
		tool string
		args any
		tag  string
		msg  string
		prep func()
	}{
		{name: "invalid input type", cs: cs, tool: "create_todo", args: map[string]any{"title": 5},
			tag: agent.TagInvalidInput, msg: (&agent.InvalidInputError{Capability: "create_todo"}).Error()},
		{name: "undeclared field", cs: cs, tool: "create_todo", args: map[string]any{"title": "a", "owner": true},
			tag: agent.TagInvalidInput, msg: (&agent.InvalidInputError{Capability: "create_todo"}).Error()},
		{name: "unavailable", cs: cs, tool: "delete_selected_todo", args: map[string]any{},
			tag: agent.TagUnavailable, msg: (&agent.UnavailableError{Capability: "delete_selected_todo"}).Error()},
		{name: "unauthorized", cs: viewerCS, tool: "clear_completed", args: map[string]any{},
			tag: agent.TagAuthorization, msg: "Only the owner of this list may clear completed todos.",
			prep: func() {
				call(t, cs, "create_todo", map[string]any{"title": "done one"})
				a.waitModel(t, "a todo", func(m todo.List) bool { return len(m.Todos) == 1 })
				call(t, cs, "toggle_todo", map[string]any{"id": "t1"})
				a.waitModel(t, "a done todo", func(m todo.List) bool { return m.Todos[0].Done })
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.prep != nil {
				c.prep()
			}
			before := a.prog.Model()
			res := call(t, c.cs, c.tool, c.args)
			if !res.IsError {
				t.Fatalf("isError = false, text %q", text(res))
			}
			if got := text(res); got != c.msg {
				t.Fatalf("text = %q, want %q", got, c.msg)
			}
			if sc := structured(t, res); sc["_tag"] != c.tag {
				t.Fatalf("structuredContent = %v, want _tag %s", sc, c.tag)
			}
			if after := a.prog.Model(); !reflect.DeepEqual(before, after) {
				t.Fatalf("a refused call changed the Model: %+v -> %+v", before, after)
			}
		})
	}
}

func TestUnknownToolIsAProtocolError(t *testing.T) {
	a := startApp(t)
	_, cs := connect(t, a.runtime(t, owner), nil, nil)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "launch_rockets", Arguments: map[string]any{}})
	if err == nil {
		t.Fatal("calling an unknown tool succeeded")
	}
	if code := rpcCode(err); code != -32602 {
		t.Fatalf("error %v has code %d, want -32602", err, code)
	}
}

func TestDefectSaysOnlyThatTheCapabilityFailed(t *testing.T) {
	h := newBlockingHost()
	h.fail = errors.New("database password is hunter2")
	_, cs := connect(t, workRuntime(t, h), &mcpagent.Options{Logger: quietLogger()}, nil)
	res := call(t, cs, "work", map[string]any{"steps": 1})
	if !res.IsError {
		t.Fatal("a defect was reported as success")
	}
	if got, want := text(res), (&agent.DefectError{Capability: "work"}).Error(); got != want {
		t.Fatalf("text = %q, want %q", got, want)
	}
	raw, _ := json.Marshal(res)
	if strings.Contains(string(raw), "hunter2") {
		t.Fatalf("the defect's cause leaked: %s", raw)
	}
}

func TestProgressWhileWaiting(t *testing.T) {
	h := newBlockingHost()
	ev := newEvents()
	_, cs := connect(t, workRuntime(t, h), &mcpagent.Options{ProgressInterval: 10 * time.Millisecond}, ev)

	params := &mcp.CallToolParams{Name: "work", Arguments: map[string]any{"steps": 2}}
	params.SetProgressToken("tok-1")
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	<-h.entered
	ev.waitFor(t, "two progress notifications", func() bool { return len(ev.progressed()) >= 2 })
	close(h.release)
	res := <-done
	if res == nil || res.IsError {
		t.Fatalf("result %+v", res)
	}
	seen := ev.progressed()
	for i, p := range seen {
		if p.ProgressToken != "tok-1" {
			t.Fatalf("progress %d token %v", i, p.ProgressToken)
		}
		if i > 0 && p.Progress <= seen[i-1].Progress {
			t.Fatalf("progress did not increase: %v then %v", seen[i-1].Progress, p.Progress)
		}
	}
	time.Sleep(50 * time.Millisecond) // nothing may come after the result (see quiet)
	if n := len(ev.progressed()); n != len(seen) {
		t.Fatalf("%d progress notifications arrived after the result", n-len(seen))
	}
}

func TestNoProgressWithoutAToken(t *testing.T) {
	h := newBlockingHost()
	ev := newEvents()
	_, cs := connect(t, workRuntime(t, h), &mcpagent.Options{ProgressInterval: 5 * time.Millisecond}, ev)
	done := make(chan struct{})
	go func() { defer close(done); call(t, cs, "work", map[string]any{"steps": 1}) }()
	<-h.entered
	// Not a wait for something to happen: the call runs for ten progress
	// intervals, in which no progress may be sent (see quiet).
	time.Sleep(50 * time.Millisecond)
	close(h.release)
	<-done
	if n := len(ev.progressed()); n != 0 {
		t.Fatalf("%d progress notifications without a progress token", n)
	}
}

func TestClientCancellationCancelsTheInvocation(t *testing.T) {
	h := newBlockingHost()
	_, cs := connect(t, workRuntime(t, h), nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "work", Arguments: map[string]any{"steps": 3}})
		errc <- err
	}()
	<-h.entered
	cancel() // the client sends notifications/cancelled
	select {
	case <-h.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the host's dispatch context was not cancelled")
	}
	if err := <-errc; err == nil {
		t.Fatal("the cancelled call reported success")
	}
	if h.Model() != 0 {
		t.Fatalf("cancelled work was applied: model = %d", h.Model())
	}
}

func TestResourcesListReadAndNotFound(t *testing.T) {
	a := startApp(t)
	rt := a.runtime(t, owner)
	_, cs := connect(t, rt, nil, nil)
	call(t, cs, "create_todo", map[string]any{"title": "milk"})
	a.waitModel(t, "one todo", func(m todo.List) bool { return len(m.Todos) == 1 })

	ctx := context.Background()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
		if r.MIMEType != "application/json" || r.Description == "" {
			t.Errorf("resource %+v", r)
		}
	}
	if !sameSet(uris, []string{"app://context", "app://todos", "app://stats"}) {
		t.Fatalf("resources = %v", uris)
	}
	read := func(uri string) string {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		return res.Contents[0].Text
	}
	wantCtx, _ := rt.Context(ctx)
	if got := read("app://context"); got != string(wantCtx) {
		t.Fatalf("context = %s, want %s", got, wantCtx)
	}
	wantStats, _ := rt.ReadResource(ctx, "stats")
	if got := read("app://stats"); got != string(wantStats) || got != `{"total":1,"done":0}` {
		t.Fatalf("stats = %s, want %s", got, wantStats)
	}
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "app://secrets"})
	if code := rpcCode(err); code != mcpagent.CodeResourceNotFound {
		t.Fatalf("unknown resource: err %v code %d, want %d", err, code, mcpagent.CodeResourceNotFound)
	}
}

// A declared resource named context takes app://context from the
// projection.
func TestDeclaredContextResourceTakesTheName(t *testing.T) {
	h := newBlockingHost()
	c := agent.Make(agent.Definition[slowModel, agent.NoPrincipal]{
		Context: agent.Project(func(m slowModel) int { return m }),
		Capabilities: []agent.Capability[slowModel, agent.NoPrincipal]{
			agent.Expose(agent.Variant[Work, slowModel, agent.NoPrincipal]{Description: "Do some work."}),
		},
		Resources: []agent.Resource[slowModel]{
			agent.NewResource("context", "The declared context.", func(m slowModel) string { return "declared" }),
		},
	})
	rt := agent.MustBind[slowModel, Work, agent.NoPrincipal](c, h, nil)
	_, cs := connect(t, rt, nil, nil)
	list, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Resources) != 1 || list.Resources[0].Description != "The declared context." {
		t.Fatalf("resources = %+v", list.Resources)
	}
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "app://context"})
	if err != nil || res.Contents[0].Text != `"declared"` {
		t.Fatalf("read = %+v, %v", res, err)
	}
}

func TestResourceSubscriptionNotifiesOnChangeOnly(t *testing.T) {
	a := startApp(t)
	ev := newEvents()
	_, cs := connect(t, a.runtime(t, owner), nil, ev)
	ctx := context.Background()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "app://stats"}); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "create_todo", map[string]any{"title": "milk"})
	ev.waitFor(t, "stats updated", func() bool { return len(ev.updates()) == 1 })
	if got := ev.updates(); got[0] != "app://stats" {
		t.Fatalf("updated %v", got)
	}
	// Renaming changes todos but not stats: no notification for stats.
	call(t, cs, "rename_todo", map[string]any{"id": "t1", "title": "oat milk"})
	time.Sleep(quiet) // nothing may come (see quiet)
	if got := ev.updates(); len(got) != 1 {
		t.Fatalf("updates = %v, want only the first", got)
	}
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "app://stats"}); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "create_todo", map[string]any{"title": "bread"})
	time.Sleep(quiet) // nothing may come (see quiet)
	if got := ev.updates(); len(got) != 1 {
		t.Fatalf("updates after unsubscribe = %v", got)
	}
	err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "app://nope"})
	if code := rpcCode(err); code != mcpagent.CodeResourceNotFound {
		t.Fatalf("subscribe to unknown: %v (code %d)", err, code)
	}
}

// fakeRuntime is a hand-written Runtime for the cases agent cannot build.
type fakeRuntime struct {
	list []agent.Descriptor
}

func (f fakeRuntime) Describe() agent.Description            { return agent.Description{Capabilities: f.list} }
func (f fakeRuntime) Available() ([]agent.Descriptor, error) { return f.list, nil }
func (f fakeRuntime) AvailableSet(dst []bool) ([]bool, error) {
	dst = dst[:0]
	for range f.list {
		dst = append(dst, true)
	}
	return dst, nil
}
func (f fakeRuntime) Offered(context.Context) (agent.Offer, error) {
	return agent.Offer{Capabilities: f.list}, nil
}
func (f fakeRuntime) DispatchUnknown(context.Context, string, json.RawMessage, agent.Invocation) (agent.Result, error) {
	return agent.Result{}, nil
}
func (f fakeRuntime) Subscribe(func()) func()                         { return func() {} }
func (f fakeRuntime) TrackOffer() agent.OfferTracker                  { return agent.TrackSet(f.AvailableSet) }
func (f fakeRuntime) CanSubscribe() bool                              { return false }
func (f fakeRuntime) CatchUp(context.Context) error                   { return nil }
func (f fakeRuntime) ContextRead(context.Context) (agent.Read, error) { return agent.Read{}, nil }
func (f fakeRuntime) ResourceRead(_ context.Context, name string) (agent.Read, error) {
	return agent.Read{}, &agent.ResourceError{Resource: name}
}

func TestNonObjectInputSchemaIsRefusedAtConstruction(t *testing.T) {
	_, err := mcpagent.NewServer(fakeRuntime{list: []agent.Descriptor{
		{Name: "count", Description: "Count.", InputSchema: json.RawMessage(`{"type":"integer"}`)},
	}}, nil)
	if err == nil || !strings.Contains(err.Error(), `"count"`) {
		t.Fatalf("err = %v, want one naming the capability", err)
	}
	if _, err := mcpagent.NewServer(nil, nil); err == nil {
		t.Fatal("NewServer(nil) succeeded")
	}
}

// A panicking Available hook leaves its capability out and is logged; the
// other tools stay listed and the server keeps serving.
func TestPanickingAvailabilityLeavesOnlyThatToolOut(t *testing.T) {
	h := newBlockingHost()
	c := agent.Make(agent.Definition[slowModel, agent.NoPrincipal]{
		Capabilities: []agent.Capability[slowModel, agent.NoPrincipal]{
			agent.Expose(agent.Variant[Work, slowModel, agent.NoPrincipal]{Description: "Do some work."}),
			agent.Expose(agent.Variant[Rest, slowModel, agent.NoPrincipal]{
				Description: "Rest.",
				Available:   func(slowModel) bool { panic("broken predicate") },
			}),
		},
	})
	rt := agent.MustBind[slowModel, any, agent.NoPrincipal](c, anyHost{h}, nil)
	_, cs := connect(t, rt, &mcpagent.Options{Logger: quietLogger()}, nil)
	if got := toolNames(t, cs); !slices.Equal(got, []string{"work"}) {
		t.Fatalf("tools = %v", got)
	}
	res := call(t, cs, "rest", map[string]any{})
	if !res.IsError || structured(t, res)["_tag"] != agent.TagDefect {
		t.Fatalf("calling the broken capability: %v", res)
	}
}

type Rest struct{}

// anyHost lets the Work host also carry Rest Messages.
type anyHost struct{ h *blockingHost }

func (a anyHost) Model() slowModel { return a.h.Model() }
func (a anyHost) Dispatch(ctx context.Context, msg any) error {
	if w, ok := msg.(Work); ok {
		return a.h.Dispatch(ctx, w)
	}
	return nil
}
