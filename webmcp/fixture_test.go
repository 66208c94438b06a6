package webmcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
)

// A tiny todo application, its contract and an in-memory host.

type todoModel struct {
	Todos    []string
	Selected int // -1: nothing selected
}

type CreateTodo struct {
	Title string `json:"title" jsonschema:"The title of the new todo"`
}

type SelectTodo struct {
	Index int `json:"index"`
}

type DeleteSelectedTodo struct{}

type ExplodeTodo struct{}

type user struct{ Name string }

type capability[M any] = agent.Variant[M, todoModel, user]

var (
	seenTransport atomic.Value // agent.Transport of the last authorized call
	seenID        atomic.Value // string
)

func todoContract() *agent.Contract[todoModel, user] {
	return agent.Make(agent.Definition[todoModel, user]{
		Capabilities: []agent.Capability[todoModel, user]{
			agent.Expose(capability[CreateTodo]{
				Description: "Add a todo to the list.",
				Authorize: func(_ context.Context, in CreateTodo, call agent.Call[todoModel, user]) (agent.Decision, error) {
					seenTransport.Store(call.Invocation.Transport)
					seenID.Store(call.Invocation.ID)
					if in.Title == "forbidden" {
						return agent.RefuseBecause("That title is not allowed."), nil
					}
					return agent.Allow, nil
				},
			}),
			agent.Expose(capability[SelectTodo]{Description: "Select a todo by its position."}),
			agent.Expose(capability[DeleteSelectedTodo]{
				Description: "Delete the selected todo.",
				Available:   func(m todoModel) bool { return m.Selected >= 0 },
			}),
			agent.Expose(capability[ExplodeTodo]{Description: "Fail inside the application."}),
		},
	})
}

// todoHost applies Messages synchronously and tells subscribers.
type todoHost struct {
	model atomic.Pointer[todoModel]
	mu    sync.Mutex
	subs  map[int]func()
	next  int
	got   []any
}

func newTodoHost() *todoHost {
	h := &todoHost{subs: map[int]func(){}}
	h.model.Store(&todoModel{Selected: -1})
	return h
}

func (h *todoHost) Model() todoModel { return *h.model.Load() }

func (h *todoHost) Dispatch(_ context.Context, msg any) error {
	m := *h.model.Load()
	m.Todos = slices.Clone(m.Todos)
	switch msg := msg.(type) {
	case CreateTodo:
		m.Todos = append(m.Todos, msg.Title)
	case SelectTodo:
		m.Selected = msg.Index
	case DeleteSelectedTodo:
		m.Todos = slices.Delete(m.Todos, m.Selected, m.Selected+1)
		m.Selected = -1
	case ExplodeTodo:
		return errors.New("secret: the disk at /var/db is full")
	}
	h.mu.Lock()
	h.got = append(h.got, msg)
	h.mu.Unlock()
	h.set(m)
	return nil
}

// set replaces the Model and notifies subscribers, as update would.
func (h *todoHost) set(m todoModel) {
	h.model.Store(&m)
	h.mu.Lock()
	subs := make([]func(), 0, len(h.subs))
	for _, s := range h.subs {
		subs = append(subs, s)
	}
	h.mu.Unlock()
	for _, s := range subs {
		s()
	}
}

func (h *todoHost) Subscribe(listener func()) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	id := h.next
	h.next++
	h.subs[id] = listener
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.subs, id)
	}
}

func (h *todoHost) subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

func (h *todoHost) dispatched() []any {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.got)
}

func bindTodo(t testing.TB) (*agent.Runtime[todoModel, any, user], *todoHost) {
	t.Helper()
	h := newTodoHost()
	return agent.MustBind(todoContract(), h, nil), h
}

// fakeContext is the stand-in model context: it records registrations,
// can hold them in flight (gate) or refuse them (fail), and flags a
// capability registered while it was already registered or in flight.
type fakeContext struct {
	mu          sync.Mutex
	tools       map[string]*fakeReg // live registrations
	calls       map[string]int      // RegisterTool calls by name
	inFlight    map[string]bool
	maxInFlight int
	duplicates  []string
	fail        map[string]int // name → refusals left
	gate        chan struct{}  // when set, RegisterTool waits for a receive
	entered     chan string    // when set, told each name entering RegisterTool
	changed     chan struct{}  // signalled on every change of tools

	declarative bool
	forms       []*Form
	answer      func(context.Context, *Form, map[string]string) ToolResult
	stopped     bool
}

type fakeReg struct {
	tool    Tool
	aborted bool // guarded by fakeContext.mu
}

func newFakeContext() *fakeContext {
	return &fakeContext{
		tools:    map[string]*fakeReg{},
		calls:    map[string]int{},
		inFlight: map[string]bool{},
		fail:     map[string]int{},
		changed:  make(chan struct{}, 1),
	}
}

func (f *fakeContext) RegisterTool(ctx context.Context, tool Tool) (func(), error) {
	f.mu.Lock()
	f.calls[tool.Name]++
	if f.inFlight[tool.Name] || f.tools[tool.Name] != nil {
		f.duplicates = append(f.duplicates, tool.Name)
	}
	f.inFlight[tool.Name] = true
	f.maxInFlight = max(f.maxInFlight, len(f.inFlight))
	gate, entered := f.gate, f.entered
	f.mu.Unlock()

	if entered != nil {
		entered <- tool.Name
	}
	if gate != nil {
		<-gate // like a browser, answers whatever ctx does meanwhile
	}

	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.inFlight, tool.Name)
	if f.fail[tool.Name] > 0 {
		f.fail[tool.Name]--
		return nil, fmt.Errorf("the browser said no to %s", tool.Name)
	}
	reg := &fakeReg{tool: tool}
	f.tools[tool.Name] = reg
	f.signal()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if reg.aborted {
			f.duplicates = append(f.duplicates, "unregistered twice: "+tool.Name)
		}
		reg.aborted = true
		if f.tools[tool.Name] == reg {
			delete(f.tools, tool.Name)
			f.signal()
		}
	}, nil
}

func (f *fakeContext) signal() {
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

func (f *fakeContext) names() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for n := range f.tools {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func (f *fakeContext) tool(name string) (Tool, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	reg := f.tools[name]
	if reg == nil {
		return Tool{}, false
	}
	return reg.tool, true
}

func (f *fakeContext) callCount(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[name]
}

// waitNames waits until the live tools are exactly want.
func (f *fakeContext) waitNames(t *testing.T, want ...string) {
	t.Helper()
	slices.Sort(want)
	deadline := time.After(5 * time.Second)
	for {
		if got := f.names(); slices.Equal(got, want) {
			return
		}
		select {
		case <-f.changed:
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			t.Fatalf("live tools = %v, want %v", f.names(), want)
		}
	}
}

// formFake adds the declarative form surface.
type formFake struct{ *fakeContext }

func (f formFake) DeclarativeTools() bool { return f.declarative }

func (f formFake) AnswerForms(forms []*Form, answer func(context.Context, *Form, map[string]string) ToolResult) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forms, f.answer = forms, answer
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.stopped = true
	}
}
