package agent_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/foldagent/foldagent/agent"
)

type Shelve struct {
	Book string `json:"book"`
}

type Shelf struct {
	Books []string `json:"books"`
}

// Shelved has a pointer and a slice: derivation writes each with a type
// list (["null","object"], ["null","array"]).
type Shelved struct {
	Shelf *Shelf   `json:"shelf"`
	Moved []string `json:"moved"`
}

// A tool's output schema has no type lists (the MCP Inspector's --strict
// refuses them), and says what it said: the same replies pass, null and
// the object alike, and what broke it before breaks it still.
func TestReplySchemaHasNoTypeLists(t *testing.T) {
	shelve := agent.Expose(agent.Variant[Shelve, counterModel, agent.NoPrincipal]{
		Description: "Shelve a book.",
		Completion:  agent.CompleteOn(agent.OnType[Shelve, Shelved]()).Within(time.Minute),
	})
	d := shelve.Descriptor()
	schema := agent.ReplySchema(d)
	if strings.Contains(strings.ReplaceAll(string(schema), " ", ""), `"type":[`) {
		t.Fatalf("a type list in %s", schema)
	}
	msg := string(d.Completion.Schemas["Shelved"])
	if !strings.Contains(strings.ReplaceAll(msg, " ", ""), `"type":[`) {
		t.Fatalf("the Message's own schema no longer has the type list this test is about: %s", msg)
	}
	reply := func(message string) json.RawMessage {
		return json.RawMessage(`{"capability":"shelve","tag":"Shelve","invocation":{"id":"i","transport":"mcp"},` +
			`"completion":{"status":"completed","tag":"Shelved","message":` + message + `}}`)
	}
	for _, m := range []string{`{"shelf":null,"moved":null}`, `{"shelf":{"books":["a"]},"moved":["b"]}`} {
		checkAgainst(t, schema, reply(m))
	}
	if err := validate(schema, reply(`{"shelf":{"books":"a"},"moved":null}`)); err == nil {
		t.Fatal("a shelf whose books are not a list passed")
	}
	if err := validate(schema, reply(`{"shelf":7,"moved":null}`)); err == nil {
		t.Fatal("a shelf that is a number passed")
	}
}

// validate is checkAgainst's check, returning its error.
func validate(schema, data json.RawMessage) error {
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return err
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return r.Validate(v)
}
