package mcpagent_test

// The many-replicas test: three processes of the todo example, each
// holding its own list (its own data and audit files), behind a reverse
// proxy that routes every request by the principal its bearer token
// stands for. docs/replicas.md describes the same arrangement with NGINX
// and Envoy.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/testbin"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// replica is one process of the todo example.
type replica struct {
	name  string
	cmd   *exec.Cmd
	url   *url.URL // its MCP endpoint
	data  string   // its list
	audit string   // its audit log, JSON Lines
}

// startReplica runs the todo example headless over HTTP, with its own
// data and audit files under dir.
func startReplica(t *testing.T, bin, tokens, dir, name string) *replica {
	t.Helper()
	r := &replica{name: name, data: filepath.Join(dir, name, "todos.json"), audit: filepath.Join(dir, name, "audit.jsonl")}
	if err := os.MkdirAll(filepath.Dir(r.data), 0o755); err != nil {
		t.Fatal(err)
	}
	r.cmd = exec.Command(bin, "-mcp", "http", "-addr", "127.0.0.1:0", "-tokens", tokens, "-data", r.data, "-audit", r.audit)
	r.cmd.Stderr = os.Stderr
	stdout := testbin.Start(t, r.cmd).Stdout
	urlc := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			if u, ok := strings.CutPrefix(lines.Text(), "MCP "); ok {
				urlc <- u
			}
		}
	}()
	select {
	case u := <-urlc:
		var err error
		if r.url, err = url.Parse(u); err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("replica %s did not print its URL", name)
	}
	return r
}

// principalProxy routes each request to the replica that holds its
// principal's application instance. The principal comes from the bearer
// token (here a table the proxy shares with the replicas; in production,
// a claim of a token the proxy verifies), and its replica from rendezvous
// hashing over the configured replicas, live or not: a principal never
// moves to a replica that does not hold its instance. Requests are not
// retried. A replica that cannot be reached is answered 503 with a
// JSON-RPC error saying the request was not delivered; one that fails
// before answering, 502 with one saying delivery is unknown.
type principalProxy struct {
	replicas  []*replica
	principal map[string]string // token -> principal
	proxies   []*httputil.ReverseProxy
}

func newPrincipalProxy(replicas []*replica, principal map[string]string) *principalProxy {
	p := &principalProxy{replicas: replicas, principal: principal}
	transport := &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 2 * time.Second}).DialContext,
		ResponseHeaderTimeout: 10 * time.Second,
		MaxIdleConnsPerHost:   64,
	}
	for _, r := range replicas {
		target := &url.URL{Scheme: r.url.Scheme, Host: r.url.Host}
		name := r.name
		p.proxies = append(p.proxies, &httputil.ReverseProxy{
			Rewrite: func(pr *httputil.ProxyRequest) {
				pr.SetURL(target)
				pr.Out.URL.Path = r.url.Path
			},
			Transport:     transport,
			FlushInterval: -1, // event streams pass through as they are written
			ErrorLog:      log.New(io.Discard, "", 0),
			ModifyResponse: func(resp *http.Response) error {
				resp.Header.Set("X-Replica", name)
				return nil
			},
			ErrorHandler: func(w http.ResponseWriter, req *http.Request, err error) {
				id, _ := req.Context().Value(rpcIDKey{}).(json.RawMessage)
				var dial *net.OpError
				if errors.As(err, &dial) && dial.Op == "dial" {
					writeProxyError(w, http.StatusServiceUnavailable, id,
						"The server holding this principal's application is unavailable. The request was not delivered; it is safe to send again later.",
						map[string]any{"replica": name, "delivered": false})
					return
				}
				writeProxyError(w, http.StatusBadGateway, id,
					"The server holding this principal's application failed before answering. Whether the request took effect is unknown; check before sending it again.",
					map[string]any{"replica": name, "delivered": "unknown"})
			},
		})
	}
	return p
}

type rpcIDKey struct{}

