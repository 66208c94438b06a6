package a2aagent_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/loopwait"
)

// waitJobs waits until update has applied n job Messages: from then on the
// runtime is waiting for their completions (it registers before dispatch).
func (f *fixture) waitJobs(t testing.TB, n int) {
	t.Helper()
	loopwait.Until(t, f.prog, "the jobs started", func(m model) bool { return m.Jobs >= n })
}

func (f *fixture) report(t testing.TB, m msg) {
	t.Helper()
	if err := f.prog.Dispatch(context.Background(), m); err != nil {
		t.Fatal(err)
	}
}

func nonBlocking(req *a2a.SendMessageRequest) *a2a.SendMessageRequest {
	req.Config = &a2a.SendMessageConfig{ReturnImmediately: true}
	return req
}

func states(events []a2a.Event) []a2a.TaskState {
	var out []a2a.TaskState
	for _, ev := range events {
		switch ev := ev.(type) {
		case *a2a.Task:
			out = append(out, ev.Status.State)
		case *a2a.TaskStatusUpdateEvent:
			out = append(out, ev.Status.State)
		}
	}
	return out
}

func TestCompletionStreamedToCompleted(t *testing.T) {
	f := start(t, nil)
	c := f.client(t, "owner-tok")
	var events []a2a.Event
	for ev, err := range c.SendStreamingMessage(context.Background(), skillMessage("start_job", nil)) {
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		events = append(events, ev)
		if task, ok := ev.(*a2a.Task); ok && len(events) == 1 {
			if task.Status.State != a2a.TaskStateWorking {
				t.Fatalf("first event %s, want working", task.Status.State)
			}
			f.waitJobs(t, 1)
			// Addressable while the runtime waits.
			if got := waitTask(t, c, task.ID, a2a.TaskStateWorking); got.ID != task.ID {
				t.Fatal("GetTask found another task")
			}
			f.report(t, JobDone{ID: string(task.ID)})
		}
	}
	got := states(events)
	if len(got) < 2 || got[0] != a2a.TaskStateWorking || got[len(got)-1] != a2a.TaskStateCompleted {
		t.Fatalf("streamed states %v, want working ... completed", got)
	}
	last := events[len(events)-1].(*a2a.TaskStatusUpdateEvent)
	if text := last.Status.Message.Parts[0].Text(); text != "Completed: JobDone" {
		t.Errorf("text %q", text)
	}
}

func TestNonBlockingSendThenFailedCompletion(t *testing.T) {
	f := start(t, nil)
	c := f.client(t, "owner-tok")
	task := sendTask(t, c, nonBlocking(skillMessage("start_job", nil)))
	if task.Status.State != a2a.TaskStateWorking {
		t.Fatalf("non-blocking send answered %s, want working", task.Status.State)
	}
	f.waitJobs(t, 1)
	f.report(t, JobFailed{ID: string(task.ID)})
	done := waitTask(t, c, task.ID, a2a.TaskStateFailed)
	if got := statusText(done); got != "Failed: JobFailed" {
		t.Errorf("text %q", got)
	}
}

func TestCompletionTimeoutIsFailed(t *testing.T) {
	f := start(t, nil)
	task := sendTask(t, f.client(t, "owner-tok"), skillMessage("quick_job", nil))
	if task.Status.State != a2a.TaskStateFailed {
		t.Fatalf("state %s, want failed", task.Status.State)
	}
	if got := statusData(task)["_tag"]; got != agent.TagCompletionTimeout {
		t.Errorf("_tag %v, want %s", got, agent.TagCompletionTimeout)
	}
	if got := statusText(task); !strings.Contains(got, "did not complete") {
		t.Errorf("text %q", got)
	}
}

