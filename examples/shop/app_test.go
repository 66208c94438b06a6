package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/approvals"
	"github.com/foldagent/foldagent/journey/fixed"
)

func feed(a App, msgs ...tea.Msg) App {
	for _, m := range msgs {
		next, _ := a.Update(m)
		a = next.(App)
	}
	return a
}

func line(caller string, i int) Activity {
	return Activity{At: time.Date(2026, 12, 4, 9, 0, i, 0, time.UTC), Caller: caller, Capability: "open_product", Input: fmt.Sprintf(`{"n":%d}`, i), Outcome: "done"}
}

// The person sees which agent did what: callers are numbered in the
// order they first act, a call that names none is "an agent", and an
// approval card names the agent asking.
func TestActivityNamesEachAgent(t *testing.T) {
	a := feed(NewApp(0), line("mcp:session:B", 1), line("mcp:session:A", 2), line("", 3), line("mcp:session:B", 4))
	// The card teahost draws over the app shares the panel's numbering.
	q := agent.ApprovalRequest{ID: "q1", Capability: "pay", Summary: "Pay for the order under review.", Transport: agent.MCP, Caller: "mcp:session:A"}
	card, _ := approvals.NewDeck(approvals.Options{Agents: a.Agents()}).Ask(q, time.Now()).Card(time.Now())
	v := a.View().Content + "\n" + strings.Join(card.Lines(160), "\n")
	for _, want := range []string{`agent 1: open_product {"n":1}`, `agent 2: open_product {"n":2}`, `an agent: open_product {"n":3}`, `agent 1: open_product {"n":4}`, "asked by agent 2 over mcp"} {
		if !strings.Contains(v, want) {
			t.Fatalf("screen lacks %q:\n%s", want, v)
		}
	}
}

// The panel scrolls: it shows the newest lines, ↑ goes back and stays on
// the same lines while new ones arrive, end follows the newest again, and
// it keeps a bounded history.
func TestActivityScrolls(t *testing.T) {
	a := NewApp(0)
	for i := 1; i <= 12; i++ {
		a = feed(a, line("mcp:session:A", i))
	}
	shows := func(a App, first, last int) {
		t.Helper()
		v := a.View().Content
		if !strings.Contains(v, fmt.Sprintf("lines %d–%d of", first, last)) {
			t.Fatalf("want lines %d–%d:\n%s", first, last, v)
		}
		for i := 1; i <= len(a.Activity()); i++ {
			if in := strings.Contains(v, fmt.Sprintf(`{"n":%d}`, i)); in != (i >= first && i <= last) {
				t.Fatalf("line %d shown %v, want lines %d–%d:\n%s", i, in, first, last, v)
			}
		}
	}
	shows(a, 5, 12)
	up := tea.KeyPressMsg{Code: tea.KeyUp}
	a = feed(a, up, up)
	shows(a, 3, 10)
	if !strings.Contains(a.View().Content, "scrolled back") {
		t.Fatal("a scrolled panel must say so")
	}
	a = feed(a, line("mcp:session:A", 13)) // arrives while the person reads
	shows(a, 3, 10)
	a = feed(a, up, up, up, up, up) // no further back than the first line
	shows(a, 1, 8)
	a = feed(a, tea.KeyPressMsg{Code: tea.KeyDown})
	shows(a, 2, 9)
	a = feed(a, tea.KeyPressMsg{Code: tea.KeyEnd})
	shows(a, 6, 13)
	for i := 14; i <= keptActivity+20; i++ {
		a = feed(a, line("mcp:session:A", i))
	}
	if got := a.Activity(); len(got) != keptActivity || got[len(got)-1].Input != fmt.Sprintf(`{"n":%d}`, keptActivity+20) {
		t.Fatalf("kept %d lines, newest %+v", len(got), got[len(got)-1])
	}
}

// An agent's request can be megabytes: each line the panel keeps holds a
// bounded part of what the agent gave (the tool name, the input), saying
// how long it was, and the screen stays one line per call.
func TestActivityKeepsABoundedPartOfWhatAnAgentSent(t *testing.T) {
	huge := strings.Repeat("é", 1<<19) // a mebibyte, two bytes a character
	a := feed(NewApp(0), Activity{At: time.Now(), Caller: "mcp:session:A", Capability: "x" + huge, Input: `{"q":"` + huge + `"}`, Outcome: "refused", Reason: huge})
	got := a.Activity()
	if len(got) != 1 {
		t.Fatalf("%d lines", len(got))
	}
	e := got[0]
	for name, v := range map[string]string{"capability": e.Capability, "input": e.Input, "reason": e.Reason} {
		if len(v) > 2*approvals.MaxText || !strings.Contains(v, "bytes in all)") || !utf8.ValidString(v) {
			t.Fatalf("%s kept %d bytes (valid UTF-8 %v): %.80q…", name, len(v), utf8.ValidString(v), v)
		}
	}
	if !strings.HasPrefix(e.Input, `{"q":"éé`) {
		t.Fatalf("the input's start is lost: %.40q", e.Input)
	}
	if v := a.View().Content; len(v) > 64<<10 {
		t.Fatalf("the screen is %d bytes", len(v))
	}
}

// panelHost takes the reports the runtime dispatches to the panel.
type panelHost struct{ got []tea.Msg }

func (h *panelHost) Model() App { return App{} }
func (h *panelHost) Dispatch(_ context.Context, m tea.Msg) error {
	h.got = append(h.got, m)
	return nil
}

// The report of a call is a Message, which a recorder (devtools) keeps as
// it was dispatched: it is bounded when it is made, not only in the panel.
func TestAnActivityReportIsBoundedWhenMade(t *testing.T) {
	h := &panelHost{}
	huge := strings.Repeat("a", 1<<20)
	reporting{panel: h}.journeyRefusals(context.Background(), "x"+huge, map[string]any{"q": huge}, fixed.CallResult{})
	if len(h.got) != 1 {
		t.Fatalf("%d reports", len(h.got))
	}
	e, ok := h.got[0].(Activity)
	if !ok {
		t.Fatalf("%T", h.got[0])
	}
	if len(e.Capability) > 2*approvals.MaxText || len(e.Input) > 2*approvals.MaxText || !strings.Contains(e.Input, "bytes in all)") {
		t.Fatalf("the report keeps %d bytes of the tool name and %d of the input", len(e.Capability), len(e.Input))
	}
}
