package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
)

func bindTest(t *testing.T, h *host, opts *agent.BindOptions[User]) *agent.Runtime[Model, Msg, User] {
	t.Helper()
	c, _, _ := newContract(h)
	rt, err := agent.Bind(c, h, opts)
	if err != nil {
		t.Fatalf("Bind: %v", err)
	}
	return rt
}

func selectedModel() Model {
	return Model{Todos: []Todo{{ID: "t1", Title: "Milk"}, {ID: "t2", Title: "Eggs", Done: true}}, Selected: "t1"}
}

func TestDispatchCallOrder(t *testing.T) {
	h := &host{model: selectedModel()}
	rt := bindTest(t, h, owner())
	res, err := rt.DispatchUnknown(context.Background(), "delete_selected_todo", json.RawMessage(`{}`), agent.Invocation{})
	if err != nil {
		t.Fatalf("dispatch: %v", err)
	}
	if got, want := h.calls(), []string{"model", "available", "authorize", "dispatch"}; !slices.Equal(got, want) {
		t.Fatalf("call order = %v, want %v", got, want)
	}
	if got := h.sent(); len(got) != 1 || got[0] != (DeleteTodo{ID: "t1"}) {
		t.Fatalf("dispatched %v, want one DeleteTodo{t1}", got)
	}
	if res.Capability != "delete_selected_todo" || res.Tag != "DeleteTodo" || res.Completion != nil {
		t.Fatalf("result = %+v", res)
	}
	if res.Invocation.ID == "" || res.Invocation.Transport != agent.InApp {
		t.Fatalf("invocation defaults not applied: %+v", res.Invocation)
	}
}

func TestInvocationGivenIsKept(t *testing.T) {
	h := &host{model: selectedModel()}
	rt := bindTest(t, h, owner())
	inv := agent.Invocation{ID: "call-7", Transport: agent.MCP}
	res, err := rt.DispatchUnknown(context.Background(), "create_todo", json.RawMessage(`{"title":"x"}`), inv)
	if err != nil || res.Invocation != inv {
		t.Fatalf("res=%+v err=%v, want invocation %+v kept", res, err, inv)
	}
	a, _ := rt.DispatchUnknown(context.Background(), "create_todo", json.RawMessage(`{"title":"x"}`), agent.Invocation{})
	b, _ := rt.DispatchUnknown(context.Background(), "create_todo", json.RawMessage(`{"title":"x"}`), agent.Invocation{})
	if a.Invocation.ID == b.Invocation.ID || a.Invocation.ID == "" {
		t.Fatalf("generated ids must be fresh: %q %q", a.Invocation.ID, b.Invocation.ID)
	}
}

// The snapshot available approved is the one authorize and ToMessage see,
// even when the live Model moves while authorize is pending.
func TestSnapshotHeldAcrossSlowAuthorize(t *testing.T) {
	h := &host{model: selectedModel()}
	entered := make(chan struct{})
	release := make(chan struct{})
	var authorizeSaw string
	del := agent.ExposeMapped(agent.Mapped[agent.NoPrincipal, DeleteTodo, Model, User]{
		Name:        "delete_selected_todo",
		Description: "Delete the selected todo.",
		Available:   func(m Model) bool { return m.Selected != "" },
		Authorize: func(ctx context.Context, _ agent.NoPrincipal, call agent.Call[Model, User]) (agent.Decision, error) {
			authorizeSaw = call.Model.Selected
			close(entered)
			<-release
			return agent.Allow, nil
		},
		ToMessage: func(_ agent.NoPrincipal, call agent.Call[Model, User]) DeleteTodo {
			return DeleteTodo{ID: call.Model.Selected}
		},
	})
	c := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{del}})
	rt := agent.MustBind(c, h, nil)

	done := make(chan error, 1)
	go func() {
		_, err := agent.Dispatch(context.Background(), rt, del, agent.NoPrincipal{}, agent.Invocation{})
		done <- err
	}()
	<-entered
	h.set(Model{Todos: selectedModel().Todos}) // the person clears the selection meanwhile
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("dispatch: %v", err)
	}
	if authorizeSaw != "t1" {
		t.Fatalf("authorize saw selection %q, want t1", authorizeSaw)
	}
	if got := h.sent(); len(got) != 1 || got[0] != (DeleteTodo{ID: "t1"}) {
		t.Fatalf("dispatched %v, want DeleteTodo{t1} built from the approved snapshot", got)
	}
	if n := strings.Count(strings.Join(h.calls(), ","), "model"); n != 1 {
		t.Fatalf("Model read %d times, want exactly once", n)
	}
}