func TestCancelWhileWaiting(t *testing.T) {
	f := start(t, nil)
	c := f.client(t, "owner-tok")
	task := sendTask(t, c, nonBlocking(skillMessage("start_job", nil)))
	f.waitJobs(t, 1)
	cancelled, err := c.CancelTask(context.Background(), &a2a.CancelTaskRequest{ID: task.ID})
	if err != nil {
		t.Fatalf("CancelTask: %v", err)
	}
	if cancelled.Status.State != a2a.TaskStateCanceled {
		t.Fatalf("state %s, want canceled", cancelled.Status.State)
	}
	text := statusText(cancelled)
	if !strings.Contains(text, "reached update") || !strings.Contains(text, "Nothing was undone") {
		t.Errorf("text %q: it must say the Message was not undone", text)
	}
	if f.model().Jobs != 1 {
		t.Errorf("the job Message was undone or repeated: %d jobs", f.model().Jobs)
	}
	// A late completion changes nothing: the task ended once.
	f.report(t, JobDone{ID: string(task.ID)})
	f.report(t, AddItem{Title: "barrier"}) // applied after JobDone
	loopwait.Until(t, f.prog, "the barrier applied", func(m model) bool { return slices.Contains(m.Items, "barrier") })
	got, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: task.ID})
	if err != nil || got.Status.State != a2a.TaskStateCanceled {
		t.Fatalf("after a late completion: %v %v", got, err)
	}
	// A task that ended cannot be cancelled again into another state.
	if _, err := c.CancelTask(context.Background(), &a2a.CancelTaskRequest{ID: task.ID}); err != nil {
		// a2a-go answers a repeated cancel with the cancelled task.
		t.Logf("repeated cancel: %v", err)
	}
	done := sendTask(t, c, skillMessage("add_item", map[string]any{"title": "x"}))
	if _, err := c.CancelTask(context.Background(), &a2a.CancelTaskRequest{ID: done.ID}); err == nil {
		t.Error("cancelling a completed task succeeded")
	}
}

func TestSubscribeToTaskStreamsToTheEnd(t *testing.T) {
	f := start(t, nil)
	c := f.client(t, "owner-tok")
	task := sendTask(t, c, nonBlocking(skillMessage("start_job", nil)))
	f.waitJobs(t, 1)
	var got []a2a.TaskState
	first := true
	for ev, err := range c.SubscribeToTask(context.Background(), &a2a.SubscribeToTaskRequest{ID: task.ID}) {
		if err != nil {
			t.Fatalf("subscribe: %v", err)
		}
		got = append(got, states([]a2a.Event{ev})...)
		if first {
			first = false
			f.report(t, JobDone{ID: string(task.ID)})
		}
	}
	if len(got) < 2 || got[0] != a2a.TaskStateWorking || got[len(got)-1] != a2a.TaskStateCompleted {
		t.Fatalf("subscribed states %v, want working ... completed", got)
	}
}

func TestAnotherPrincipalsTaskIsNotFound(t *testing.T) {
	f := start(t, nil)
	owner, other := f.client(t, "owner-tok"), f.client(t, "other-tok")
	task := sendTask(t, owner, nonBlocking(skillMessage("start_job", nil)))
	f.waitJobs(t, 1)
	ctx := context.Background()
	unknown := a2a.TaskID("0190c0de-0000-7000-8000-000000000000")
	for _, id := range []a2a.TaskID{task.ID, unknown} {
		_, getErr := other.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
		_, cancelErr := other.CancelTask(ctx, &a2a.CancelTaskRequest{ID: id})
		var subErr error
		for _, err := range other.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id}) {
			if err != nil {
				subErr = err
			}
		}
		for name, err := range map[string]error{"GetTask": getErr, "CancelTask": cancelErr, "SubscribeToTask": subErr} {
			if !isNotFound(err) {
				t.Errorf("%s of %s by another principal: %v, want task not found", name, id, err)
			}
		}
	}
	_, errOther := other.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID})
	_, errUnknown := other.GetTask(ctx, &a2a.GetTaskRequest{ID: unknown})
	if errOther.Error() != errUnknown.Error() {
		t.Errorf("another's task %q answered unlike an unknown one %q", errOther, errUnknown)
	}
	list, err := other.ListTasks(ctx, &a2a.ListTasksRequest{})
	if err != nil || len(list.Tasks) != 0 {
		t.Errorf("another principal lists %v (%v)", list, err)
	}
	// The owner's task was neither cancelled nor disturbed.
	if got := waitTask(t, owner, task.ID, a2a.TaskStateWorking); got == nil {
		t.Fatal("owner lost the task")
	}
	f.report(t, JobDone{ID: string(task.ID)})
	waitTask(t, owner, task.ID, a2a.TaskStateCompleted)
	mine, err := owner.ListTasks(ctx, &a2a.ListTasksRequest{})
	if err != nil || len(mine.Tasks) != 1 || mine.Tasks[0].ID != task.ID {
		t.Errorf("owner lists %v (%v)", mine, err)
	}
}

