package webmcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// registered registers rt against a fresh stand-in and returns it once
// the first tool set is live.
func registered(t *testing.T, a Agent, opts Options) (*Registration, *fakeContext, *errLog) {
	t.Helper()
	mc := newFakeContext()
	log := &errLog{}
	opts.Agent, opts.ModelContext, opts.OnError = a, mc, log.add
	reg, err := Register(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Unregister)
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	return reg, mc, log
}

type errLog struct {
	mu   sync.Mutex
	errs []error
}

func (l *errLog) add(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, err)
}

func (l *errLog) all() []error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]error(nil), l.errs...)
}

func call(t *testing.T, mc *fakeContext, ctx context.Context, name, input string) ToolResult {
	t.Helper()
	tool, ok := mc.tool(name)
	if !ok {
		t.Fatalf("tool %s is not registered (live: %v)", name, mc.names())
	}
	return tool.Execute(ctx, json.RawMessage(input))
}

func TestExecuteDispatchesThroughTheRuntime(t *testing.T) {
	rt, host := bindTodo(t)
	ids := 0
	_, mc, _ := registered(t, rt, Options{InvocationID: func() string { ids++; return "inv-" + string(rune('0'+ids)) }})
	res := call(t, mc, context.Background(), "create_todo", `{"title":"buy milk"}`)
	if res.IsError || res.Text() != "Dispatched CreateTodo" {
		t.Fatalf("result = %+v, want the Summarize text of a dispatch", res)
	}
	if len(res.Content) != 1 || res.Content[0].Type != "text" {
		t.Fatalf("content = %+v, want one text item", res.Content)
	}
	if got := host.Model().Todos; len(got) != 1 || got[0] != "buy milk" {
		t.Fatalf("Model todos = %v, want [buy milk]", got)
	}
	if tr := seenTransport.Load(); tr != agent.WebMCP {
		t.Fatalf("transport = %v, want %q", tr, agent.WebMCP)
	}
	if id := seenID.Load(); id != "inv-1" {
		t.Fatalf("invocation id = %v, want the one InvocationID supplied", id)
	}
}

func TestExecuteRefusalsAreToolErrors(t *testing.T) {
	rt, host := bindTodo(t)
	_, mc, _ := registered(t, rt, Options{NoFollowModel: true})
	// delete_selected_todo is registered while something is selected…
	host.set(todoModel{Todos: []string{"a"}, Selected: 0})
	_, mc2, _ := registered(t, rt, Options{NoFollowModel: true})
	// …and called after the selection went away, before any reconcile.
	host.set(todoModel{Todos: []string{"a"}, Selected: -1})

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name   string
		mc     *fakeContext
		ctx    context.Context
		tool   string
		input  string
		wantEr agent.Error
	}{
		{"invalid input", mc, context.Background(), "create_todo", `{"title":5}`, &agent.InvalidInputError{Capability: "create_todo"}},
		{"undeclared field", mc, context.Background(), "create_todo", `{"title":"x","extra":1}`, &agent.InvalidInputError{Capability: "create_todo"}},
		{"not an object", mc, context.Background(), "create_todo", `null`, &agent.InvalidInputError{Capability: "create_todo"}},
		{"unauthorized", mc, context.Background(), "create_todo", `{"title":"forbidden"}`, &agent.AuthorizationError{Capability: "create_todo", Reason: "That title is not allowed."}},
		{"unavailable", mc2, context.Background(), "delete_selected_todo", `{}`, &agent.UnavailableError{Capability: "delete_selected_todo"}},
		{"cancelled", mc, cancelled, "select_todo", `{"index":0}`, &agent.CancelledError{Capability: "select_todo"}},
	}
	before := len(host.dispatched())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, c.mc, c.ctx, c.tool, c.input)
			if !res.IsError || res.Text() != c.wantEr.Error() {
				t.Fatalf("result = %+v, want a tool error reading %q", res, c.wantEr.Error())
			}
		})
	}
	if n := len(host.dispatched()) - before; n != 0 {
		t.Fatalf("refused calls dispatched %d Messages", n)
	}
}

