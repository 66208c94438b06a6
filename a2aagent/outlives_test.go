package a2aagent_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/foldagent/foldagent/internal/loopwait"
)

// A task already outlives the request that started it: a client that
// sent a blocking message and gave up while the person had not answered
// finds its task still working, waiting for the person; the person's
// later answer runs it once and the task completes (issue 39's check of
// A2A: no held answer is needed here).
func TestTaskOutlivesAnAbandonedBlockingRequest(t *testing.T) {
	f := startRegister(t, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	sent := make(chan error, 1)
	go func() {
		_, err := f.c.SendMessage(ctx, refundMessage("order-late"))
		sent <- err
	}()
	req := f.asked()
	cancel() // the client gives up before the person answers
	if err := <-sent; err == nil {
		t.Fatal("the abandoned request answered")
	}
	// The server records the task from the executor's events, which can
	// trail the request being held: read until it is there (as waitTask
	// does), bounded.
	var list *a2a.ListTasksResponse
	for deadline := time.Now().Add(5 * time.Second); ; {
		var err error
		if list, err = f.c.ListTasks(context.Background(), &a2a.ListTasksRequest{}); err != nil {
			t.Fatalf("ListTasks: %v", err)
		}
		if len(list.Tasks) > 0 || time.Now().After(deadline) {
			break
		}
		// Polled over the protocol, as an A2A client learns a task's
		// state; no event of the server's store reaches the test.
		time.Sleep(2 * time.Millisecond)
	}
	if len(list.Tasks) != 1 {
		t.Fatalf("tasks = %d, want the one started", len(list.Tasks))
	}
	id := list.Tasks[0].ID
	if got := f.waiting(id); got.Status.State != a2a.TaskStateWorking {
		t.Fatalf("the abandoned task is %s", got.Status.State)
	}
	f.answer(req.Approve("pat"))
	waitTask(t, f.c, id, a2a.TaskStateCompleted)
	if m := loopwait.Until(t, f.prog, "the refund", func(m register) bool { return len(m.Refunded) > 0 }); !slices.Equal(m.Refunded, []string{"order-late"}) {
		t.Fatalf("refunded = %v", m.Refunded)
	}
}
