package mcpagent_test

// Black-box tests against real MCP peers: the official TypeScript client
// (@modelcontextprotocol/sdk) over stdio and streamable HTTP, the MCP
// Inspector CLI over stdio, and the official conformance suite against the
// HTTP endpoint. They drive the todo example (examples/todo, headless with
// -mcp stdio or -mcp http) as a separate process.
//
// The peers are pinned in testdata/node/package.json and package-lock.json
// and installed by scripts/install-peers.sh. Without them these tests
// skip, naming that step; with FOLDAGENT_REQUIRE_PEERS=1 they fail instead.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/peer"
	"github.com/foldagent/foldagent/internal/testbin"
)

// requirePeers skips (or, with FOLDAGENT_REQUIRE_PEERS=1, fails) when node
// or the pinned peers are missing, and returns the node directory.
func requirePeers(t *testing.T) string {
	t.Helper()
	peer.Program(t, "node")
	dir := peer.NodeModules(t, "testdata/node",
		"@modelcontextprotocol/sdk", "@modelcontextprotocol/inspector", "@modelcontextprotocol/conformance")
	if testing.Short() && !peer.Required() {
		t.Skip("peer tests launch processes; skipped under -short")
	}
	return dir
}

// todoServer is the todo example, built once per test binary.
func todoServer(t *testing.T) string { return testbin.Build(t, "examples/todo") }

func TestMain(m *testing.M) { testbin.Main(m) }

