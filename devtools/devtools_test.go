package devtools_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/devtools"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// todoTypes are the todo list's Message types.
func todoTypes() []devtools.MessageType {
	return []devtools.MessageType{
		devtools.Message[todo.CreateTodo](), devtools.Message[todo.CreatedTodo](),
		devtools.Message[todo.RenameTodo](), devtools.Message[todo.SelectTodo](),
		devtools.Message[todo.ToggleTodo](), devtools.Message[todo.DeleteTodo](),
		devtools.Message[todo.ClearCompleted](), devtools.Message[todo.ChangeKept](),
	}
}

// app is the todo list under host/loop with devtools attached, and the
// audit log its agents' runtimes record to.
type app struct {
	prog  *loop.Program[todo.List, todo.Msg]
	dev   *devtools.Devtools[todo.List, todo.Msg]
	audit *agent.AuditLog[todo.Principal]
}

func start(t *testing.T, opts devtools.Options) *app {
	t.Helper()
	a := &app{prog: loop.New(todo.Loop(), nil)}
	a.audit = agent.NewAuditLog(agent.AuditOptions[todo.Principal]{Principal: func(p todo.Principal) string { return p.Name }})
	opts.Messages = todoTypes()
	if opts.Audit == nil {
		opts.Audit = a.audit.Entries
	}
	dev, err := devtools.AttachLoop(a.prog, opts)
	if err != nil {
		t.Fatal(err)
	}
	a.dev = dev
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = a.prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; _ = dev.Close() })
	return a
}

// waitVersion waits until the Program has applied up to version v.
func (a *app) waitVersion(t *testing.T, v uint64) {
	t.Helper()
	loopwait.Until(t, a.prog, "the Model's version to reach the one awaited", func(todo.List) bool {
		_, cur := a.prog.VersionedModel()
		return cur >= v
	})
}

// agentClient connects an MCP client to the todo contract bound as p,
// recording to the audit log, whose projection names p: its Messages
// carry p's name with no wrapper. bob's runtime is served through the
// deprecated devtools.Agent, which still names him.
func (a *app) agentClient(t *testing.T, p todo.Principal) *mcp.ClientSession {
	t.Helper()
	opts := todo.As(p)
	opts.Audit = a.audit
	var rt mcpagent.Runtime = agent.MustBind(todo.Contract(), a.prog, opts)
	if p.Name == "bob" {
		rt = devtools.Agent(rt.(*agent.Runtime[todo.List, todo.Msg, todo.Principal]), p.Name)
	}
	srv, err := mcpagent.NewServer(rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: p.Name}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func (a *app) create(t *testing.T, cs *mcp.ClientSession, title string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "create_todo", Arguments: map[string]any{"title": title}})
	if err != nil || res.IsError {
		t.Fatalf("create_todo: %v %+v", err, res)
	}
}

// story drives the list: the person creates a todo (version 2, its
// CreatedTodo the app's command at 3), then alice (4, 5), then bob (6, 7).
func story(t *testing.T, a *app) {
	t.Helper()
	if err := a.prog.Dispatch(loop.WithInput(context.Background()), todo.CreateTodo{Title: "milk"}); err != nil {
		t.Fatal(err)
	}
	a.waitVersion(t, 3)
	a.create(t, a.agentClient(t, todo.Principal{Name: "alice", Role: todo.Owner}), "bread")
	a.waitVersion(t, 5)
	a.create(t, a.agentClient(t, todo.Principal{Name: "bob", Role: todo.Owner}), "eggs")
	a.waitVersion(t, 7)
}

