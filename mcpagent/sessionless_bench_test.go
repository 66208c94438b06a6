package mcpagent_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkSessionless measures one tools/call (select_todo) of the
// sessionless revision against the same call in a session of the same
// Handler, and against the go-sdk's own Stateless handler serving the same
// tool by hand (baselineHandler's six tools), all with plain HTTP requests
// on kept-alive connections so that every side pays the same client
// costs. The three are interleaved call by call, in an order that
// rotates, and the medians' ratios are reported:
//
//   - sessionless/session: target at most 1.1×;
//   - sessionless/sdk-stateless: target at most 0.7×.
//
// Run it with:
//
//	go test -run '^$' -bench Sessionless -benchtime 2000x ./mcpagent/
func BenchmarkSessionless(b *testing.B) {
	ours := startBenchApp(b)
	base := startBenchApp(b)
	h := newOpener(b, benchHandler(b, ours.prog))
	sess := h.open(b)
	b.Cleanup(func() { h.end(b, sess) })
	sdk := newOpener(b, statelessBaseline(base))

	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"select_todo","arguments":{"id":"` + ours.id + `"}}}`
	callNew := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"select_todo","arguments":{"id":"` + ours.id + `"},` + sessionlessMeta + `}}`
	callBase := strings.Replace(callNew, ours.id, base.id, 1)
	sides := [3]func(){
		func() { sessionlessCall(b, h, callNew, "select_todo") },
		func() { h.post(b, sess.id, call, http.StatusOK) },
		func() { sessionlessCall(b, sdk, callBase, "select_todo") },
	}
	for range 20 { // warm every path
		for _, s := range sides {
			s()
		}
	}
	var lat [3][]float64
	i := 0
	for b.Loop() {
		for k := range 3 {
			side := (i + k) % 3
			t0 := time.Now()
			sides[side]()
			lat[side] = append(lat[side], float64(time.Since(t0)))
		}
		i++
	}
	b.StopTimer()
	sl, ss, sdkSL := median(lat[0]), median(lat[1]), median(lat[2])
	b.ReportMetric(sl/ss, "sessionless/session")
	b.ReportMetric(sl/sdkSL, "sessionless/sdk-stateless")
	b.ReportMetric(sl/1e3, "µs/sessionless")
	b.ReportMetric(ss/1e3, "µs/session")
	b.ReportMetric(sdkSL/1e3, "µs/sdk-stateless")
}

// sessionlessCall posts one request of the sessionless revision and
// checks it was answered with a result.
func sessionlessCall(b *testing.B, o *sessionOpener, body, name string) {
	req, err := http.NewRequest(http.MethodPost, o.url, bytes.NewReader([]byte(body)))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+o.token)
	req.Header.Set("MCP-Protocol-Version", mcpagent.SessionlessRevision)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", name)
	resp, err := o.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Contains(got, []byte(`"result"`)) || bytes.Contains(got, []byte(`"isError":true`)) {
		b.Fatalf("sessionless call answered %d: %s", resp.StatusCode, got)
	}
}

// statelessBaseline is baselineHandler's hand-written server on the
// go-sdk's Stateless handler, which serves the sessionless revision.
func statelessBaseline(a *benchApp) http.Handler {
	s := baselineServer(a.prog)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Logger: quietLogger(), Stateless: true})
	return auth.RequireBearerToken(verifyToken, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
}