func TestRefusals(t *testing.T) {
	viewer := &agent.BindOptions[User]{Principal: func(context.Context, agent.Invocation) (User, error) {
		return User{ID: "v", Role: "viewer"}, nil
	}}
	cases := []struct {
		name      string
		model     Model
		opts      *agent.BindOptions[User]
		capab     string
		payload   string
		tag       string
		readModel bool
		message   string
	}{
		{"unknown", selectedModel(), owner(), "delete_todoo", `{}`, agent.TagUnknownCapability, false, `There is no capability named "delete_todoo".`},
		{"unavailable before invalid input", Model{}, owner(), "delete_selected_todo", `{"junk":1}`, agent.TagUnavailable, true, `Capability "delete_selected_todo" is not offered in the application's current state.`},
		{"undeclared field", selectedModel(), owner(), "create_todo", `{"title":"a","extra":1}`, agent.TagInvalidInput, true, `The input for "create_todo" does not match its input schema.`},
		{"wrong type", selectedModel(), owner(), "create_todo", `{"title":5}`, agent.TagInvalidInput, true, ""},
		{"missing required", selectedModel(), owner(), "rename_todo", `{"id":"t1"}`, agent.TagInvalidInput, true, ""},
		{"null for a string", selectedModel(), owner(), "create_todo", `{"title":null}`, agent.TagInvalidInput, true, ""},
		{"case-folded field", selectedModel(), owner(), "create_todo", `{"Title":"a"}`, agent.TagInvalidInput, true, ""},
		{"array payload", selectedModel(), owner(), "create_todo", `[]`, agent.TagInvalidInput, true, ""},
		{"string payload", selectedModel(), owner(), "create_todo", `"a"`, agent.TagInvalidInput, true, ""},
		{"null payload", selectedModel(), owner(), "create_todo", `null`, agent.TagInvalidInput, true, ""},
		{"empty payload", selectedModel(), owner(), "create_todo", ``, agent.TagInvalidInput, true, ""},
		{"not json", selectedModel(), owner(), "create_todo", `{"title":`, agent.TagInvalidInput, true, ""},
		{"no-payload with field", selectedModel(), owner(), "delete_selected_todo", `{"id":"t2"}`, agent.TagInvalidInput, true, ""},
		{"no-payload with array", selectedModel(), owner(), "delete_selected_todo", `[]`, agent.TagInvalidInput, true, ""},
		{"no-payload with string", selectedModel(), owner(), "delete_selected_todo", `"x"`, agent.TagInvalidInput, true, ""},
		{"no-payload with null", selectedModel(), owner(), "delete_selected_todo", `null`, agent.TagInvalidInput, true, ""},
		{"refused with reason", selectedModel(), viewer, "clear_completed", `{}`, agent.TagAuthorization, true, "Only the owner of this list may clear completed todos."},
		{"wire form number", selectedModel(), owner(), "set_quantity", `{"quantity":42}`, agent.TagInvalidInput, true, ""},
		{"wire form not digits", selectedModel(), owner(), "set_quantity", `{"quantity":"4x"}`, agent.TagInvalidInput, true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &host{model: tc.model}
			rt := bindTest(t, h, tc.opts)
			_, err := rt.DispatchUnknown(context.Background(), tc.capab, json.RawMessage(tc.payload), agent.Invocation{})
			if got := tagOf(err); got != tc.tag {
				t.Fatalf("error tag = %s (%v), want %s", got, err, tc.tag)
			}
			if tc.message != "" && err.Error() != tc.message {
				t.Fatalf("message = %q, want %q", err.Error(), tc.message)
			}
			if len(h.sent()) != 0 {
				t.Fatalf("a refusal dispatched %v", h.sent())
			}
			if read := slices.Contains(h.calls(), "model"); read != tc.readModel {
				t.Fatalf("model read = %v, want %v", read, tc.readModel)
			}
			// The agent-facing message never restates the payload or decode detail.
			if strings.Contains(err.Error(), "extra") || strings.Contains(err.Error(), "junk") || strings.Contains(err.Error(), "json") {
				t.Fatalf("message leaks decode detail: %q", err.Error())
			}
			var invalid *agent.InvalidInputError
			if errors.As(err, &invalid) && invalid.Unwrap() == nil {
				t.Fatalf("invalid input error lost its cause")
			}
		})
	}
}