func TestTaskStoreIsBounded(t *testing.T) {
	f := start(t, func(o *a2aagent.HTTPOptions) { o.TaskCapacity = 3 })
	c := f.client(t, "owner-tok")
	var ids []a2a.TaskID
	for i := range 5 {
		task := sendTask(t, c, skillMessage("add_item", map[string]any{"title": string(rune('a' + i))}))
		ids = append(ids, task.ID)
		if n := f.h.Tasks(); n > 3 {
			t.Fatalf("%d tasks stored, capacity 3", n)
		}
	}
	for i, id := range ids {
		_, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: id})
		if evicted := i < 2; evicted != isNotFound(err) {
			t.Errorf("task %d: %v (evicted: %v)", i, err, evicted)
		}
	}
	// Running tasks are never evicted: with three running, a fourth
	// message is refused and dispatches nothing.
	var running []a2a.TaskID
	for range 3 {
		running = append(running, sendTask(t, c, nonBlocking(skillMessage("start_job", nil))).ID)
	}
	f.waitJobs(t, 3)
	_, err := c.SendMessage(context.Background(), skillMessage("add_item", map[string]any{"title": "late"}))
	if err == nil || !strings.Contains(err.Error(), "as many tasks") {
		t.Errorf("a message to a full store: %v", err)
	}
	if n := f.applied.Load(); n != 5 {
		t.Errorf("%d AddItem applied, want 5", n)
	}
	for _, id := range running {
		waitTask(t, c, id, a2a.TaskStateWorking)
		f.report(t, JobDone{ID: string(id)})
		waitTask(t, c, id, a2a.TaskStateCompleted)
	}
	// Once they end, there is room again.
	if task := sendTask(t, c, skillMessage("add_item", map[string]any{"title": "later"})); task.Status.State != a2a.TaskStateCompleted {
		t.Errorf("after the jobs ended: %s", task.Status.State)
	}
}

func TestCloseCancelsWaitingTasks(t *testing.T) {
	f := start(t, nil)
	c := f.client(t, "owner-tok")
	task := sendTask(t, c, nonBlocking(skillMessage("start_job", nil)))
	f.waitJobs(t, 1)
	f.h.Close()
	// The wait ended: the invocation settled as cancelled after dispatch.
	deadline := time.Now().Add(5 * time.Second)
	for f.audit.Len() < 1 {
		if time.Now().After(deadline) {
			t.Fatal("Close did not end the waiting invocation")
		}
		// The audit log tells no one it grew (its sinks are the only
		// listeners, fixed at Bind): read again after a pause, within a
		// deadline that only fails.
		time.Sleep(time.Millisecond)
	}
	if e := f.audit.Entries()[0]; e.Invocation != string(task.ID) || e.Decision != agent.DecisionDispatched || e.Outcome != agent.TagCancelled {
		t.Errorf("audit %s", mustJSON(e))
	}
	// The handler refuses requests now.
	if _, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: task.ID}); err == nil {
		t.Error("GetTask after Close succeeded")
	}
}
