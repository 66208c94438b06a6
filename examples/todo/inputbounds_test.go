package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/internal/testbin"
	"github.com/foldagent/foldagent/internal/tmuxtest"
)

// headlessHTTP runs the built todo binary serving MCP over HTTP on
// loopback with the tokens file content, and returns the URL it printed
// and its process.
func headlessHTTP(t *testing.T, tokens, data string, extra ...string) (string, *os.Process) {
	t.Helper()
	bin := buildTodo(t)
	dir := t.TempDir()
	tokFile := filepath.Join(dir, "tokens.json")
	if err := os.WriteFile(tokFile, []byte(tokens), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append([]string{"-mcp", "http", "-tokens", tokFile, "-data", data}, extra...)...)
	cmd.Stderr = os.Stderr
	stdout := testbin.Start(t, cmd).Stdout
	t.Cleanup(cancel)
	lines := bufio.NewScanner(stdout)
	url := ""
	for url == "" && lines.Scan() {
		url, _ = strings.CutPrefix(lines.Text(), "MCP ")
	}
	if url == "" {
		t.Fatal("the app printed no URL")
	}
	go func() {
		for lines.Scan() {
		}
	}()
	return url, cmd.Process
}

// rssKiB reads the resident set size of process pid, in KiB.
func rssKiB(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc here to read the app's memory from: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// A viewer's 25 creates of 900 KB titles, each under the 1 MiB body limit,
// are refused by the contract's bound on a title (200 characters), on the
// built binary over loopback: nothing is added, the list file and the
// app's memory stay small (before the bound: 23 → 284 MiB, a 22.5 MB list
// file), and another identity's calls keep working meanwhile. The refusal
// is the correctable one: the title's path, and the schema saying the
// bound.
func TestHugeTitlesAreRefusedByTheContract(t *testing.T) {
	data := filepath.Join(t.TempDir(), "todos.json")
	url, proc := headlessHTTP(t, `{"tok-viewer": {"name": "vi", "role": "viewer"}, "tok-owner": {"name": "ada", "role": "owner"}}`, data)
	viewer, owner := connectOwner(t, url, "tok-viewer"), connectOwner(t, url, "tok-owner")
	if r := owner.call("create_todo", map[string]any{"title": strings.Repeat("é", todo.MaxTitle)}); !r.completed() {
		t.Fatalf("a title of %d characters: %s", todo.MaxTitle, r.text)
	}
	fileBefore, rssBefore := fileSize(t, data), rssKiB(t, proc.Pid)
	huge := strings.Repeat("x", 900_000)
	for i := range 25 {
		r := viewer.call("create_todo", map[string]any{"title": huge})
		problems, _ := r.data["problems"].([]any)
		if !r.isError || r.tag() != "AgentInvalidInputError" || len(problems) != 1 ||
			fmt.Sprint(problems[0]) != "map[code:invalid path:/title]" {
			t.Fatalf("create %d of a 900 KB title: %v %s %v", i, r.isError, r.text, r.data["problems"])
		}
		schema, _ := r.data["inputSchema"].(map[string]any)
		title, _ := schema["properties"].(map[string]any)["title"].(map[string]any)
		if title["maxLength"] != float64(todo.MaxTitle) {
			t.Fatalf("the refusal's schema does not say the bound: %v", schema)
		}
		if strings.Contains(r.text, "xxxx") || len(r.text)+len(fmt.Sprint(r.data)) > 4096 {
			t.Fatalf("the refusal restates the input: %.200s", r.text)
		}
		// Another identity meanwhile: served, and its todo kept.
		if i%5 == 0 {
			if r := owner.call("create_todo", map[string]any{"title": fmt.Sprintf("Owner %d", i)}); !r.completed() {
				t.Fatalf("the owner's create during the flood: %s", r.text)
			}
		}
	}
	if r := owner.call("create_todo", map[string]any{"title": strings.Repeat("é", todo.MaxTitle+1)}); r.tag() != "AgentInvalidInputError" {
		t.Fatalf("a title of %d characters: %s", todo.MaxTitle+1, r.text)
	}
	fileAfter, rssAfter := fileSize(t, data), rssKiB(t, proc.Pid)
	t.Logf("list file %d → %d bytes; RSS %d → %d KiB", fileBefore, fileAfter, rssBefore, rssAfter)
	if fileAfter > fileBefore+1024 {
		t.Errorf("the list file grew from %d to %d bytes", fileBefore, fileAfter)
	}
	// Bounded, not exact: the heap the 25 refused bodies passed through is
	// garbage the runtime has not necessarily returned (about 50 MiB here;
	// before the bound it grew by 260 MiB and with every create).
	if rssAfter-rssBefore > 128<<10 {
		t.Errorf("the app's memory grew from %d to %d KiB", rssBefore, rssAfter)
	}
}

// The list keeps at most MaxTodos todos: at the bound create_todo is not
// offered, and says why in the contract's words, for every caller; the
// list and its file stay as they are, and once a todo is gone a create is
// offered again.
func TestTheListIsBounded(t *testing.T) {
	dir := t.TempDir()
	var list todo.List
	for i := range todo.MaxTodos - 1 {
		list, _ = list.Add(fmt.Sprint("todo ", i))
	}
	_, b := runningOn(t, NewStore(filepath.Join(dir, "todos.json")), list)
	if _, err := call(t, b, owner, "create_todo", `{"title":"The last place"}`); err != nil {
		t.Fatalf("the %dth todo: %v", todo.MaxTodos, err)
	}
	for _, who := range []todo.Principal{owner, viewer} {
		_, err := call(t, b, who, "create_todo", `{"title":"One too many"}`)
		var unavailable *agent.UnavailableError
		if !errors.As(err, &unavailable) || unavailable.Reason != "The list holds as many todos as it keeps: delete a todo or clear the completed ones first." {
			t.Fatalf("%s's create past the bound: %v", who.Name, err)
		}
	}
	if n := len(b.Model().List.Todos); n != todo.MaxTodos {
		t.Fatalf("the list holds %d todos", n)
	}
	// The app's own Update holds the bound too, for a create from anyone.
	if full, _ := todo.Update(b.Model().List, todo.CreateTodo{Title: "From the terminal"}); len(full.Todos) != todo.MaxTodos {
		t.Fatalf("Update added past the bound: %d", len(full.Todos))
	}
	first := b.Model().List.Todos[0].ID
	if _, err := call(t, b, owner, "select_todo", `{"id":"`+first+`"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, b, owner, "delete_selected_todo", `{}`); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, b, viewer, "create_todo", `{"title":"Room again"}`); err != nil {
		t.Fatalf("a create once a todo is gone: %v", err)
	}
}

// health reads GET /health with token.
func health(t *testing.T, base, token string) Health {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+"/health", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h Health
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&h) != nil {
		t.Fatalf("GET /health: %s", resp.Status)
	}
	return h
}

// The audit file on a full disk (/dev/full: every write fails with
// ENOSPC), on the built binary over loopback: the calls are answered, and
// every entry lost is logged, counted and read on /health, never silent.
// With -audit-refuse the call during which the audit first fails runs,
// and the next ones are refused, typed and retry-safe, changing nothing.
func TestAuditOnAFullDiskIsReported(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	const tokens = `{"tok-owner": {"name": "ada", "role": "owner"}}`
	data := filepath.Join(t.TempDir(), "todos.json")
	url, _ := headlessHTTP(t, tokens, data, "-audit", "/dev/full")
	base := strings.TrimSuffix(url, "/mcp")
	if h := health(t, base, "tok-owner"); h.Audit != (AuditHealth{}) {
		t.Fatalf("health before any call: %+v", h)
	}
	owner := connectOwner(t, url, "tok-owner")
	for i := range 3 {
		if r := owner.call("create_todo", map[string]any{"title": fmt.Sprint("Milk ", i)}); !r.completed() {
			t.Fatalf("create %d with the audit failing: %s", i, r.text)
		}
	}
	h := health(t, base, "tok-owner")
	if h.Audit.Lost < 3 || h.Audit.Failures < 3 || !h.Audit.Failing || h.Audit.Refusing || !strings.Contains(h.Audit.LastError, "no space left on device") {
		t.Fatalf("health: %+v", h)
	}
	if req, _ := http.NewRequest(http.MethodGet, base+"/health", nil); true {
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("/health without a token: %v %v", resp, err)
		}
	}
	log, err := os.ReadFile(data + ".log")
	if err != nil || strings.Count(string(log), "audit entry not kept") < 3 {
		t.Fatalf("the log holds: %s (%v)", log, err)
	}

	// Strict: refused rather than run unaudited.
	data = filepath.Join(t.TempDir(), "todos.json")
	url, _ = headlessHTTP(t, tokens, data, "-audit", "/dev/full", "-audit-refuse")
	base = strings.TrimSuffix(url, "/mcp")
	owner = connectOwner(t, url, "tok-owner")
	if r := owner.call("create_todo", map[string]any{"title": "Runs: its audit is the first to fail"}); !r.completed() {
		t.Fatalf("the first create: %s", r.text)
	}
	for i := range 3 {
		r := owner.call("create_todo", map[string]any{"title": fmt.Sprint("Refused ", i)})
		if !r.isError || r.tag() != "AgentAuditUnavailableError" || r.data["retrySafe"] != true || strings.Contains(r.text, "space") {
			t.Fatalf("create %d while the audit cannot be kept: %s %v", i, r.text, r.data)
		}
	}
	if h := health(t, base, "tok-owner"); !h.Audit.Refusing || h.Audit.Lost < 4 {
		t.Fatalf("health while refusing: %+v", h)
	}
	var list struct{ Todos []todo.Todo }
	b, err := os.ReadFile(data)
	if err != nil || json.Unmarshal(b, &list) != nil || len(list.Todos) != 1 {
		t.Fatalf("the list file holds %s (%v)", b, err)
	}
}

// The person at the terminal sees the lost audit entries too.
func TestAuditOnAFullDiskIsOnScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal")
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	bin := buildTodo(t)
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens.json")
	if err := os.WriteFile(tokens, []byte(`{"tok-ada": {"name": "ada", "role": "owner"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	term := tmuxtest.Start(t, "todo", bin+" -data "+filepath.Join(dir, "todos.json")+" -tokens "+tokens+" -audit /dev/full", 120, 40)
	screen := term.Wait("the endpoints", tmuxtest.Has("agents: MCP at http://"))
	url := regexp.MustCompile(`MCP at (http://\S+/mcp)`).FindStringSubmatch(screen)[1]
	if strings.Contains(screen, "AUDIT") {
		t.Fatalf("audit trouble before any call: %s", screen)
	}
	ada := connectOwner(t, url, "tok-ada")
	if r := ada.call("create_todo", map[string]any{"title": "Milk"}); !r.completed() {
		t.Fatalf("create: %s", r.text)
	}
	term.Wait("the lost entry on screen", tmuxtest.Has("AUDIT: 1 entries not kept; last:", "no space left on device", "[ ] Milk"))
}