func TestBareRefusal(t *testing.T) {
	h := &host{model: selectedModel()}
	c := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[CreateTodo]{Description: "Create.", Authorize: func(context.Context, CreateTodo, agent.Call[Model, User]) (agent.Decision, error) {
			return agent.Refuse, nil
		}}),
		agent.Expose(capability[RenameTodo]{Description: "Rename.", Authorize: func(context.Context, RenameTodo, agent.Call[Model, User]) (agent.Decision, error) {
			var zero agent.Decision
			return zero, nil // forgot to decide: fails closed
		}}),
	}})
	rt := agent.MustBind(c, h, nil)
	_, err := rt.DispatchUnknown(context.Background(), "create_todo", json.RawMessage(`{"title":"a"}`), agent.Invocation{})
	if err == nil || err.Error() != `You are not authorized to use "create_todo".` {
		t.Fatalf("err = %v", err)
	}
	_, err = rt.DispatchUnknown(context.Background(), "rename_todo", json.RawMessage(`{"id":"a","title":"b"}`), agent.Invocation{})
	if tagOf(err) != agent.TagAuthorization {
		t.Fatalf("zero Decision must refuse, got %v", err)
	}
	if len(h.sent()) != 0 {
		t.Fatal("refused calls dispatched")
	}
}

// An authorize hook may refuse with one of the package's typed errors.
func TestAuthorizeTypedErrorPassesThrough(t *testing.T) {
	h := &host{model: selectedModel()}
	c := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[CreateTodo]{Description: "Create.", Authorize: func(context.Context, CreateTodo, agent.Call[Model, User]) (agent.Decision, error) {
			return agent.Refuse, &agent.AuthorizationError{Capability: "create_todo", Reason: "Sign in first."}
		}}),
		agent.Expose(capability[RenameTodo]{Description: "Rename.", Authorize: func(context.Context, RenameTodo, agent.Call[Model, User]) (agent.Decision, error) {
			return agent.Allow, errors.New("policy store is down")
		}}),
	}})
	rt := agent.MustBind(c, h, nil)
	_, err := rt.DispatchUnknown(context.Background(), "create_todo", json.RawMessage(`{"title":"a"}`), agent.Invocation{})
	if err == nil || err.Error() != "Sign in first." {
		t.Fatalf("err = %v", err)
	}
	_, err = rt.DispatchUnknown(context.Background(), "rename_todo", json.RawMessage(`{"id":"a","title":"b"}`), agent.Invocation{})
	var defect *agent.DefectError
	if !errors.As(err, &defect) || defect.Stage != "authorize" || strings.Contains(err.Error(), "policy") {
		t.Fatalf("untyped authorize error must be a silent defect, got %v", err)
	}
}

func TestWireFormInput(t *testing.T) {
	h := &host{model: selectedModel()}
	rt := bindTest(t, h, owner())
	if _, err := rt.DispatchUnknown(context.Background(), "set_quantity", json.RawMessage(`{"quantity":"42"}`), agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	if got := h.sent(); len(got) != 1 || got[0] != (SetQuantity{Quantity: 42}) {
		t.Fatalf("update received %#v, want SetQuantity{42}", got)
	}
	var schema map[string]any
	d := rt.Describe().Capabilities[4]
	if err := json.Unmarshal(d.InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	q := schema["properties"].(map[string]any)["quantity"].(map[string]any)
	if q["type"] != "string" {
		t.Fatalf("advertised schema must be the wire side (string), got %v", q)
	}
}

func TestNoPayloadSchema(t *testing.T) {
	h := &host{model: selectedModel()}
	rt := bindTest(t, h, owner())
	for _, d := range rt.Describe().Capabilities {
		if d.Name == "delete_selected_todo" || d.Name == "clear_completed" {
			if string(d.InputSchema) != `{"type":"object","properties":{},"required":[],"additionalProperties":false}` {
				t.Fatalf("%s schema = %s", d.Name, d.InputSchema)
			}
		}
	}
	if _, err := rt.DispatchUnknown(context.Background(), "delete_selected_todo", json.RawMessage(" {} "), agent.Invocation{}); err != nil {
		t.Fatalf("{} must be accepted: %v", err)
	}
}

func TestNestedObjectsAreClosed(t *testing.T) {
	h := &host{model: selectedModel()}
	c := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[LoadedTodos]{Name: "load", Description: "Replace the todos."}),
	}})
	rt := agent.MustBind(c, h, nil)
	_, err := rt.DispatchUnknown(context.Background(), "load", json.RawMessage(`{"todos":[{"id":"1","title":"a","done":false,"evil":true}]}`), agent.Invocation{})
	if tagOf(err) != agent.TagInvalidInput {
		t.Fatalf("undeclared nested field accepted: %v", err)
	}
	if _, err := rt.DispatchUnknown(context.Background(), "load", json.RawMessage(`{"todos":[{"id":"1","title":"a","done":true}]}`), agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
}

