package approvals_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/approvals"
)

func entry(caller string, i int) approvals.Entry {
	return approvals.Entry{At: at(i * 1000), Caller: caller, Capability: "open_product", Input: fmt.Sprintf(`{"n":%d}`, i), Outcome: "done"}
}

// Callers are numbered in the order they first act; a request's end is
// a line naming the agent that asked; agent text is inert.
func TestActivityNamesAgents(t *testing.T) {
	a := approvals.NewActivity(approvals.ActivityOptions{})
	a = a.Add(entry("B", 1)).Add(entry("A", 2)).Add(entry("", 3))
	a = a.Add(approvals.Entry{At: at(4000), Who: "you", Capability: "clear", Input: "{}", Outcome: "done", Reason: "x\x1b[8my"})
	a, _ = a.Approval(agent.ApprovalAsked{Request: pay("q1", "o", 1)}, at(5000))
	a, _ = a.Approval(agent.ApprovalWithdrawn{ID: "q1", Why: agent.WithdrawnStale}, at(5000))
	text := strings.Join(a.Lines(200), "\n")
	for _, want := range []string{`agent 1: open_product {"n":1}`, `agent 2: open_product {"n":2}`, `an agent: open_product {"n":3}`, "you: clear {} → done (x␛[8my)", `agent 3: pay {"order":"o"} → approval stale`} {
		if !strings.Contains(text, want) {
			t.Fatalf("lacks %q:\n%s", want, text)
		}
	}
}

// The view shows the newest lines, scrolls back and stays on the same
// lines while new ones arrive, and keeps a bounded history.
func TestActivityScrolls(t *testing.T) {
	a := approvals.NewActivity(approvals.ActivityOptions{Keep: 20, Show: 8})
	for i := 1; i <= 12; i++ {
		a = a.Add(entry("A", i))
	}
	shows := func(first, last int) {
		t.Helper()
		text := strings.Join(a.Lines(100), "\n")
		if !strings.Contains(text, fmt.Sprintf("lines %d–%d of", first, last)) {
			t.Fatalf("want lines %d–%d:\n%s", first, last, text)
		}
	}
	shows(5, 12)
	a = a.Scroll(2)
	shows(3, 10)
	a = a.Add(entry("A", 13))
	shows(3, 10)
	a = a.Scroll(100)
	shows(1, 8)
	a = a.End()
	shows(6, 13)
	for i := 14; i <= 40; i++ {
		a = a.Add(entry("A", i))
	}
	if got := a.Entries(); len(got) != 20 || got[19].Input != `{"n":40}` {
		t.Fatalf("kept %d", len(got))
	}
}

// Each text a line keeps is bounded, cut on a character boundary and
// saying how long it was; a short one is kept as it is.
func TestActivityKeepsBoundedText(t *testing.T) {
	long := "x" + strings.Repeat("é", approvals.MaxText)
	a := approvals.NewActivity(approvals.ActivityOptions{}).Add(approvals.Entry{
		Caller: "c", Capability: long, Input: long, Outcome: "refused", Reason: long,
	})
	e := a.Entries()[0]
	for name, v := range map[string]string{"capability": e.Capability, "input": e.Input, "reason": e.Reason} {
		if len(v) > approvals.MaxText+len("… (00000 bytes in all)") || !utf8.ValidString(v) ||
			!strings.HasSuffix(v, "… ("+strconv.Itoa(len(long))+" bytes in all)") {
			t.Errorf("%s kept as %d bytes: %.40q…", name, len(v), v)
		}
	}
	if e.Outcome != "refused" || e.Caller != "c" {
		t.Errorf("short texts changed: %+v", e)
	}
}