// route returns the index of the replica holding principal's instance:
// the replica with the highest hash of (replica, principal).
func (p *principalProxy) route(principal string) int {
	best, bestScore := 0, uint64(0)
	for i, r := range p.replicas {
		sum := sha256.Sum256([]byte(r.name + "\x00" + principal))
		if s := binary.BigEndian.Uint64(sum[:8]); i == 0 || s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

func (p *principalProxy) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	scheme, token, _ := strings.Cut(req.Header.Get("Authorization"), " ")
	principal, ok := p.principal[token]
	if !strings.EqualFold(scheme, "Bearer") || !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	// The request id, so that an error the proxy answers names it.
	body, err := io.ReadAll(io.LimitReader(req.Body, mcpagent.DefaultMaxRequestBodyBytes+1))
	if err != nil {
		http.Error(w, "Bad Request", http.StatusBadRequest)
		return
	}
	var msg struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(body, &msg)
	req = req.WithContext(context.WithValue(req.Context(), rpcIDKey{}, msg.ID))
	req.Body = io.NopCloser(bytes.NewReader(body))
	p.proxies[p.route(principal)].ServeHTTP(w, req)
}

func writeProxyError(w http.ResponseWriter, status int, id json.RawMessage, message string, data map[string]any) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": -32000, "message": message, "data": data},
	})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// callRecord is one create_todo a client attempted.
type callRecord struct {
	title      string
	start, end time.Time
	err        error
}

// principalRun is what one principal's client did.
type principalRun struct {
	name, token, revision string
	replica               int
	calls                 []callRecord
}

func (r *principalRun) acked() []string {
	var titles []string
	for _, c := range r.calls {
		if c.err == nil {
			titles = append(titles, c.title)
		}
	}
	return titles
}

type auditLine struct {
	Invocation string `json:"invocation"`
	Capability string `json:"capability"`
	Principal  string `json:"principal"`
	Decision   string `json:"decision"`
	Outcome    string `json:"outcome"`
}

func readAudit(t *testing.T, path string) []auditLine {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []auditLine
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var e auditLine
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%s: audit line %q: %v", path, line, err)
		}
		out = append(out, e)
	}
	return out
}

