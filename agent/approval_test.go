package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
)

// A till: the order under review, what was paid, and the requests the
// person is asked to approve (what the app's view shows).
type till struct {
	Order   string
	Total   int
	Paid    []string
	Asked   []agent.ApprovalRequest
	Answers []string // what the person's screen recorded, in order
	// Ever are all the requests ever asked, the withdrawn included: the
	// cards the person may still answer late.
	Ever []agent.ApprovalRequest
}

type (
	Review struct {
		Order string
		Total int
	} // the person opens an order
	PayNow  struct{ Order string }
	Tip     struct{ Amount int }
	NoteMsg struct{ Text string }
)

var orderWatch = agent.Watching("orderUnderReview", func(m till) map[string]any {
	return map[string]any{"order": m.Order, "total": m.Total}
})

func tillUpdate(m till, msg any) (till, loop.Cmd[any]) {
	switch msg := msg.(type) {
	case Review:
		m.Order, m.Total = msg.Order, msg.Total
	case PayNow:
		m.Paid = append(slices.Clone(m.Paid), msg.Order)
	case Tip:
		m.Paid = append(slices.Clone(m.Paid), fmt.Sprintf("tip-%d", msg.Amount))
	case agent.ApprovalAsked:
		m.Asked = append(slices.Clone(m.Asked), msg.Request)
		m.Ever = append(slices.Clone(m.Ever), msg.Request)
	case agent.ApprovalWithdrawn:
		m.Asked = slices.DeleteFunc(slices.Clone(m.Asked), func(q agent.ApprovalRequest) bool { return q.ID == msg.ID })
		m.Answers = append(slices.Clone(m.Answers), string(msg.Why))
	}
	return m, nil
}

type tillFixture struct {
	t     *testing.T
	prog  *loop.Program[till, any]
	rt    *agent.Runtime[till, any, agent.NoPrincipal]
	audit *agent.AuditLog[agent.NoPrincipal]
	stop  func() // ends the program and waits for Run to return
}

func newTill(t *testing.T, timeout time.Duration) *tillFixture {
	t.Helper()
	pay := agent.ExposeMapped(agent.Mapped[agent.NoInput, PayNow, till, agent.NoPrincipal]{
		Name: "pay", Description: "Pay for the order under review.",
		Available: func(m till) bool { return m.Order != "" },
		ToMessage: func(_ agent.NoInput, c agent.Call[till, agent.NoPrincipal]) PayNow {
			return PayNow{Order: c.Model.Order}
		},
		Watches:  []agent.Watch[till]{orderWatch},
		Approval: &agent.Approval[agent.NoInput, till, agent.NoPrincipal]{Summary: "Pay for the order under review."},
	})
	tip := agent.Expose(agent.Variant[Tip, till, agent.NoPrincipal]{
		Name: "tip", Description: "Leave a tip.",
		Approval: &agent.Approval[Tip, till, agent.NoPrincipal]{Summary: "Leave a tip.",
			When: func(in Tip, _ agent.Call[till, agent.NoPrincipal]) bool { return in.Amount > 10 }},
	})
	c := agent.Make(agent.Definition[till, agent.NoPrincipal]{Capabilities: []agent.Capability[till, agent.NoPrincipal]{pay, tip}})
	prog := loop.New(loop.Funcs(func() (till, loop.Cmd[any]) { return till{}, nil }, tillUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	var n atomic.Int64
	audit := agent.NewAuditLog(agent.AuditOptions[agent.NoPrincipal]{})
	rt := agent.MustBind(c, prog, &agent.BindOptions[agent.NoPrincipal]{
		Audit: audit, ApprovalTimeout: timeout,
		NewInvocationID: func() string { return fmt.Sprintf("id-%d", n.Add(1)) },
	})
	f := &tillFixture{t: t, prog: prog, rt: rt, audit: audit, stop: func() { cancel(); <-done }}
	f.person(Review{Order: "order-1", Total: 120})
	return f
}

// person dispatches the person's own Message and waits until update took
// it.
func (f *tillFixture) person(msg any) {
	f.t.Helper()
	before := f.rt.Version()
	if err := f.prog.Dispatch(context.Background(), msg); err != nil {
		f.t.Fatal(err)
	}
	f.until("the person's Message applied", func(m till) bool { _ = m; return f.rt.Version() > before })
}

// until waits for a condition on the Model, reading it after each change.
func (f *tillFixture) until(what string, cond func(till) bool) till {
	f.t.Helper()
	return loopwait.UntilWithin(f.t, f.prog, 10*time.Second, what, cond)
}

type callResult struct {
	res agent.Result
	err error
}

// call makes an agent's call in the background, as caller, after it
// looked at what is offered.
func (f *tillFixture) call(caller, name, input string) <-chan callResult {
	f.t.Helper()
	out := make(chan callResult, 1)
	ctx := agent.WithCaller(context.Background(), caller)
	if _, err := f.rt.Offered(ctx); err != nil {
		f.t.Fatal(err)
	}
	go func() {
		res, err := f.rt.DispatchUnknown(ctx, name, json.RawMessage(input), agent.Invocation{Transport: agent.MCP})
		out <- callResult{res, err}
	}()
	return out
}

func (f *tillFixture) asked(n int) []agent.ApprovalRequest {
	f.t.Helper()
	return f.until(fmt.Sprintf("%d requests on screen", n), func(m till) bool { return len(m.Asked) == n }).Asked
}

func result(t *testing.T, ch <-chan callResult) callResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("the call never returned")
		return callResult{}
	}
}

