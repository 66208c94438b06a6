package a2aagent_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
)

// A register the person keeps open: an agent's refund waits for them,
// and so does a payout of the drawer the person has open.
type register struct {
	Refunded []string
	Drawer   int
	Asked    []agent.ApprovalRequest
}

type (
	Refund struct {
		Order string `json:"order"`
	}
	Payout     struct{}
	OpenDrawer struct{ N int } // the person opens another drawer
)

var registerContract = agent.Make(agent.Definition[register, agent.NoPrincipal]{
	Context: agent.Project(func(m register) int { return m.Drawer }),
	Capabilities: []agent.Capability[register, agent.NoPrincipal]{
		agent.Expose(agent.Variant[Refund, register, agent.NoPrincipal]{
			Name: "refund", Description: "Refund an order.",
			Approval: &agent.Approval[Refund, register, agent.NoPrincipal]{Summary: "Refund this order."},
		}),
		agent.Expose(agent.Variant[Payout, register, agent.NoPrincipal]{
			Name: "payout", Description: "Pay out the open drawer.",
			Watches:  []agent.Watch[register]{agent.Watching("drawer", func(m register) int { return m.Drawer })},
			Approval: &agent.Approval[Payout, register, agent.NoPrincipal]{Summary: "Pay out the open drawer."},
		}),
	},
})

func registerUpdate(m register, msg any) (register, loop.Cmd[any]) {
	switch msg := msg.(type) {
	case OpenDrawer:
		m.Drawer = msg.N
	case Payout:
		m.Refunded = append(slices.Clone(m.Refunded), "payout")
	case Refund:
		m.Refunded = append(slices.Clone(m.Refunded), msg.Order)
	case agent.ApprovalAsked:
		m.Asked = append(slices.Clone(m.Asked), msg.Request)
	case agent.ApprovalWithdrawn:
		m.Asked = slices.DeleteFunc(slices.Clone(m.Asked), func(q agent.ApprovalRequest) bool { return q.ID == msg.ID })
	}
	return m, nil
}

type registerFixture struct {
	t    *testing.T
	prog *loop.Program[register, any]
	c    *a2aclient.Client
	h    *a2aagent.Handler
	url  string
}

