package agent_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// The application's Message type is sealed: only its own types are
// Messages.
type deskMsg interface{ isDeskMsg() }

type (
	refund      struct{ Amount int }
	deskAsked   struct{ agent.ApprovalAsked }
	deskEnded   struct{ agent.ApprovalWithdrawn }
	deskAnswers struct{ agent.ApprovalAnswer }
)

func (refund) isDeskMsg()      {}
func (deskAsked) isDeskMsg()   {}
func (deskEnded) isDeskMsg()   {}
func (deskAnswers) isDeskMsg() {}

type desk struct {
	Refunded []int
	Asked    []agent.ApprovalRequest
}

func deskUpdate(m desk, msg deskMsg) (desk, loop.Cmd[deskMsg]) {
	switch msg := msg.(type) {
	case refund:
		m.Refunded = append(slices.Clone(m.Refunded), msg.Amount)
	case deskAsked:
		m.Asked = append(slices.Clone(m.Asked), msg.Request)
	case deskEnded:
		m.Asked = slices.DeleteFunc(slices.Clone(m.Asked), func(q agent.ApprovalRequest) bool { return q.ID == msg.ID })
	}
	return m, nil
}

// deskHost is the Program, and how the desk's own Messages carry the
// approval Messages.
type deskHost struct{ *loop.Program[desk, deskMsg] }

func (deskHost) CarryApprovalAsked(m agent.ApprovalAsked) deskMsg         { return deskAsked{m} }
func (deskHost) CarryApprovalWithdrawn(m agent.ApprovalWithdrawn) deskMsg { return deskEnded{m} }
func (deskHost) ApprovalAnswerOf(msg deskMsg) (agent.ApprovalAnswer, bool) {
	a, ok := msg.(deskAnswers)
	return a.ApprovalAnswer, ok
}

// An application with a sealed Message type asks the person through its
// own Messages: its host implements ApprovalCarrier.
func ExampleApprovalCarrier() {
	refunds := agent.Expose(agent.Variant[refund, desk, agent.NoPrincipal]{
		Name: "refund", Description: "Refund the customer.",
		Approval: &agent.Approval[refund, desk, agent.NoPrincipal]{Summary: "Refund the customer."},
	})
	contract := agent.Make(agent.Definition[desk, agent.NoPrincipal]{Capabilities: []agent.Capability[desk, agent.NoPrincipal]{refunds}})
	prog := loop.New(loop.Funcs(func() (desk, loop.Cmd[deskMsg]) { return desk{}, nil }, deskUpdate), nil)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go prog.Run(ctx)
	rt := agent.MustBind(contract, deskHost{prog}, nil)

	// The person answers the request when the desk's Model shows it.
	asked := make(chan agent.ApprovalRequest, 1)
	defer prog.Subscribe(func() {
		if q := prog.Model().Asked; len(q) > 0 {
			select {
			case asked <- q[0]:
			default:
			}
		}
	})()
	go func() {
		q := <-asked
		fmt.Println("the person is asked:", q.Summary)
		_ = prog.Dispatch(ctx, deskAnswers{q.Approve("")})
	}()

	_, err := rt.DispatchUnknown(ctx, "refund", []byte(`{"Amount":30}`), agent.Invocation{Transport: agent.MCP})
	fmt.Println("refund:", err)
	// Output:
	// the person is asked: Refund the customer.
	// refund: <nil>
}
