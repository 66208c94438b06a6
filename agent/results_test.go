package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/foldagent/foldagent/agent"
)

// Tests of what an agent is given to act on: the completing Message in a
// result (and the schema that announces it), the data beside an invalid
// input's fixed sentence, and the effect annotations.

// checkAgainst validates data against schema with jsonschema-go, the
// library MCP's Go SDK uses.
func checkAgainst(t *testing.T, schema, data json.RawMessage) {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatalf("schema is not a JSON Schema: %v\n%s", err, schema)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("schema does not resolve: %v\n%s", err, schema)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(v); err != nil {
		t.Fatalf("data does not meet its schema: %v\ndata:   %s\nschema: %s", err, data, schema)
	}
}

func descriptorOf(t *testing.T, d agent.Description, name string) agent.Descriptor {
	t.Helper()
	i := slices.IndexFunc(d.Capabilities, func(d agent.Descriptor) bool { return d.Name == name })
	if i < 0 {
		t.Fatalf("no capability %q", name)
	}
	return d.Capabilities[i]
}

func TestResultCarriesTheCompletingMessage(t *testing.T) {
	h := newCmpHost()
	rt := cmpBind(cmpContract(), h, nil)
	desc := rt.Describe()
	ctx := context.Background()

	type wantMsg struct {
		ID, Title, RequestID string
	}
	cases := []struct {
		name, capability, payload string
		ok                        bool
		text                      string
		completion                string // the completion member, with message ids replaced
		check                     func(t *testing.T, res agent.Result, msg json.RawMessage)
	}{
		{
			name: "created", capability: "create_todo", payload: `{"title":"Milk"}`, ok: true, text: "Completed: cmpCreated",
			check: func(t *testing.T, res agent.Result, msg json.RawMessage) {
				var got wantMsg
				if err := json.Unmarshal(msg, &got); err != nil {
					t.Fatal(err)
				}
				if got.ID != "t1" || got.Title != "Milk" || got.RequestID != res.Invocation.ID {
					t.Fatalf("completion.message = %s, want the created todo t1 with this invocation's id %s", msg, res.Invocation.ID)
				}
			},
		},
		{
			name: "failed", capability: "create_todo", payload: `{"title":""}`, ok: false, text: "Failed: cmpCreateFailed",
			check: func(t *testing.T, res agent.Result, msg json.RawMessage) {
				if string(msg) != `{"RequestID":"`+res.Invocation.ID+`"}` {
					t.Fatalf("completion.message = %s", msg)
				}
			},
		},
		{
			name: "on state", capability: "rename_project", payload: `{"name":"Groceries"}`, ok: true,
			text: "Completed: cmpRenameProject (its condition on state holds)",
			check: func(t *testing.T, res agent.Result, msg json.RawMessage) {
				if msg != nil {
					t.Fatalf("a completion on state carries a message: %s", msg)
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := rt.DispatchUnknown(ctx, tc.capability, json.RawMessage(tc.payload), agent.Invocation{Transport: agent.MCP})
			if err != nil {
				t.Fatal(err)
			}
			reply := agent.ReplyTo(tc.capability, res, nil)
			if reply.OK != tc.ok || reply.Text != tc.text || reply.Defect {
				t.Fatalf("reply = ok %v %q defect %v, want ok %v %q", reply.OK, reply.Text, reply.Defect, tc.ok, tc.text)
			}
			var data struct {
				Capability string `json:"capability"`
				Tag        string `json:"tag"`
				Invocation struct {
					ID        string `json:"id"`
					Transport string `json:"transport"`
				} `json:"invocation"`
				Completion struct {
					Status  string          `json:"status"`
					Tag     string          `json:"tag"`
					Message json.RawMessage `json:"message"`
				} `json:"completion"`
			}
			if err := json.Unmarshal(reply.Data, &data); err != nil {
				t.Fatal(err)
			}
			if data.Capability != tc.capability || data.Invocation.ID != res.Invocation.ID || data.Invocation.Transport != "mcp" {
				t.Fatalf("data = %s", reply.Data)
			}
			tc.check(t, res, data.Completion.Message)
			// The text names types only: no value of the Message.
			if strings.Contains(reply.Text, "Milk") || strings.Contains(reply.Text, res.Invocation.ID) {
				t.Fatalf("text %q carries a value", reply.Text)
			}
			checkAgainst(t, agent.ReplySchema(descriptorOf(t, desc, tc.capability)), reply.Data)
		})
	}
}

func TestReplySchemaDescribesEveryReply(t *testing.T) {
	h := newCmpHost()
	rt := cmpBind(cmpContract(), h, nil)
	desc := rt.Describe()
	create := descriptorOf(t, desc, "create_todo")
	schema := agent.ReplySchema(create)

	var root struct {
		Type  string            `json:"type"`
		AnyOf []json.RawMessage `json:"anyOf"`
	}
	if err := json.Unmarshal(schema, &root); err != nil || root.Type != "object" || len(root.AnyOf) != 2 {
		t.Fatalf("root of %s: want an object schema with two alternatives", schema)
	}
	// Refusals meet it too: an MCP client validates structured content
	// whether or not the result is an error.
	_, err := rt.DispatchUnknown(context.Background(), "create_todo", json.RawMessage(`{"name":1}`), agent.Invocation{})
	refusal := agent.ReplyTo("create_todo", agent.Result{}, err)
	if refusal.Tag != agent.TagInvalidInput {
		t.Fatalf("tag %s", refusal.Tag)
	}
	checkAgainst(t, schema, refusal.Data)
	checkAgainst(t, schema, agent.ReplyTo("create_todo", agent.Result{}, &agent.DefectError{Capability: "create_todo"}).Data)

	// A result of another capability, or one that names the wrong
	// Message, does not.
	for _, bad := range []string{
		`{"capability":"delete_todo","tag":"cmpCreate","invocation":{"id":"i","transport":"mcp"},"completion":{"status":"completed","tag":"cmpCreated","message":{"ID":"t1","Title":"a","RequestID":"i"}}}`,
		`{"capability":"create_todo","tag":"cmpCreate","invocation":{"id":"i","transport":"mcp"},"completion":{"status":"completed","tag":"cmpDeleted","message":{"ID":"t1"}}}`,
		`{"capability":"create_todo","tag":"cmpCreate","invocation":{"id":"i","transport":"mcp"},"completion":{"status":"completed","tag":"cmpCreated","message":{"ID":7}}}`,
		`{"capability":"create_todo","tag":"cmpCreate","invocation":{"id":"i","transport":"mcp"}}`,
	} {
		var s jsonschema.Schema
		_ = json.Unmarshal(schema, &s)
		r, _ := s.Resolve(nil)
		var v any
		_ = json.Unmarshal([]byte(bad), &v)
		if r.Validate(v) == nil {
			t.Errorf("schema accepts %s", bad)
		}
	}
}

func TestDescriptorCarriesCompletionSchemas(t *testing.T) {
	desc := cmpContract().Describe()
	create := descriptorOf(t, desc, "create_todo").Completion
	if create == nil || len(create.Schemas) != 2 {
		t.Fatalf("create_todo completion = %+v, want schemas for its two Messages", create)
	}
	var s struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(create.Schemas["cmpCreated"], &s); err != nil {
		t.Fatal(err)
	}
	if s.Type != "object" || len(s.Properties) != 3 || !slices.Contains(s.Required, "RequestID") {
		t.Fatalf("cmpCreated schema = %s", create.Schemas["cmpCreated"])
	}
	if _, ok := create.Schemas["cmpCreateFailed"]; !ok {
		t.Fatal("no schema for the failure Message")
	}
	if rename := descriptorOf(t, desc, "rename_project").Completion; rename == nil || rename.Schemas != nil {
		t.Fatalf("a completion on state has Message schemas: %+v", rename)
	}
	// The manifest shows them.
	var manifest struct {
		Capabilities []struct {
			Name       string `json:"name"`
			Completion struct {
				Schemas map[string]json.RawMessage `json:"schemas"`
			} `json:"completion"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(agent.Manifest(cmpContract()), &manifest); err != nil {
		t.Fatal(err)
	}
	if got := manifest.Capabilities[0]; got.Name != "create_todo" || len(got.Completion.Schemas) != 2 {
		t.Fatalf("manifest capability 0 = %+v", got)
	}
	if md := agent.Markdown(cmpContract()); !strings.Contains(md, "The result carries `cmpCreated` as `completion.message`:") {
		t.Fatalf("AGENT.md does not show the completing Message:\n%s", md)
	}
}

// resMeasured is a fact whose JSON can fail: encoding/json refuses NaN.
type resMeasured struct{ Value float64 }

func (resMeasured) cmpMsg() {}

type resFunc struct{ F func() }

func (resFunc) cmpMsg() {}

func TestCompletingMessageThatCannotBeEncoded(t *testing.T) {
	measure := agent.Expose(agent.Variant[cmpPing, cmpModel, cmpUser]{
		Name:        "measure",
		Description: "Measure.",
		Completion:  agent.CompleteOn(agent.OnType[cmpPing, resMeasured]()),
	})
	h := newCmpHost()
	h.dispatchFn = func(context.Context, cmpMsg) error {
		h.emit(resMeasured{Value: math.NaN()})
		return nil
	}
	rt := cmpBind(cmpContract(measure), h, nil)
	res, err := rt.DispatchUnknown(context.Background(), "measure", json.RawMessage(`{}`), agent.Invocation{})
	if err != nil {
		t.Fatal(err)
	}
	reply := agent.ReplyTo("measure", res, nil)
	// The work is done: the agent is told so, without the Message, and
	// the application learns of the defect.
	if !reply.OK || reply.Text != "Completed: resMeasured" || !reply.Defect {
		t.Fatalf("reply = %+v", reply)
	}
	var defect *agent.DefectError
	if !errors.As(reply.Err, &defect) || defect.Stage != "completion" {
		t.Fatalf("Err = %v, want a completion defect", reply.Err)
	}
	if strings.Contains(string(reply.Data), "message") {
		t.Fatalf("data carries a message: %s", reply.Data)
	}
	checkAgainst(t, agent.ReplySchema(measure.Descriptor()), reply.Data)

	// A Message that cannot be data at all is refused at declaration.
	defer func() {
		if v := recover(); v == nil || !strings.Contains(v.(string), "its completion Message resFunc cannot be sent to an agent as data") {
			t.Fatalf("panic = %v", v)
		}
	}()
	agent.Expose(agent.Variant[cmpPing, cmpModel, cmpUser]{
		Name:        "run",
		Description: "Run.",
		Completion:  agent.CompleteOn(agent.OnType[cmpPing, resFunc]()),
	})
}

func TestInvalidInputCarriesProblemsAndSchema(t *testing.T) {
	h := newCmpHost()
	rt := cmpBind(cmpContract(), h, nil)
	create := descriptorOf(t, rt.Describe(), "create_todo")
	cases := []struct {
		name, payload string
		want          []agent.InputProblem
	}{
		{"misspelled", `{"Title":"secret-value"}`, []agent.InputProblem{{Path: "/Title", Code: agent.ProblemUndeclared}, {Path: "/title", Code: agent.ProblemMissing}}},
		{"missing", `{}`, []agent.InputProblem{{Path: "/title", Code: agent.ProblemMissing}}},
		{"wrong type", `{"title":4242}`, []agent.InputProblem{{Path: "/title", Code: agent.ProblemWrongType}}},
		{"null", `{"title":null}`, []agent.InputProblem{{Path: "/title", Code: agent.ProblemWrongType}}},
		{"not an object", `["secret-value"]`, []agent.InputProblem{{Path: "", Code: agent.ProblemWrongType}}},
		{"not JSON", `{"title":"secret-value"`, []agent.InputProblem{{Path: "", Code: agent.ProblemMalformed}}},
	}
	var sentence string
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := rt.DispatchUnknown(context.Background(), "create_todo", json.RawMessage(tc.payload), agent.Invocation{})
			var invalid *agent.InvalidInputError
			if !errors.As(err, &invalid) {
				t.Fatalf("err = %v, want an InvalidInputError", err)
			}
			// One sentence, whatever went wrong.
			if sentence == "" {
				sentence = invalid.Error()
			} else if invalid.Error() != sentence {
				t.Fatalf("sentence %q differs from %q", invalid.Error(), sentence)
			}
			if !slices.Equal(invalid.Problems, tc.want) {
				t.Fatalf("problems = %v, want %v", invalid.Problems, tc.want)
			}
			if string(invalid.InputSchema) != string(create.InputSchema) {
				t.Fatalf("inputSchema = %s, want the advertised %s", invalid.InputSchema, create.InputSchema)
			}
			reply := agent.ReplyTo("create_todo", agent.Result{}, err)
			var data struct {
				Tag         string               `json:"_tag"`
				Capability  string               `json:"capability"`
				Type        string               `json:"tag"`
				Message     string               `json:"message"`
				Problems    []agent.InputProblem `json:"problems"`
				InputSchema json.RawMessage      `json:"inputSchema"`
			}
			if err := json.Unmarshal(reply.Data, &data); err != nil {
				t.Fatal(err)
			}
			if data.Tag != agent.TagInvalidInput || data.Capability != "create_todo" || data.Type != "cmpCreate" ||
				data.Message != sentence || !slices.Equal(data.Problems, tc.want) || string(data.InputSchema) != string(create.InputSchema) {
				t.Fatalf("data = %s", reply.Data)
			}
			if strings.Contains(string(reply.Data), "secret-value") || strings.Contains(string(reply.Data), "4242") || strings.Contains(reply.Text, "secret-value") {
				t.Fatalf("the reply restates the offending value: %s / %q", reply.Data, reply.Text)
			}
			// The decoder's own account stays on the cause, for logs.
			if errors.Unwrap(err) == nil {
				t.Fatal("no cause kept for the application")
			}
		})
	}
}

func TestReadOnlyAndDestructiveAreDeclared(t *testing.T) {
	look := agent.Expose(agent.Variant[cmpPing, cmpModel, cmpUser]{Name: "look", Description: "Look.", ReadOnly: true})
	del := agent.Expose(agent.Variant[cmpDelete, cmpModel, cmpUser]{Name: "delete_todo", Description: "Delete a todo.", Destructive: true})
	plain := cmpNoiseCap()
	if d := look.Descriptor(); !d.ReadOnly || d.Destructive {
		t.Fatalf("look = %+v", d)
	}
	if d := del.Descriptor(); d.ReadOnly || !d.Destructive {
		t.Fatalf("delete_todo = %+v", d)
	}
	if d := plain.Descriptor(); d.ReadOnly || d.Destructive {
		t.Fatalf("noise = %+v", d)
	}
	c := agent.Make(agent.Definition[cmpModel, cmpUser]{Capabilities: []agent.Capability[cmpModel, cmpUser]{look, del, plain}})
	m := string(agent.Manifest(c))
	if strings.Count(m, `"readOnly": true`) != 1 || strings.Count(m, `"destructive": true`) != 1 || strings.Contains(m, `"readOnly": false`) || strings.Contains(m, `"destructive": false`) {
		t.Fatalf("manifest:\n%s", m)
	}
	md := agent.Markdown(c)
	if !strings.Contains(md, "declared read-only") || !strings.Contains(md, "Declared destructive") {
		t.Fatalf("AGENT.md:\n%s", md)
	}

	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"variant", func() {
			agent.Expose(agent.Variant[cmpPing, cmpModel, cmpUser]{Description: "x", ReadOnly: true, Destructive: true})
		}},
		{"mapped", func() {
			agent.ExposeMapped(agent.Mapped[agent.NoInput, cmpPing, cmpModel, cmpUser]{
				Description: "x", ReadOnly: true, Destructive: true,
				ToMessage: func(agent.NoInput, cmpCall) cmpPing { return cmpPing{} },
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if v := recover(); v == nil || !strings.Contains(v.(string), "cmpPing: a capability cannot be both ReadOnly and Destructive") {
					t.Fatalf("panic = %v", v)
				}
			}()
			tc.f()
		})
	}
}

// A value of the right type that breaks another rule of the schema (here
// a WireSchema's pattern) is "invalid", at its path.
func TestInvalidInputBreakingARule(t *testing.T) {
	h := &host{model: selectedModel()}
	c, _, _ := newContract(h)
	rt := agent.MustBind(c, h, nil)
	_, err := rt.DispatchUnknown(context.Background(), "set_quantity", json.RawMessage(`{"quantity":"-1"}`), agent.Invocation{})
	var invalid *agent.InvalidInputError
	if !errors.As(err, &invalid) {
		t.Fatalf("err = %v", err)
	}
	if want := []agent.InputProblem{{Path: "/quantity", Code: agent.ProblemInvalid}}; !slices.Equal(invalid.Problems, want) {
		t.Fatalf("problems = %v, want %v", invalid.Problems, want)
	}
	if !strings.Contains(string(invalid.InputSchema), `"pattern":"^[0-9]+$"`) {
		t.Fatalf("inputSchema = %s", invalid.InputSchema)
	}
}