// startRegister serves the register over A2A and returns an a2a-go
// client of it. The clerk's requests (clerk-tok) wait timeout for the
// person; a hasty agent's (hasty-tok) are withdrawn after 20ms.
func startRegister(t *testing.T, timeout time.Duration) *registerFixture {
	t.Helper()
	prog := loop.New(loop.Funcs(func() (register, loop.Cmd[any]) { return register{}, nil }, registerUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	h, err := a2aagent.NewHandler(a2aagent.HTTPOptions{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			switch token {
			case "clerk-tok":
				return &auth.TokenInfo{UserID: "clerk"}, nil
			case "hasty-tok":
				return &auth.TokenInfo{UserID: "hasty"}, nil
			}
			return nil, auth.ErrInvalidToken
		},
		NewRuntime: func(_ context.Context, info *auth.TokenInfo) (a2aagent.Runtime, error) {
			wait := timeout
			if info.UserID == "hasty" {
				wait = 20 * time.Millisecond
			}
			return agent.Bind(registerContract, prog, &agent.BindOptions[agent.NoPrincipal]{ApprovalTimeout: wait})
		},
		Contract: registerContract.Describe(),
		Card:     a2aagent.CardOptions{Name: "register"},
		Logger:   quietLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		h.Close()
		cancel()
		<-done
	})
	card, err := agentcard.NewResolver(http.DefaultClient).Resolve(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2aclient.NewFromCard(context.Background(), card, a2aclient.WithJSONRPCTransport(httpClient("clerk-tok")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Destroy() })
	return &registerFixture{t: t, prog: prog, c: c, h: h, url: srv.URL}
}

// asked waits until the app shows one request, and returns it.
func (f *registerFixture) asked() agent.ApprovalRequest {
	f.t.Helper()
	return loopwait.Until(f.t, f.prog, "the request on the person's screen", func(m register) bool { return len(m.Asked) == 1 }).Asked[0]
}

// answer is what the person does in the app: their answer to a
// request, or anything else they do.
func (f *registerFixture) answer(msg any) {
	f.t.Helper()
	if err := f.prog.Dispatch(context.Background(), msg); err != nil {
		f.t.Fatal(err)
	}
}

// waiting polls GetTask until the task's status says it waits for the
// person, and returns it.
func (f *registerFixture) waiting(id a2a.TaskID) *a2a.Task {
	f.t.Helper()
	// Polled over the protocol (tasks/get), as an A2A client learns a
	// task's state; no event of the server's store reaches the test.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		task, err := f.c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: id})
		if err != nil {
			f.t.Fatalf("GetTask: %v", err)
		}
		if statusText(task) == "Waiting for the person to approve this in the app." {
			return task
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("task %s never said it waits for the person: %s %q", id, task.Status.State, statusText(task))
		}
	}
}

func refundMessage(order string) *a2a.SendMessageRequest {
	return skillMessage("refund", map[string]any{"order": order})
}

// A task held for the person is WORKING, its status message saying it
// waits for the person with the request as data; approved in the app,
// it completes and the refund ran.
func TestApprovalWorkingThenCompleted(t *testing.T) {
	f := startRegister(t, time.Minute)
	task := sendTask(t, f.c, nonBlocking(refundMessage("order-7")))
	req := f.asked()
	got := f.waiting(task.ID)
	if got.Status.State != a2a.TaskStateWorking {
		t.Fatalf("held task is %s, want working", got.Status.State)
	}
	data := statusData(got)
	if data["approval"] != req.ID || data["capability"] != "refund" || data["summary"] != "Refund this order." || data["deadline"] == nil {
		t.Fatalf("waiting data = %v", data)
	}
	if n := len(f.prog.Model().Refunded); n != 0 {
		t.Fatalf("a held refund ran: %v", f.prog.Model().Refunded)
	}
	f.answer(req.Approve("pat"))
	done := waitTask(t, f.c, task.ID, a2a.TaskStateCompleted)
	if statusText(done) == "Waiting for the person to approve this in the app." {
		t.Fatal("the completed task still says it waits")
	}
	if m := loopwait.Until(t, f.prog, "the refund", func(m register) bool { return len(m.Refunded) > 0 }); !slices.Equal(m.Refunded, []string{"order-7"}) {
		t.Fatalf("refunded = %v", m.Refunded)
	}
}

// Declined in the app: REJECTED, tagged AgentDeclinedError, the person's
// reason as data, nothing refunded.
func TestApprovalDeclinedIsRejected(t *testing.T) {
	f := startRegister(t, time.Minute)
	task := sendTask(t, f.c, nonBlocking(refundMessage("order-8")))
	req := f.asked()
	f.answer(agent.ApprovalAnswer{ID: req.ID, Reason: "already refunded by phone"})
	done := waitTask(t, f.c, task.ID, a2a.TaskStateRejected)
	data := statusData(done)
	if data["_tag"] != agent.TagDeclined || data["reason"] != "already refunded by phone" || data["approval"] != req.ID {
		t.Fatalf("declined data = %v", data)
	}
	if text := statusText(done); text == "" || text == "already refunded by phone" {
		t.Fatalf("declined text = %q", text)
	}
	if got := f.prog.Model().Refunded; len(got) != 0 {
		t.Fatalf("a declined refund ran: %v", got)
	}
}

// Nobody answers: FAILED, tagged AgentApprovalTimeoutError, the request
// gone from the app, nothing refunded.
func TestApprovalTimeoutIsFailed(t *testing.T) {
	f := startRegister(t, 20*time.Millisecond)
	task := sendTask(t, f.c, refundMessage("order-9"))
	if task.Status.State != a2a.TaskStateFailed {
		t.Fatalf("unanswered task is %s, want failed", task.Status.State)
	}
	if data := statusData(task); data["_tag"] != agent.TagApprovalTimeout {
		t.Fatalf("timeout data = %v", data)
	}
	loopwait.Until(t, f.prog, "the timed-out request off the person's screen", func(m register) bool { return len(m.Asked) == 0 })
	if got := f.prog.Model().Refunded; len(got) != 0 {
		t.Fatalf("an unanswered refund ran: %v", got)
	}
}

// A streamed task shows WORKING with the waiting message before its final
// state; the person's answer is given once the stream shows it waits.
func TestApprovalStreamedWorkingBeforeCompleted(t *testing.T) {
	f := startRegister(t, time.Minute)
	var events []a2a.Event
	sawWaiting := -1
	for ev, err := range f.c.SendStreamingMessage(context.Background(), refundMessage("order-10")) {
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		events = append(events, ev)
		if up, ok := ev.(*a2a.TaskStatusUpdateEvent); ok && up.Status.State == a2a.TaskStateWorking && sawWaiting < 0 {
			if up.Status.Message == nil || up.Status.Message.Parts[0].Text() != "Waiting for the person to approve this in the app." {
				t.Fatalf("working update without the waiting message: %s", mustJSON(up))
			}
			sawWaiting = len(events) - 1
			f.answer(f.asked().Approve(""))
		}
	}
	got := states(events)
	if sawWaiting < 0 || got[len(got)-1] != a2a.TaskStateCompleted || sawWaiting >= len(events)-1 {
		t.Fatalf("streamed states %v (waiting at %d), want working, waiting ... completed", got, sawWaiting)
	}
	if m := loopwait.Until(t, f.prog, "the refund", func(m register) bool { return len(m.Refunded) > 0 }); !slices.Equal(m.Refunded, []string{"order-10"}) {
		t.Fatalf("refunded = %v", m.Refunded)
	}
}

// SubscribeToTask on a held task starts from the task as it stands,
// WORKING and waiting for the person, and streams to the final state.
func TestApprovalSubscribeSeesWaiting(t *testing.T) {
	f := startRegister(t, time.Minute)
	task := sendTask(t, f.c, nonBlocking(refundMessage("order-11")))
	req := f.asked()
	f.waiting(task.ID)
	var got []a2a.TaskState
	first := true
	for ev, err := range f.c.SubscribeToTask(context.Background(), &a2a.SubscribeToTaskRequest{ID: task.ID}) {
		if err != nil {
			t.Fatalf("subscribe: %v", err)
		}
		got = append(got, states([]a2a.Event{ev})...)
		if first {
			first = false
			snap, ok := ev.(*a2a.Task)
			if !ok || snap.Status.State != a2a.TaskStateWorking || statusText(snap) != "Waiting for the person to approve this in the app." {
				t.Fatalf("first subscribed event %s, want the task waiting for the person", mustJSON(ev))
			}
			f.answer(agent.ApprovalAnswer{ID: req.ID, Reason: "not today"})
		}
	}
	if len(got) < 2 || got[len(got)-1] != a2a.TaskStateRejected {
		t.Fatalf("subscribed states %v, want working ... rejected", got)
	}
	if got := f.prog.Model().Refunded; len(got) != 0 {
		t.Fatalf("a declined refund ran: %v", got)
	}
}

// CancelTask while the person is asked: CANCELED, the request withdrawn
// from the app, nothing run, and an answer after that approves nothing.
func TestApprovalCancelledTaskWithdrawsTheRequest(t *testing.T) {
	f := startRegister(t, time.Minute)
	task := sendTask(t, f.c, nonBlocking(refundMessage("order-12")))
	req := f.asked()
	f.waiting(task.ID)
	cancelled, err := f.c.CancelTask(context.Background(), &a2a.CancelTaskRequest{ID: task.ID})
	if err != nil {
		t.Fatalf("CancelTask: %v", err)
	}
	if cancelled.Status.State != a2a.TaskStateCanceled || statusData(cancelled)["dispatched"] != false {
		t.Fatalf("cancelled task %s %v", cancelled.Status.State, statusData(cancelled))
	}
	loopwait.Until(t, f.prog, "the cancelled request off the person's screen", func(m register) bool { return len(m.Asked) == 0 })
	f.answer(req.Approve(""))
	f.answer(OpenDrawer{N: 5}) // applied after the answer
	loopwait.Until(t, f.prog, "the person's Messages applied", func(m register) bool { return m.Drawer == 5 })
	if got := f.prog.Model().Refunded; len(got) != 0 {
		t.Fatalf("a cancelled refund ran: %v", got)
	}
}

// What the person was shown moved while they were asked: the request is
// void, the task REJECTED as stale, nothing paid out.
func TestApprovalVoidWhenWatchedValuesMove(t *testing.T) {
	f := startRegister(t, time.Minute)
	f.answer(OpenDrawer{N: 1})
	loopwait.Until(t, f.prog, "the drawer opened", func(m register) bool { return m.Drawer == 1 })
	res, err := f.c.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewDataPart(map[string]any{"read": "context"}))})
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if _, ok := res.(*a2a.Message); !ok {
		t.Fatalf("a read answered %T", res)
	}
	task := sendTask(t, f.c, nonBlocking(skillMessage("payout", nil)))
	req := f.asked()
	if string(req.Watched["drawer"]) != "1" {
		t.Fatalf("the person was shown %s", req.Watched)
	}
	f.answer(OpenDrawer{N: 2})
	done := waitTask(t, f.c, task.ID, a2a.TaskStateRejected)
	if data := statusData(done); data["_tag"] != agent.TagStaleView {
		t.Fatalf("void data %v", data)
	}
	if got := f.prog.Model().Refunded; len(got) != 0 {
		t.Fatalf("after the void: refunded %v", got)
	}
	// The void's withdrawal of the request is a Message of its own, applied
	// after the task is rejected: wait for it, then check nothing ran.
	if got := loopwait.Until(t, f.prog, "the void request off the person's screen", func(m register) bool { return len(m.Asked) == 0 }); len(got.Refunded) != 0 {
		t.Fatalf("after the void: refunded %v", got.Refunded)
	}
}