func TestHistoryTellsThePersonTheAgentsAndTheAppApart(t *testing.T) {
	a := start(t, devtools.Options{})
	story(t, a)
	entries, dropped := a.dev.History(devtools.Filter{})
	if dropped != 0 || len(entries) != 6 {
		t.Fatalf("got %d entries, %d dropped; want 6, 0", len(entries), dropped)
	}
	want := []struct {
		by, typ string
		cause   uint64
	}{
		{"person", "todo.CreateTodo", 0}, {"app", "todo.CreatedTodo", 2},
		{"agent alice", "todo.CreateTodo", 0}, {"app", "todo.CreatedTodo", 4},
		{"agent bob", "todo.CreateTodo", 0}, {"app", "todo.CreatedTodo", 6},
	}
	for i, w := range want {
		e := entries[i]
		if e.Version != uint64(i+2) || e.By != w.by || e.Type != w.typ || e.Provenance.Cause != w.cause {
			t.Errorf("entry %d: version %d by %q type %q cause %d; want %d %q %q %d", i, e.Version, e.By, e.Type, e.Provenance.Cause, i+2, w.by, w.typ, w.cause)
		}
		if !e.Encoded || len(e.Changed) == 0 && w.by != "app" {
			t.Errorf("entry %d: encoded %v, changed %v", i, e.Encoded, e.Changed)
		}
	}
	alice := entries[2].Provenance.Agent
	if alice == nil || alice.Invocation == "" || alice.Transport != "mcp" || alice.Caller == "" {
		t.Fatalf("alice's origin = %+v; want an invocation, the mcp transport and a caller", alice)
	}
	if !slices.Contains(entries[0].Changed, "/todos") && !slices.ContainsFunc(entries[0].Changed, func(p string) bool { return strings.HasPrefix(p, "/todos") }) {
		t.Errorf("the person's create changed %v; want a path under /todos", entries[0].Changed)
	}
	agents, _ := a.dev.History(devtools.Filter{Kind: devtools.KindAgent})
	if len(agents) != 2 {
		t.Errorf("%d agent entries; want 2", len(agents))
	}
	last, _ := a.dev.History(devtools.Filter{Type: "todo.CreatedTodo", Last: 1})
	if len(last) != 1 || last[0].Version != 7 {
		t.Errorf("the last CreatedTodo = %+v; want version 7", last)
	}
	if c := a.dev.Counts(); c["todo.CreateTodo"] != 3 || c["todo.CreatedTodo"] != 3 {
		t.Errorf("counts = %v", c)
	}
	// The audit joins each agent call to the version its Message made.
	rows := a.dev.Audit(0)
	versions := map[uint64]bool{}
	for _, r := range rows {
		versions[r.Version] = true
	}
	if len(rows) != 2 || !versions[4] || !versions[6] {
		t.Errorf("audit rows = %+v; want two, joined to versions 4 and 6", rows)
	}
}

func TestReplayRebuildsAPastVersionInASandbox(t *testing.T) {
	a := start(t, devtools.Options{KeyframeEvery: 4})
	story(t, a)
	_, before := a.prog.VersionedModel()
	got, m, err := a.dev.Replay(context.Background(), 7)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Matches || got.From != 4 || got.Messages != 3 {
		t.Errorf("replay = %+v; want a match from keyframe 4 over 3 Messages", got)
	}
	rec, _ := a.prog.ModelAt(7)
	if !reflect.DeepEqual(m, rec) {
		t.Errorf("replayed Model %+v; recorded %+v", m, rec)
	}
	if _, after := a.prog.VersionedModel(); after != before {
		t.Errorf("replay moved the live Model from version %d to %d", before, after)
	}
}

func TestReplaySaysWhenItIsImpossible(t *testing.T) {
	calls := 0
	prog := loop.New(loop.Funcs(
		func() (int, loop.Cmd[int]) { return 0, nil },
		func(n, msg int) (int, loop.Cmd[int]) { calls++; return n + msg + calls, nil }, // depends on more than n and msg
	), nil)
	dev, err := devtools.AttachLoop(prog, devtools.Options{History: 4})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = prog.Run(ctx) }()
	for i := range 6 {
		_ = prog.Dispatch(ctx, i)
	}
	loopwait.Until(t, prog, "six Messages applied", func(int) bool { _, v := prog.VersionedModel(); return v >= 7 })
	var re *devtools.ReplayError
	if _, _, err := dev.Replay(ctx, 3); !errors.As(err, &re) || re.Reason != devtools.ReplayWindowPassed {
		t.Errorf("replay to a version before the window: %v; want %s", err, devtools.ReplayWindowPassed)
	}
	dev2, err := devtools.AttachLoop(prog, devtools.Options{})
	if !errors.Is(err, loop.ErrRecording) || dev2 != nil {
		t.Errorf("a second recorder: %v; want loop.ErrRecording", err)
	}
	_ = dev.Close()
	dev3, err := devtools.AttachLoop(prog, devtools.Options{KeyframeEvery: 1000})
	if err != nil {
		t.Fatal(err)
	}
	_, v := prog.VersionedModel()
	_ = prog.Dispatch(ctx, 1)
	loopwait.Until(t, prog, "one more Message", func(int) bool { _, cur := prog.VersionedModel(); return cur > v })
	if _, _, err := dev3.Replay(ctx, v+1); !errors.As(err, &re) || re.Reason != devtools.ReplayMismatch || re.At != v+1 {
		t.Errorf("replay of an update that counts its calls: %v; want %s at %d", err, devtools.ReplayMismatch, v+1)
	}
}