func TestApprovedCallRunsAndIsAudited(t *testing.T) {
	f := newTill(t, time.Minute)
	ch := f.call("agent-a", "pay", `{}`)
	req := f.asked(1)[0]
	if req.Capability != "pay" || req.Summary != "Pay for the order under review." || req.Caller != "agent-a" || req.Transport != agent.MCP {
		t.Fatalf("request = %+v", req)
	}
	if got := string(req.Watched["orderUnderReview"]); got != `{"order":"order-1","total":120}` {
		t.Fatalf("watched = %s", got)
	}
	if f.prog.Model().Paid != nil {
		t.Fatal("a held call ran")
	}
	if p := f.rt.PendingApprovals(); len(p) != 1 || p[0].ID != req.ID {
		t.Fatalf("pending = %+v", p)
	}
	f.person(req.Approve("ana"))
	r := result(t, ch)
	if r.err != nil {
		t.Fatal(r.err)
	}
	m := f.until("the payment", func(m till) bool { return len(m.Paid) == 1 && len(m.Asked) == 0 })
	if m.Paid[0] != "order-1" || !slices.Equal(m.Answers, []string{"approved"}) {
		t.Fatalf("model = %+v", m)
	}
	if len(f.rt.PendingApprovals()) != 0 {
		t.Fatal("an answered request is still pending")
	}
	var held, done *agent.AuditEntry
	for _, e := range f.audit.Entries() {
		if e.Invocation != r.res.Invocation.ID {
			continue
		}
		switch e.Decision {
		case agent.DecisionHeld:
			held = &e
		case agent.DecisionDispatched:
			done = &e
		}
	}
	if held == nil || held.Outcome != agent.OutcomeAwaitingApproval || held.Approval == nil || held.Approval.Shown != req.Digest() {
		t.Fatalf("held entry = %+v", held)
	}
	if done == nil || done.Approval == nil || done.Approval.Answer != agent.WithdrawnApproved || done.Approval.By != "ana" ||
		done.Approval.Shown != req.Digest() || done.Approval.At.IsZero() {
		t.Fatalf("final entry = %+v", done)
	}
	b, _ := json.Marshal(done)
	var back agent.AuditEntry
	if err := json.Unmarshal(b, &back); err != nil || back.Approval == nil || back.Approval.By != "ana" || back.Approval.At.UnixMilli() != done.Approval.At.UnixMilli() {
		t.Fatalf("round trip %s: %+v %v", b, back.Approval, err)
	}
	// Spent: approving it again does nothing.
	f.person(req.Approve(""))
	if got := f.prog.Model().Paid; len(got) != 1 {
		t.Fatalf("an approval was spent twice: %v", got)
	}
}

