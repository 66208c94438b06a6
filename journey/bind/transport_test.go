package bind_test

import (
	"context"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
)

// forAgents declares increment as a capability the person approves when
// an agent calls it (not in-app), as examples/todo's clear_completed is.
func forAgents() capabilities {
	c := declare("increment")
	c.inc = agent.Expose(agent.Variant[Increment, counter, np]{Name: "increment", Description: "Add one.",
		Approval: &agent.Approval[Increment, counter, np]{Summary: "Add one.",
			When: func(_ Increment, call agent.Call[counter, np]) bool { return call.Invocation.Transport != agent.InApp }}})
	return c
}

// A journey bound with the zero Options fires as an agent: the approval
// meant for agents holds its fire until the person answers.
func TestZeroOptionsFireAsAnAgent(t *testing.T) {
	c := forAgents()
	r := run(t, c.contract())
	j := bind.MustNew("counter", r.rt, r.p.Model, graph(c), bind.Options{})
	defer j.Close()
	fired := j.Session().Fire(context.Background(), "home.increment", journey.FireOptions{})
	if !fired.OK {
		t.Fatalf("refused: %+v", fired)
	}
	held := r.next(t)
	if held.Decision != agent.DecisionHeld || held.Transport != bind.JourneyTransport {
		t.Fatalf("first entry %+v: the fire was not held", held)
	}
	pending := r.rt.PendingApprovals()
	if len(pending) != 1 || pending[0].Transport != bind.JourneyTransport || r.p.Model().Count != 0 {
		t.Fatalf("pending %+v, count %d", pending, r.p.Model().Count)
	}
	if err := r.p.Dispatch(context.Background(), pending[0].Approve("the person")); err != nil {
		t.Fatal(err)
	}
	if st := settle(t, j.Session(), fired.TransitionID); st.Outcome != journey.OutcomeCommitted {
		t.Fatalf("settlement %+v", st)
	}
	if e := r.next(t); e.Decision != agent.DecisionDispatched || e.Approval == nil || e.Approval.Answer != agent.WithdrawnApproved {
		t.Fatalf("final entry %+v", e)
	}
}

// In-app stays reachable, named explicitly: the fire is the person's own
// and is not held.
func TestInAppFiresAreNamedExplicitly(t *testing.T) {
	c := forAgents()
	r := run(t, c.contract())
	j := bind.MustNew("counter", r.rt, r.p.Model, graph(c), bind.Options{Transport: agent.InApp})
	defer j.Close()
	st := fire(t, j.Session(), "home.increment")
	if st.Outcome != journey.OutcomeCommitted {
		t.Fatalf("settlement %+v", st)
	}
	if e := r.next(t); e.Decision != agent.DecisionDispatched || e.Transport != agent.InApp || e.Approval != nil {
		t.Fatalf("entry %+v", e)
	}
}

// A journey closed while its fire waits for the person (its MCP session
// ended) withdraws the request: the card goes, and the person's later
// approval of it runs nothing.
func TestClosedJourneyWithdrawsItsHeldFire(t *testing.T) {
	c := forAgents()
	r := run(t, c.contract())
	withdrawn := make(chan agent.ApprovalWithdrawn, 1)
	answered := make(chan struct{})
	defer r.p.Observe(func(msg any) {
		switch msg := msg.(type) {
		case agent.ApprovalWithdrawn:
			withdrawn <- msg
		case agent.ApprovalAnswer:
			close(answered)
		}
	})()
	j := bind.MustNew("counter", r.rt, r.p.Model, graph(c), bind.Options{})
	fired := j.Session().Fire(context.Background(), "home.increment", journey.FireOptions{})
	if !fired.OK {
		t.Fatalf("refused: %+v", fired)
	}
	if held := r.next(t); held.Decision != agent.DecisionHeld {
		t.Fatalf("first entry %+v", held)
	}
	req := r.rt.PendingApprovals()[0]
	j.Close()
	select {
	case w := <-withdrawn:
		if w.ID != req.ID || w.Why != agent.WithdrawnCancelled {
			t.Fatalf("withdrawn %+v", w)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("closing the journey left its request on screen")
	}
	if p := r.rt.PendingApprovals(); len(p) != 0 {
		t.Fatalf("pending %+v", p)
	}
	if err := r.p.Dispatch(context.Background(), req.Approve("the person")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-answered:
	case <-time.After(5 * time.Second):
		t.Fatal("the late answer was never applied")
	}
	if n := r.p.Model().Count; n != 0 {
		t.Fatalf("count %d: a closed journey's fire ran", n)
	}
}