func TestDiffBetweenTwoVersions(t *testing.T) {
	a := start(t, devtools.Options{})
	story(t, a)
	changes, err := a.dev.Diff(3, 5, "/todos")
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Path != "/todos/1" {
		t.Fatalf("changes = %+v; want the one todo added at /todos/1", changes)
	}
	added, _ := changes[0].After.(map[string]any)
	if changes[0].Before != nil || added["title"] != "bread" {
		t.Errorf("change = %+v; want bread added", changes[0])
	}
	var ve *devtools.VersionError
	if _, err := a.dev.Diff(3, 99, ""); !errors.As(err, &ve) {
		t.Errorf("a diff to a version never made: %v; want a VersionError", err)
	}
	v, err := a.dev.Model(1, "")
	if err != nil || !reflect.DeepEqual(v.Value, map[string]any{"todos": nil, "nextId": json.Number("0")}) {
		t.Errorf("the initial Model = %+v, %v", v.Value, err)
	}
}

// bearer adds a token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func devClient(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "developer"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out, res.IsError
}

func TestDispatchIsRefusedUntilEnabledAndABatchIsAllOrNothing(t *testing.T) {
	a := start(t, devtools.Options{})
	story(t, a)
	srv := httptest.NewServer(a.dev.Handler())
	t.Cleanup(srv.Close) // after the client's session is closed
	cs := devClient(t, srv.URL, a.dev.Token())
	first := a.prog.Model().Todos[0].ID
	rename := map[string]any{"type": "todo.RenameTodo", "message": map[string]any{"id": first, "title": "oat milk"}}
	out, isErr := call(t, cs, devtools.ToolDispatch, map[string]any{"messages": []any{rename}})
	if !isErr || out["error"] != "DevtoolsDispatchDisabled" {
		t.Fatalf("dispatch before enabling: %v; want DevtoolsDispatchDisabled", out)
	}
	a.dev.EnableDispatch(true)
	bad := map[string]any{"type": "todo.NoSuchMessage", "message": map[string]any{}}
	out, isErr = call(t, cs, devtools.ToolDispatch, map[string]any{"messages": []any{rename, bad}})
	if !isErr || out["error"] != "DevtoolsBatchRefused" {
		t.Fatalf("a batch with an invalid Message: %v; want DevtoolsBatchRefused", out)
	}
	if _, v := a.prog.VersionedModel(); v != 7 {
		t.Fatalf("a refused batch moved the Model to version %d", v)
	}
	sel := map[string]any{"type": "todo.SelectTodo", "message": map[string]any{"id": first}}
	out, isErr = call(t, cs, devtools.ToolDispatch, map[string]any{"messages": []any{rename, sel}})
	if isErr || out["sent"] != float64(2) {
		t.Fatalf("a valid batch: %v", out)
	}
	a.waitVersion(t, 9)
	dev, _ := a.dev.History(devtools.Filter{Kind: devtools.KindDeveloper})
	if len(dev) != 2 || dev[0].Type != "todo.RenameTodo" || dev[1].Type != "todo.SelectTodo" {
		t.Errorf("developer entries = %+v", dev)
	}
	out, _ = call(t, cs, devtools.ToolModel, map[string]any{"path": "/todos/0/title"})
	if out["value"] != "oat milk" {
		t.Errorf("the Model at /todos/0/title = %v", out)
	}
}

func TestAWrongTokenIsRefused(t *testing.T) {
	a := start(t, devtools.Options{})
	srv := httptest.NewServer(a.dev.Handler())
	defer srv.Close()
	for _, h := range []string{"", "Bearer nope", "Bearer " + a.dev.Token() + "x", a.dev.Token()} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		if h != "" {
			req.Header.Set("Authorization", h)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("Authorization %q: status %d; want 401", h, res.StatusCode)
		}
	}
}

type account struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