func TestDefects(t *testing.T) {
	cases := []struct {
		name  string
		setup func(h *host)
		capab string
		stage string
	}{
		{"host Model panics", func(h *host) { h.modelHook = func() { panic("db gone: secret=hunter2") } }, "create_todo", "model"},
		{"host Dispatch panics", func(h *host) {
			h.dispatchFn = func(context.Context, Msg) error { panic("secret=hunter2") }
		}, "create_todo", "dispatch"},
		{"host Dispatch errors", func(h *host) {
			h.dispatchFn = func(context.Context, Msg) error { return errors.New("secret=hunter2") }
		}, "create_todo", "dispatch"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &host{model: selectedModel()}
			tc.setup(h)
			rt := bindTest(t, h, owner())
			_, err := rt.DispatchUnknown(context.Background(), tc.capab, json.RawMessage(`{"title":"a"}`), agent.Invocation{})
			var defect *agent.DefectError
			if !errors.As(err, &defect) || defect.Stage != tc.stage {
				t.Fatalf("err = %#v, want a defect at %s", err, tc.stage)
			}
			if strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "create_todo") {
				t.Fatalf("defect message %q must name only the capability", err.Error())
			}
			b, _ := json.Marshal(err)
			if strings.Contains(string(b), "hunter2") {
				t.Fatalf("defect JSON leaks its cause: %s", b)
			}
			if !strings.Contains(defect.Cause.Error(), "hunter2") {
				t.Fatalf("the cause must be kept for the application: %v", defect.Cause)
			}
			if len(h.sent()) != 0 {
				t.Fatalf("dispatched %v", h.sent())
			}
		})
	}
}

func TestPanickingHooksAreDefects(t *testing.T) {
	h := &host{model: selectedModel()}
	c := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[CreateTodo]{Description: "Create.", Available: func(Model) bool { panic("boom") }}),
		agent.Expose(capability[RenameTodo]{Description: "Rename.", Authorize: func(context.Context, RenameTodo, agent.Call[Model, User]) (agent.Decision, error) {
			panic("boom")
		}}),
		agent.ExposeMapped(agent.Mapped[agent.NoPrincipal, DeleteTodo, Model, User]{Description: "Delete.", ToMessage: func(agent.NoPrincipal, agent.Call[Model, User]) DeleteTodo {
			panic("boom")
		}}),
	}})
	rt := agent.MustBind(c, h, &agent.BindOptions[User]{Principal: func(context.Context, agent.Invocation) (User, error) {
		return User{}, nil
	}})
	for name, payload := range map[string]string{"create_todo": `{"title":"a"}`, "rename_todo": `{"id":"a","title":"b"}`, "delete_todo": `{}`} {
		_, err := rt.DispatchUnknown(context.Background(), name, json.RawMessage(payload), agent.Invocation{})
		if tagOf(err) != agent.TagDefect {
			t.Fatalf("%s: err = %v, want a defect", name, err)
		}
	}
	if len(h.sent()) != 0 {
		t.Fatalf("dispatched %v", h.sent())
	}
	avail, err := rt.Available()
	var defect *agent.DefectError
	if !errors.As(err, &defect) || defect.Capability != "create_todo" {
		t.Fatalf("Available must report the panicking hook, got %v", err)
	}
	for _, d := range avail {
		if d.Name == "create_todo" {
			t.Fatal("a capability whose Available panicked must not be listed")
		}
	}
}

