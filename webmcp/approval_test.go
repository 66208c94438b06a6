package webmcp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
)

// A register the person keeps open in the page: an agent's refund waits
// for them, a note does not.
type register struct {
	Refunded []string
	Notes    []string
	Asked    []agent.ApprovalRequest
}

type (
	Refund struct {
		Order string `json:"order"`
	}
	Jot struct {
		Text string `json:"text"`
	}
)

func registerUpdate(m register, msg any) (register, loop.Cmd[any]) {
	switch msg := msg.(type) {
	case Refund:
		m.Refunded = append(slices.Clone(m.Refunded), msg.Order)
	case Jot:
		m.Notes = append(slices.Clone(m.Notes), msg.Text)
	case agent.ApprovalAsked:
		m.Asked = append(slices.Clone(m.Asked), msg.Request)
	case agent.ApprovalWithdrawn:
		m.Asked = slices.DeleteFunc(slices.Clone(m.Asked), func(q agent.ApprovalRequest) bool { return q.ID == msg.ID })
	}
	return m, nil
}

type registerPage struct {
	t    *testing.T
	prog *loop.Program[register, any]
	fc   *fakeContext
}

// openRegister runs the register and registers its tools against a
// stand-in model context; requests wait timeout for the person.
func openRegister(t *testing.T, timeout time.Duration) *registerPage {
	t.Helper()
	fc := newFakeContext()
	p := openRegisterIn(t, fc, timeout)
	p.fc = fc
	return p
}

// openRegisterIn runs the register and registers its tools against mc
// (nil: the page's own model context); requests wait timeout for the
// person.
func openRegisterIn(t *testing.T, mc ModelContext, timeout time.Duration) *registerPage {
	t.Helper()
	c := agent.Make(agent.Definition[register, agent.NoPrincipal]{
		Capabilities: []agent.Capability[register, agent.NoPrincipal]{
			agent.Expose(agent.Variant[Refund, register, agent.NoPrincipal]{
				Name: "refund", Description: "Refund an order.",
				Approval: &agent.Approval[Refund, register, agent.NoPrincipal]{Summary: "Refund this order."},
			}),
			agent.Expose(agent.Variant[Jot, register, agent.NoPrincipal]{Name: "jot", Description: "Jot a note."}),
		},
	})
	prog := loop.New(loop.Funcs(func() (register, loop.Cmd[any]) { return register{}, nil }, registerUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	rt := agent.MustBind(c, prog, &agent.BindOptions[agent.NoPrincipal]{ApprovalTimeout: timeout})
	reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: mc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Unregister(); cancel(); <-done })
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	return &registerPage{t: t, prog: prog}
}

// call runs one tool call in the background, as the browser would.
func (p *registerPage) call(ctx context.Context, name, input string) <-chan ToolResult {
	p.t.Helper()
	tool, ok := p.fc.tool(name)
	if !ok {
		p.t.Fatalf("%s not registered", name)
	}
	out := make(chan ToolResult, 1)
	go func() { out <- tool.Execute(ctx, json.RawMessage(input)) }()
	return out
}

// asked waits until the page shows one request, and returns it.
func (p *registerPage) asked() agent.ApprovalRequest {
	p.t.Helper()
	return loopwait.Until(p.t, p.prog, "the request on the page", func(m register) bool { return len(m.Asked) == 1 }).Asked[0]
}

// noneAsked waits until the page shows no request.
func (p *registerPage) noneAsked() {
	p.t.Helper()
	loopwait.Until(p.t, p.prog, "no request on the page", func(m register) bool { return len(m.Asked) == 0 })
}

func (p *registerPage) answer(a agent.ApprovalAnswer) {
	p.t.Helper()
	if err := p.prog.Dispatch(context.Background(), a); err != nil {
		p.t.Fatal(err)
	}
}

func (p *registerPage) nothingRefunded() {
	p.t.Helper()
	if got := p.prog.Model().Refunded; len(got) != 0 {
		p.t.Fatalf("refunded %v, want nothing", got)
	}
}

