package a2aagent_test

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// A client that goes away in the middle of a stream takes nothing with it:
// the task goes on, ends when its completion arrives, and is applied once.
func TestStreamDisconnectLeavesTheTaskRunning(t *testing.T) {
	f := start(t, nil)
	c := f.client(t, "owner-tok")
	ctx, cancel := context.WithCancel(context.Background())
	var id a2a.TaskID
	for ev, err := range c.SendStreamingMessage(ctx, skillMessage("start_job", nil)) {
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		if task, ok := ev.(*a2a.Task); ok {
			id = task.ID
			cancel() // the client hangs up after the first event
			break
		}
	}
	cancel()
	if id == "" {
		t.Fatal("no task streamed")
	}
	f.waitJobs(t, 1)
	waitTask(t, c, id, a2a.TaskStateWorking)
	f.report(t, JobDone{ID: string(id)})
	done := waitTask(t, c, id, a2a.TaskStateCompleted)
	if statusText(done) != "Completed: JobDone" || f.model().Jobs != 1 {
		t.Errorf("%q, %d jobs", statusText(done), f.model().Jobs)
	}
}

// A cancel and a completion racing each other settle the task once: if the
// cancel was accepted the task stays CANCELED whatever arrives later, and
// otherwise it COMPLETED; either way it never changes again.
func TestCancelRacingCompletionSettlesOnce(t *testing.T) {
	f := start(t, nil)
	c := f.client(t, "owner-tok")
	outcomes := map[a2a.TaskState]int{}
	for i := range 20 {
		task := sendTask(t, c, nonBlocking(skillMessage("start_job", nil)))
		f.waitJobs(t, i+1)
		var wg sync.WaitGroup
		var cancelled *a2a.Task
		var cancelErr error
		cancelTask := func() { cancelled, cancelErr = c.CancelTask(context.Background(), &a2a.CancelTaskRequest{ID: task.ID}) }
		if i%2 == 0 {
			// Both at once: either may win.
			wg.Go(cancelTask)
			wg.Go(func() { f.report(t, JobDone{ID: string(task.ID)}) })
			wg.Wait()
		} else {
			// The completion arrives just after the cancel was answered.
			cancelTask()
			f.report(t, JobDone{ID: string(task.ID)})
		}
		var final *a2a.Task
		if cancelErr == nil {
			if cancelled.Status.State != a2a.TaskStateCanceled {
				t.Fatalf("CancelTask answered %s", cancelled.Status.State)
			}
			final = waitTask(t, c, task.ID, a2a.TaskStateCanceled)
		} else {
			final = waitTask(t, c, task.ID, a2a.TaskStateCompleted)
		}
		// A later duplicate completion changes nothing; AddItem, applied
		// after it, marks when it has been seen.
		f.report(t, JobDone{ID: string(task.ID)})
		f.report(t, AddItem{Title: "barrier"})
		f.waitApplied(t, int64(i+1))
		again, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: task.ID})
		if err != nil || again.Status.State != final.Status.State {
			t.Fatalf("task %d ended %s, then read %v (%v)", i, final.Status.State, again, err)
		}
		outcomes[final.Status.State]++
	}
	t.Logf("outcomes %v", outcomes)
	if outcomes[a2a.TaskStateCanceled] < 10 {
		t.Errorf("outcomes %v: every cancel answered before the completion must win", outcomes)
	}
}

func (f *fixture) waitApplied(t testing.TB, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for f.applied.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d AddItem applied, want %d", f.applied.Load(), n)
		}
		// applied counts what the program's observer saw, which no Model
		// publication is bound to follow: read again after a pause,
		// within a deadline that only fails.
		time.Sleep(time.Millisecond)
	}
}

// Nothing a2aagent links may pull in gRPC or protobuf: a2a-go's own 0.3
// layer does, which is why a2aagent/a2av03 writes the 0.3 binding itself.
func TestNoGRPCDependency(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "google.golang.org/grpc") || strings.HasPrefix(dep, "google.golang.org/protobuf") {
			t.Errorf("a2aagent depends on %s", dep)
		}
	}
}
