package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
)

// refusals collects what OnAnswerRefused hears.
type refusals chan agent.RefusedAnswer

func (r refusals) next(t *testing.T) agent.RefusedAnswer {
	t.Helper()
	select {
	case a := <-r:
		return a
	case <-time.After(loopwait.Bound):
		t.Fatal("no refused answer was reported")
		return agent.RefusedAnswer{}
	}
}

// tillWith is a till whose runtime reports refused answers and mints
// invocation ids with newID.
func tillWith(t *testing.T, newID func() string) (*tillFixture, refusals) {
	t.Helper()
	f := newTill(t, time.Minute)
	heard := make(refusals, 16)
	audit := agent.NewAuditLog(agent.AuditOptions[agent.NoPrincipal]{})
	f.audit = audit
	f.rt = agent.MustBind(f.rt.Contract(), f.prog, &agent.BindOptions[agent.NoPrincipal]{
		Audit: audit, NewInvocationID: newID,
		OnAnswerRefused: func(a agent.RefusedAnswer) { heard <- a },
	})
	return f, heard
}

// stillHeld fails t unless the call has not returned, nothing was paid
// and want are exactly the pending requests.
func (f *tillFixture) stillHeld(ch <-chan callResult, want ...agent.ApprovalRequest) {
	f.t.Helper()
	select {
	case r := <-ch:
		f.t.Fatalf("the held call returned: %+v %v", r.res, r.err)
	default:
	}
	if paid := f.prog.Model().Paid; paid != nil {
		f.t.Fatalf("paid %v", paid)
	}
	got := f.rt.PendingApprovals()
	if len(got) != len(want) {
		f.t.Fatalf("pending %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].ID != want[i].ID || got[i].Digest() != want[i].Digest() {
			f.t.Fatalf("pending %+v, want %+v", got, want)
		}
	}
}

// An approval that does not name the card it answers (no Shown, or
// another card's) approves nothing: the request stays pending, the
// refusal is reported and audited, and the person's real answer to the
// card still runs the call.
func TestApprovalNotNamingTheCardIsRefused(t *testing.T) {
	f, heard := tillWith(t, nil)
	ch := f.call("agent-a", "pay", `{}`)
	req := f.asked(1)[0]

	f.person(agent.ApprovalAnswer{ID: req.ID, Approve: true, By: "ana"})
	if r := heard.next(t); r.Why != agent.AnswerNotShown || r.Request.ID != req.ID || r.Answer.By != "ana" {
		t.Fatalf("refusal = %+v", r)
	}
	f.stillHeld(ch, req)
	other := req
	other.Input = json.RawMessage(`{"total":1}`)
	f.person(agent.ApprovalAnswer{ID: req.ID, Approve: true, By: "ana", Shown: other.Digest()})
	if r := heard.next(t); r.Why != agent.AnswerNotShown || r.Answer.Shown != other.Digest() {
		t.Fatalf("refusal = %+v", r)
	}
	f.stillHeld(ch, req)

	f.person(req.Approve("ana"))
	if r := result(t, ch); r.err != nil {
		t.Fatal(r.err)
	}
	loopwait.Until(t, f.prog, "the payment", func(m till) bool { return slices.Equal(m.Paid, []string{"order-1"}) })
	// Both refusals are on the held call's record, before its end.
	var refused []agent.AuditEntry
	for _, e := range f.audit.Entries() {
		if e.Outcome == agent.OutcomeAnswerRefused {
			refused = append(refused, e)
		}
	}
	if len(refused) != 2 || refused[0].Decision != agent.DecisionHeld || refused[0].Approval.ID != req.ID ||
		refused[0].Approval.Shown != req.Digest() || refused[0].Approval.Refused != "" || refused[0].Approval.By != "ana" ||
		refused[1].Approval.Refused != other.Digest() {
		t.Fatalf("refused entries = %+v", refused)
	}
	if last := f.audit.Entries()[f.audit.Len()-1]; last.Approval == nil || last.Approval.Answer != agent.WithdrawnApproved || last.Approval.Refused != "" {
		t.Fatalf("final entry = %+v", last)
	}
}

