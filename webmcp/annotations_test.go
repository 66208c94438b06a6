package webmcp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// A contract whose capabilities declare their effect, for the tests of
// annotations and registration options (core and js layer alike).

type CountTodos struct{}
type ClearTodos struct{}

func annotatedRuntime(t testing.TB) (*agent.Runtime[todoModel, any, user], *todoHost) {
	t.Helper()
	c := agent.Make(agent.Definition[todoModel, user]{
		Capabilities: []agent.Capability[todoModel, user]{
			agent.Expose(capability[CreateTodo]{Description: "Add a todo to the list."}),
			agent.Expose(capability[CountTodos]{Description: "Count the todos.", ReadOnly: true}),
			agent.Expose(capability[ClearTodos]{Description: "Remove every todo.", Destructive: true}),
		},
	})
	h := newTodoHost()
	return agent.MustBind(c, h, nil), h
}

func TestRegisteredToolsCarryAnnotationsAndOptions(t *testing.T) {
	rt, _ := annotatedRuntime(t)
	fc := newFakeContext()
	exposed := []string{"https://agent.example", "http://localhost:8080"}
	reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: fc, ExposedTo: exposed})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := map[string]*Annotations{
		"create_todo": nil,
		"count_todos": {ReadOnlyHint: true},
		"clear_todos": {ConsequentialHint: true},
	}
	for name, ann := range want {
		tool, ok := fc.tool(name)
		if !ok {
			t.Fatalf("%s not registered", name)
		}
		if (tool.Annotations == nil) != (ann == nil) || ann != nil && *tool.Annotations != *ann {
			t.Errorf("%s annotations = %+v, want %+v", name, tool.Annotations, ann)
		}
		if !slices.Equal(tool.ExposedTo, exposed) {
			t.Errorf("%s exposedTo = %v, want %v", name, tool.ExposedTo, exposed)
		}
	}
	// The tool as the browser receives it: annotations in the tool,
	// exposedTo beside it.
	tool, _ := fc.tool("count_todos")
	b, _ := json.Marshal(tool)
	if !strings.Contains(string(b), `"annotations":{"readOnlyHint":true}`) || strings.Contains(string(b), "exposedTo") {
		t.Fatalf("tool JSON %s", b)
	}
	tool, _ = fc.tool("create_todo")
	if b, _ := json.Marshal(tool); strings.Contains(string(b), "annotations") {
		t.Fatalf("an undeclared capability claims annotations: %s", b)
	}
}

func TestRegisterRefusesUntrustworthyOrigins(t *testing.T) {
	rt, _ := annotatedRuntime(t)
	for _, origin := range []string{"http://agent.example", "agent.example", "", "ftp://agent.example", "https://"} {
		fc := newFakeContext()
		_, err := Register(context.Background(), Options{Runtime: rt, ModelContext: fc, ExposedTo: []string{"https://ok.example", origin}})
		if err == nil || !strings.Contains(err.Error(), "ExposedTo[1]") {
			t.Errorf("ExposedTo %q: err = %v, want a refusal naming it", origin, err)
		}
		if len(fc.names()) != 0 {
			t.Errorf("ExposedTo %q: registered %v", origin, fc.names())
		}
	}
	for _, origin := range []string{"https://a.example:8443", "http://127.0.0.1:3000", "http://[::1]", "http://app.localhost"} {
		fc := newFakeContext()
		reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: fc, ExposedTo: []string{origin}})
		if err != nil {
			t.Errorf("ExposedTo %q refused: %v", origin, err)
			continue
		}
		reg.Unregister()
	}
}

func TestResultsCarryStructuredContent(t *testing.T) {
	rt, _ := annotatedRuntime(t)
	fc := newFakeContext()
	reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: fc})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	create, _ := fc.tool("create_todo")
	res := create.Execute(context.Background(), json.RawMessage(`{"title":"milk"}`))
	var data struct {
		Capability string `json:"capability"`
		Invocation struct {
			Transport string `json:"transport"`
		} `json:"invocation"`
	}
	if err := json.Unmarshal(res.StructuredContent, &data); err != nil || res.IsError ||
		data.Capability != "create_todo" || data.Invocation.Transport != "webmcp" {
		t.Fatalf("result = %+v (%v)", res, err)
	}
	if res.Text() != "Dispatched CreateTodo" {
		t.Fatalf("text %q", res.Text())
	}

	res = create.Execute(context.Background(), json.RawMessage(`{"title":7}`))
	var refusal struct {
		Tag      string               `json:"_tag"`
		Problems []agent.InputProblem `json:"problems"`
	}
	if err := json.Unmarshal(res.StructuredContent, &refusal); err != nil || !res.IsError || refusal.Tag != agent.TagInvalidInput ||
		!slices.Equal(refusal.Problems, []agent.InputProblem{{Path: "/title", Code: agent.ProblemWrongType}}) {
		t.Fatalf("refusal = %+v (%v)", res, err)
	}
}
