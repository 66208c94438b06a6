package mcpagent

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// markByJSON is how markComplete used to mark a result: through its JSON.
// markComplete must give what it gave.
func markByJSON[R any, PR interface {
	*R
	mcp.Result
}](t *testing.T, res PR) PR {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	withMark := append([]byte(`{"resultType":"complete",`), b[1:]...)
	marked := PR(new(R))
	if err := json.Unmarshal(withMark, marked); err != nil {
		t.Fatal(err)
	}
	return marked
}

func TestMarkCompleteIsTheJSONRoundTrip(t *testing.T) {
	withErr := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "refused"}}, IsError: true}
	withErr.SetError(errors.New("the server's own error"))
	calls := []*mcp.CallToolResult{
		{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}},
		{
			Meta:              mcp.Meta{"foldagent/version": 7},
			Content:           []mcp.Content{&mcp.TextContent{Text: `{"id":"t1"}`}},
			StructuredContent: map[string]any{"id": "t1", "done": false},
		},
		{Content: []mcp.Content{}, StructuredContent: json.RawMessage(`{"a":[1,2]}`)},
		withErr,
	}
	for i, res := range calls {
		before, _ := json.Marshal(res)
		got, _ := json.Marshal(markComplete(nil, res))
		want, _ := json.Marshal(markByJSON(t, res))
		if string(got) != string(want) {
			t.Errorf("call result %d: marked\n%s\nwant\n%s", i, got, want)
		}
		if after, _ := json.Marshal(res); string(after) != string(before) {
			t.Errorf("call result %d: marking changed the result it was given:\n%s\nwas\n%s", i, after, before)
		}
		if m := markComplete(nil, res); m == res || m.GetError() != nil || m.NeedsInput() {
			t.Errorf("call result %d: marked result %p (given %p), error %v, needs input %v", i, m, res, m.GetError(), m.NeedsInput())
		}
	}
	read := &mcp.ReadResourceResult{
		Meta:     mcp.Meta{"foldagent/version": 3},
		Contents: []*mcp.ResourceContents{{URI: "foldagent://todos", MIMEType: "application/json", Text: `[]`}},
	}
	got, _ := json.Marshal(markComplete(nil, read))
	want, _ := json.Marshal(markByJSON(t, read))
	if string(got) != string(want) {
		t.Errorf("resource result: marked\n%s\nwant\n%s", got, want)
	}
}

// BenchmarkMarkComplete is the per-answer cost of the mark on the
// 2026-07-28 revision.
func BenchmarkMarkComplete(b *testing.B) {
	res := &mcp.CallToolResult{
		Meta:              mcp.Meta{"foldagent/version": 7},
		Content:           []mcp.Content{&mcp.TextContent{Text: `{"outcome":"completed","todo":{"id":"t1","title":"one"}}`}},
		StructuredContent: map[string]any{"outcome": "completed", "todo": map[string]any{"id": "t1", "title": "one"}},
	}
	b.ReportAllocs()
	for b.Loop() {
		if markComplete(nil, res) == nil {
			b.Fatal("no result")
		}
	}
}
