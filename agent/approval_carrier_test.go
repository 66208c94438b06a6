package agent_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// An application whose Message type is sealed, as many Go Elm-style apps
// write it: no type of package agent can be one of its Messages, so it
// carries the approval Messages in its own.
type sealed interface{ isSealed() }

type (
	settle    struct{ Bill string }
	command   struct{ Kind, ID string } // a general-purpose Message
	asked     struct{ agent.ApprovalAsked }
	withdrawn struct{ agent.ApprovalWithdrawn }
	answer    struct{ agent.ApprovalAnswer }
)

func (settle) isSealed()    {}
func (command) isSealed()   {}
func (asked) isSealed()     {}
func (withdrawn) isSealed() {}
func (answer) isSealed()    {}

type ledger struct {
	Settled []string
	Asked   []agent.ApprovalRequest
	Ended   []string
}

func ledgerUpdate(m ledger, msg sealed) (ledger, loop.Cmd[sealed]) {
	switch msg := msg.(type) {
	case settle:
		m.Settled = append(slices.Clone(m.Settled), msg.Bill)
	case asked:
		m.Asked = append(slices.Clone(m.Asked), msg.Request)
	case withdrawn:
		m.Asked = slices.DeleteFunc(slices.Clone(m.Asked), func(q agent.ApprovalRequest) bool { return q.ID == msg.ID })
		m.Ended = append(slices.Clone(m.Ended), string(msg.Why))
	}
	return m, nil
}

// carrying is the application's host: the Program, and how its own
// Messages carry the approval ones. byContent also reads a command of
// kind "approve" as an answer, as a careless application might.
type carrying struct {
	*loop.Program[ledger, sealed]
	byContent bool
}

func (carrying) CarryApprovalAsked(m agent.ApprovalAsked) sealed { return asked{m} }
func (carrying) CarryApprovalWithdrawn(m agent.ApprovalWithdrawn) sealed {
	return withdrawn{m}
}
func (h carrying) ApprovalAnswerOf(msg sealed) (agent.ApprovalAnswer, bool) {
	switch msg := msg.(type) {
	case answer:
		return msg.ApprovalAnswer, true
	case command:
		if h.byContent && msg.Kind == "approve" {
			return agent.ApprovalAnswer{ID: msg.ID, Approve: true}, true
		}
	}
	return agent.ApprovalAnswer{}, false
}

func settleCap() agent.Capability[ledger, agent.NoPrincipal] {
	return agent.Expose(agent.Variant[settle, ledger, agent.NoPrincipal]{
		Name: "settle", Description: "Settle a bill.",
		Approval: &agent.Approval[settle, ledger, agent.NoPrincipal]{Summary: "Settle the bill."},
	})
}

