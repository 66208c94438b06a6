package nativeagent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
	"github.com/foldagent/foldagent/nativeagent"
)

// A register the person keeps open: an agent's refund waits for them,
// a note does not.
type register struct {
	Refunded []string
	Notes    []string
	Drawer   int
	Asked    []agent.ApprovalRequest
}

type (
	Refund struct {
		Order string `json:"order"`
	}
	Jot struct {
		Text string `json:"text"`
	}
	Payout     struct{}
	OpenDrawer struct{ N int } // the person opens another drawer
)

var registerContract = agent.Make(agent.Definition[register, agent.NoPrincipal]{
	Capabilities: []agent.Capability[register, agent.NoPrincipal]{
		agent.Expose(agent.Variant[Refund, register, agent.NoPrincipal]{
			Name: "refund", Description: "Refund an order.",
			Approval: &agent.Approval[Refund, register, agent.NoPrincipal]{Summary: "Refund this order."},
		}),
		agent.Expose(agent.Variant[Jot, register, agent.NoPrincipal]{Name: "jot", Description: "Jot a note."}),
		agent.Expose(agent.Variant[Payout, register, agent.NoPrincipal]{
			Name: "payout", Description: "Pay out the open drawer.",
			Watches:  []agent.Watch[register]{agent.Watching("drawer", func(m register) int { return m.Drawer })},
			Approval: &agent.Approval[Payout, register, agent.NoPrincipal]{Summary: "Pay out the open drawer."},
		}),
	},
})

func registerUpdate(m register, msg any) (register, loop.Cmd[any]) {
	switch msg := msg.(type) {
	case Refund:
		m.Refunded = append(slices.Clone(m.Refunded), msg.Order)
	case Jot:
		m.Notes = append(slices.Clone(m.Notes), msg.Text)
	case OpenDrawer:
		m.Drawer = msg.N
	case Payout:
		m.Refunded = append(slices.Clone(m.Refunded), "payout")
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
	url  string
}

func startRegister(t *testing.T, timeout time.Duration) *registerFixture {
	t.Helper()
	return startRegisterWith(t, timeout, nil)
}

// startRegisterWith is startRegister with the Handler's options adjusted
// by configure.
func startRegisterWith(t *testing.T, timeout time.Duration, configure func(*nativeagent.Options)) *registerFixture {
	t.Helper()
	prog := loop.New(loop.Funcs(func() (register, loop.Cmd[any]) { return register{}, nil }, registerUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	opts := nativeagent.Options{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			if !strings.HasPrefix(token, "clerk") || !strings.HasSuffix(token, "-tok") {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{UserID: strings.TrimSuffix(token, "-tok")}, nil
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (nativeagent.Runtime, error) {
			return agent.Bind(registerContract, prog, &agent.BindOptions[agent.NoPrincipal]{ApprovalTimeout: timeout})
		},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if configure != nil {
		configure(&opts)
	}
	h, err := nativeagent.NewHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); cancel(); <-done })
	return &registerFixture{t: t, prog: prog, url: srv.URL + nativeagent.DefaultPrefix}
}

type answered struct {
	status int
	res    nativeagent.Result
	err    error
}

// post calls an action in the background with ctx.
func (f *registerFixture) post(ctx context.Context, action string, body string) <-chan answered {
	out := make(chan answered, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.url+"/actions/"+action, bytes.NewReader([]byte(body)))
		req.Header.Set("Authorization", "Bearer clerk-tok")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			out <- answered{err: err}
			return
		}
		defer resp.Body.Close()
		var a answered
		a.status = resp.StatusCode
		b, _ := io.ReadAll(resp.Body)
		a.err = json.Unmarshal(b, &a.res)
		out <- a
	}()
	return out
}

// asked waits until the app shows one request, and returns it.
func (f *registerFixture) asked() agent.ApprovalRequest {
	f.t.Helper()
	return loopwait.Until(f.t, f.prog, "the request on the person's screen", func(m register) bool { return len(m.Asked) == 1 }).Asked[0]
}

// noneAsked waits until the app shows no request.
func (f *registerFixture) noneAsked() {
	f.t.Helper()
	loopwait.Until(f.t, f.prog, "no request on the person's screen", func(m register) bool { return len(m.Asked) == 0 })
}

// answer is what the person does in the app: their answer to a
// request, or anything else they do.
func (f *registerFixture) answer(msg any) {
	f.t.Helper()
	if err := f.prog.Dispatch(context.Background(), msg); err != nil {
		f.t.Fatal(err)
	}
}

func (f *registerFixture) nothingRefunded() {
	f.t.Helper()
	if got := f.prog.Model().Refunded; len(got) != 0 {
		f.t.Fatalf("refunded %v, want nothing", got)
	}
}

func dataOf(t *testing.T, r nativeagent.Result) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(r.Data, &d); err != nil {
		t.Fatalf("data %s: %v", r.Data, err)
	}
	return d
}

// catalogue reads the catalogue, which is also the caller's look.
func (f *registerFixture) catalogue() map[string]map[string]any {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.url+"/actions", nil)
	req.Header.Set("Authorization", "Bearer clerk-tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var cat map[string]map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&cat); err != nil {
		f.t.Fatal(err)
	}
	return cat
}

