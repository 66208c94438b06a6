package approvals_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/approvals"
	"github.com/foldagent/foldagent/host/inert"
)

var t0 = time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

func pay(id, order string, total int) agent.ApprovalRequest {
	return agent.ApprovalRequest{
		ID: id, Capability: "pay", Summary: "Pay for the order under review.",
		Input:     must(json.Marshal(map[string]string{"order": order})),
		Watched:   map[string]json.RawMessage{"total": json.RawMessage(fmt.Sprint(total))},
		Transport: agent.MCP, Caller: "mcp:session:" + id,
	}
}

func must(b []byte, err error) json.RawMessage {
	if err != nil {
		panic(err)
	}
	return b
}

// A key before the card has been on screen for the settle time answers
// nothing and is not kept; the card says so; the same key after it
// answers the card drawn, naming its fingerprint.
func TestKeysCountOnlyOnASettledCard(t *testing.T) {
	q := pay("q1", "order-1", 95)
	d, _ := approvals.NewDeck(approvals.Options{}).Update(agent.ApprovalAsked{Request: q}, at(0))
	d, _, res := d.Key("y", at(999))
	if res != approvals.Dropped {
		t.Fatalf("y at 999 ms: %v, want Dropped", res)
	}
	c, _ := d.Card(at(999))
	if c.Settled || !c.Dropped || !strings.Contains(strings.Join(c.Lines(100), "\n"), "came too soon") {
		t.Fatalf("the card must say the key was ignored: %+v", c)
	}
	if d.Len() != 1 {
		t.Fatal("a dropped key must leave the request waiting")
	}
	d, a, res := d.Key("y", at(1000))
	if res != approvals.Answered || !a.Approve || a.ID != "q1" || a.Shown != q.Digest() || a.By != "you" {
		t.Fatalf("y after the settle time: %v %+v", res, a)
	}
	if d.Len() != 0 {
		t.Fatal("the answered card stays on screen")
	}
}

// An agent withdraws its request and asks again for a bigger one just
// before the person's y: the y answers nothing; the y after the new card
// settled approves it, and names it.
func TestASwapBeforeTheKeyApprovesNothing(t *testing.T) {
	small, big := pay("q1", "order-1", 95), pay("q2", "order-2", 1175)
	d := approvals.NewDeck(approvals.Options{Settle: time.Second}).Ask(small, at(0))
	d = d.Withdraw("q1", at(5000)).Ask(big, at(5000))
	d, _, res := d.Key("y", at(5030))
	if res != approvals.Dropped {
		t.Fatalf("y 30 ms after the swap: %v", res)
	}
	_, a, res := d.Key("y", at(6030))
	if res != approvals.Answered || a.ID != "q2" || a.Shown != big.Digest() || a.Shown == small.Digest() {
		t.Fatalf("y after the new card settled: %v %+v", res, a)
	}
}

// Any change to the card in front restarts its settle time: a new input
// under the same id, another request in front. A request queued behind
// does not (it changes the count, not what y answers).
func TestAChangedCardSettlesAgain(t *testing.T) {
	d := approvals.NewDeck(approvals.Options{}).Ask(pay("q1", "order-1", 95), at(0))
	d = d.Ask(pay("q1", "order-1", 96), at(900)) // a moved watch, same id
	if _, _, res := d.Key("y", at(1500)); res != approvals.Dropped {
		t.Fatalf("y 600 ms after the card changed: %v", res)
	}
	if _, _, res := d.Key("y", at(1900)); res != approvals.Answered {
		t.Fatal("a dropped y does not restart the settle time")
	}
	d = d.Ask(pay("q2", "order-2", 10), at(1600)) // behind
	c, _ := d.Card(at(1900))
	if !c.Settled || c.Of != 2 || c.Request.ID != "q1" {
		t.Fatalf("a request behind must not restart the front card: %+v", c)
	}
	d = d.Withdraw("q1", at(2000)) // q2 comes to the front
	if _, _, res := d.Key("n", at(2999)); res != approvals.Dropped {
		t.Fatal("the card that came to the front has not settled")
	}
	_, a, res := d.Key("n", at(3000))
	if res != approvals.Answered || a.Approve || a.ID != "q2" || a.Shown != pay("q2", "order-2", 10).Digest() {
		t.Fatalf("n: %v %+v", res, a)
	}
}

// Keys other than y and n, and every key with no card shown, belong to
// the application.
func TestOtherKeysAreTheApplications(t *testing.T) {
	d := approvals.NewDeck(approvals.Options{})
	if _, _, res := d.Key("y", at(5000)); res != approvals.NotMine {
		t.Fatal("y with no card is the application's")
	}
	d = d.Ask(pay("q1", "o", 1), at(0))
	d, _, res := d.Key("x", at(5000))
	if res != approvals.NotMine {
		t.Fatal("x is the application's")
	}
	// but someone typing is not reading the card: it settles once the
	// keyboard has been quiet for the settle time.
	if _, _, res := d.Key("y", at(5999)); res != approvals.Dropped {
		t.Fatal("y just after another key must not count")
	}
	if _, _, res := d.Key("y", at(6000)); res != approvals.Answered {
		t.Fatal("y a settle time after the last key counts")
	}
}

// Withdrawn requests leave at once: fifty that give up leave no card.
func TestWithdrawnRequestsLeaveNoCard(t *testing.T) {
	d := approvals.NewDeck(approvals.Options{})
	for i := range 50 {
		d, _ = d.Update(agent.ApprovalAsked{Request: pay(fmt.Sprint("q", i), "o", i)}, at(i))
	}
	for i := range 50 {
		d, _ = d.Update(agent.ApprovalWithdrawn{ID: fmt.Sprint("q", i), Why: agent.WithdrawnCancelled}, at(100))
	}
	if _, shown := d.Card(at(200)); shown || d.Len() != 0 {
		t.Fatalf("%d cards left", d.Len())
	}
	d = d.Sync([]agent.ApprovalRequest{pay("a", "o", 1), pay("b", "o", 2)}, at(300))
	if c, _ := d.Card(at(300)); c.Of != 2 || c.Request.ID != "a" {
		t.Fatalf("Sync: %+v", c)
	}
}

// The card draws agent text inert and within the width, names the agent
// as the activity lines do, and says which card it is.
func TestCardLinesAreInert(t *testing.T) {
	agents := &approvals.Agents{}
	agents.Name("mcp:session:other")
	q := pay("q1", "\x1b[8m\nAPPROVE? Remove nothing\r\n", 95)
	d := approvals.NewDeck(approvals.Options{Agents: agents}).Ask(q, at(0))
	c, _ := d.Card(at(2000))
	lines := c.Lines(50)
	text := strings.Join(lines, "\n")
	for _, l := range lines {
		if inert.Width(l) > 50 || strings.ContainsAny(l, "\x1b\r\n") {
			t.Fatalf("line %q", l)
		}
	}
	for _, want := range []string{"APPROVE? Pay for the order", "card 1 of 1 · asked by agent 2 over mcp", `order: "\u001b[8m\nAPPROVE?`, "total (watched): 95", "y approves, n declines"} {
		if !strings.Contains(text, want) {
			t.Fatalf("card lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "APPROVE?"); n != 2 || !strings.HasPrefix(lines[0], "APPROVE?") {
		t.Fatalf("only the first line may start a card:\n%s", text)
	}
}
