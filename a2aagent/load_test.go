package a2aagent_test

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"

	"github.com/foldagent/foldagent/a2aagent"
)

// TestLoad runs concurrent principals, each sending tasks concurrently
// over loopback HTTP (half blocking sends, half streams), and checks that
// every task completed and was applied exactly once: the Model's items,
// the Messages update applied and the audit log all agree with the tasks
// the clients saw, each made as its token's principal under the task's id.
// Then, with every client closed, the goroutine count settles back to
// where it was before the load: no task, stream or runtime left anything
// running. Under -race it runs smaller.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped under -short")
	}
	principals, perPrincipal, concurrency := 3, 300, 8 // 900 tasks
	if raceEnabled {
		principals, perPrincipal, concurrency = 3, 40, 4
	}
	f := start(t, func(o *a2aagent.HTTPOptions) { o.TaskCapacity = principals * perPrincipal })
	toks := []string{"owner-tok", "viewer-tok", "other-tok"}[:principals]
	names := map[string]string{"owner-tok": "olivia", "viewer-tok": "victor", "other-tok": "oscar"}

	transport := &http.Transport{MaxIdleConnsPerHost: 64}
	clients := make([]*a2aclient.Client, principals)
	for i, tok := range toks {
		c, err := a2aclient.NewFromCard(context.Background(), f.card(t),
			a2aclient.WithJSONRPCTransport(&http.Client{Transport: bearer{token: tok, next: transport}}))
		if err != nil {
			t.Fatal(err)
		}
		clients[i] = c
	}
	// Warm up (one runtime per principal, connections), then take the
	// baseline with no connection open.
	for _, c := range clients {
		sendTask(t, c, skillMessage("add_item", map[string]any{"title": "warm-up"}))
	}
	transport.CloseIdleConnections()
	baseline := settledGoroutines(0)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var (
		mu       sync.Mutex
		owners   = map[a2a.TaskID]string{} // task id -> principal
		titles   []string
		failures []string
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		if len(failures) < 20 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
		mu.Unlock()
	}
	began := time.Now()
	var wg sync.WaitGroup
	for p, c := range clients {
		work := make(chan int)
		for range concurrency {
			wg.Go(func() {
				for i := range work {
					title := fmt.Sprintf("%s-%d", toks[p], i)
					req := skillMessage("add_item", map[string]any{"title": title})
					var id a2a.TaskID
					var state a2a.TaskState
					if i%2 == 0 {
						res, err := c.SendMessage(ctx, req)
						if err != nil {
							fail("send %s: %v", title, err)
							continue
						}
						task := res.(*a2a.Task)
						id, state = task.ID, task.Status.State
					} else {
						for ev, err := range c.SendStreamingMessage(ctx, req) {
							if err != nil {
								fail("stream %s: %v", title, err)
								break
							}
							switch ev := ev.(type) {
							case *a2a.Task:
								id, state = ev.ID, ev.Status.State
							case *a2a.TaskStatusUpdateEvent:
								id, state = ev.TaskID, ev.Status.State
							}
						}
					}
					if state != a2a.TaskStateCompleted {
						fail("%s ended %s", title, state)
						continue
					}
					mu.Lock()
					owners[id] = names[toks[p]]
					titles = append(titles, title)
					mu.Unlock()
				}
			})
		}
		wg.Go(func() {
			defer close(work)
			for i := range perPrincipal {
				work <- i
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(began)
	for _, msg := range failures {
		t.Error(msg)
	}
	total := principals * perPrincipal
	if len(owners) != total {
		t.Fatalf("%d distinct completed tasks, want %d", len(owners), total)
	}
	t.Logf("%d tasks from %d principals in %s (%.0f tasks/s)", total, principals, elapsed, float64(total)/elapsed.Seconds())

	// Exactly once: update applied each accepted Message once, and the
	// Model holds each title once.
	warm := int64(principals)
	if n := f.applied.Load(); n != int64(total)+warm {
		t.Errorf("update applied %d AddItem, want %d", n, int64(total)+warm)
	}
	items := slices.DeleteFunc(slices.Clone(f.model().Items), func(s string) bool { return s == "warm-up" })
	slices.Sort(items)
	slices.Sort(titles)
	if !slices.Equal(items, titles) {
		t.Errorf("the Model holds %d items, the clients saw %d completed", len(items), len(titles))
	}
	entries := f.audit.Entries()
	if len(entries) != total+principals {
		t.Errorf("audit has %d entries, want %d", len(entries), total+principals)
	}
	seen := map[string]bool{}
	for _, e := range entries[principals:] {
		who, ok := owners[a2a.TaskID(e.Invocation)]
		if !ok || seen[e.Invocation] || who != e.Principal || e.Transport != "a2a" {
			t.Errorf("audit entry %s: task seen %v, owner %q", mustJSON(e), ok, who)
			break
		}
		seen[e.Invocation] = true
	}

	// Nothing left behind.
	for _, c := range clients {
		c.Destroy()
	}
	transport.CloseIdleConnections()
	if after := settledGoroutines(baseline); after > baseline {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after the load, %d before\n%s", after, baseline, buf[:runtime.Stack(buf, true)])
	}
}

// settledGoroutines waits up to five seconds for the goroutine count to
// fall to target, and returns it (target 0: wait for it to stop changing).
func settledGoroutines(target int) int {
	deadline := time.Now().Add(5 * time.Second)
	last := runtime.NumGoroutine()
	for time.Now().Before(deadline) {
		// No event says a goroutine ended: the count is read again
		// after a pause, within a deadline.
		time.Sleep(20 * time.Millisecond)
		n := runtime.NumGoroutine()
		if (target > 0 && n <= target) || (target == 0 && n == last) {
			return n
		}
		last = n
	}
	return runtime.NumGoroutine()
}