func TestSecretsAreRedactedUnlessRevealed(t *testing.T) {
	prog := loop.New(loop.Funcs(
		func() (account, loop.Cmd[string]) { return account{Name: "ann", Password: "hunter2"}, nil },
		func(m account, _ string) (account, loop.Cmd[string]) { return m, nil },
	), nil)
	dev, err := devtools.AttachLoop(prog, devtools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := dev.Model(0, "")
	if got := v.Value.(map[string]any); got["password"] != devtools.Redacted || got["name"] != "ann" {
		t.Errorf("served %v; want the password redacted, the name kept", got)
	}
	_ = dev.Close()
	dev, _ = devtools.AttachLoop(prog, devtools.Options{Reveal: []string{"/password"}})
	if v, _ := dev.Model(0, "/password"); v.Value != "hunter2" {
		t.Errorf("revealed password served as %v", v.Value)
	}
	_ = dev.Close()
	// With the todo contract, the Model's nextId, which its projection
	// never shows an agent, is redacted.
	desc := todo.Contract().Describe()
	a := start(t, devtools.Options{Contract: &desc})
	v, _ = a.dev.Model(0, "")
	if got := v.Value.(map[string]any); got["nextId"] != devtools.Redacted {
		t.Errorf("served %v; want nextId redacted", got)
	}
}

// An agent runtime served without devtools.Agent is still told apart and
// named at the host's door: the runtime hands the host its invocation
// (agent.InvocationFrom), whose id and principal are the audit log's.
func TestAnUnnamedAgentIsRecordedWithItsInvocation(t *testing.T) {
	a := start(t, devtools.Options{})
	opts := todo.As(todo.Principal{Name: "carol", Role: todo.Owner})
	opts.Audit = a.audit
	rt := agent.MustBind(todo.Contract(), a.prog, opts)
	srv, err := mcpagent.NewServer(rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "carol"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	a.create(t, cs, "tea")
	a.waitVersion(t, 3)
	entries, _ := a.dev.History(devtools.Filter{Type: "todo.CreateTodo"})
	if len(entries) != 1 || entries[0].Provenance.Kind != devtools.KindAgent {
		t.Fatalf("entries = %+v; want one agent entry", entries)
	}
	got := entries[0].Provenance.Agent
	var audited string
	for _, e := range a.audit.Entries() {
		if e.Capability == "create_todo" {
			audited = e.Invocation
		}
	}
	if got == nil || got.Invocation == "" || got.Invocation != audited || got.Transport != "mcp" || got.Identity != "carol" || got.Caller == "" {
		t.Fatalf("origin = %+v, audited invocation %q; want carol (the audit's principal), her caller, the audit's invocation and the mcp transport", got, audited)
	}
}

// A Message the application's own code dispatches, with no mark, is the
// app's, not the person's: only input marked as such (loop.WithInput) is
// theirs.
func TestTheAppsOwnDispatchIsNotThePersons(t *testing.T) {
	a := start(t, devtools.Options{})
	if err := a.prog.Dispatch(context.Background(), todo.SelectTodo{ID: "t1"}); err != nil {
		t.Fatal(err)
	}
	if err := a.prog.Dispatch(loop.WithInput(context.Background()), todo.CreateTodo{Title: "milk"}); err != nil {
		t.Fatal(err)
	}
	a.waitVersion(t, 4)
	entries, _ := a.dev.History(devtools.Filter{})
	want := []devtools.Provenance{{Kind: devtools.KindApp, Door: "dispatch"}, {Kind: devtools.KindPerson, Door: "input"}, {Kind: devtools.KindApp, Door: "cmd", Cause: 3}}
	if len(entries) != len(want) {
		t.Fatalf("%d entries; want %d", len(entries), len(want))
	}
	for i, w := range want {
		if got := entries[i].Provenance; !reflect.DeepEqual(got, w) {
			t.Errorf("v%d %s: provenance %+v; want %+v", entries[i].Version, entries[i].Type, got, w)
		}
	}
	if got, _ := a.dev.History(devtools.Filter{Kind: devtools.KindPerson}); len(got) != 1 || got[0].Type != "todo.CreateTodo" {
		t.Errorf("the person's Messages: %+v; want the one marked as input", got)
	}
}

// An agent whose runtime names no principal is named by
// Options.NameAgent from its caller, as the application names it to the
// person.
func TestNameAgentNamesAnAgentKnownByItsCaller(t *testing.T) {
	var asked []string
	a := start(t, devtools.Options{NameAgent: func(caller string) string {
		asked = append(asked, caller)
		return "agent 1"
	}})
	rt := agent.MustBind(todo.Contract(), a.prog, todo.As(todo.Principal{Name: "dave", Role: todo.Owner}))
	ctx := agent.WithCaller(context.Background(), "mcp:session:S1")
	if _, err := rt.DispatchUnknown(ctx, "create_todo", json.RawMessage(`{"title":"tea"}`), agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	a.waitVersion(t, 3)
	entries, _ := a.dev.History(devtools.Filter{Type: "todo.CreateTodo"})
	if len(entries) != 1 || entries[0].By != "agent 1" {
		t.Fatalf("entries %+v", entries)
	}
	got := entries[0].Provenance.Agent
	if got.Identity != "agent 1" || got.Caller != "mcp:session:S1" || got.Session != "S1" || !slices.Equal(asked, []string{"mcp:session:S1"}) {
		t.Fatalf("origin %+v, NameAgent asked for %v", got, asked)
	}
}

// The history keeps the last Options.History Messages across many
// blocks, counting those that left, while a tool reads it as the
// recorder writes.
func TestTheHistoryWindowSlides(t *testing.T) {
	prog := loop.New(loop.Funcs(
		func() (int, loop.Cmd[int]) { return 0, nil },
		func(n, msg int) (int, loop.Cmd[int]) { return n + msg, nil },
	), nil)
	dev, err := devtools.AttachLoop(prog, devtools.Options{History: 100, KeyframeEvery: 10, Keyframes: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = prog.Run(ctx) }()
	const sent = 300
	reading := make(chan struct{})
	go func() { // a tool reading meanwhile
		defer close(reading)
		for range 50 {
			entries, dropped := dev.History(devtools.Filter{})
			if len(entries) > 100 || len(entries) > 0 && entries[0].Version != dropped+2 {
				t.Errorf("%d entries from v%d, %d dropped", len(entries), entries[0].Version, dropped)
				return
			}
		}
	}()
	for range sent {
		_ = prog.Dispatch(ctx, 1)
	}
	loopwait.Until(t, prog, "every Message applied", func(n int) bool { return n == sent })
	<-reading
	entries, dropped := dev.History(devtools.Filter{})
	if len(entries) != 100 || dropped != sent-100 || entries[0].Version != sent-100+2 || entries[99].Version != sent+1 {
		t.Fatalf("%d entries v%d…v%d, %d dropped; want the last 100, %d dropped", len(entries), entries[0].Version, entries[len(entries)-1].Version, dropped, sent-100)
	}
	if m, err := dev.Model(sent-100+2, ""); err != nil || fmt.Sprint(m.Value) != strconv.Itoa(sent-100+1) {
		t.Errorf("the oldest Model kept: %+v, %v", m, err)
	}
	if _, err := dev.Model(sent-100+1, ""); err == nil {
		t.Error("a Model before the window was served")
	}
	r, _, err := dev.Replay(ctx, sent+1)
	if err != nil || !r.Matches || r.From != sent {
		t.Errorf("replay to the newest: %+v, %v; want it from the keyframe at v%d", r, err, sent)
	}
}

// Once closed, the devtools record nothing more, and what they recorded
// stays readable as it was while the application goes on: the history
// ends at the last version recorded, and a later version is not served
// from it.
func TestTheHistoryStaysReadableAfterClose(t *testing.T) {
	a := start(t, devtools.Options{})
	ctx := context.Background()
	for i := range 5 {
		if err := a.prog.Dispatch(ctx, todo.CreateTodo{Title: "t" + strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
	a.waitVersion(t, 11) // five creates, each followed by its CreatedTodo
	before, dropped := a.dev.History(devtools.Filter{})
	if len(before) != 10 || dropped != 0 || before[9].Version != 11 {
		t.Fatalf("%d entries, %d dropped, before Close", len(before), dropped)
	}
	if err := a.dev.Close(); err != nil {
		t.Fatal(err)
	}
	for range 300 {
		if err := a.prog.Dispatch(ctx, todo.SelectTodo{ID: a.prog.Model().Todos[0].ID}); err != nil {
			t.Fatal(err)
		}
	}
	a.waitVersion(t, 311)
	after, dropped := a.dev.History(devtools.Filter{})
	if len(after) != 10 || dropped != 0 || after[0].Version != 2 || after[9].Version != 11 || after[9].Type != before[9].Type {
		t.Fatalf("after Close: %d entries v%d…v%d, %d dropped; want the 10 recorded", len(after), after[0].Version, after[len(after)-1].Version, dropped)
	}
	if m, err := a.dev.Model(11, "/todos"); err != nil || len(m.Value.([]any)) != 5 {
		t.Errorf("the last recorded Model: %+v, %v", m, err)
	}
	if r, _, err := a.dev.Replay(ctx, 11); err != nil || !r.Matches {
		t.Errorf("replay to the last recorded version: %+v, %v", r, err)
	}
}
