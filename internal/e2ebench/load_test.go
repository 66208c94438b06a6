package e2ebench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/testbin"
)

// The load run of issue 41, in the shape of its k6 script: many virtual
// users sharing one bearer token (a team's service account, a bot fleet),
// each opening its own session over streamable HTTP and then calling
// tools/call in a loop for a fixed time, against the todo binary and the
// hand-written go-sdk server alike. It counts failed calls (any answer but
// a tool result, a refused session included) and reports requests per
// second and the 95th percentile latency of each, and their ratios
// (foldagent over hand-written).
//
// It runs on loopback only, with a bounded number of clients and a
// bounded time: loadSeconds per server and client count (2 s by default;
// FOLDAGENT_LOAD_SECONDS=30 for the figure the issue asks for).

// loadResult is one server's run at one client count.
type loadResult struct {
	calls, failed int
	firstFailure  string
	rps           float64
	p50, p95      time.Duration
}

func loadSeconds(tb testing.TB, def time.Duration) time.Duration {
	if v := os.Getenv("FOLDAGENT_LOAD_SECONDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 || n > 300 {
			tb.Fatalf("FOLDAGENT_LOAD_SECONDS=%q: want whole seconds, 1 to 300", v)
		}
		return time.Duration(n) * time.Second
	}
	return def
}

// startServer starts bin serving streamable HTTP on loopback on a fresh
// list and returns its URL.
func startServer(tb testing.TB, name, bin string) string {
	tb.Helper()
	dir := tb.TempDir()
	tokens := dir + "/tokens.json"
	if err := os.WriteFile(tokens, []byte(`{"`+token+`": {"name": "bench", "role": "owner"}}`), 0o600); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, "-mcp", "http", "-data", dir+"/todos.json", "-tokens", tokens)
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	sc := bufio.NewScanner(out)
	url := ""
	for url == "" && sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "MCP "); ok {
			url = u
		}
	}
	if url == "" {
		tb.Fatalf("%s printed no MCP endpoint; stderr: %s", name, stderr.String())
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		tb.Fatalf("%s serves %s, not loopback", name, url)
	}
	go func() {
		for sc.Scan() {
		}
	}()
	return url
}

// vu is one virtual user: its own session on the shared token.
type vu struct {
	c   *http.Client
	url string
	sid string
}

func (v *vu) post(ctx context.Context, body string) (int, []byte, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.url, strings.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if v.sid != "" {
		req.Header.Set("Mcp-Session-Id", v.sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	resp, err := v.c.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, resp.Header, err
}

// open initializes the user's session (revision 2025-11-25: a session).
func (v *vu) open(ctx context.Context) error {
	status, body, h, err := v.post(ctx, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"load","version":"0"}}}`)
	if err != nil || status != http.StatusOK || h.Get("Mcp-Session-Id") == "" {
		return fmt.Errorf("initialize: %d %q %v", status, body, err)
	}
	v.sid = h.Get("Mcp-Session-Id")
	status, body, _, err = v.post(ctx, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if err != nil || status != http.StatusAccepted {
		return fmt.Errorf("initialized: %d %q %v", status, body, err)
	}
	return nil
}

// call makes one tools/call and reports whether it answered a result.
func (v *vu) call(ctx context.Context, i int) error {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"select_todo","arguments":{"id":"t%d"}}}`, i+1, 1+i%2)
	status, b, _, err := v.post(ctx, body)
	if err != nil || status != http.StatusOK || !bytes.Contains(b, []byte(`"result"`)) || bytes.Contains(b, []byte(`"isError":true`)) {
		return fmt.Errorf("tools/call: %d %.200q %v", status, b, err)
	}
	return nil
}

// drive runs clients virtual users against url for d.
func drive(tb testing.TB, url string, clients int, d time.Duration) loadResult {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d+time.Minute)
	defer cancel()
	tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxIdleConns: clients, DisableCompression: true}
	defer tr.CloseIdleConnections()
	var (
		mu     sync.Mutex
		res    loadResult
		lat    []time.Duration
		wg     sync.WaitGroup
		opened sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		res.failed++
		if res.firstFailure == "" {
			res.firstFailure = err.Error()
		}
		mu.Unlock()
	}
	start := make(chan struct{})
	opened.Add(clients)
	for range clients {
		wg.Go(func() {
			v := &vu{c: &http.Client{Transport: tr}, url: url}
			err := v.open(ctx)
			opened.Done()
			if err != nil {
				fail(err)
				return
			}
			<-start
			deadline := time.Now().Add(d)
			var mine []time.Duration
			for i := 0; time.Now().Before(deadline); i++ {
				t0 := time.Now()
				if err := v.call(ctx, i); err != nil {
					fail(err)
					continue
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	opened.Wait()
	t0 := time.Now()
	close(start)
	wg.Wait()
	elapsed := time.Since(t0)
	slices.Sort(lat)
	res.calls = len(lat) + res.failed
	if len(lat) > 0 {
		res.rps = float64(len(lat)) / elapsed.Seconds()
		res.p50 = lat[len(lat)/2]
		res.p95 = lat[len(lat)*95/100]
	}
	return res
}

// seed makes the two todos select_todo moves between.
func seed(tb testing.TB, url string) {
	tb.Helper()
	v := &vu{c: http.DefaultClient, url: url}
	ctx := context.Background()
	if err := v.open(ctx); err != nil {
		tb.Fatal(err)
	}
	for i, title := range []string{"one", "two"} {
		status, b, _, err := v.post(ctx, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"create_todo","arguments":{"title":%q}}}`, i+1, title))
		if err != nil || status != http.StatusOK || bytes.Contains(b, []byte(`"isError":true`)) {
			tb.Fatalf("seeding: %d %q %v", status, b, err)
		}
	}
}

// TestLoadOneToken is the load run: 50 and 500 clients on one token,
// against both servers, alternating which goes first. It asserts only
// that no call failed, on either server (the hand-written one checks the
// driver); the figures are logged, as ratios.
func TestLoadOneToken(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes and drives them for seconds")
	}
	d := loadSeconds(t, 2*time.Second)
	names := [2]string{"foldagent", "handwritten"}
	urls := [2]string{
		startServer(t, names[0], testbin.Build(t, "examples/todo")),
		startServer(t, names[1], testbin.Build(t, "internal/e2ebench/handwritten")),
	}
	for _, u := range urls {
		seed(t, u)
	}
	for round, clients := range []int{50, 500} {
		var got [2]loadResult
		for k := range 2 {
			side := (round + k) % 2
			got[side] = drive(t, urls[side], clients, d)
		}
		for side, r := range got {
			if r.failed != 0 || r.calls == 0 {
				t.Errorf("%s, %d clients on one token: %d of %d calls failed (first: %s)", names[side], clients, r.failed, r.calls, r.firstFailure)
			}
		}
		t.Logf("%d clients on one token, %s each: foldagent %d calls %.0f req/s p50 %s p95 %s; handwritten %d calls %.0f req/s p50 %s p95 %s; req/s ratio %.2f, p95 ratio %.2f",
			clients, d, got[0].calls, got[0].rps, got[0].p50, got[0].p95, got[1].calls, got[1].rps, got[1].p50, got[1].p95,
			got[0].rps/got[1].rps, float64(got[0].p95)/float64(got[1].p95))
	}
}
