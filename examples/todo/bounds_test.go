package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/testbin"
)

func fdCount(pid int) int {
	e, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return len(e)
}

// The finding, from outside on the built binary: A2A built and kept one
// runtime per identity with no bound, 14,000 identities keeping 14,000.
// Now it keeps at most a2aagent.DefaultMaxRuntimes, releasing idle ones:
// the memory taken by the first 2,048 identities (past the bound) is not
// taken again by the next 12,000, and an owner's calls keep working
// throughout.
func TestFourteenThousandA2AIdentitiesKeepBoundedRuntimes(t *testing.T) {
	if testing.Short() {
		t.Skip("drives 14,000 identities through the built binary")
	}
	const identities = 14000
	bin := buildTodo(t)
	dir := t.TempDir()
	toks := map[string]map[string]string{"owner-tok": {"name": "olivia", "role": "owner"}}
	for i := range identities {
		toks[fmt.Sprint("tok-", i)] = map[string]string{"name": fmt.Sprint("user-", i), "role": "viewer"}
	}
	b, _ := json.Marshal(toks)
	tokens := filepath.Join(dir, "tokens.json")
	if err := os.WriteFile(tokens, b, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-a2a", "http", "-tokens", tokens, "-data", filepath.Join(dir, "todos.json"))
	cmd.Stderr = os.Stderr
	out := testbin.Start(t, cmd).Stdout
	url := ""
	sc := bufio.NewScanner(out)
	for url == "" && sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "A2A "); ok {
			url = u
		}
	}
	if url == "" {
		t.Fatal("the app printed no A2A endpoint")
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	tr := &http.Transport{MaxIdleConnsPerHost: 8}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	send := func(tok string, part string) string {
		body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m1","parts":[{"data":` + part + `}]}}}`
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			t.Error(err)
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	read := func(i int) {
		if b := send(fmt.Sprint("tok-", i), `{"read":"context"}`); !strings.Contains(b, `"result"`) || strings.Contains(b, `"error"`) {
			t.Errorf("identity %d's read: %.300s", i, b)
		}
	}
	ownerCall := func(n int) {
		b := send("owner-tok", fmt.Sprintf(`{"skill":"create_todo","input":{"title":"during %d"}}`, n))
		if !strings.Contains(b, "TASK_STATE_COMPLETED") {
			t.Fatalf("the owner's call during the flood: %.300s", b)
		}
	}
	run := func(from, to int) {
		var wg sync.WaitGroup
		next := make(chan int)
		for range 8 {
			wg.Go(func() {
				for i := range next {
					read(i)
				}
			})
		}
		for i := from; i < to; i++ {
			next <- i
			if i%2000 == 0 {
				ownerCall(i)
			}
		}
		close(next)
		wg.Wait()
	}
	pid := cmd.Process.Pid
	run(0, 16) // warm up
	rss0, fd0 := rssKiB(t, pid), fdCount(pid)
	const past = 2048
	run(16, past)
	rss1 := rssKiB(t, pid)
	run(past, identities)
	rss2, fd2 := rssKiB(t, pid), fdCount(pid)
	t.Logf("A2A, %d identities one read each: RSS %d KiB at start, %d after %d identities, %d after %d; open fds %d -> %d",
		identities, rss0, rss1, past, rss2, identities, fd0, fd2)
	if t.Failed() {
		return
	}
	// Unbounded, the next 12,000 identities would take about six times
	// what the first 2,048 took; bounded, they reuse it.
	if grew, before := rss2-rss1, rss1-rss0; grew > before {
		t.Fatalf("RSS grew %d KiB over the last %d identities, against %d KiB over the first %d: runtimes are not bounded", grew, identities-past, before, past)
	}
	if fd2-fd0 > 16 {
		t.Fatalf("open descriptors grew by %d", fd2-fd0)
	}
}
