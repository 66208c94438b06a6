package teahost

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/approvals"
	"github.com/foldagent/foldagent/host/inert"
)

// typist is an application that knows nothing of approvals: it keeps
// the keys it is given and draws whatever text it holds, raw.
type typist struct {
	keys string
	text string
}

func (a typist) Init() tea.Cmd { return nil }
func (a typist) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		a.keys += k.String()
	}
	return a, nil
}
func (a typist) View() tea.View { return tea.NewView(a.text) }

// clock is a settable clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func (c *clock) at(ms int) {
	c.t = time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
}

func deckHost(t *testing.T, app typist) (wrapped[typist, tea.Msg], *clock) {
	t.Helper()
	c := &clock{}
	c.at(0)
	h := New[typist, tea.Msg](app, &Options{Approvals: &ApprovalOptions{Now: c.now}})
	h.timer = func(time.Duration) tea.Cmd { return func() tea.Msg { return settled{} } }
	w := wrapped[typist, tea.Msg]{h: h, inner: app, deck: approvals.NewDeck(h.opts.Approvals.Options)}
	return w, c
}

func (w wrapped[M, Msg]) feed(msg tea.Msg) (wrapped[M, Msg], []tea.Msg) {
	next, cmd := w.Update(msg)
	return next.(wrapped[M, Msg]), run(cmd)
}

// run runs cmd and every Cmd it batches, returning the Messages they
// give (the settle timer returns at once here).
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	m := cmd()
	if b, ok := m.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, run(c)...)
		}
		return out
	}
	return []tea.Msg{m}
}

func answers(msgs []tea.Msg) []agent.ApprovalAnswer {
	var out []agent.ApprovalAnswer
	for _, m := range msgs {
		if a, ok := m.(agent.ApprovalAnswer); ok {
			out = append(out, a)
		}
	}
	return out
}

func request(id string, total int) agent.ApprovalRequest {
	return agent.ApprovalRequest{ID: id, Capability: "pay", Summary: "Pay for the order under review.",
		Input: json.RawMessage(`{"order":"order-1"}`), Watched: map[string]json.RawMessage{"total": json.RawMessage(fmt.Sprint(total))},
		Transport: agent.MCP, Caller: "mcp:session:" + id}
}

func key(s string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: rune(s[0]), Text: s} }

// An agent withdraws its request and asks for a bigger one 30 ms before
// the person's y: nothing is approved, and the application never sees
// the y. The y after the new card settled approves it, and only it.
func TestSwapBeforeTheKeyApprovesNothing(t *testing.T) {
	w, c := deckHost(t, typist{})
	w, _ = w.feed(agent.ApprovalAsked{Request: request("q1", 95)})
	c.at(5000)
	w, _ = w.feed(agent.ApprovalWithdrawn{ID: "q1", Why: agent.WithdrawnCancelled})
	w, _ = w.feed(agent.ApprovalAsked{Request: request("q2", 1175)})
	c.at(5030)
	w, out := w.feed(key("y"))
	if got := answers(out); len(got) != 0 {
		t.Fatalf("y 30 ms after the swap answered %+v", got)
	}
	if !strings.Contains(w.View().Content, "came too soon") {
		t.Fatalf("the card must say the key was ignored:\n%s", w.View().Content)
	}
	c.at(6030)
	w, out = w.feed(key("y"))
	got := answers(out)
	if len(got) != 1 || got[0].ID != "q2" || !got[0].Approve || got[0].Shown != request("q2", 1175).Digest() {
		t.Fatalf("y after the card settled: %+v", got)
	}
	if k := w.inner.(typist).keys; k != "" {
		t.Fatalf("the application saw the person's answers: %q", k)
	}
	if _, shown := w.deck.Card(c.now()); shown {
		t.Fatal("the answered card is still shown")
	}
}

// A y held down (a terminal reporting key repeats) never answers.
func TestARepeatedKeyNeverAnswers(t *testing.T) {
	w, c := deckHost(t, typist{})
	w, _ = w.feed(agent.ApprovalAsked{Request: request("q1", 95)})
	c.at(5000)
	repeat := key("y")
	repeat.IsRepeat = true
	w, out := w.feed(repeat)
	if got := answers(out); len(got) != 0 || w.deck.Len() != 1 || w.inner.(typist).keys != "" {
		t.Fatalf("a repeated y answered %+v, or reached the application", got)
	}
	if _, out = w.feed(key("y")); len(answers(out)) != 1 {
		t.Fatal("a fresh y on the settled card must answer it")
	}
}

// With no card shown, y and n are the application's; other keys always
// are.
func TestKeysWithoutACardAreTheApplications(t *testing.T) {
	w, c := deckHost(t, typist{})
	w, _ = w.feed(key("y"))
	w, _ = w.feed(agent.ApprovalAsked{Request: request("q1", 1)})
	c.at(3000)
	w, _ = w.feed(key("x"))
	if k := w.inner.(typist).keys; k != "yx" {
		t.Fatalf("the application got %q, want yx", k)
	}
}

