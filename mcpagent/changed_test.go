package mcpagent_test

import (
	"encoding/json"
	"testing"
)

// A tool result's structured content says what the call changed of the
// context (agent.Change): its paths and new values, and the versions
// before and after, within the tool's outputSchema.
func TestStructuredContentSaysWhatTheCallChanged(t *testing.T) {
	a := startApp(t)
	_, cs := connect(t, a.runtime(t, owner), nil, nil)
	tools := listedTools(t, cs)
	res := call(t, cs, "create_todo", map[string]any{"title": "milk"})
	sc := checkStructured(t, tools["create_todo"], res)
	var got struct {
		Version uint64 `json:"version"`
		Changed struct {
			From, To uint64
			Paths    []struct {
				Path  string          `json:"path"`
				Value json.RawMessage `json:"value"`
			} `json:"paths"`
		} `json:"changed"`
	}
	b, _ := json.Marshal(sc)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	var todos []struct {
		Title string `json:"title"`
	}
	c := got.Changed
	if len(c.Paths) != 1 || c.Paths[0].Path != "/todos" || json.Unmarshal(c.Paths[0].Value, &todos) != nil || len(todos) != 1 || todos[0].Title != "milk" ||
		c.To != got.Version || c.From == 0 || c.From >= c.To {
		t.Fatalf("structured content %s", b)
	}
	if text(res) == "" || json.Valid([]byte(text(res))) {
		t.Fatalf("the authored text %q", text(res))
	}
}
