package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/tmuxtest"
)

// a2aSend posts one A2A 1.0 JSON-RPC SendMessage carrying data as its
// data part, and returns the answer's body.
func a2aSend(t *testing.T, c *http.Client, url, token, data string, returnImmediately bool) string {
	t.Helper()
	conf := ""
	if returnImmediately {
		conf = `"configuration":{"returnImmediately":true},`
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{` + conf + `"message":{"role":"ROLE_USER","messageId":"m-` + strconv.Itoa(int(msgSeq.Add(1))) + `","parts":[{"data":` + data + `}]}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

var msgSeq atomic.Int64

// The findings, from outside on the built binary with a person at the
// terminal (so that clear_completed waits for their approval):
//
//   - A2A starvation: one principal holding as many running tasks as it
//     may is refused its next one, naming the bound, while another
//     principal's tasks run and are held as before;
//   - 1,500 held approvals on one identity: past its bound every call is
//     refused at once (AgentRetryLaterError), the process's memory and
//     descriptors stay flat, and another identity's call is still held.
func TestHeldTasksAndApprovalsAreBoundedPerIdentity(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal and floods the binary")
	}
	bin := buildTodo(t)
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens.json")
	if err := os.WriteFile(tokens, []byte(`{"tok-alice": {"name": "alice", "role": "owner"}, "tok-bob": {"name": "bob", "role": "owner"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "todos.json")
	term := tmuxtest.Start(t, "todo", bin+" -data "+data+" -tokens "+tokens+" -approval-timeout 30s", 110, 44)
	screen := term.Wait("the endpoints", tmuxtest.Has("agents: MCP at http://", "/a2a (0.3 at http://"))
	mcpURL := regexp.MustCompile(`MCP at (http://\S+/mcp)`).FindStringSubmatch(screen)[1]
	a2aURL := strings.TrimSuffix(mcpURL, "/mcp") + "/a2a"
	out, err := exec.Command("pgrep", "-f", "-n", "todo -data "+data).Output()
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil || pid == 0 {
		t.Fatalf("the app's process: %v %q", err, out)
	}
	alice := connectOwner(t, mcpURL, "tok-alice")
	alice.doneTodo("Buy milk")
	c := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 32, MaxIdleConnsPerHost: 32}}
	if b := a2aSend(t, c, a2aURL, "tok-alice", `{"read":"context"}`, false); !strings.Contains(b, `"result"`) {
		t.Fatalf("alice's read: %s", b)
	}

	// A2A: alice's clears are held until she has her bound running.
	const maxTasks = 16 // a2aagent.DefaultMaxTasksPerPrincipal
	for i := range maxTasks {
		if b := a2aSend(t, c, a2aURL, "tok-alice", `{"skill":"clear_completed","input":{}}`, true); !strings.Contains(b, "TASK_STATE_WORKING") {
			t.Fatalf("alice's clear %d: %.300s", i, b)
		}
	}
	term.Wait("alice's cards", tmuxtest.Has("APPROVE?", fmt.Sprintf("card 1 of %d", maxTasks)))
	b := a2aSend(t, c, a2aURL, "tok-alice", `{"skill":"clear_completed","input":{}}`, true)
	if !strings.Contains(b, `"error"`) || !strings.Contains(b, `"bound":"MaxTasksPerPrincipal"`) || !strings.Contains(b, `"retryAfterSeconds":1`) {
		t.Fatalf("alice's task past her bound: %.400s", b)
	}
	// bob is not starved: his tasks complete, and his clear is held too.
	if b := a2aSend(t, c, a2aURL, "tok-bob", `{"skill":"create_todo","input":{"title":"Bob's"}}`, false); !strings.Contains(b, "TASK_STATE_COMPLETED") {
		t.Fatalf("bob's create while alice is at her bound: %.300s", b)
	}
	if b := a2aSend(t, c, a2aURL, "tok-bob", `{"read":"context"}`, false); !strings.Contains(b, `"result"`) {
		t.Fatalf("bob's read: %s", b)
	}
	if b := a2aSend(t, c, a2aURL, "tok-bob", `{"skill":"clear_completed","input":{}}`, true); !strings.Contains(b, "TASK_STATE_WORKING") {
		t.Fatalf("bob's clear while alice is at her bound: %.300s", b)
	}
	term.Wait("bob's card behind alice's", tmuxtest.Has(fmt.Sprintf("card 1 of %d", maxTasks+1)))

	// MCP: 1,500 more held calls from alice, who holds her bound of
	// calls waiting for approval: each is refused at once.
	rss0, fd0 := rssKiB(t, pid), fdCount(pid)
	const flood = 1500
	var refused atomic.Int64
	var wg sync.WaitGroup
	sem := make(chan struct{}, 32)
	// A call that is held instead of refused would wait for the person:
	// the first one not refused at once stops the flood.
	floodCtx, stopFlood := context.WithCancel(context.Background())
	defer stopFlood()
	for i := range flood {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			ctx, cancel := context.WithTimeout(floodCtx, 10*time.Second)
			defer cancel()
			// Each call follows a read, as an agent's does: every call
			// is a line in the app's activity panel (a new Model), so a
			// look of alice's from before the flood leaves the 128
			// versions the runtime keeps, and she would be refused stale
			// before the bound is asked.
			if _, err := alice.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "app://context"}); err != nil && floodCtx.Err() == nil {
				t.Errorf("alice's read before flood call %d: %v", i, err)
			}
			res, err := alice.cs.CallTool(ctx, &mcp.CallToolParams{Name: "clear_completed", Arguments: map[string]any{}})
			if err == nil {
				if tag, _ := res.StructuredContent.(map[string]any)["_tag"].(string); tag == agent.TagRetryLater {
					refused.Add(1)
					return
				}
			}
			if floodCtx.Err() == nil { // not one the stop below ended
				t.Errorf("flood call %d was not refused at once: %v %+v", i, err, res)
			}
			stopFlood()
		})
	}
	wg.Wait()
	rss1, fd1 := rssKiB(t, pid), fdCount(pid)
	t.Logf("todo with a person at the terminal: alice at %d held A2A tasks, her next refused; %d MCP calls needing approval refused %d; RSS %d -> %d KiB, open fds %d -> %d",
		maxTasks, flood, refused.Load(), rss0, rss1, fd0, fd1)
	if refused.Load() != flood {
		t.Fatalf("%d of %d refused", refused.Load(), flood)
	}
	if fd1-fd0 > 40 {
		t.Fatalf("open descriptors grew by %d", fd1-fd0)
	}
	// bob is still held for the person: his card joins the others.
	bob := connectOwner(t, mcpURL, "tok-bob")
	bob.clear()
	term.Wait("bob's MCP card", tmuxtest.Has(fmt.Sprintf("card 1 of %d", maxTasks+2)))
}
