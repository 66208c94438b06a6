package mcpagent_test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/foldagent/foldagent/mcpagent"
)

// openListen opens a raw subscriptions/listen stream. When it is
// accepted, it reads the stream's first message, which must be the
// server's acknowledgement, and returns a func that closes the stream;
// otherwise it returns the refusal's status, Retry-After and body.
func (f *httpFixture) openListen(t *testing.T, token string) (status int, retry, body string, closeStream func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	payload := `{"jsonrpc":"2.0","id":9,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + sessionlessMeta + `}}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.srv.URL, strings.NewReader(payload))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("MCP-Protocol-Version", mcpagent.SessionlessRevision)
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Error(err)
		return 0, "", "", nil
	}
	closeStream = func() { cancel(); resp.Body.Close() }
	if resp.StatusCode != http.StatusOK {
		var b strings.Builder
		_, _ = bufio.NewReader(resp.Body).WriteTo(&b)
		closeStream()
		return resp.StatusCode, resp.Header.Get("Retry-After"), b.String(), nil
	}
	t.Cleanup(closeStream)
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			if !strings.Contains(data, "notifications/subscriptions/acknowledged") {
				t.Errorf("the first message of an accepted stream is not its acknowledgement: %s", data)
			}
			return resp.StatusCode, "", "", closeStream
		}
	}
	t.Errorf("an accepted stream ended before its acknowledgement: %v", sc.Err())
	return resp.StatusCode, "", "", closeStream
}

// A flood of listen streams is refused past each bound, per identity and
// in all, typed (429, Retry-After, the bound named in the data), and
// never takes a place from a stream already acknowledged: the places
// stay exact, and each freed place is taken again once.
func TestSessionlessListenStreamsHoldTheirBoundsUnderAFlood(t *testing.T) {
	f := startHTTP(t, func(o *mcpagent.HTTPOptions) { o.MaxSessionsPerPrincipal, o.MaxSessions = 2, 4 })
	var owners []func()
	for range 2 {
		status, _, body, closeStream := f.openListen(t, "owner-token")
		if status != http.StatusOK {
			t.Fatalf("an owner's stream within the bound: %d %s", status, body)
		}
		owners = append(owners, closeStream)
	}
	wantRefused := func(status int, retry, body, bound string, perIdentity bool) {
		t.Helper()
		_, code, msg, data := rpcErrorOf(t, body)
		if status != http.StatusTooManyRequests || retry != "1" || code != -32000 || msg == "" ||
			data["bound"] != bound || data["perIdentity"] != perIdentity || data["retryAfterSeconds"] != 1.0 {
			t.Fatalf("want refused by %s: %d Retry-After %q %s", bound, status, retry, body)
		}
	}
	var wg sync.WaitGroup
	for range 20 { // the flood, all at once, on the owner's token
		wg.Go(func() {
			status, retry, body, _ := f.openListen(t, "owner-token")
			wantRefused(status, retry, body, "MaxSessionsPerPrincipal", true)
		})
	}
	wg.Wait()
	for range 2 { // another identity is not affected
		if status, _, body, _ := f.openListen(t, "viewer-token"); status != http.StatusOK {
			t.Fatalf("the viewer's stream during the owner's flood: %d %s", status, body)
		}
	}
	status, retry, body, _ := f.openListen(t, "bob-token")
	wantRefused(status, retry, body, "MaxSessions", false)

	// A closed stream gives back exactly its place.
	owners[0]()
	waitUntil(t, "the closed stream's place to come back", func() bool {
		status, _, _, _ := f.openListen(t, "bob-token")
		return status == http.StatusOK
	})
	status, retry, body, _ = f.openListen(t, "bob-token")
	wantRefused(status, retry, body, "MaxSessions", false)
	plain := f.sessionlessClient(t, "bob-token", nil) // plain requests are not bounded by streams
	call(t, plain, "create_todo", map[string]any{"title": "milk"})
}