// Declining needs no fingerprint: declining runs nothing.
func TestDeclineWithoutShownIsAccepted(t *testing.T) {
	f, heard := tillWith(t, nil)
	ch := f.call("agent-a", "pay", `{}`)
	req := f.asked(1)[0]
	f.person(agent.ApprovalAnswer{ID: req.ID, Reason: "no"})
	var d *agent.DeclinedError
	if r := result(t, ch); !errors.As(r.err, &d) {
		t.Fatalf("err = %v", r.err)
	}
	select {
	case r := <-heard:
		t.Fatalf("a decline was refused: %+v", r)
	default:
	}
}

// The agent withdraws its request and asks again for more just before
// the person's y: the y names the card on screen, which is gone, and
// approves nothing; the new request waits for its own answer.
func TestSwappedRequestIsNotApprovedByTheOldCard(t *testing.T) {
	f, heard := tillWith(t, nil)
	ctx, giveUp := context.WithCancel(agent.WithCaller(context.Background(), "agent-a"))
	first := make(chan error, 1)
	go func() {
		_, err := f.rt.DispatchUnknown(ctx, "tip", json.RawMessage(`{"Amount": 95}`), agent.Invocation{Transport: agent.MCP})
		first <- err
	}()
	card := f.asked(1)[0]
	giveUp()
	var c *agent.CancelledError
	if err := <-first; !errors.As(err, &c) {
		t.Fatalf("first call: %v", err)
	}
	second := f.call("agent-a", "tip", `{"Amount": 1175}`)
	swapped := loopwait.Until(t, f.prog, "the new request", func(m till) bool {
		return len(m.Asked) == 1 && m.Asked[0].ID != card.ID
	}).Asked[0]

	f.person(card.Approve("you")) // the y on the card the person read
	if r := heard.next(t); r.Why != agent.AnswerNotPending || r.Answer.ID != card.ID || r.Request.ID != "" {
		t.Fatalf("refusal = %+v", r)
	}
	// The old card's fingerprint on the new request's id approves nothing
	// either.
	f.person(agent.ApprovalAnswer{ID: swapped.ID, Approve: true, By: "you", Shown: card.Digest()})
	if r := heard.next(t); r.Why != agent.AnswerNotShown || r.Request.ID != swapped.ID {
		t.Fatalf("refusal = %+v", r)
	}
	f.stillHeld(second, swapped)

	f.person(swapped.Approve("you"))
	if r := result(t, second); r.err != nil {
		t.Fatal(r.err)
	}
	if m := loopwait.Until(t, f.prog, "the tip", func(m till) bool { return len(m.Paid) > 0 }); !slices.Equal(m.Paid, []string{"tip-1175"}) {
		t.Fatalf("paid %v", m.Paid)
	}
}