func structured(t *testing.T, r ToolResult) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(r.StructuredContent, &d); err != nil {
		t.Fatalf("structuredContent %s: %v", r.StructuredContent, err)
	}
	return d
}

// A tool whose calls the person approves says it is consequential; one
// that declares nothing claims nothing.
func TestApprovalToolIsConsequential(t *testing.T) {
	p := openRegister(t, time.Minute)
	refund, _ := p.fc.tool("refund")
	if refund.Annotations == nil || *refund.Annotations != (Annotations{ConsequentialHint: true}) {
		t.Errorf("refund annotations %+v, want consequentialHint", refund.Annotations)
	}
	if jot, _ := p.fc.tool("jot"); jot.Annotations != nil {
		t.Errorf("jot annotations %+v, want none", jot.Annotations)
	}
}

// The call waits while the page asks the person; approved, it runs and
// answers as usual.
func TestApprovedToolCallRuns(t *testing.T) {
	p := openRegister(t, time.Minute)
	res := p.call(context.Background(), "refund", `{"order":"order-7"}`)
	req := p.asked()
	if string(req.Input) != `{"order":"order-7"}` || req.Transport != agent.WebMCP {
		t.Fatalf("request %+v", req)
	}
	p.nothingRefunded()
	p.answer(req.Approve(""))
	if r := <-res; r.IsError || structured(t, r)["tag"] != "Refund" {
		t.Fatalf("approved call %+v", r)
	}
	if m := loopwait.Until(t, p.prog, "the refund", func(m register) bool { return len(m.Refunded) > 0 }); !slices.Equal(m.Refunded, []string{"order-7"}) {
		t.Fatalf("refunded = %v", m.Refunded)
	}
	p.noneAsked()
}

// Declined: a tool error tagged AgentDeclinedError, the person's reason
// in structuredContent only, nothing run.
func TestDeclinedToolCallIsAToolError(t *testing.T) {
	p := openRegister(t, time.Minute)
	res := p.call(context.Background(), "refund", `{"order":"order-8"}`)
	req := p.asked()
	p.answer(agent.ApprovalAnswer{ID: req.ID, Reason: "already refunded by phone"})
	r := <-res
	if !r.IsError {
		t.Fatalf("declined call %+v, want a tool error", r)
	}
	if d := structured(t, r); d["_tag"] != agent.TagDeclined || d["reason"] != "already refunded by phone" || d["approval"] != req.ID {
		t.Fatalf("declined data %v", d)
	}
	if strings.Contains(r.Text(), "phone") || r.Text() == "" {
		t.Fatalf("declined text %q: authored, the reason only in the data", r.Text())
	}
	p.nothingRefunded()
}

// Not answered in time: a tool error tagged AgentApprovalTimeoutError,
// the request gone from the page, nothing run.
func TestUnansweredToolCallTimesOut(t *testing.T) {
	p := openRegister(t, 20*time.Millisecond)
	r := <-p.call(context.Background(), "refund", `{"order":"order-9"}`)
	if !r.IsError {
		t.Fatalf("unanswered call %+v, want a tool error", r)
	}
	if d := structured(t, r); d["_tag"] != agent.TagApprovalTimeout || d["retrySafe"] != true {
		t.Fatalf("timeout data %v", d)
	}
	p.noneAsked()
	p.nothingRefunded()
}

// A call the browser cancels withdraws its request from the page; an
// answer after that approves nothing.
func TestCancelledToolCallWithdrawsTheRequest(t *testing.T) {
	p := openRegister(t, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	res := p.call(ctx, "refund", `{"order":"order-10"}`)
	req := p.asked()
	cancel()
	r := <-res
	if d := structured(t, r); !r.IsError || d["_tag"] != agent.TagCancelled {
		t.Fatalf("cancelled call %+v", r)
	}
	p.noneAsked()
	p.answer(req.Approve(""))
	if r := <-p.call(context.Background(), "jot", `{"text":"barrier"}`); r.IsError {
		t.Fatalf("jot %+v", r)
	}
	p.nothingRefunded()
}
