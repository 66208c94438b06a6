package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

func TestDefaultName(t *testing.T) {
	for in, want := range map[string]string{
		"RequestedDeleteTodo": "requested_delete_todo",
		"LoadedHTTPCache":     "loaded_h_t_t_p_cache",
		"ClearedSelection":    "cleared_selection",
		"A":                   "a",
		"Load2Todos":          "load2_todos",
		"already_snake":       "already_snake",
	} {
		if got := agent.DefaultName(in); got != want {
			t.Errorf("DefaultName(%q) = %q, want %q", in, got, want)
		}
	}
	for name, want := range map[string]bool{"create_todo": true, "a-b": true, strings.Repeat("x", 128): true, strings.Repeat("x", 129): false, "": false, "has space": false, "dots.no": false, "ünï": false} {
		if got := agent.ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v", name, got)
		}
	}
}

type LoadedHTTPCache struct{}

func (LoadedHTTPCache) isMsg() {}

func TestDefaultNameAppliedByExpose(t *testing.T) {
	e := agent.Expose(capability[LoadedHTTPCache]{Description: "Loaded."})
	if e.Name() != "loaded_h_t_t_p_cache" || e.Descriptor().Tag != "LoadedHTTPCache" {
		t.Fatalf("name %q tag %q", e.Name(), e.Descriptor().Tag)
	}
}

func mustPanic(t *testing.T, wantParts []string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		v := recover()
		if v == nil {
			t.Fatalf("expected a panic mentioning %q", wantParts)
		}
		msg := fmt.Sprint(v)
		for _, p := range wantParts {
			if !strings.Contains(msg, p) {
				t.Fatalf("panic %q does not mention %q", msg, p)
			}
		}
	}()
	f()
}

type notStruct string

func TestDefinitionMistakesFailAtConstruction(t *testing.T) {
	mustPanic(t, []string{"CreateTodo", "bad name", "[a-zA-Z0-9_-]"}, func() {
		agent.Expose(capability[CreateTodo]{Name: "bad name", Description: "x"})
	})
	mustPanic(t, []string{"CreateTodo", strings.Repeat("n", 129)}, func() {
		agent.Expose(capability[CreateTodo]{Name: strings.Repeat("n", 129), Description: "x"})
	})
	mustPanic(t, []string{"CreateTodo", "Description"}, func() {
		agent.Expose(capability[CreateTodo]{})
	})
	mustPanic(t, []string{"DeleteTodo", "ToMessage"}, func() {
		agent.ExposeMapped(agent.Mapped[agent.NoPrincipal, DeleteTodo, Model, User]{Description: "x"})
	})
	mustPanic(t, []string{"notStruct", "named struct"}, func() {
		agent.Expose(agent.Variant[notStruct, Model, User]{Description: "x"})
	})
	mustPanic(t, []string{"DeleteTodo", "not a struct"}, func() {
		agent.ExposeMapped(agent.Mapped[string, DeleteTodo, Model, User]{Description: "x", ToMessage: func(string, agent.Call[Model, User]) DeleteTodo { return DeleteTodo{} }})
	})
	mustPanic(t, []string{"duplicate capability name", `"same"`, "CreateTodo", "RenameTodo"}, func() {
		agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
			agent.Expose(capability[CreateTodo]{Name: "same", Description: "x"}),
			agent.Expose(capability[RenameTodo]{Name: "same", Description: "y"}),
		}})
	})
	mustPanic(t, []string{"CreateTodo", "exposed twice"}, func() {
		agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
			agent.Expose(capability[CreateTodo]{Name: "a", Description: "x"}),
			agent.Expose(capability[CreateTodo]{Name: "b", Description: "y"}),
		}})
	})
	mustPanic(t, []string{"duplicate resource", `"todos"`}, func() {
		agent.Make(agent.Definition[Model, User]{Resources: []agent.Resource[Model]{
			agent.NewResource("todos", "a", func(m Model) []Todo { return m.Todos }),
			agent.NewResource("todos", "b", func(m Model) []Todo { return m.Todos }),
		}})
	})
	mustPanic(t, []string{"a/b"}, func() { agent.NewResource("a/b", "x", func(Model) int { return 0 }) })
	mustPanic(t, []string{"capability 0 is nil"}, func() {
		agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{nil}})
	})
}

// AnotherMsg is a host Message type that cannot hold CreateTodo.
type AnotherMsg interface{ other() }

type otherHost struct{}

func (otherHost) Model() Model                               { return Model{} }
func (otherHost) Dispatch(context.Context, AnotherMsg) error { return nil }

func TestBindChecksMessageTypes(t *testing.T) {
	c, _, _ := newContract(&host{})
	_, err := agent.Bind(c, otherHost{}, nil)
	if err == nil || !strings.Contains(err.Error(), "CreateTodo") || !strings.Contains(err.Error(), "SetQuantity") {
		t.Fatalf("err = %v, want it to name the Messages the host cannot hold", err)
	}
	// A host typed `any` holds everything.
	if _, err := agent.Bind(c, anyHost{}, nil); err != nil {
		t.Fatal(err)
	}
	mustPanic(t, []string{"CreateTodo"}, func() { agent.MustBind(c, otherHost{}, nil) })
}