// Request ids are the runtime's own: an application whose invocation ids
// repeat (a constant, or each runtime counting from 1) still gets one
// request per held call, each answered on its own.
func TestRequestIDsAreUniqueWhateverTheInvocationIDs(t *testing.T) {
	t.Run("repeated", func(t *testing.T) {
		f, _ := tillWith(t, func() string { return "the-same-id" })
		a := f.call("agent-a", "tip", `{"Amount": 20}`)
		f.asked(1)
		b := f.call("agent-b", "tip", `{"Amount": 30}`)
		reqs := f.asked(2)
		if p := f.rt.PendingApprovals(); len(p) != 2 || p[0].ID != reqs[0].ID || p[1].ID != reqs[1].ID {
			t.Fatalf("pending %+v, asked %+v", p, reqs)
		}
		twoPayments(t, f, a, b)
	})
	t.Run("counted per runtime", func(t *testing.T) {
		f, heard := tillWith(t, counter())
		g := *f
		g.rt = agent.MustBind(f.rt.Contract(), f.prog, &agent.BindOptions[agent.NoPrincipal]{NewInvocationID: counter()})
		a := f.call("agent-a", "tip", `{"Amount": 20}`)
		f.asked(1)
		b := g.call("agent-b", "tip", `{"Amount": 30}`)
		reqs := f.asked(2)
		if reqs[0].Invocation != reqs[1].Invocation {
			t.Fatalf("the invocation ids differ (%q, %q): the test shows nothing", reqs[0].Invocation, reqs[1].Invocation)
		}
		// Each runtime lists its own; each answer reaches its own.
		if p, q := f.rt.PendingApprovals(), g.rt.PendingApprovals(); len(p) != 1 || len(q) != 1 || p[0].ID == q[0].ID {
			t.Fatalf("pending %+v and %+v", p, q)
		}
		twoPayments(t, f, a, b)
		// The answer to the other runtime's request is not this one's
		// refusal.
		select {
		case r := <-heard:
			t.Fatalf("another runtime's answer reported refused: %+v", r)
		default:
		}
	})
}

func counter() func() string {
	var n atomic.Int64
	return func() string { return fmt.Sprintf("id-%d", n.Add(1)) }
}

// twoPayments answers two held tips one at a time: each answer runs one.
func twoPayments(t *testing.T, f *tillFixture, a, b <-chan callResult) {
	t.Helper()
	reqs := f.asked(2)
	if reqs[0].ID == reqs[1].ID {
		t.Fatalf("two requests share the id %q", reqs[0].ID)
	}
	f.person(reqs[1].Approve("you"))
	if r := result(t, b); r.err != nil {
		t.Fatal(r.err)
	}
	m := loopwait.Until(t, f.prog, "one tip", func(m till) bool { return len(m.Paid) == 1 && len(m.Asked) == 1 })
	if m.Paid[0] != "tip-30" || m.Asked[0].ID != reqs[0].ID {
		t.Fatalf("after one answer: %+v", m)
	}
	select {
	case r := <-a:
		t.Fatalf("one answer ended both calls: %+v %v", r.res, r.err)
	default:
	}
	f.person(reqs[0].Approve("you"))
	if r := result(t, a); r.err != nil {
		t.Fatal(r.err)
	}
	loopwait.Until(t, f.prog, "both tips", func(m till) bool { return slices.Equal(m.Paid, []string{"tip-30", "tip-20"}) })
}

// When the application stops, nobody is left to answer: a held call is
// answered at once, as the person having left, not at the timeout.
func TestHostStoppingAnswersHeldCallsPersonLeft(t *testing.T) {
	c := agent.Make(agent.Definition[till, agent.NoPrincipal]{Capabilities: []agent.Capability[till, agent.NoPrincipal]{
		agent.Expose(agent.Variant[Tip, till, agent.NoPrincipal]{Name: "tip", Description: "Tip.",
			Approval: &agent.Approval[Tip, till, agent.NoPrincipal]{Summary: "Leave a tip."}}),
	}})
	prog := loop.New(loop.Funcs(func() (till, loop.Cmd[any]) { return till{}, nil }, tillUpdate), nil)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { stop(); <-done })
	audit := agent.NewAuditLog(agent.AuditOptions[agent.NoPrincipal]{})
	rt := agent.MustBind(c, prog, &agent.BindOptions[agent.NoPrincipal]{Audit: audit, ApprovalTimeout: time.Hour})
	f := &tillFixture{t: t, prog: prog, rt: rt}
	ch := f.call("agent-a", "tip", `{"Amount": 3}`)
	req := f.asked(1)[0]
	stop()
	r := result(t, ch)
	var left *agent.PersonLeftError
	if !errors.As(r.err, &left) || left.Approval != req.ID || left.Tag() != agent.TagPersonLeft {
		t.Fatalf("err = %v", r.err)
	}
	var timeout *agent.ApprovalTimeoutError
	if errors.As(r.err, &timeout) {
		t.Fatal("the person leaving reads as a timeout")
	}
	if p := rt.PendingApprovals(); len(p) != 0 {
		t.Fatalf("pending %+v", p)
	}
	if last := audit.Entries()[audit.Len()-1]; last.Approval == nil || last.Approval.Answer != agent.WithdrawnPersonLeft {
		t.Fatalf("final entry = %+v", last)
	}
	if b, _ := json.Marshal(left); string(b) == "" || !json.Valid(b) {
		t.Fatalf("encoding = %s", b)
	}
}