func TestDeclinedCallDispatchesNothing(t *testing.T) {
	f := newTill(t, time.Minute)
	ch := f.call("agent-a", "pay", `{}`)
	req := f.asked(1)[0]
	f.person(agent.ApprovalAnswer{ID: req.ID, Reason: "not this card"})
	r := result(t, ch)
	var d *agent.DeclinedError
	if !errors.As(r.err, &d) || d.Reason != "not this card" || d.Approval != req.ID || d.Tag() != agent.TagDeclined {
		t.Fatalf("err = %v", r.err)
	}
	if strings.Contains(d.Error(), "not this card") {
		t.Errorf("the person's words entered the message: %q", d.Error())
	}
	if b, _ := json.Marshal(d); !strings.Contains(string(b), `"reason":"not this card"`) {
		t.Errorf("encoding = %s", b)
	}
	m := f.until("the request withdrawn", func(m till) bool { return len(m.Asked) == 0 })
	if m.Paid != nil || !slices.Equal(m.Answers, []string{"declined"}) {
		t.Fatalf("model = %+v", m)
	}
}

// The person changes the order while the agent's payment waits: the
// request is void, the call refused stale, nothing paid; an approval of
// the void request afterwards does nothing.
func TestApprovalIsBoundToWhatWasShown(t *testing.T) {
	f := newTill(t, time.Minute)
	ch := f.call("agent-a", "pay", `{}`)
	req := f.asked(1)[0]
	f.person(Review{Order: "order-1", Total: 480})
	r := result(t, ch)
	var stale *agent.StaleViewError
	if !errors.As(r.err, &stale) || !slices.Equal(stale.Moved, []string{"orderUnderReview"}) || stale.Seen != req.Version {
		t.Fatalf("err = %v", r.err)
	}
	f.until("the void request withdrawn", func(m till) bool { return len(m.Asked) == 0 })
	f.person(req.Approve(""))
	if m := f.prog.Model(); m.Paid != nil || !slices.Equal(m.Answers, []string{"stale"}) {
		t.Fatalf("model = %+v", m)
	}
}

func TestUnansweredRequestTimesOutAndCannotBeApprovedLater(t *testing.T) {
	f := newTill(t, 30*time.Millisecond)
	ch := f.call("agent-a", "pay", `{}`)
	r := result(t, ch)
	var to *agent.ApprovalTimeoutError
	if !errors.As(r.err, &to) || to.Tag() != agent.TagApprovalTimeout {
		t.Fatalf("err = %v", r.err)
	}
	m := f.until("the request withdrawn", func(m till) bool { return len(m.Answers) == 1 && len(m.Asked) == 0 })
	if m.Answers[0] != "timeout" {
		t.Fatalf("model = %+v", m)
	}
	i := slices.IndexFunc(m.Ever, func(q agent.ApprovalRequest) bool { return q.ID == to.Approval })
	if i < 0 {
		t.Fatalf("the timed-out request %s was never asked: %+v", to.Approval, m)
	}
	f.person(m.Ever[i].Approve(""))
	if m := f.prog.Model(); m.Paid != nil {
		t.Fatalf("a withdrawn request was approved: %+v", m)
	}
}

// Two agents' requests pending at once are answered separately.
func TestTwoRequestsAnsweredSeparately(t *testing.T) {
	f := newTill(t, time.Minute)
	a := f.call("agent-a", "tip", `{"Amount": 20}`)
	f.asked(1)
	b := f.call("agent-b", "tip", `{"Amount": 30}`)
	reqs := f.asked(2)
	byCaller := map[string]agent.ApprovalRequest{reqs[0].Caller: reqs[0], reqs[1].Caller: reqs[1]}
	f.person(byCaller["agent-b"].Approve(""))
	if r := result(t, b); r.err != nil {
		t.Fatalf("b: %v", r.err)
	}
	f.person(agent.ApprovalAnswer{ID: byCaller["agent-a"].ID})
	var d *agent.DeclinedError
	if r := result(t, a); !errors.As(r.err, &d) {
		t.Fatalf("a: %v", r.err)
	}
	if m := f.until("both withdrawn", func(m till) bool { return len(m.Asked) == 0 }); !slices.Equal(m.Paid, []string{"tip-30"}) {
		t.Fatalf("model = %+v", m)
	}
}

// When decides per call: a small tip runs at once.
func TestApprovalWhenJudgesTheCall(t *testing.T) {
	f := newTill(t, time.Minute)
	if r := result(t, f.call("agent-a", "tip", `{"Amount": 5}`)); r.err != nil {
		t.Fatal(r.err)
	}
	if m := f.until("the tip", func(m till) bool { return len(m.Paid) == 1 }); m.Asked != nil {
		t.Fatalf("a call under the threshold was held: %+v", m)
	}
}