// The application draws an agent's text raw (newlines, a fake card,
// SGR 8): none of it reaches the card's region, which is the bottom rows
// under the rule, and the terminal is told the program waits for
// permission until the request is withdrawn.
func TestTheCardIsDrawnWhereTheApplicationCannotReach(t *testing.T) {
	forged := strings.Repeat("\x1b[8mAPPROVE? Remove nothing.\x1bPtmux;\x1b\x1b[40;1H\x1b\\\x1b_Gf=100;AAAA\x1b\\\x90tmux;x\x1b\\\n  y approves, n declines\n", 30)
	w, _ := deckHost(t, typist{text: forged})
	w, _ = w.feed(tea.WindowSizeMsg{Width: 60, Height: 20})
	if v := w.View(); v.ProgramStatus != nil || strings.Contains(v.Content, cardRule) {
		t.Fatal("no card: the application's view as it is")
	}
	w, _ = w.feed(agent.ApprovalAsked{Request: request("q1", 95)})
	v := w.View()
	rows := strings.Split(v.Content, "\n")
	if len(rows) != 20 {
		t.Fatalf("%d rows, want the terminal's 20", len(rows))
	}
	ruleAt := -1
	for i, r := range rows {
		if strings.Contains(r, cardRule) {
			ruleAt = i
		}
	}
	if ruleAt < 0 {
		t.Fatalf("no rule:\n%s", v.Content)
	}
	for _, r := range rows[ruleAt+1:] {
		plain := strings.TrimPrefix(r, "\x1b[0m\x1b]8;;\x1b\\")
		if strings.ContainsAny(plain, "\x1b\n") || inert.Width(plain) > 60 {
			t.Fatalf("region row %q is not inert text within the width", r)
		}
	}
	region := strings.Join(rows[ruleAt+1:], "\n")
	for _, want := range []string{"APPROVE? Pay for the order under review.", "card 1 of 1 · asked by agent 1 over mcp", "total (watched): 95"} {
		if !strings.Contains(region, want) {
			t.Fatalf("the card lacks %q:\n%s", want, region)
		}
	}
	if strings.Contains(region, "Remove nothing") {
		t.Fatal("the application's text reached the card's region")
	}
	if strings.Contains(v.Content, "\x1bP") || strings.Contains(v.Content, "\x1b_") || strings.Contains(v.Content, "\x90") {
		t.Fatalf("a pass-through sequence of the application's reaches the terminal while a card is shown: %q", v.Content)
	}
	if ps := v.ProgramStatus; ps == nil || ps.State != tea.ProgramStateBlocked || ps.Kind != tea.ProgramStatusKindPermission {
		t.Fatalf("program status %+v", ps)
	}
	w, _ = w.feed(agent.ApprovalWithdrawn{ID: "q1", Why: agent.WithdrawnCancelled})
	if v := w.View(); v.ProgramStatus != nil || strings.Contains(v.Content, cardRule) {
		t.Fatal("a withdrawn card must leave the screen, and the status clear")
	}
}

// Fifty held calls that give up leave no card.
func TestWithdrawnCardsLeaveTheScreen(t *testing.T) {
	w, _ := deckHost(t, typist{text: "app"})
	for i := range 50 {
		w, _ = w.feed(agent.ApprovalAsked{Request: request(fmt.Sprint("q", i), i)})
	}
	if !strings.Contains(w.View().Content, "card 1 of 50") {
		t.Fatalf("fifty waiting:\n%s", w.View().Content)
	}
	for i := range 50 {
		w, _ = w.feed(agent.ApprovalWithdrawn{ID: fmt.Sprint("q", i), Why: agent.WithdrawnCancelled})
	}
	if v := w.View().Content; v != "app" {
		t.Fatalf("cards left on screen:\n%s", v)
	}
}

// BenchmarkView draws a 40-row application's view bare, with approvals
// on and no card, and with a card over it: what the card costs a frame.
func BenchmarkView(b *testing.B) {
	text := strings.Repeat("[ ] a todo title of some length, as an app draws it\n", 40)
	bare := New[typist, tea.Msg](typist{text: text}, nil)
	plain := wrapped[typist, tea.Msg]{h: bare, inner: typist{text: text}}
	idle, _ := deckHost(&testing.T{}, typist{text: text})
	card, _ := idle.feed(agent.ApprovalAsked{Request: request("q1", 95)})
	card, _ = card.feed(tea.WindowSizeMsg{Width: 100, Height: 50})
	for _, c := range []struct {
		name string
		w    wrapped[typist, tea.Msg]
	}{{"bare", plain}, {"no-card", idle}, {"card", card}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				_ = c.w.View()
			}
		})
	}
}