// The card tags the skills whose calls wait for the person.
func TestApprovalSkillsTagged(t *testing.T) {
	f := startRegister(t, time.Minute)
	card, err := agentcard.NewResolver(http.DefaultClient).Resolve(context.Background(), f.url)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range card.Skills {
		if !slices.Contains(s.Tags, a2aagent.TagNeedsApproval) {
			t.Errorf("skill %s tags %v, want %s", s.ID, s.Tags, a2aagent.TagNeedsApproval)
		}
	}
	jobs := start(t, nil).card(t)
	for _, s := range jobs.Skills {
		if slices.Contains(s.Tags, a2aagent.TagNeedsApproval) {
			t.Errorf("skill %s needs no approval, yet is tagged %v", s.ID, s.Tags)
		}
	}
}

// Two requests pending at once are answered separately: each task ends
// by its own answer, whatever the order.
func TestApprovalTwoPendingAnsweredSeparately(t *testing.T) {
	f := startRegister(t, time.Minute)
	first := sendTask(t, f.c, nonBlocking(refundMessage("order-a")))
	second := sendTask(t, f.c, nonBlocking(refundMessage("order-b")))
	asked := loopwait.Until(t, f.prog, "two requests on the person's screen", func(m register) bool { return len(m.Asked) >= 2 }).Asked
	byOrder := map[string]agent.ApprovalRequest{}
	for _, q := range asked {
		var in Refund
		_ = json.Unmarshal(q.Input, &in)
		byOrder[in.Order] = q
	}
	f.answer(byOrder["order-b"].Approve(""))
	waitTask(t, f.c, second.ID, a2a.TaskStateCompleted)
	if got := f.waiting(first.ID); got.Status.State != a2a.TaskStateWorking {
		t.Fatalf("the other task is %s, want it still waiting", got.Status.State)
	}
	f.answer(agent.ApprovalAnswer{ID: byOrder["order-a"].ID, Reason: "duplicate"})
	waitTask(t, f.c, first.ID, a2a.TaskStateRejected)
	if m := loopwait.Until(t, f.prog, "the refund", func(m register) bool { return len(m.Refunded) > 0 }); !slices.Equal(m.Refunded, []string{"order-b"}) {
		t.Fatalf("refunded %v, want only order-b", m.Refunded)
	}
}
