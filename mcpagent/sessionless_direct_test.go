package mcpagent_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// Plain calls of the sessionless revision are served by the identity's
// long-lived session (answered as one JSON body, not an event stream):
// many at once on one identity, all with the same id, each get their own
// answer under their own id.
func TestSessionlessDirectAnswersEachRequestUnderItsOwnID(t *testing.T) {
	f := startHTTP(t, nil)
	type probe struct{ method, name, params, want string }
	probes := []probe{
		{"tools/list", "", `{` + sessionlessMeta + `}`, `"tools":[`},
		{"resources/read", "app://todos", `{"uri":"app://todos",` + sessionlessMeta + `}`, `"contents":[`},
		{"tools/call", "rename_todo", `{"name":"rename_todo","arguments":{"id":"nope","title":"x"},` + sessionlessMeta + `}`, `"isError":true`},
	}
	const rounds = 8
	var wg sync.WaitGroup
	errs := make(chan error, rounds*len(probes)*2)
	for i := range rounds {
		for _, p := range probes {
			for _, id := range []string{`"same"`, `7`} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					header := map[string]string{"Authorization": "Bearer owner-token", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": p.method}
					if p.name != "" {
						header["Mcp-Name"] = p.name
					}
					status, h, body := f.post(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"`+p.method+`","params":`+p.params+`}`, header)
					var msg struct {
						ID json.RawMessage `json:"id"`
					}
					switch {
					case status != http.StatusOK || h.Get("Content-Type") != "application/json":
						errs <- fmt.Errorf("round %d %s id %s: %d %s %s", i, p.method, id, status, h.Get("Content-Type"), body)
					case json.Unmarshal([]byte(body), &msg) != nil || string(msg.ID) != id:
						errs <- fmt.Errorf("%s id %s answered under id %s: %s", p.method, id, msg.ID, body)
					case !strings.Contains(body, p.want) || !strings.Contains(body, `"resultType":"complete"`):
						errs <- fmt.Errorf("%s id %s: answer lacks %s: %s", p.method, id, p.want, body)
					}
				}()
			}
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if f.opened.Load() != 1 {
		t.Fatalf("one identity's requests opened %d runtimes, want 1", f.opened.Load())
	}
}

// What the direct path does not serve keeps the SDK's answers: headers
// that do not mirror the body are refused, a batch is refused, and a
// request whose _meta names no revision is refused, each without reaching
// the application.
func TestSessionlessRequestsTheDirectPathLeavesAreRefusedAsBefore(t *testing.T) {
	f := startHTTP(t, nil)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_todo","arguments":{"title":"Milk"},` + sessionlessMeta + `}}`
	for name, tc := range map[string]struct {
		body   string
		header map[string]string
	}{
		"missing Mcp-Method":  {call, map[string]string{"Mcp-Name": "create_todo"}},
		"Mcp-Name mismatch":   {call, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "delete_selected_todo"}},
		"Mcp-Method mismatch": {call, map[string]string{"Mcp-Method": "tools/list", "Mcp-Name": "create_todo"}},
		"no _meta revision": {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_todo","arguments":{"title":"Milk"}}}`,
			map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "create_todo"}},
	} {
		t.Run(name, func(t *testing.T) {
			tc.header["Authorization"] = "Bearer owner-token"
			tc.header["MCP-Protocol-Version"] = "2026-07-28"
			status, _, body := f.post(t, tc.body, tc.header)
			if status != http.StatusBadRequest {
				t.Fatalf("answered %d %s, want 400", status, body)
			}
		})
	}
	if n := f.app.created.Load(); n != 0 {
		t.Fatalf("refused requests created %d todos", n)
	}
}