// gate counts what the person's screen was told: requests asked, and
// withdrawals by why.
type gate struct {
	Asked     int
	Withdrawn map[agent.Withdrawal]int
}

func gateUpdate(m gate, msg any) (gate, loop.Cmd[any]) {
	switch msg := msg.(type) {
	case agent.ApprovalAsked:
		m.Asked++
	case agent.ApprovalWithdrawn:
		w := make(map[agent.Withdrawal]int, len(m.Withdrawn)+1)
		for k, v := range m.Withdrawn {
			w[k] = v
		}
		w[msg.Why]++
		m.Withdrawn = w
	}
	return m, nil
}

// Three thousand held calls whose callers give up leave nothing pending,
// and every card is withdrawn: the screen is told of each.
func TestManyGivenUpCallsLeaveNothingPending(t *testing.T) {
	const n = 3000
	c := agent.Make(agent.Definition[gate, agent.NoPrincipal]{Capabilities: []agent.Capability[gate, agent.NoPrincipal]{
		agent.Expose(agent.Variant[Tip, gate, agent.NoPrincipal]{Name: "tip", Description: "Tip.",
			Approval: &agent.Approval[Tip, gate, agent.NoPrincipal]{Summary: "Leave a tip."}}),
	}})
	prog := loop.New(loop.Funcs(func() (gate, loop.Cmd[any]) { return gate{}, nil }, gateUpdate), nil)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { stop(); <-done })
	// What is held at once is bounded (HeldBound); this test is about
	// callers giving up, so it holds all three thousand.
	rt := agent.MustBind(c, prog, &agent.BindOptions[agent.NoPrincipal]{HeldBound: agent.NewHeldBound[agent.NoPrincipal](-1, -1, nil)})

	callers, giveUp := context.WithCancel(context.Background())
	errs := make(chan error, n)
	for i := range n {
		go func() {
			ctx := agent.WithCaller(callers, fmt.Sprintf("agent-%d", i))
			_, err := rt.DispatchUnknown(ctx, "tip", json.RawMessage(`{"Amount": 5}`), agent.Invocation{Transport: agent.MCP})
			errs <- err
		}()
	}
	// Bounded generously: 3,000 calls under the race detector on a
	// loaded machine; each wait still wakes on the Program's changes.
	const bound = 2 * time.Minute
	loopwait.UntilWithin(t, prog, bound, "every request asked", func(m gate) bool { return m.Asked == n })
	if p := rt.PendingApprovals(); len(p) != n {
		t.Fatalf("%d pending, want %d", len(p), n)
	}
	giveUp()
	for range n {
		select {
		case err := <-errs:
			var c *agent.CancelledError
			if !errors.As(err, &c) {
				t.Fatalf("err = %v", err)
			}
		case <-time.After(bound):
			t.Fatal("a given-up call never returned")
		}
	}
	if p := rt.PendingApprovals(); len(p) != 0 {
		t.Fatalf("%d requests still pending", len(p))
	}
	m := loopwait.UntilWithin(t, prog, bound, "every card withdrawn", func(m gate) bool { return m.Withdrawn[agent.WithdrawnCancelled] == n })
	if len(m.Withdrawn) != 1 {
		t.Fatalf("withdrawn %v", m.Withdrawn)
	}
}
