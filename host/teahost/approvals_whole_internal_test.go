package teahost

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
)

// typing is an agent's request to type text into the application.
func typing(id, text string) agent.ApprovalRequest {
	in, _ := json.Marshal(map[string]string{"text": text})
	return agent.ApprovalRequest{ID: id, Capability: "type_text", Summary: "Type this text into the form.",
		Input: in, Transport: agent.MCP, Caller: "mcp:session:" + id}
}

// On a terminal too short for the card, the rows that fit are drawn and
// the rest are not: the person did not see them, so y approves nothing
// (nor reaches the application) and the card says so; n declines. Once
// the window is tall enough to show the card whole, and it has stood so
// for the settle time, y approves it.
func TestACardCutByTheWindowIsNeverApproved(t *testing.T) {
	text := "Ada Lovelace" + strings.Repeat(" ", 300) + "; rm -rf ~"
	w, c := deckHost(t, typist{})
	w, _ = w.feed(tea.WindowSizeMsg{Width: 60, Height: 5})
	w, _ = w.feed(agent.ApprovalAsked{Request: typing("q1", text)})
	c.at(5000)
	screen := w.View().Content
	if strings.Contains(screen, "rm -rf") || strings.Contains(screen, "y approves") {
		t.Fatalf("a card cut by the window offers y, or shows the payload:\n%s", screen)
	}
	w, out := w.feed(key("y"))
	if got := answers(out); len(got) != 0 || w.deck.Len() != 1 || w.inner.(typist).keys != "" {
		t.Fatalf("y on a card cut by the window: answers %+v, waiting %d, application saw %q", got, w.deck.Len(), w.inner.(typist).keys)
	}
	w, _ = w.feed(tea.WindowSizeMsg{Width: 60, Height: 30})
	if screen := w.View().Content; !strings.Contains(screen, "rm -rf") || !strings.Contains(screen, "read the card") {
		t.Fatalf("the whole card on a tall window, settling again:\n%s", screen)
	}
	c.at(7000)
	_, out = w.feed(key("y"))
	if got := answers(out); len(got) != 1 || !got[0].Approve || got[0].ID != "q1" {
		t.Fatalf("y on the card shown whole: %+v", got)
	}
}

// A y on a card that cannot show all it covers (approvals.NotWhole) is
// the card's: it neither answers nor reaches the application.
func TestAYOnACardNotWholeIsNotTheApplications(t *testing.T) {
	w, c := deckHost(t, typist{})
	w, _ = w.feed(tea.WindowSizeMsg{Width: 80, Height: 200})
	w, _ = w.feed(agent.ApprovalAsked{Request: typing("q1", "hi"+strings.Repeat(" ", 5000)+"; rm -rf ~")})
	c.at(5000)
	w, out := w.feed(key("y"))
	if got := answers(out); len(got) != 0 || w.inner.(typist).keys != "" {
		t.Fatalf("y: answers %+v, application saw %q", got, w.inner.(typist).keys)
	}
	if _, out = w.feed(key("n")); len(answers(out)) != 1 || answers(out)[0].Approve {
		t.Fatalf("n must decline: %+v", answers(out))
	}
}

// A window size an agent dispatches (an application that exposes
// tea.WindowSizeMsg) is the application's to hear, not the terminal's:
// the card is still laid out in the real window, so a card the window
// cuts still takes no y.
func TestADispatchedWindowSizeIsNotTheTerminals(t *testing.T) {
	w, c := deckHost(t, typist{})
	w, _ = w.feed(tea.WindowSizeMsg{Width: 60, Height: 5})
	w, _ = w.feed(agent.ApprovalAsked{Request: typing("q1", "Ada Lovelace"+strings.Repeat(" ", 300)+"; rm -rf ~")})
	w, _ = w.feed(&tracked{msg: tea.WindowSizeMsg{Width: 60, Height: 500}, delivered: func(error) {}})
	c.at(5000)
	if w.height != 5 {
		t.Fatalf("a dispatched size moved the terminal's height to %d", w.height)
	}
	if _, out := w.feed(key("y")); len(answers(out)) != 0 {
		t.Fatalf("y on a card the window cuts, after an agent's size: %+v", answers(out))
	}
}

// Dispatch (not tracked, no recorder) marks a key press and a window
// size as its own: neither reaches the deck or the layout.
func TestPlainDispatchMarksInput(t *testing.T) {
	for _, msg := range []tea.Msg{key("y"), tea.WindowSizeMsg{Width: 1, Height: 1}} {
		in, ok := markInput(msg).(dispatchedInput)
		if !ok || in.msg != msg {
			t.Fatalf("%T queued by Dispatch is not marked", msg)
		}
	}
	if _, ok := markInput(agent.ApprovalAsked{}).(dispatchedInput); ok {
		t.Fatal("the runtime's request must reach the deck as it is")
	}
}

// A card the window cut that the person's resize shows whole is a card
// drawn anew: its settle time starts again, so the y that comes with the
// resize answers nothing, and the y a settle time later answers it.
func TestACardShownWholeByAResizeSettlesAgain(t *testing.T) {
	w, c := deckHost(t, typist{})
	w, _ = w.feed(tea.WindowSizeMsg{Width: 60, Height: 5})
	w, _ = w.feed(agent.ApprovalAsked{Request: typing("q1", "Ada Lovelace"+strings.Repeat(" ", 300)+"; rm -rf ~")})
	c.at(5000)
	w, _ = w.feed(tea.WindowSizeMsg{Width: 60, Height: 30})
	c.at(5030)
	w, out := w.feed(key("y"))
	if len(answers(out)) != 0 {
		t.Fatalf("a y 30 ms after the card was first shown whole answered %+v", answers(out))
	}
	c.at(6100)
	if _, out = w.feed(key("y")); len(answers(out)) != 1 {
		t.Fatal("the y a settle time later must answer the whole card")
	}
}