func TestPrincipalResolvedOnceAfterDecode(t *testing.T) {
	h := &host{model: selectedModel()}
	var mu sync.Mutex
	calls := 0
	opts := &agent.BindOptions[User]{Principal: func(ctx context.Context, inv agent.Invocation) (User, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		h.note("principal")
		return User{Role: "owner"}, nil
	}}
	rt := bindTest(t, h, opts)
	if _, err := rt.DispatchUnknown(context.Background(), "delete_selected_todo", json.RawMessage(`{}`), agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"model", "available", "principal", "authorize", "dispatch"}; !slices.Equal(h.calls(), want) {
		t.Fatalf("order = %v, want %v", h.calls(), want)
	}
	// An invalid input never resolves the principal.
	if _, err := rt.DispatchUnknown(context.Background(), "create_todo", json.RawMessage(`{}`), agent.Invocation{}); err == nil {
		t.Fatal("want invalid input")
	}
	if calls != 1 {
		t.Fatalf("principal resolved %d times, want 1", calls)
	}
	// A provider may refuse with a typed error.
	refusing := &agent.BindOptions[User]{Principal: func(context.Context, agent.Invocation) (User, error) {
		return User{}, &agent.AuthorizationError{Capability: "create_todo", Reason: "Unknown caller."}
	}}
	rt2 := bindTest(t, &host{model: selectedModel()}, refusing)
	if _, err := rt2.DispatchUnknown(context.Background(), "create_todo", json.RawMessage(`{"title":"a"}`), agent.Invocation{}); tagOf(err) != agent.TagAuthorization {
		t.Fatalf("err = %v", err)
	}
}

func TestCancelledBeforeModelRead(t *testing.T) {
	h := &host{model: selectedModel()}
	rt := bindTest(t, h, owner())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := rt.DispatchUnknown(ctx, "create_todo", json.RawMessage(`{"title":"a"}`), agent.Invocation{})
	var c *agent.CancelledError
	if !errors.As(err, &c) || c.Dispatched || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if len(h.calls()) != 0 {
		t.Fatalf("a cancelled invocation touched the host: %v", h.calls())
	}
}

func TestCancelledDuringAuthorize(t *testing.T) {
	h := &host{model: selectedModel()}
	ctx, cancel := context.WithCancel(context.Background())
	c := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.ExposeMapped(agent.Mapped[agent.NoPrincipal, DeleteTodo, Model, User]{
			Description: "Delete.",
			Authorize: func(context.Context, agent.NoPrincipal, agent.Call[Model, User]) (agent.Decision, error) {
				cancel()
				return agent.Allow, nil
			},
			ToMessage: func(agent.NoPrincipal, agent.Call[Model, User]) DeleteTodo {
				h.note("construct")
				return DeleteTodo{}
			},
		}),
	}})
	rt := agent.MustBind(c, h, nil)
	_, err := rt.DispatchUnknown(ctx, "delete_todo", json.RawMessage(`{}`), agent.Invocation{})
	var ce *agent.CancelledError
	if !errors.As(err, &ce) || ce.Dispatched || ce.DeliveryUnknown {
		t.Fatalf("err = %#v", err)
	}
	if slices.Contains(h.calls(), "construct") || len(h.sent()) != 0 {
		t.Fatalf("cancelled invocation built or dispatched: %v", h.calls())
	}
}

// A host whose Dispatch never returns holds the call only as long as its
// context: cancelled once the host has the Message (and not before, which
// would be a refusal before dispatch), the call ends with delivery unknown.
func TestHostThatNeverReturnsIsBoundedByContext(t *testing.T) {
	h := &host{model: selectedModel()}
	block := make(chan struct{})
	defer close(block)
	called := make(chan struct{})
	h.dispatchFn = func(context.Context, Msg) error { close(called); <-block; return nil }
	rt := bindTest(t, h, owner())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-called
		cancel()
	}()
	_, err := rt.DispatchUnknown(ctx, "create_todo", json.RawMessage(`{"title":"a"}`), agent.Invocation{})
	var ce *agent.CancelledError
	if !errors.As(err, &ce) || !ce.DeliveryUnknown || ce.Dispatched {
		t.Fatalf("err = %#v, want delivery unknown", err)
	}
	if !strings.Contains(err.Error(), "unknown") {
		t.Fatalf("message must say delivery is unknown: %q", err.Error())
	}
}