func runLedger(t *testing.T) *loop.Program[ledger, sealed] {
	t.Helper()
	prog := loop.New(loop.Funcs(func() (ledger, loop.Cmd[sealed]) { return ledger{}, nil }, ledgerUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return prog
}

// Without a carrier, Bind says what is missing and how to supply it.
func TestSealedMessagesNeedACarrier(t *testing.T) {
	c := agent.Make(agent.Definition[ledger, agent.NoPrincipal]{Capabilities: []agent.Capability[ledger, agent.NoPrincipal]{settleCap()}})
	_, err := agent.Bind(c, runLedger(t), nil)
	if err == nil || !strings.Contains(err.Error(), "ApprovalCarrier") || !strings.Contains(err.Error(), `"settle"`) {
		t.Fatalf("want an error naming settle and ApprovalCarrier, got %v", err)
	}
}

// With a carrier, the request reaches the app in its own Message, the
// person's answer in its own Message ends it, and the call runs or is
// declined as on any host.
func TestSealedMessagesCarryTheApproval(t *testing.T) {
	prog := runLedger(t)
	c := agent.Make(agent.Definition[ledger, agent.NoPrincipal]{Capabilities: []agent.Capability[ledger, agent.NoPrincipal]{settleCap()}})
	rt := agent.MustBind(c, carrying{Program: prog}, &agent.BindOptions[agent.NoPrincipal]{ApprovalTimeout: time.Minute})
	call := func(bill string) <-chan error {
		out := make(chan error, 1)
		go func() {
			_, err := rt.DispatchUnknown(context.Background(), "settle", []byte(`{"Bill":"`+bill+`"}`), agent.Invocation{Transport: agent.MCP})
			out <- err
		}()
		return out
	}
	changed := make(chan struct{}, 1)
	defer prog.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})()
	until := func(what string, cond func(ledger) bool) ledger {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for !cond(prog.Model()) {
			select {
			case <-changed:
			case <-timeout:
				t.Fatalf("never saw %s: %+v", what, prog.Model())
			}
		}
		return prog.Model()
	}
	// shown is the request for bill, once the app's Model holds it.
	shown := func(bill string) agent.ApprovalRequest {
		t.Helper()
		var q agent.ApprovalRequest
		until("the request for "+bill, func(m ledger) bool {
			i := slices.IndexFunc(m.Asked, func(q agent.ApprovalRequest) bool { return strings.Contains(string(q.Input), bill) })
			if i >= 0 {
				q = m.Asked[i]
			}
			return i >= 0
		})
		return q
	}
	approved := call("b-1")
	q := shown("b-1")
	if q.Capability != "settle" || len(prog.Model().Settled) != 0 {
		t.Fatalf("held: %+v, settled %v", q, prog.Model().Settled)
	}
	if err := prog.Dispatch(context.Background(), answer{q.Approve("you")}); err != nil {
		t.Fatal(err)
	}
	if err := <-approved; err != nil {
		t.Fatalf("approved call: %v", err)
	}
	declined := call("b-2")
	q = shown("b-2")
	if err := prog.Dispatch(context.Background(), answer{agent.ApprovalAnswer{ID: q.ID, Reason: "not this one"}}); err != nil {
		t.Fatal(err)
	}
	var d *agent.DeclinedError
	if err := <-declined; !errors.As(err, &d) || d.Reason != "not this one" {
		t.Fatalf("declined call: %v", err)
	}
	m := until("both requests withdrawn", func(m ledger) bool { return len(m.Ended) == 2 })
	if !slices.Equal(m.Settled, []string{"b-1"}) || len(m.Asked) != 0 || !slices.Equal(m.Ended, []string{"approved", "declined"}) {
		t.Fatalf("ledger: %+v", m)
	}
}

// No agent may approve: a capability whose Message the carrier reads as
// the answer is refused at Bind, and one the carrier reads as the answer
// by its content is refused at the call, nothing dispatched.
func TestAnAgentsMessageNeverCarriesTheAnswer(t *testing.T) {
	prog := runLedger(t)
	byType := agent.Make(agent.Definition[ledger, agent.NoPrincipal]{Capabilities: []agent.Capability[ledger, agent.NoPrincipal]{
		settleCap(), agent.Expose(agent.Variant[answer, ledger, agent.NoPrincipal]{Name: "answer", Description: "Answer."}),
	}})
	if _, err := agent.Bind(byType, carrying{Program: prog}, nil); err == nil || !strings.Contains(err.Error(), `"answer"`) || !strings.Contains(err.Error(), "no agent may approve") {
		t.Fatalf("want an error naming answer, got %v", err)
	}
	byContent := agent.Make(agent.Definition[ledger, agent.NoPrincipal]{Capabilities: []agent.Capability[ledger, agent.NoPrincipal]{
		settleCap(), agent.Expose(agent.Variant[command, ledger, agent.NoPrincipal]{Name: "command", Description: "Run a command."}),
	}})
	rt := agent.MustBind(byContent, carrying{Program: prog, byContent: true}, nil)
	before := rt.Version()
	_, err := rt.DispatchUnknown(context.Background(), "command", []byte(`{"Kind":"approve","ID":"x"}`), agent.Invocation{Transport: agent.MCP})
	var defect *agent.DefectError
	if !errors.As(err, &defect) || defect.Stage != "approval" || defect.Capability != "command" {
		t.Fatalf("an agent's Message carrying an answer: %v", err)
	}
	if rt.Version() != before {
		t.Fatal("the refused Message was dispatched")
	}
	if _, err := rt.DispatchUnknown(context.Background(), "command", []byte(`{"Kind":"list","ID":""}`), agent.Invocation{Transport: agent.MCP}); err != nil {
		t.Fatalf("any other command runs: %v", err)
	}
}
