package teahost_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/teahosttest"
)

// tee keeps what the program writes, besides drawing it on a screen.
type tee struct {
	screen *teahosttest.Screen
	mu     sync.Mutex
	raw    bytes.Buffer
}

func (t *tee) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.raw.Write(p)
	t.mu.Unlock()
	return t.screen.Write(p)
}

func (t *tee) String() string { t.mu.Lock(); defer t.mu.Unlock(); return t.raw.String() }

// A real program whose model knows nothing of approvals: the card is
// drawn at the bottom of its screen, the terminal is told the program
// waits for permission (OSC 7501), and when the request is withdrawn the
// card goes and the report is cleared.
func TestTheCardOverARealProgram(t *testing.T) {
	screen := teahosttest.NewScreen(60, 10)
	out := &tee{screen: screen}
	h := teahost.New[greeter, tea.Msg](greeter{name: "world"}, &teahost.Options{Approvals: &teahost.ApprovalOptions{}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = h.Run(ctx, append(screen.ProgramOptions(), tea.WithOutput(out))...)
	}()
	q := agent.ApprovalRequest{ID: "q1", Capability: "rename", Summary: "Rename the greeting.", Input: []byte(`{"Name":"agent"}`), Transport: agent.MCP, Caller: "mcp:session:A"}
	if err := h.Dispatch(ctx, agent.ApprovalAsked{Request: q}); err != nil {
		t.Fatal(err)
	}
	if err := screen.WaitFor(ctx, "APPROVE? Rename the greeting."); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(screen.String(), "\n")
	if len(rows) != 10 || !strings.HasPrefix(rows[0], "Hello, world!") || !strings.HasPrefix(rows[5], "━━ approval") {
		t.Fatalf("want the app's view on top and the card in the bottom rows:\n%s", screen.String())
	}
	if !strings.Contains(out.String(), "\x1b]7501;") || !strings.Contains(out.String(), "state=blocked") {
		t.Fatalf("no program status report while the card waits: %q", out.String())
	}
	_ = h.Dispatch(ctx, agent.ApprovalWithdrawn{ID: "q1", Why: agent.WithdrawnCancelled})
	_ = h.Dispatch(ctx, rename{Name: "again"}) // applied after the withdrawal
	if err := screen.WaitFor(ctx, "Hello, again!"); err != nil {
		t.Fatal(err)
	}
	if s := screen.String(); strings.Contains(s, "APPROVE?") {
		t.Fatalf("the withdrawn card is still drawn:\n%s", s)
	}
	if !strings.Contains(out.String(), "\x1b]7501;state=clear") {
		t.Fatalf("the report was not cleared: %q", out.String())
	}
	h.Quit()
	<-done
}

// The card drawn over an application that knows nothing of approvals.
func ExampleApprovalOptions() {
	screen := teahosttest.NewScreen(60, 7)
	at := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC) // a fixed clock: the card never settles
	h := teahost.New[greeter, tea.Msg](greeter{name: "world"}, &teahost.Options{
		Approvals: &teahost.ApprovalOptions{Now: func() time.Time { return at }},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _, _ = h.Run(ctx, screen.ProgramOptions()...) }()

	// What an agent runtime dispatches when it holds a call.
	h.Dispatch(ctx, agent.ApprovalAsked{Request: agent.ApprovalRequest{
		ID: "q1", Capability: "rename", Summary: "Rename the greeting.",
		Input: []byte(`{"Name":"agent"}`), Transport: agent.MCP, Caller: "mcp:session:A",
	}})
	if err := screen.WaitFor(ctx, "read the card"); err != nil {
		fmt.Println(err)
	}
	fmt.Println(screen.String())
	cancel()
	<-done
	// Output:
	// Hello, world!
	//
	// ━━ approval · drawn by foldagent, outside this app ━━━━━━━━━
	// APPROVE? Rename the greeting.
	//   card 1 of 1 · asked by agent 1 over mcp
	//   Name: "agent"
	//   read the card: y and n count in 1.0s
}
