package a2aagent_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/a2aagent"
)

// refusedBy checks that err is the retry-later refusal of the named bound.
func refusedBy(t *testing.T, err error, name string, limit int) {
	t.Helper()
	var ae *a2a.Error
	if err == nil || !errors.As(err, &ae) {
		t.Fatalf("got %v, want the refusal of %s", err, name)
	}
	if ae.Details["bound"] != name || fmt.Sprint(ae.Details["limit"]) != fmt.Sprint(limit) || fmt.Sprint(ae.Details["retryAfterSeconds"]) != "1" {
		t.Fatalf("refusal details %v, want bound %s limit %d and a retry hint", ae.Details, name, limit)
	}
	if strings.Contains(ae.Message, "olivia") || strings.ContainsAny(ae.Message, "0123456789") {
		t.Fatalf("runtime values in the sentence: %q", ae.Message)
	}
}

// One principal holding as many running tasks as it may is refused alone:
// the store's room (shared) is left to every other principal.
func TestOnePrincipalAtItsTaskBoundDoesNotStarveOthers(t *testing.T) {
	const capacity = 20
	f := start(t, func(o *a2aagent.HTTPOptions) { o.TaskCapacity = capacity })
	owner := f.client(t, "owner-tok")
	var running []a2a.TaskID
	for range a2aagent.DefaultMaxTasksPerPrincipal {
		running = append(running, sendTask(t, owner, nonBlocking(skillMessage("start_job", nil))).ID)
	}
	f.waitJobs(t, a2aagent.DefaultMaxTasksPerPrincipal)
	_, err := owner.SendMessage(context.Background(), skillMessage("add_item", map[string]any{"title": "one more"}))
	refusedBy(t, err, "MaxTasksPerPrincipal", a2aagent.DefaultMaxTasksPerPrincipal)
	// Every other principal keeps working, also with tasks that run on.
	other := f.client(t, "other-tok")
	viewer := f.client(t, "viewer-tok")
	for i := range 3 {
		if task := sendTask(t, other, skillMessage("add_item", map[string]any{"title": fmt.Sprint("o", i)})); task.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("another principal's task: %s", task.Status.State)
		}
	}
	job := sendTask(t, viewer, nonBlocking(skillMessage("start_job", nil)))
	f.waitJobs(t, a2aagent.DefaultMaxTasksPerPrincipal+1)
	if n := f.applied.Load(); n != 3 {
		t.Fatalf("%d AddItem applied, want the other principal's 3 (the refused one dispatched nothing)", n)
	}
	// One of the owner's tasks ends: the owner has room again.
	f.report(t, JobDone{ID: string(running[0])})
	waitTask(t, owner, running[0], a2a.TaskStateCompleted)
	if task := sendTask(t, owner, skillMessage("add_item", map[string]any{"title": "now"})); task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("the owner after one task ended: %s", task.Status.State)
	}
	for _, id := range append(running[1:], job.ID) {
		f.report(t, JobDone{ID: string(id)})
	}
}

// identityVerifier accepts any token "id-<n>" as its own principal.
func identityVerifier(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	if !strings.HasPrefix(token, "id-") {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{UserID: token, Extra: map[string]any{"user": user{Name: token, Role: "owner"}}}, nil
}

// Runtimes are kept per principal up to MaxRuntimes: beyond it the least
// recently used runtime holding nothing is released; a runtime with a
// task running is never released, and when all are busy a new principal
// is refused, naming the bound, while the busy ones keep working.
func TestRuntimesAreBoundedAndOnlyIdleOnesEvicted(t *testing.T) {
	const max = 3
	f := start(t, func(o *a2aagent.HTTPOptions) {
		o.Verifier = identityVerifier
		o.MaxRuntimes = max
	})
	clients := map[int]*a2aclient.Client{}
	client := func(i int) *a2aclient.Client {
		if c, ok := clients[i]; ok {
			return c
		}
		clients[i] = f.client(t, fmt.Sprint("id-", i))
		return clients[i]
	}
	for i := range 40 {
		if task := sendTask(t, client(i), skillMessage("add_item", map[string]any{"title": "x"})); task.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("identity %d: %s", i, task.Status.State)
		}
		if n := f.h.Runtimes(); n > max {
			t.Fatalf("%d runtimes kept, bound %d", n, max)
		}
	}
	if n := f.runtimes.Load(); n != 40 {
		t.Fatalf("%d runtimes built for 40 identities", n)
	}
	// Three principals with a task running hold every place.
	var jobs []a2a.TaskID
	for i := 100; i < 100+max; i++ {
		jobs = append(jobs, sendTask(t, client(i), nonBlocking(skillMessage("start_job", nil))).ID)
	}
	f.waitJobs(t, max)
	_, err := client(200).SendMessage(context.Background(), skillMessage("add_item", map[string]any{"title": "y"}))
	refusedBy(t, err, "MaxRuntimes", max)
	// The busy principals keep working on their own runtimes.
	if task := sendTask(t, client(100), skillMessage("add_item", map[string]any{"title": "z"})); task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("a busy principal's next task: %s", task.Status.State)
	}
	built := f.runtimes.Load()
	f.report(t, JobDone{ID: string(jobs[0])})
	waitTask(t, client(100), jobs[0], a2a.TaskStateCompleted)
	if task := sendTask(t, client(200), skillMessage("add_item", map[string]any{"title": "y"})); task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("once a runtime is idle: %s", task.Status.State)
	}
	if f.runtimes.Load() != built+1 || f.h.Runtimes() != max {
		t.Fatalf("runtimes built %d (was %d), kept %d", f.runtimes.Load(), built, f.h.Runtimes())
	}
	for _, id := range jobs[1:] {
		f.report(t, JobDone{ID: string(id)})
	}
}