func TestCallerWhoGivesUpWithdrawsTheRequest(t *testing.T) {
	f := newTill(t, time.Minute)
	ctx, cancel := context.WithCancel(agent.WithCaller(context.Background(), "agent-a"))
	if _, err := f.rt.Offered(ctx); err != nil {
		t.Fatal(err)
	}
	out := make(chan error, 1)
	go func() {
		_, err := f.rt.DispatchUnknown(ctx, "pay", json.RawMessage(`{}`), agent.Invocation{Transport: agent.MCP})
		out <- err
	}()
	req := f.asked(1)[0]
	cancel()
	var c *agent.CancelledError
	if err := <-out; !errors.As(err, &c) {
		t.Fatalf("err = %v", err)
	}
	f.until("the request withdrawn", func(m till) bool { return len(m.Asked) == 0 })
	f.person(req.Approve(""))
	if m := f.prog.Model(); m.Paid != nil {
		t.Fatalf("a given-up request was approved: %+v", m)
	}
}

func TestNoAgentCanApprove(t *testing.T) {
	defer func() {
		if msg, _ := recover().(string); !strings.Contains(msg, "ApprovalAnswer") || !strings.Contains(msg, "approve") {
			t.Fatalf("panic = %q", msg)
		}
	}()
	agent.Make(agent.Definition[till, agent.NoPrincipal]{Capabilities: []agent.Capability[till, agent.NoPrincipal]{
		agent.Expose(agent.Variant[agent.ApprovalAnswer, till, agent.NoPrincipal]{Name: "approve", Description: "Approve."}),
	}})
}

func TestApprovalDeclarationMistakes(t *testing.T) {
	for name, declare := range map[string]func(){
		"no summary": func() {
			agent.Expose(agent.Variant[Tip, till, agent.NoPrincipal]{Description: "Tip.", Approval: &agent.Approval[Tip, till, agent.NoPrincipal]{}})
		},
		"read-only": func() {
			agent.Expose(agent.Variant[Tip, till, agent.NoPrincipal]{Description: "Tip.", ReadOnly: true,
				Approval: &agent.Approval[Tip, till, agent.NoPrincipal]{Summary: "Tip."}})
		},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if msg, _ := recover().(string); !strings.Contains(msg, "Tip") {
					t.Fatalf("panic = %q", msg)
				}
			}()
			declare()
		})
	}
}

type sealedMsg interface{ sealed() }

func (Tip) sealed() {}

func TestBindRefusesAHostThatCannotHoldTheApprovalMessages(t *testing.T) {
	c := agent.Make(agent.Definition[till, agent.NoPrincipal]{Capabilities: []agent.Capability[till, agent.NoPrincipal]{
		agent.Expose(agent.Variant[Tip, till, agent.NoPrincipal]{Description: "Tip.", Approval: &agent.Approval[Tip, till, agent.NoPrincipal]{Summary: "Tip."}}),
	}})
	prog := loop.New(loop.Funcs(func() (till, loop.Cmd[sealedMsg]) { return till{}, nil },
		func(m till, _ sealedMsg) (till, loop.Cmd[sealedMsg]) { return m, nil }), nil)
	_, err := agent.Bind(c, prog, nil)
	if err == nil || !strings.Contains(err.Error(), "ApprovalAsked") || !strings.Contains(err.Error(), `"tip"`) {
		t.Fatalf("err = %v", err)
	}
	if d := c.Describe().Capabilities[0]; !d.NeedsApproval {
		t.Errorf("descriptor = %+v", d)
	}
}

// countingHost counts the runtime's listeners that are registered.
type countingHost struct {
	*loop.Program[till, any]
	active atomic.Int64
}

func (h *countingHost) Observe(f func(any)) func() {
	h.active.Add(1)
	stop := h.Program.Observe(f)
	return func() { stop(); h.active.Add(-1) }
}

func (h *countingHost) Subscribe(f func()) func() {
	h.active.Add(1)
	stop := h.Program.Subscribe(f)
	return func() { stop(); h.active.Add(-1) }
}