// The catalogue marks the actions that need the person's approval with
// the framework's own needsApproval, and only those.
func TestCatalogueMarksNeedsApproval(t *testing.T) {
	f := startRegister(t, time.Minute)
	cat := f.catalogue()
	if cat["refund"]["needsApproval"] != true {
		t.Errorf("refund entry %v, want needsApproval true", cat["refund"])
	}
	if _, ok := cat["jot"]["needsApproval"]; ok {
		t.Errorf("jot entry %v, want no needsApproval", cat["jot"])
	}
}

// The action waits while the person is asked; approved, it answers as
// any action does, and ran once.
func TestActionWaitsForApproval(t *testing.T) {
	f := startRegister(t, time.Minute)
	res := f.post(context.Background(), "refund", `{"order":"order-7"}`)
	req := f.asked()
	if string(req.Input) != `{"order":"order-7"}` || req.Transport != nativeagent.Transport {
		t.Fatalf("request %+v", req)
	}
	f.nothingRefunded()
	f.answer(req.Approve("pat"))
	a := <-res
	if a.err != nil || a.status != http.StatusOK || !a.res.OK || a.res.Tag != "Refund" {
		t.Fatalf("approved: %d %+v (%v)", a.status, a.res, a.err)
	}
	if m := loopwait.Until(t, f.prog, "the refund", func(m register) bool { return len(m.Refunded) > 0 }); !slices.Equal(m.Refunded, []string{"order-7"}) {
		t.Fatalf("refunded = %v", m.Refunded)
	}
	f.noneAsked()
}

// Declined: 403, AgentDeclinedError, the person's reason as data only.
func TestDeclinedActionIs403(t *testing.T) {
	f := startRegister(t, time.Minute)
	res := f.post(context.Background(), "refund", `{"order":"order-8"}`)
	req := f.asked()
	f.answer(agent.ApprovalAnswer{ID: req.ID, Reason: "already refunded by phone"})
	a := <-res
	if a.err != nil || a.status != http.StatusForbidden || a.res.OK || a.res.Refusal != agent.TagDeclined {
		t.Fatalf("declined: %d %+v (%v)", a.status, a.res, a.err)
	}
	if d := dataOf(t, a.res); d["reason"] != "already refunded by phone" || d["approval"] != req.ID {
		t.Fatalf("declined data %v", d)
	}
	if a.res.Error == "" || bytes.Contains([]byte(a.res.Message), []byte("phone")) {
		t.Fatalf("declined message %q error %q: authored, reason only in data", a.res.Message, a.res.Error)
	}
	f.nothingRefunded()
}

// Not answered in time: 504, AgentApprovalTimeoutError, the request gone
// from the person's screen, nothing run.
func TestUnansweredActionIs504(t *testing.T) {
	f := startRegister(t, 20*time.Millisecond)
	a := <-f.post(context.Background(), "refund", `{"order":"order-9"}`)
	if a.err != nil || a.status != http.StatusGatewayTimeout || a.res.Refusal != agent.TagApprovalTimeout {
		t.Fatalf("unanswered: %d %+v (%v)", a.status, a.res, a.err)
	}
	if d := dataOf(t, a.res); d["retrySafe"] != true {
		t.Fatalf("timeout data %v", d)
	}
	f.noneAsked()
	f.nothingRefunded()
}

// A caller that gives up withdraws its request: the person is no longer
// asked, and nothing runs.
func TestAbandonedActionIsWithdrawn(t *testing.T) {
	f := startRegister(t, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	res := f.post(ctx, "refund", `{"order":"order-10"}`)
	req := f.asked()
	cancel()
	if a := <-res; a.err == nil {
		t.Fatalf("an abandoned request answered %d", a.status)
	}
	f.noneAsked()
	// An answer after the withdrawal finds nothing to approve.
	f.answer(req.Approve(""))
	if a := <-f.post(context.Background(), "jot", `{"text":"barrier"}`); a.status != http.StatusOK {
		t.Fatalf("jot: %d %+v", a.status, a.res)
	}
	f.nothingRefunded()
}

// What the person was shown moved while they were asked: the request is
// void, the action refused 409 as stale, nothing paid out.
func TestApprovalVoidWhenWatchedValuesMoveIs409(t *testing.T) {
	f := startRegister(t, time.Minute)
	f.answer(OpenDrawer{N: 1})
	loopwait.Until(t, f.prog, "the drawer opened", func(m register) bool { return m.Drawer == 1 })
	f.catalogue() // the caller looks
	res := f.post(context.Background(), "payout", `{}`)
	req := f.asked()
	if string(req.Watched["drawer"]) != "1" {
		t.Fatalf("the person was shown %s", req.Watched)
	}
	f.answer(OpenDrawer{N: 2})
	a := <-res
	if a.err != nil || a.status != http.StatusConflict || a.res.Refusal != agent.TagStaleView {
		t.Fatalf("void: %d %+v (%v)", a.status, a.res, a.err)
	}
	f.noneAsked()
	f.nothingRefunded()
}