func TestExecuteMissingInputIsAnEmptyObject(t *testing.T) {
	rt, host := bindTodo(t)
	host.set(todoModel{Todos: []string{"a"}, Selected: 0})
	_, mc, _ := registered(t, rt, Options{NoFollowModel: true})
	res := call(t, mc, context.Background(), "delete_selected_todo", ``)
	if res.IsError || res.Text() != "Dispatched DeleteSelectedTodo" {
		t.Fatalf("result = %+v", res)
	}
}

func TestExecuteDefectIsGeneric(t *testing.T) {
	rt, _ := bindTodo(t)
	_, mc, log := registered(t, rt, Options{})
	res := call(t, mc, context.Background(), "explode_todo", `{}`)
	want := `Capability "explode_todo" failed unexpectedly.`
	if !res.IsError || res.Text() != want {
		t.Fatalf("result = %+v, want the generic failure %q", res, want)
	}
	if strings.Contains(res.Text(), "secret") {
		t.Fatal("the defect's detail reached the agent")
	}
	errs := log.all()
	if len(errs) != 1 {
		t.Fatalf("OnError got %v, want the defect", errs)
	}
	var d *agent.DefectError
	if !errors.As(errs[0], &d) || !strings.Contains(errors.Unwrap(d).Error(), "secret") {
		t.Fatalf("OnError got %v, want the DefectError with its cause", errs[0])
	}
}

// oddAgent answers dispatch with a plain error, or panics.
type oddAgent struct {
	Agent
	panic bool
}

func (a oddAgent) DispatchUnknown(context.Context, string, json.RawMessage, agent.Invocation) (agent.Result, error) {
	if a.panic {
		panic("adapter bug with private detail")
	}
	return agent.Result{}, errors.New("plain failure with private detail")
}

func TestExecuteAdapterFailuresAreGeneric(t *testing.T) {
	for _, panics := range []bool{false, true} {
		rt, _ := bindTodo(t)
		_, mc, log := registered(t, oddAgent{Agent: rt, panic: panics}, Options{})
		res := call(t, mc, context.Background(), "select_todo", `{"index":0}`)
		if want := `Capability "select_todo" failed unexpectedly.`; !res.IsError || res.Text() != want {
			t.Fatalf("panic=%v: result = %+v, want %q", panics, res, want)
		}
		if errs := log.all(); len(errs) != 1 || !strings.Contains(errs[0].Error(), "private detail") {
			t.Fatalf("panic=%v: OnError got %v", panics, errs)
		}
	}
}

// summaryAgent returns a fixed result, for the completion mapping.
type summaryAgent struct {
	Agent
	res agent.Result
}

func (a summaryAgent) DispatchUnknown(context.Context, string, json.RawMessage, agent.Invocation) (agent.Result, error) {
	return a.res, nil
}

func TestExecuteCompletionOutcomes(t *testing.T) {
	cases := []struct {
		res     agent.Result
		isError bool
	}{
		{agent.Result{Tag: "SelectTodo", Completion: &agent.Completion{Status: agent.Completed, Tag: "TodoSelected"}}, false},
		{agent.Result{Tag: "SelectTodo", Completion: &agent.Completion{Status: agent.Failed, Tag: "SelectFailed"}}, true},
	}
	for _, c := range cases {
		rt, _ := bindTodo(t)
		_, mc, _ := registered(t, summaryAgent{Agent: rt, res: c.res}, Options{})
		res := call(t, mc, context.Background(), "select_todo", `{"index":0}`)
		_, want := agent.Summarize(c.res)
		if res.Text() != want || res.IsError != c.isError {
			t.Fatalf("result = %+v, want %q with IsError %v", res, want, c.isError)
		}
	}
}