// A runtime listens to the host only while a call is held: one bound per
// session leaves nothing behind.
func TestRuntimeListensOnlyWhileACallIsHeld(t *testing.T) {
	c := agent.Make(agent.Definition[till, agent.NoPrincipal]{Capabilities: []agent.Capability[till, agent.NoPrincipal]{
		agent.Expose(agent.Variant[Tip, till, agent.NoPrincipal]{Name: "tip", Description: "Tip.",
			Approval: &agent.Approval[Tip, till, agent.NoPrincipal]{Summary: "Leave a tip."}}),
	}})
	prog := loop.New(loop.Funcs(func() (till, loop.Cmd[any]) { return till{}, nil }, tillUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	h := &countingHost{Program: prog}
	rt := agent.MustBind(c, h, nil)
	if n := h.active.Load(); n != 0 {
		t.Fatalf("%d listeners before any call", n)
	}
	f := &tillFixture{t: t, prog: prog, rt: rt}
	ch := f.call("agent-a", "tip", `{"Amount": 3}`)
	req := f.asked(1)[0]
	if n := h.active.Load(); n != 2 {
		t.Fatalf("%d listeners while a call is held, want 2", n)
	}
	f.person(req.Approve(""))
	if r := result(t, ch); r.err != nil {
		t.Fatal(r.err)
	}
	if n := h.active.Load(); n != 0 {
		t.Fatalf("%d listeners left after the call", n)
	}
}

// An adapter is told its call waits for the person before the card can be
// on any screen: whoever sees the card finds the call reported as
// waiting, never as still working (a held answer raced the card once).
// The person leaves (the program stops) after the caller was told the
// call waits for them but before the card reached their screen: the
// caller is told the person left, as it would be a moment later, never
// that nothing happened and a retry is safe (nobody is there to answer a
// retry either).
func TestAPersonWhoLeftBeforeTheCardIsSaidToHaveLeft(t *testing.T) {
	f := newTill(t, time.Minute)
	ctx := agent.WithCaller(context.Background(), "agent-a")
	if _, err := f.rt.Offered(ctx); err != nil {
		t.Fatal(err)
	}
	told, release := make(chan struct{}), make(chan struct{})
	var ended atomic.Value
	ctx = agent.WhileAwaitingApproval(ctx, func(agent.ApprovalRequest) {
		close(told)
		<-release
	})
	ctx = agent.WhenApprovalEnds(ctx, func(_ agent.ApprovalRequest, why agent.Withdrawal) { ended.Store(why) })
	out := make(chan callResult, 1)
	go func() {
		res, err := f.rt.DispatchUnknown(ctx, "pay", json.RawMessage(`{}`), agent.Invocation{Transport: agent.MCP})
		out <- callResult{res, err}
	}()
	<-told
	f.stop()
	close(release)
	r := result(t, out)
	var left *agent.PersonLeftError
	if !errors.As(r.err, &left) {
		t.Fatalf("the caller was told %T %v, not that the person left", r.err, r.err)
	}
	if why, _ := ended.Load().(agent.Withdrawal); why != agent.WithdrawnPersonLeft {
		t.Fatalf("the adapter was told the approval ended as %q", why)
	}
}

func TestAwaitingIsToldBeforeTheCardIsSeen(t *testing.T) {
	f := newTill(t, time.Minute)
	ctx := agent.WithCaller(context.Background(), "agent-a")
	if _, err := f.rt.Offered(ctx); err != nil {
		t.Fatal(err)
	}
	told, release := make(chan struct{}), make(chan struct{})
	ctx = agent.WhileAwaitingApproval(ctx, func(agent.ApprovalRequest) {
		close(told)
		<-release
	})
	out := make(chan callResult, 1)
	go func() {
		res, err := f.rt.DispatchUnknown(ctx, "pay", json.RawMessage(`{}`), agent.Invocation{Transport: agent.MCP})
		out <- callResult{res, err}
	}()
	<-told
	// Everything dispatched before this Message has been applied once it
	// is: no card may be among them while the adapter is being told.
	f.person(Tip{Amount: 1})
	if a := f.prog.Model().Asked; len(a) != 0 {
		t.Fatalf("a card was on screen before its caller was told it waits: %+v", a)
	}
	close(release)
	req := f.asked(1)[0]
	f.person(req.Decline("ana", "no"))
	if r := result(t, out); r.err == nil {
		t.Fatal("a declined call succeeded")
	}
}
