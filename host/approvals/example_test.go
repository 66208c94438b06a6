package approvals_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/approvals"
)

// A view without a terminal framework feeds the deck the runtime's
// Messages, draws its card, and dispatches the answer a settled key
// gives.
func ExampleDeck() {
	start := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	q := agent.ApprovalRequest{ID: "q1", Capability: "pay", Summary: "Pay for the order under review.",
		Input: []byte(`{"order":"order-1"}`), Transport: agent.MCP, Caller: "mcp:session:A"}

	deck, _ := approvals.NewDeck(approvals.Options{}).Update(agent.ApprovalAsked{Request: q}, start)
	deck, _, res := deck.Key("y", start.Add(300*time.Millisecond))
	fmt.Println(res == approvals.Dropped)
	card, _ := deck.Card(start.Add(400 * time.Millisecond))
	fmt.Println(strings.Join(card.Lines(72), "\n"))

	deck, answer, res := deck.Key("y", start.Add(time.Second))
	fmt.Println(res == approvals.Answered, answer.ID, answer.Approve, answer.Shown == q.Digest(), deck.Len())
	// Output:
	// true
	// APPROVE? Pay for the order under review.
	//   card 1 of 1 · asked by agent 1 over mcp
	//   order: "order-1"
	//   a key came too soon and was ignored: keys count in 0.6s
	// true q1 true true 0
}

// The activity lines name each agent as the card does, say how each
// request ended, and draw agent text inert.
func ExampleActivity() {
	at := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	agents := &approvals.Agents{}
	lines := approvals.NewActivity(approvals.ActivityOptions{Agents: agents})
	lines = lines.Add(approvals.Entry{At: at, Caller: "mcp:session:A", Capability: "create_todo", Input: "{\"title\":\"Milk\n\x1b[8m\"}", Outcome: "completed"})
	q := agent.ApprovalRequest{ID: "q1", Capability: "clear_completed", Input: []byte(`{}`), Caller: "mcp:session:B"}
	lines, _ = lines.Approval(agent.ApprovalAsked{Request: q}, at)
	lines, _ = lines.Approval(agent.ApprovalWithdrawn{ID: "q1", Why: agent.WithdrawnDeclined}, at.Add(time.Second))
	lines = lines.Add(approvals.Entry{At: at.Add(2 * time.Second), Who: "you", Capability: "clear_completed", Input: `{}`, Outcome: "done"})
	fmt.Println(strings.Join(lines.Lines(80), "\n"))
	// Output:
	// agent activity:
	//   09:00:00  agent 1: create_todo {"title":"Milk␤␛[8m"} → completed
	//   09:00:01  agent 2: clear_completed {} → approval declined
	//   09:00:02  you: clear_completed {} → done
}