// startHTTPServer runs the todo example headless over streamable HTTP,
// with an owner and a viewer token and a fresh list, and returns its URL.
func startHTTPServer(t *testing.T) string {
	t.Helper()
	bin := todoServer(t)
	tokens := filepath.Join(t.TempDir(), "tokens.json")
	if err := os.WriteFile(tokens, []byte(`{"owner-tok":{"name":"olivia","role":"owner"},"viewer-tok":{"name":"victor","role":"viewer"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(t.TempDir(), "todos.json")
	cmd := exec.Command(bin, "-mcp", "http", "-addr", "127.0.0.1:0", "-tokens", tokens, "-data", data)
	cmd.Stderr = os.Stderr
	stdout := testbin.Start(t, cmd).Stdout
	lines := bufio.NewScanner(stdout)
	urlc := make(chan string, 1)
	go func() {
		for lines.Scan() {
			if u, ok := strings.CutPrefix(lines.Text(), "MCP "); ok {
				urlc <- u
			}
		}
	}()
	select {
	case u := <-urlc:
		return u
	case <-time.After(10 * time.Second):
		t.Fatal("the todo example did not print its URL")
		return ""
	}
}

type step struct {
	Step   string          `json:"step"`
	OK     bool            `json:"ok"`
	Detail json.RawMessage `json:"detail"`
}

// runClientScript runs testdata/node/client.mjs and checks every step it
// reports, and that it reported all of them.
func runClientScript(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("node", append([]string{"client.mjs"}, args...)...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := runWithTimeout(cmd, 60*time.Second)
	var steps []step
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var s step
		if json.Unmarshal([]byte(line), &s) == nil && s.Step != "" {
			steps = append(steps, s)
		}
	}
	want := []string{
		"tools/list on an empty list", "serverInfo names the application",
		"create_todo declares an outputSchema with the created todo",
		"call create_todo completes on its Message", "the result carries the created todo",
		"rename_todo with the id from the result completes",
		"no list_changed when the offered set stays the same", "call select_todo",
		"list_changed after a selection", "delete_selected_todo offered after a selection",
		"delete_selected_todo is annotated destructive",
		"invalid input is a tool error", "invalid input says where and sends the schema",
		"unknown tool is a protocol error", "resources/list",
		"resources/read app://stats", "unknown resource is an error",
		"toggle_todo completes with the todo as it now is", "resources/updated after a change", "list_changed when a todo is done",
		"clear_completed refused for a viewer", "clear_completed allowed for the owner",
	}
	var got []string
	for _, s := range steps {
		got = append(got, s.Step)
		if !s.OK {
			t.Errorf("step %q failed: %s", s.Step, s.Detail)
		} else {
			t.Logf("ok  %s", s.Step)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("steps reported %q, want %q (exit: %v)\n%s", got, want, err, out)
	}
	if err != nil && !t.Failed() {
		t.Errorf("client exited with %v", err)
	}
}

func runWithTimeout(cmd *exec.Cmd, d time.Duration) ([]byte, error) {
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return []byte(out.String()), err
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		return []byte(out.String()), fmt.Errorf("timed out after %s", d)
	}
}

func TestPeerTypeScriptClientOverStdio(t *testing.T) {
	dir := requirePeers(t)
	runClientScript(t, dir, "stdio", todoServer(t), t.TempDir())
}

func TestPeerTypeScriptClientOverStreamableHTTP(t *testing.T) {
	dir := requirePeers(t)
	runClientScript(t, dir, "http", startHTTPServer(t), "owner-tok", "viewer-tok")
}

// inspector runs the MCP Inspector 2.x in its CLI mode against the stdio
// server.
func inspector(t *testing.T, dir string, args ...string) map[string]any {
	t.Helper()
	res, _ := inspectorRun(t, dir, args...)
	return res
}

// inspectorRun is inspector, also returning what the Inspector printed
// on standard error (where --strict reports portability problems).
func inspectorRun(t *testing.T, dir string, args ...string) (map[string]any, string) {
	t.Helper()
	data := filepath.Join(t.TempDir(), "todos.json")
	full := append([]string{filepath.Join(dir, "node_modules", ".bin", "mcp-inspector"), "--cli"}, args...)
	full = append(full, "--", todoServer(t), "-mcp", "stdio", "-data", data)
	cmd := exec.Command(full[0], full[1:]...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := runWithTimeout(cmd, 60*time.Second)
	if err != nil {
		t.Fatalf("inspector %v: %v\n%s\n%s", args, err, out, stderr.String())
	}
	start := strings.Index(string(out), "{")
	var res map[string]any
	if start < 0 || json.Unmarshal(out[start:], &res) != nil {
		t.Fatalf("inspector %v printed no JSON result:\n%s", args, out)
	}
	return res, stderr.String()
}

func TestPeerInspectorCLIOverStdio(t *testing.T) {
	dir := requirePeers(t)
	// --strict fails (exit 6) on any error-severity portability problem in
	// a tool's schemas and warns of the others, such as a type list in
	// toggle_todo's output schema: none is reported.
	list, problems := inspectorRun(t, dir, "--strict", "--method", "tools/list")
	if strings.Contains(problems, "Warning") || strings.Contains(problems, "Error") {
		t.Fatalf("inspector --strict reports portability problems:\n%s", problems)
	}
	tools, _ := list["tools"].([]any)
	var names []string
	for _, tool := range tools {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	if !slices.Equal(names, []string{"create_todo", "rename_todo", "select_todo", "toggle_todo"}) {
		t.Fatalf("tools/list = %v", list)
	}
	res := inspector(t, dir, "--method", "tools/call", "--tool-name", "create_todo", "--tool-arg", "title=milk")
	content, _ := res["content"].([]any)
	if len(content) == 0 || content[0].(map[string]any)["text"] != "Completed: CreatedTodo" || res["isError"] == true {
		t.Fatalf("tools/call = %v", res)
	}
	sc, _ := res["structuredContent"].(map[string]any)
	if completion, _ := sc["completion"].(map[string]any); sc["capability"] != "create_todo" || completion["status"] != "completed" {
		t.Fatalf("structuredContent = %v", sc)
	}
	read := inspector(t, dir, "--method", "resources/read", "--uri", "app://stats")
	contents, _ := read["contents"].([]any)
	if len(contents) != 1 || contents[0].(map[string]any)["text"] != `{"total":0,"done":0}` {
		t.Fatalf("resources/read = %v", read)
	}
}

// conformanceApplicable are the conformance suite's server scenarios that
// apply to a foldagent endpoint serving the todo contract; each must pass.
var conformanceApplicable = []string{
	"server-initialize", "ping", "tools-list", "resources-list",
	"server-sse-multiple-streams", "dns-rebinding-protection",
	// These pass without testing anything of the adapter's: the SDK
	// answers logging/setLevel, and prompts/list is empty.
	"logging-set-level", "prompts-list",
}

// conformanceNotApplicable are the other scenarios of the suite, with the
// reason each does not apply. Most call a fixture of the suite's own
// "everything" server (a tool named test_*, a resource at test://...) that
// a foldagent contract does not have; the behaviour they stand for is
// covered by this package's own tests where the adapter has it.
var conformanceNotApplicable = map[string]string{
	"completion-complete":           "no completion/complete: a contract has no prompts or resource templates to complete",
	"tools-call-simple-text":        "fixture tool test_simple_text (text results: TestCallResultCarriesSummaryAndStructuredContent)",
	"tools-call-image":              "fixture tool test_image_content; capabilities return no images",
	"tools-call-audio":              "fixture tool test_audio_content; capabilities return no audio",
	"tools-call-embedded-resource":  "fixture tool test_embedded_resource; results embed no resources",
	"tools-call-mixed-content":      "fixture tool test_multiple_content_types",
	"tools-call-with-logging":       "fixture tool test_tool_with_logging; the adapter sends no log messages",
	"tools-call-error":              "fixture tool test_error_handling (isError results: TestRefusalsAreToolErrorsTheModelCanRead)",
	"tools-call-with-progress":      "fixture tool test_tool_with_progress (progress: TestProgressWhileWaiting)",
	"tools-call-sampling":           "fixture tool test_sampling; the adapter never samples",
	"tools-call-elicitation":        "fixture tool test_elicitation; the adapter never elicits",
	"elicitation-sep1034-defaults":  "elicitation; the adapter never elicits",
	"elicitation-sep1330-enums":     "elicitation; the adapter never elicits",
	"resources-read-text":           "fixture resource test://static-text (reads: TestResourcesListReadAndNotFound, TS client)",
	"resources-read-binary":         "fixture resource test://static-binary; projections are JSON text",
	"resources-templates-read":      "resource templates; a contract declares fixed resources",
	"resources-subscribe":           "fixture resource test://watched-resource (subscribe: TestResourceSubscriptionNotifiesOnChangeOnly, TS client)",
	"resources-unsubscribe":         "fixture resource test://watched-resource (unsubscribe: TestResourceSubscriptionNotifiesOnChangeOnly)",
	"prompts-get-simple":            "prompts; a contract declares none",
	"prompts-get-with-args":         "prompts; a contract declares none",
	"prompts-get-embedded-resource": "prompts; a contract declares none",
	"prompts-get-with-image":        "prompts; a contract declares none",
}

// TestPeerConformanceServerScenarios runs the official conformance suite's
// server scenarios against the HTTP endpoint. The suite connects without
// credentials, so a loopback proxy adds the owner's bearer token; the
// endpoint's own checks (including DNS-rebinding protection, which sees the
// Host and Origin headers the suite sends) are unchanged.
func TestPeerConformanceServerScenarios(t *testing.T) {
	dir := requirePeers(t)
	target, err := url.Parse(startHTTPServer(t))
	if err != nil {
		t.Fatal(err)
	}
	backend := &url.URL{Scheme: target.Scheme, Host: target.Host}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(backend)
		r.Out.Host = r.In.Host // the suite's Host header reaches the server unchanged
		r.Out.Header.Set("Authorization", "Bearer owner-tok")
	}}
	proxy.FlushInterval = -1
	proxy.ErrorLog = log.New(io.Discard, "", 0)
	endpoint := httptestServer(t, proxy) + target.Path

	cmd := exec.Command(filepath.Join(dir, "node_modules", ".bin", "conformance"), "server", "--url", endpoint)
	cmd.Dir = t.TempDir()
	out, runErr := runWithTimeout(cmd, 4*time.Minute)
	results := parseConformanceSummary(string(out))
	if len(results) == 0 {
		t.Fatalf("the conformance suite printed no summary (%v):\n%s", runErr, out)
	}
	var names []string
	for name := range results {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		r := results[name]
		switch {
		case slices.Contains(conformanceApplicable, name):
			t.Logf("%-30s applies        %s", name, r)
			if !r.passed() {
				t.Errorf("conformance scenario %s failed: %s", name, r)
				logSuiteLines(t, string(out), name)
			}
		case conformanceNotApplicable[name] != "":
			t.Logf("%-30s not applicable %s — %s", name, r, conformanceNotApplicable[name])
		default:
			t.Errorf("conformance scenario %s is not classified (%s): decide whether it applies", name, r)
		}
	}
	for _, name := range conformanceApplicable {
		if _, ok := results[name]; !ok {
			t.Errorf("applicable conformance scenario %s did not run", name)
		}
	}
}

type conformanceResult struct{ ok, failed int }

func (r conformanceResult) passed() bool { return r.ok > 0 && r.failed == 0 }

func (r conformanceResult) String() string {
	verdict := "FAIL"
	if r.passed() {
		verdict = "PASS"
	}
	return fmt.Sprintf("%s (%d passed, %d failed)", verdict, r.ok, r.failed)
}

var summaryLine = regexp.MustCompile(`^\s*[✓✗]\s+(\S+):\s+(\d+) passed, (\d+) failed`)

// parseConformanceSummary reads the suite's "=== SUMMARY ===" lines.
func parseConformanceSummary(out string) map[string]conformanceResult {
	res := map[string]conformanceResult{}
	for _, line := range strings.Split(out, "\n") {
		m := summaryLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var r conformanceResult
		fmt.Sscan(m[2], &r.ok)
		fmt.Sscan(m[3], &r.failed)
		res[m[1]] = r
	}
	return res
}

func httptestServer(t *testing.T, h http.Handler) string {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}

// logSuiteLines logs what the suite printed about scenario name (its
// failure message), so that a failure seen only in CI can be read there.
func logSuiteLines(t *testing.T, out, name string) {
	t.Helper()
	n := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, name) || strings.Contains(strings.ToLower(line), "fail") {
			t.Logf("suite: %s", line)
			if n++; n == 40 {
				return
			}
		}
	}
}