func TestTypedDispatch(t *testing.T) {
	h := &host{model: selectedModel()}
	c, create, _ := newContract(h)
	rt := agent.MustBind(c, h, owner())
	res, err := agent.Dispatch(context.Background(), rt, create, CreateTodo{Title: "Read the guide"}, agent.Invocation{})
	if err != nil || res.Capability != "create_todo" {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	if _, err := agent.DispatchMessage(context.Background(), rt, RenameTodo{ID: "t1", Title: "Oat milk"}, agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	want := []Msg{CreateTodo{Title: "Read the guide"}, RenameTodo{ID: "t1", Title: "Oat milk"}}
	if !reflect.DeepEqual(h.sent(), want) {
		t.Fatalf("sent %v, want %v", h.sent(), want)
	}
	// A Message the contract does not expose is refused by its type name.
	_, err = agent.DispatchMessage(context.Background(), rt, LoadedTodos{}, agent.Invocation{})
	if err == nil || err.Error() != `There is no capability named "LoadedTodos".` {
		t.Fatalf("err = %v", err)
	}
	// A mapped capability is not reachable by its Message type.
	if _, err := agent.DispatchMessage(context.Background(), rt, DeleteTodo{ID: "t2"}, agent.Invocation{}); tagOf(err) != agent.TagUnknownCapability {
		t.Fatalf("err = %v", err)
	}
	// A handle from another contract is refused.
	other, otherCreate, _ := newContract(&host{})
	_ = other
	if _, err := agent.Dispatch(context.Background(), rt, otherCreate, CreateTodo{Title: "x"}, agent.Invocation{}); tagOf(err) != agent.TagUnknownCapability {
		t.Fatalf("foreign handle: err = %v", err)
	}
	if len(h.sent()) != 2 {
		t.Fatalf("refusals dispatched: %v", h.sent())
	}
}

func TestAvailableAndList(t *testing.T) {
	h := &host{model: Model{Todos: []Todo{{ID: "t1", Title: "a"}}}}
	rt := bindTest(t, h, owner())
	names := func(ds []agent.Descriptor) []string {
		out := []string{}
		for _, d := range ds {
			out = append(out, d.Name)
		}
		return out
	}
	all := []string{"create_todo", "rename_todo", "delete_selected_todo", "clear_completed", "set_quantity"}
	if got := names(rt.Describe().Capabilities); !slices.Equal(got, all) {
		t.Fatalf("List = %v", got)
	}
	avail, err := rt.Available()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(avail), []string{"create_todo", "rename_todo", "set_quantity"}; !slices.Equal(got, want) {
		t.Fatalf("Available = %v, want %v", got, want)
	}
	h.set(selectedModel())
	avail, _ = rt.Available()
	if got := names(avail); !slices.Equal(got, all) {
		t.Fatalf("Available after selection = %v", got)
	}
}

// AvailableSet says what Available lists, as one flag per capability in
// declaration order, in the buffer it is given once that is large enough.
func TestAvailableSetMatchesAvailable(t *testing.T) {
	h := &host{model: Model{Todos: []Todo{{ID: "t1", Title: "a"}}}}
	rt := bindTest(t, h, owner())
	set, err := rt.AvailableSet(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, true, false, false, true}; !slices.Equal(set, want) {
		t.Fatalf("AvailableSet = %v, want %v", set, want)
	}
	h.set(selectedModel())
	again, err := rt.AvailableSet(set)
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, true, true, true, true}; !slices.Equal(again, want) || &again[0] != &set[0] {
		t.Fatalf("AvailableSet after selection = %v (same buffer: %v), want %v", again, &again[0] == &set[0], want)
	}
}

func TestContextAndResources(t *testing.T) {
	h := &host{model: selectedModel()}
	rt := bindTest(t, h, owner())
	ctxJSON, err := rt.Context(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"todos":[{"id":"t1","title":"Milk","done":false},{"id":"t2","title":"Eggs","done":true}],"selected":"t1"}`; string(ctxJSON) != want {
		t.Fatalf("context = %s", ctxJSON)
	}
	st, err := rt.ReadResource(context.Background(), "stats")
	if err != nil || string(st) != `{"total":2,"done":1}` {
		t.Fatalf("stats = %s, %v", st, err)
	}
	calls := len(h.calls())
	_, err = rt.ReadResource(context.Background(), "secrets")
	var re *agent.ResourceError
	if !errors.As(err, &re) || re.Resource != "secrets" || err.Error() != `There is no resource named "secrets" to read.` {
		t.Fatalf("err = %v", err)
	}
	if len(h.calls()) != calls {
		t.Fatal("an unknown resource read the Model")
	}
	// A projection that panics is a defect.
	c := agent.Make(agent.Definition[Model, User]{
		Context:   agent.Project(func(Model) stats { panic("no") }),
		Resources: []agent.Resource[Model]{agent.NewResource("bad", "Bad.", func(Model) map[string]any { return map[string]any{"f": func() {}} })},
	})
	rt2 := agent.MustBind(c, h, nil)
	if _, err := rt2.Context(context.Background()); tagOf(err) != agent.TagDefect {
		t.Fatalf("err = %v", err)
	}
	if _, err := rt2.ReadResource(context.Background(), "bad"); tagOf(err) != agent.TagDefect {
		t.Fatalf("err = %v", err)
	}
	// No context declared: nil, no error.
	rt3 := agent.MustBind(agent.Make(agent.Definition[Model, User]{}), h, nil)
	if v, err := rt3.Context(context.Background()); v != nil || err != nil {
		t.Fatalf("no context: %s %v", v, err)
	}
}

func TestErrorsEncodeToJSON(t *testing.T) {
	cases := []struct {
		err  agent.Error
		want string
	}{
		{&agent.UnknownCapabilityError{Capability: "x"}, `{"_tag":"AgentUnknownCapabilityError","capability":"x","message":"There is no capability named \"x\"."}`},
		{&agent.UnavailableError{Capability: "delete_todo", Type: "RequestedDeleteTodo"}, `{"_tag":"AgentCapabilityUnavailableError","capability":"delete_todo","tag":"RequestedDeleteTodo","message":"Capability \"delete_todo\" is not offered in the application's current state."}`},
		{&agent.AuthorizationError{Capability: "delete_todo", Type: "RequestedDeleteTodo"}, `{"_tag":"AgentAuthorizationError","capability":"delete_todo","tag":"RequestedDeleteTodo","message":"You are not authorized to use \"delete_todo\"."}`},
		{&agent.InvalidInputError{Capability: "c", Type: "T"}, `{"_tag":"AgentInvalidInputError","capability":"c","tag":"T","message":"The input for \"c\" does not match its input schema.","problems":[],"inputSchema":{}}`},
		{&agent.InvalidInputError{Capability: "c", Type: "T", Problems: []agent.InputProblem{{Path: "/a", Code: agent.ProblemMissing}}, InputSchema: json.RawMessage(`{"type":"object"}`)}, `{"_tag":"AgentInvalidInputError","capability":"c","tag":"T","message":"The input for \"c\" does not match its input schema.","problems":[{"path":"/a","code":"missing"}],"inputSchema":{"type":"object"}}`},
		{&agent.CancelledError{Capability: "c", Dispatched: true}, `{"_tag":"AgentCancelledError","capability":"c","dispatched":true,"message":"The Message of \"c\" reached update; only the wait for its completion was cancelled. Nothing was undone."}`},
		{&agent.CompletionTimeoutError{Capability: "c", Invocation: "i", Timeout: 10 * time.Second}, `{"_tag":"AgentCompletionTimeoutError","capability":"c","invocation":"i","message":"\"c\" did not complete within 10s. Its Message still reached update and nothing was undone; read the current state before trying again."}`},
		{&agent.ResourceError{Resource: "r"}, `{"_tag":"AgentResourceError","resource":"r","message":"There is no resource named \"r\" to read."}`},
		{&agent.DefectError{Capability: "c", Cause: errors.New("secret")}, `{"_tag":"AgentDefect","capability":"c","message":"Capability \"c\" failed unexpectedly."}`},
	}
	for _, tc := range cases {
		b, err := json.Marshal(tc.err)
		if err != nil || string(b) != tc.want {
			t.Errorf("%T JSON = %s (%v)\nwant %s", tc.err, b, err, tc.want)
		}
		var decoded map[string]any
		_ = json.Unmarshal(b, &decoded)
		if decoded["_tag"] != tc.err.Tag() || decoded["message"] != tc.err.Error() {
			t.Errorf("%T: _tag/message disagree with Tag()/Error()", tc.err)
		}
	}
}