type anyHost struct{}

func (anyHost) Model() Model                        { return Model{} }
func (anyHost) Dispatch(context.Context, any) error { return nil }

func TestManifestIsReproducibleAndReadsNoModel(t *testing.T) {
	h := &host{}
	c1, _, _ := newContract(h)
	c2, _, _ := newContract(h)
	m1, m2 := agent.Manifest(c1), agent.Manifest(c2)
	if !bytes.Equal(m1, m2) {
		t.Fatal("two builds of one contract give different manifests")
	}
	if !bytes.Equal(m1, agent.Manifest(c1)) || agent.Markdown(c1) != agent.Markdown(c2) {
		t.Fatal("manifest or markdown not reproducible")
	}
	if len(h.calls()) != 0 {
		t.Fatalf("manifest read the Model: %v", h.calls())
	}
	var doc struct {
		Capabilities []map[string]json.RawMessage `json:"capabilities"`
		Resources    []map[string]json.RawMessage `json:"resources"`
		Context      json.RawMessage              `json:"context"`
	}
	if err := json.Unmarshal(m1, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Capabilities) != 5 || len(doc.Resources) != 2 || doc.Context == nil {
		t.Fatalf("manifest shape: %s", m1)
	}
	del := doc.Capabilities[2]
	for key, want := range map[string]string{
		"name": `"delete_selected_todo"`, "tag": `"DeleteTodo"`, "modelDependent": "true", "requiresAuthorization": "true",
		"inputSchema": `{"type":"object","properties":{},"required":[],"additionalProperties":false}`,
	} {
		var got bytes.Buffer
		_ = json.Compact(&got, del[key])
		if got.String() != want {
			t.Errorf("capability %s = %s, want %s", key, got.String(), want)
		}
	}
	if _, has := del["completion"]; has {
		t.Error("completion must be omitted when not declared")
	}
	// Key order is the documented one.
	s := string(m1)
	if !(strings.Index(s, `"capabilities"`) < strings.Index(s, `"resources"`) && strings.Index(s, `"resources"`) < strings.Index(s, `"context"`)) {
		t.Fatal("manifest key order")
	}
}

func TestEmptyManifestAndMarkdown(t *testing.T) {
	c := agent.Make(agent.Definition[Model, agent.NoPrincipal]{})
	var compact bytes.Buffer
	if err := json.Compact(&compact, agent.Manifest(c)); err != nil {
		t.Fatal(err)
	}
	if compact.String() != `{"capabilities":[],"resources":[]}` {
		t.Fatalf("empty manifest = %s", compact.String())
	}
	md := agent.Markdown(c)
	for _, want := range []string{"# Agent contract", "This contract exposes no capabilities.", "## Context", "This contract projects no context from the Model."} {
		if !strings.Contains(md, want) {
			t.Fatalf("markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestMarkdown(t *testing.T) {
	c, _, _ := newContract(&host{})
	md := agent.Markdown(c)
	for _, want := range []string{
		"| `delete_selected_todo` | `DeleteTodo` | Delete the selected todo. | yes | yes |",
		"### `create_todo`",
		"Offered only in some states of the Model.",
		"Checks that the caller is authorized before dispatching.",
		"## Resources", "### `stats`", "## Context", "```json\n{\n  \"type\": \"object\"",
	} {
		if !strings.Contains(md, want) {
			t.Fatalf("markdown lacks %q:\n%s", want, md)
		}
	}
	// A pipe or newline in a description cannot break the table.
	c2 := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[CreateTodo]{Description: "a | b\nc"}),
	}})
	if !strings.Contains(agent.Markdown(c2), `| a \| b c |`) {
		t.Fatalf("cells not escaped:\n%s", agent.Markdown(c2))
	}
}

type BlobInput struct {
	Data []byte `json:"data"`
}
type NestedBlob struct {
	Items []struct {
		Raw []byte `json:"raw"`
	} `json:"items"`
}
type QuotedNumber struct {
	N int `json:"n,string"`
}

func (BlobInput) isMsg()    {}
func (NestedBlob) isMsg()   {}
func (QuotedNumber) isMsg() {}

// A field whose advertised schema and Go decoding disagree would make the
// capability impossible to call; it is refused at declaration instead.
func TestWireDisagreementFailsAtDeclaration(t *testing.T) {
	mustPanic(t, []string{"BlobInput", "BlobInput.Data", "byte slice"}, func() {
		agent.Expose(capability[BlobInput]{Description: "x"})
	})
	mustPanic(t, []string{"NestedBlob.Items.Raw", "byte slice"}, func() {
		agent.Expose(capability[NestedBlob]{Description: "x"})
	})
	mustPanic(t, []string{"QuotedNumber.N", `json:",string"`}, func() {
		agent.Expose(capability[QuotedNumber]{Description: "x"})
	})
	// A type that states its own wire form is trusted.
	agent.Expose(capability[SetQuantity]{Description: "x"})
}
