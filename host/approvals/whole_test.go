package approvals_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/approvals"
)

// typeText is an agent's request to type text (examples/formapproval):
// what is typed is the input, all of it.
func typeText(id, text string) agent.ApprovalRequest {
	return agent.ApprovalRequest{
		ID: id, Capability: "type_text", Summary: "Type this text into the form.",
		Input:     must(json.Marshal(map[string]string{"text": text})),
		Transport: agent.MCP, Caller: "mcp:session:" + id,
	}
}

// An agent hides the part of its input that matters past what the card
// can show: an innocent start, blank padding, then the payload. The card
// cannot show it whole, so y approves nothing (and is not the
// application's key); n still declines; the card says why y does not
// count. The same text short enough to show is approved as before.
func TestACardNotShownWholeIsNeverApproved(t *testing.T) {
	hidden := typeText("q1", "Ada Lovelace"+strings.Repeat(" ", 5000)+"; rm -rf ~")
	d := approvals.NewDeck(approvals.Options{}).Ask(hidden, at(0))
	c, _ := d.Card(at(5000))
	text := strings.Join(c.Lines(100), "\n")
	if c.Whole || strings.Contains(text, "rm -rf") {
		t.Fatalf("the payload is not on the card, yet the card counts as whole (%v):\n%s", c.Whole, text)
	}
	if strings.Contains(text, "y approves") {
		t.Fatalf("a card that hides part of what it covers offers y:\n%s", text)
	}
	d2, a, res := d.Key("y", at(5000))
	if res == approvals.Answered || res == approvals.NotMine || a.Approve || d2.Len() != 1 {
		t.Fatalf("y on a card not shown whole: %v %+v (waiting %d)", res, a, d2.Len())
	}
	if _, a, res = d2.Key("n", at(5000)); res != approvals.Answered || a.Approve || a.ID != "q1" {
		t.Fatalf("n must still decline: %v %+v", res, a)
	}

	shown := typeText("q2", "Ada Lovelace")
	d = approvals.NewDeck(approvals.Options{}).Ask(shown, at(0))
	if c, _ := d.Card(at(5000)); !c.Whole {
		t.Fatalf("a short input is shown whole: %+v", c)
	}
	if _, a, res := d.Key("y", at(5000)); res != approvals.Answered || !a.Approve {
		t.Fatalf("y on a card shown whole: %v %+v", res, a)
	}
}

// More values than a card shows: the ones past its last line are not
// seen, so y approves nothing.
func TestACardWithValuesLeftOffIsNeverApproved(t *testing.T) {
	fields := map[string]string{}
	for i := range 12 {
		fields[fmt.Sprintf("f%02d", i)] = "v"
	}
	q := typeText("q1", "")
	q.Input = must(json.Marshal(fields))
	d := approvals.NewDeck(approvals.Options{}).Ask(q, at(0))
	c, _ := d.Card(at(5000))
	if c.Whole || !strings.Contains(strings.Join(c.Lines(100), "\n"), "more values") {
		t.Fatalf("twelve values on a card of eight: whole %v:\n%s", c.Whole, strings.Join(c.Lines(100), "\n"))
	}
	if _, a, res := d.Key("y", at(5000)); res == approvals.Answered || a.Approve {
		t.Fatalf("y on a card with values left off: %v %+v", res, a)
	}
}
