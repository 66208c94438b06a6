package webmcp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

func TestFormToolAttributes(t *testing.T) {
	c := todoContract()
	f, err := FormTool(c, "create_todo", nil)
	if err != nil {
		t.Fatal(err)
	}
	d := c.Describe().Capabilities[0]
	want := []Attr{{"toolname", "create_todo"}, {"tooldescription", d.Description}}
	if got := f.Attrs(); !slices.Equal(got, want) {
		t.Fatalf("Attrs() = %v, want %v", got, want)
	}
	field, err := f.Field("title")
	if err != nil {
		t.Fatal(err)
	}
	if want := []Attr{{"name", "title"}, {"toolparamdescription", "The title of the new todo"}}; !slices.Equal(field, want) {
		t.Fatalf("Field(title) = %v, want %v", field, want)
	}
	if got := f.Fields(); !slices.Equal(got, []string{"title"}) {
		t.Fatalf("Fields() = %v", got)
	}

	auto := MustFormTool(c, "create_todo", &FormOptions{Autosubmit: true})
	if got := auto.Attrs(); !slices.Contains(got, Attr{"toolautosubmit", ""}) || len(got) != 3 {
		t.Fatalf("Autosubmit Attrs() = %v, want toolautosubmit added", got)
	}
	// A field the schema does not describe gets no toolparamdescription.
	sel := MustFormTool(c, "select_todo", nil)
	if got := sel.MustField("index"); !slices.Equal(got, []Attr{{"name", "index"}}) {
		t.Fatalf("Field(index) = %v", got)
	}
}

type catalog []agent.Descriptor

func (c catalog) Describe() agent.Description { return agent.Description{Capabilities: c} }

func TestFormToolRefusals(t *testing.T) {
	c := todoContract()
	if _, err := FormTool(c, "rename_todo", nil); err == nil || !strings.Contains(err.Error(), `"rename_todo"`) {
		t.Fatalf("unknown name: %v", err)
	}
	for _, schema := range []string{`{"type":"string"}`, `{"type":"array","items":{}}`, `not json`, `{"type":"object"}`} {
		odd := catalog{{Name: "odd", Description: "Odd.", InputSchema: json.RawMessage(schema)}}
		if _, err := FormTool(odd, "odd", nil); err == nil || !strings.Contains(err.Error(), "not an object of fields") {
			t.Fatalf("input %s: %v", schema, err)
		}
	}
	f := MustFormTool(c, "create_todo", nil)
	if _, err := f.Field("due"); err == nil || !strings.Contains(err.Error(), `"due"`) || !strings.Contains(err.Error(), "title") {
		t.Fatalf("missing field: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("MustFormTool did not panic for an unknown name")
		}
	}()
	MustFormTool(c, "nope", nil)
}

func TestFormsAnswerAgentSubmissions(t *testing.T) {
	for _, declarative := range []bool{true, false} {
		rt, host := bindTodo(t)
		form := MustFormTool(rt.Contract(), "create_todo", &FormOptions{Autosubmit: true})
		mc := formFake{newFakeContext()}
		mc.declarative = declarative
		reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: mc, Forms: []*Form{form}})
		if err != nil {
			t.Fatal(err)
		}
		if err := reg.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		// A declarative browser already has the form as its tool.
		if got := slices.Contains(reg.Registered(), "create_todo"); got == declarative {
			t.Fatalf("declarative=%v: create_todo registered imperatively = %v", declarative, got)
		}
		if len(mc.forms) != 1 || mc.forms[0] != form || mc.answer == nil {
			t.Fatalf("declarative=%v: the page was not asked to answer the form", declarative)
		}
		res := mc.answer(context.Background(), form, map[string]string{"title": "from the form", "ignored": "x"})
		if res.IsError || res.Text() != "Dispatched CreateTodo" {
			t.Fatalf("answer = %+v", res)
		}
		if got := host.Model().Todos; !slices.Equal(got, []string{"from the form"}) {
			t.Fatalf("Model todos = %v", got)
		}
		res = mc.answer(context.Background(), form, map[string]string{})
		if want := (&agent.InvalidInputError{Capability: "create_todo"}).Error(); !res.IsError || res.Text() != want {
			t.Fatalf("a submission without the field = %+v, want %q", res, want)
		}
		res = mc.answer(context.Background(), form, map[string]string{"title": "forbidden"})
		if !res.IsError || res.Text() != "That title is not allowed." {
			t.Fatalf("an unauthorized submission = %+v", res)
		}
		stranger := MustFormTool(rt.Contract(), "select_todo", nil)
		if res := mc.answer(context.Background(), stranger, map[string]string{"index": "0"}); !res.IsError {
			t.Fatalf("a form that was not registered was answered: %+v", res)
		}
		if n := len(host.dispatched()); n != 1 {
			t.Fatalf("%d Messages dispatched, want only the valid submission's", n)
		}
		reg.Unregister()
		if !mc.stopped {
			t.Fatal("Unregister did not stop answering form submissions")
		}
	}
}