// TestReplicasRouteByPrincipalAndSurviveAKill runs three replicas of the
// todo example behind a proxy routing by principal, with clients of the
// sessionless (2026-07-28) and session-based (2025-11-25) revisions, and
// kills one replica with SIGKILL once half the calls are acknowledged. It
// checks that every principal's calls were all served by its replica,
// that the killed replica's principals then fail promptly and clearly
// while every other call succeeds, and that nothing was applied twice:
// each replica's audit log and list agree with the acknowledgements.
func TestReplicasRouteByPrincipalAndSurviveAKill(t *testing.T) {
	if testing.Short() {
		t.Skip("the replica test starts processes; skipped under -short")
	}
	const (
		replicaCount = 3
		principals   = 12
		callsEach    = 20
		victim       = 1 // the replica killed
		callTimeout  = 10 * time.Second
	)
	bin := todoServer(t)
	dir := t.TempDir()
	tokenOf := map[string]string{} // principal -> token
	principalOf := map[string]string{}
	table := map[string]map[string]string{}
	for i := range principals {
		name, token := fmt.Sprintf("p%02d", i), fmt.Sprintf("token-%02d", i)
		tokenOf[name], principalOf[token] = token, name
		table[token] = map[string]string{"name": name, "role": "owner"}
	}
	tokensPath := filepath.Join(dir, "tokens.json")
	b, _ := json.Marshal(table)
	if err := os.WriteFile(tokensPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var replicas []*replica
	for i := range replicaCount {
		replicas = append(replicas, startReplica(t, bin, tokensPath, dir, fmt.Sprintf("r%d", i)))
	}
	proxy := newPrincipalProxy(replicas, principalOf)
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	endpoint := front.URL + "/mcp"

	// Each replica's principals alternate between the two revisions, so
	// every replica, the victim included, serves clients of both.
	var runs []*principalRun
	perReplica := make([]int, replicaCount)
	for i := range principals {
		name := fmt.Sprintf("p%02d", i)
		r := proxy.route(name)
		rev := mcpagent.SessionlessRevision
		if perReplica[r]%2 == 1 {
			rev = "2025-11-25"
		}
		perReplica[r]++
		runs = append(runs, &principalRun{name: name, token: tokenOf[name], revision: rev, replica: r})
	}
	for i, n := range perReplica {
		if n < 2 {
			t.Fatalf("replica r%d holds %d principals; the test needs two or more on each (%v)", i, n, perReplica)
		}
	}

	// Every client connects first, through the proxy.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sessions := make([]*mcp.ClientSession, len(runs))
	for i, run := range runs {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "replica-test", Version: "0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{
			Endpoint:   endpoint,
			HTTPClient: &http.Client{Transport: bearer{run.token, http.DefaultTransport}},
			MaxRetries: -1,
		}, &mcp.ClientSessionOptions{ProtocolVersion: run.revision})
		if err != nil {
			t.Fatalf("%s connects: %v", run.name, err)
		}
		defer cs.Close()
		if got := cs.InitializeResult().ProtocolVersion; got != run.revision {
			t.Fatalf("%s negotiated %s, want %s", run.name, got, run.revision)
		}
		sessions[i] = cs
	}

	// Every client makes its calls one after another; once half of all
	// calls are acknowledged, the victim is killed.
	var (
		ackedTotal atomic.Int64
		killOnce   sync.Once
		killedAt   time.Time
		killed     = make(chan struct{})
	)
	kill := func() {
		killOnce.Do(func() {
			killedAt = time.Now()
			replicas[victim].cmd.Process.Kill() // SIGKILL
			replicas[victim].cmd.Wait()
			close(killed)
		})
	}
	var wg sync.WaitGroup
	for i, run := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range callsEach {
				title := fmt.Sprintf("%s-c%02d", run.name, c)
				cctx, ccancel := context.WithTimeout(ctx, callTimeout)
				rec := callRecord{title: title, start: time.Now()}
				res, err := sessions[i].CallTool(cctx, &mcp.CallToolParams{Name: "create_todo", Arguments: map[string]any{"title": title}})
				rec.end = time.Now()
				ccancel()
				if err == nil && (res.IsError || completionStatus(res.StructuredContent) != "completed") {
					err = fmt.Errorf("create_todo did not complete: %s", text(res))
				}
				rec.err = err
				run.calls = append(run.calls, rec)
				if err == nil && ackedTotal.Add(1) == principals*callsEach/2 {
					go kill()
				}
			}
		}()
	}
	wg.Wait()
	select {
	case <-killed:
	default:
		t.Fatal("the run ended before the victim was killed")
	}

	// A raw request for a principal of the killed replica: the proxy
	// answers at once, with a JSON-RPC error naming the request.
	var victimRun *principalRun
	for _, run := range runs {
		if run.replica == victim {
			victimRun = run
			break
		}
	}
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":42,"method":"tools/list","params":{}}`))
	req.Header.Set("Authorization", "Bearer "+victimRun.token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcpagent.SessionlessRevision)
	t0 := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	rawBody, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	id, code, message, data := rpcErrorOf(t, string(rawBody))
	if resp.StatusCode != http.StatusServiceUnavailable || id != 42.0 || code != -32000 || message == "" || data["delivered"] != false || time.Since(t0) > time.Second {
		t.Fatalf("a request for the killed replica: %d %s after %v, want 503 with a JSON-RPC error at once", resp.StatusCode, rawBody, time.Since(t0))
	}

	// What each replica applied: its audit log (written before a call is
	// answered, and kept by the OS when the process is killed) and its
	// list (read live from a survivor, from its file for the victim).
	var (
		audits        = make([][]auditLine, replicaCount)
		misrouted     int
		appliedOf     = map[string]int{}
		auditEntries  int
		titleCount    = map[string]int{}
		victimFailed  int
		victimTotal   int
		maxFailedWait time.Duration
		failureKinds  = map[string]int{}
		calls, acked  int
	)
	for i, r := range replicas {
		audits[i] = readAudit(t, r.audit)
		for _, e := range audits[i] {
			if proxy.route(e.Principal) != i {
				misrouted++
			}
			if e.Capability == "create_todo" {
				auditEntries++
				if e.Decision == "dispatched" && e.Outcome == "completed" {
					appliedOf[e.Principal]++
				} else {
					t.Errorf("replica %s audited %+v; every create_todo that reached it should have completed", r.name, e)
				}
			}
		}
	}
	if misrouted != 0 {
		t.Errorf("%d audit entries were made on a replica that does not hold their principal", misrouted)
	}
	for i, r := range replicas {
		var titles []string
		if i == victim {
			b, err := os.ReadFile(r.data)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			var saved struct{ Todos []struct{ Title string } }
			if len(b) > 0 {
				if err := json.Unmarshal(b, &saved); err != nil {
					t.Fatalf("the victim's saved list: %v", err)
				}
			}
			for _, td := range saved.Todos {
				titles = append(titles, td.Title)
			}
		} else {
			var reader *principalRun
			for _, run := range runs {
				if run.replica == i {
					reader = run
					break
				}
			}
			cs := sessions[slices.Index(runs, reader)]
			read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "app://todos"})
			if err != nil {
				t.Fatalf("reading %s's list: %v", r.name, err)
			}
			var todos []struct{ Title string }
			if err := json.Unmarshal([]byte(read.Contents[0].Text), &todos); err != nil {
				t.Fatal(err)
			}
			for _, td := range todos {
				titles = append(titles, td.Title)
			}
			// A survivor's list holds exactly what its audit log says it
			// applied.
			applied := 0
			for _, run := range runs {
				if run.replica == i {
					applied += appliedOf[run.name]
				}
			}
			if len(todos) != applied {
				t.Errorf("replica %s lists %d todos, its audit log %d applied creates", r.name, len(todos), applied)
			}
		}
		for _, title := range titles {
			titleCount[title]++
			owner, _, _ := strings.Cut(title, "-")
			if proxy.route(owner) != i {
				t.Errorf("replica %s holds %q, a todo of a principal it does not hold", r.name, title)
			}
		}
	}
	duplicates := 0
	for _, n := range titleCount {
		if n > 1 {
			duplicates += n - 1
		}
	}

	for _, run := range runs {
		ackedTitles := run.acked()
		calls += len(run.calls)
		acked += len(ackedTitles)
		applied := appliedOf[run.name]
		if run.replica != victim {
			// The others are unaffected: every call acknowledged, each
			// applied once.
			for _, c := range run.calls {
				if c.err != nil {
					t.Errorf("%s (on %s, %s): %s failed: %v", run.name, replicas[run.replica].name, run.revision, c.title, c.err)
				}
			}
			if applied != len(ackedTitles) {
				t.Errorf("%s: %d creates applied, %d acknowledged", run.name, applied, len(ackedTitles))
			}
			continue
		}
		// The victim's principals: a call may have been applied with its
		// answer lost in the kill (one at most, as each client waits for
		// each answer), never applied twice; every call that started after
		// the kill failed, promptly.
		if applied < len(ackedTitles) || applied > len(ackedTitles)+1 {
			t.Errorf("%s (on the killed replica): %d creates applied, %d acknowledged", run.name, applied, len(ackedTitles))
		}
		for _, c := range run.calls {
			victimTotal++
			if c.err == nil {
				if c.start.After(killedAt) {
					t.Errorf("%s: %s started after the kill and succeeded", run.name, c.title)
				}
				continue
			}
			victimFailed++
			if wait := c.end.Sub(c.start); wait > maxFailedWait {
				maxFailedWait = wait
			}
			switch msg := c.err.Error(); {
			case strings.Contains(msg, "Service Unavailable"):
				failureKinds["503 from the proxy"]++
			case strings.Contains(msg, "Bad Gateway"):
				failureKinds["502 from the proxy"]++
			case strings.Contains(msg, "standalone SSE stream"):
				failureKinds["session's event stream broken"]++
			case errors.Is(c.err, mcp.ErrConnectionClosed) || strings.Contains(msg, "connection closed"):
				failureKinds["connection closed"]++
			default:
				failureKinds[msg]++
			}
		}
	}
	totalApplied := 0
	for _, n := range appliedOf {
		totalApplied += n
	}
	if duplicates != 0 {
		t.Errorf("%d todos were applied twice", duplicates)
	}
	if auditEntries != totalApplied {
		t.Errorf("%d create_todo audit entries, %d applied creates", auditEntries, totalApplied)
	}
	if victimFailed == 0 {
		t.Error("no call of the killed replica's principals failed: the kill came too late to test anything")
	}
	if maxFailedWait > 5*time.Second {
		t.Errorf("a failed call took %v: a dead replica must fail calls promptly", maxFailedWait)
	}
	t.Logf("replicas %d (principals per replica %v), killed %s (SIGKILL) after %d of %d calls were acknowledged",
		replicaCount, perReplica, replicas[victim].name, principals*callsEach/2, principals*callsEach)
	t.Logf("calls %d: acknowledged %d, failed %d (all on the killed replica's %d principals, of their %d calls; slowest failure %v; %v)",
		calls, acked, calls-acked, perReplica[victim], victimTotal, maxFailedWait.Round(time.Millisecond), failureKinds)
	t.Logf("applied creates %d = create_todo audit entries %d; acknowledged but not applied 0; applied but not acknowledged %d (answers lost in the kill); duplicates %d; misrouted %d",
		totalApplied, auditEntries, totalApplied-acked, duplicates, misrouted)
}
