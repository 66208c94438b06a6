package mcpagent_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool's outputSchema says what its results carry of their own (the
// completion's Messages) and leaves out the envelope every result
// repeats; results and refusals still meet it, and the list is much
// smaller than with agent.ReplySchema's whole form.
func TestOutputSchemaLeavesOutTheEnvelope(t *testing.T) {
	rt := notesRuntime(t)
	_, cs := connect(t, rt, nil, nil)
	tools := listedTools(t, cs)
	var compact, full int
	for _, d := range rt.Describe().Capabilities {
		tool := tools[d.Name]
		if tool == nil {
			t.Fatalf("%s is not listed", d.Name)
		}
		b, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, envelope := range []string{`"capability"`, `"invocation"`, `"version"`} {
			if strings.Contains(s, envelope) {
				t.Errorf("%s's outputSchema describes the envelope %s: %s", d.Name, envelope, s)
			}
		}
		if d.Completion == nil && s != `{"type":"object"}` {
			t.Errorf("%s has no completion; its outputSchema %s", d.Name, s)
		}
		compact += len(s)
		full += len(agent.ReplySchema(d))
	}
	if !strings.Contains(mustJSON(t, tools["create_note"].OutputSchema), `"const":"NoteCreated"`) {
		t.Errorf("create_note's outputSchema does not name the Message it completes on: %s", mustJSON(t, tools["create_note"].OutputSchema))
	}
	if compact*3 > full {
		t.Errorf("the output schemas are %d B, against %d B in full: not a third", compact, full)
	}

	// A refusal meets the schema too: a client checks every result.
	res := call(t, cs, "create_note", map[string]any{"text": 7})
	if !res.IsError {
		t.Fatalf("a number for the text: %q", text(res))
	}
	sc := structured(t, res)
	if err := resolved(t, tools["create_note"].OutputSchema).Validate(sc); err != nil {
		t.Fatalf("a refusal does not meet the outputSchema: %v\n%v", err, sc)
	}
	var copied map[string]any
	if err := json.Unmarshal([]byte(res.Content[1].(*mcp.TextContent).Text), &copied); err != nil {
		t.Fatal(err)
	}
	if _, has := copied["message"]; has || copied["_tag"] != sc["_tag"] || sc["message"] != text(res) {
		t.Fatalf("the refusal's text copy %v, of %v", copied, sc)
	}
	// A result whose completion is the schema's second alternative would
	// fail without its completion.
	if err := resolved(t, tools["create_note"].OutputSchema).Validate(map[string]any{"version": 2}); err == nil {
		t.Fatal("a result with neither a completion nor a refusal's members meets the schema")
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
