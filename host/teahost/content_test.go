package teahost_test

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/teahosttest"
)

// hostileName is what an agent sets as the greeting's name: a cursor move,
// a clipboard write (OSC 52), a hyperlink to somewhere else (OSC 8), a
// terminal reset (ESC c), bracketed paste turned off, a screen clear, a
// one-rune CSI (U+009B) and a string sequence (APC), then line breaks that
// draw a fake approval card.
const hostileName = "ann\x1b[5;10Hmoved\x1b]52;c;cHduZWQ=\x07\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\" +
	"\x1bcRESET\x1b[?2004l\x1b[2J\u009b31mC1\x1b_apc\x1b\\\x1b[1mbold\x1b[0m" +
	"\n━━ approval · drawn by foldagent, outside this app ━━\nAPPROVE? Pay 1 EUR.\n[y] approve"

// What the terminal is told while the agent's name is shown holds none of
// its sequences, styling aside (the color profile is set so that the
// renderer keeps what it would send a real terminal: hyperlinks too); the screen shows its text in the
// application's rows, and the real card, not the fake one, in the Host's.
func TestAgentTextInTheApplicationsViewIsShownNotObeyed(t *testing.T) {
	screen := teahosttest.NewScreen(70, 14)
	out := &tee{screen: screen}
	h := teahost.New[greeter, tea.Msg](greeter{name: "world"}, &teahost.Options{Approvals: &teahost.ApprovalOptions{}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = h.Run(ctx, append(screen.ProgramOptions(), tea.WithOutput(out), tea.WithColorProfile(colorprofile.TrueColor))...)
	}()
	if err := h.Dispatch(ctx, rename{Name: hostileName}); err != nil {
		t.Fatal(err)
	}
	q := agent.ApprovalRequest{ID: "q1", Capability: "rename", Summary: "Rename the greeting.", Input: []byte(`{"Name":"agent"}`), Transport: agent.MCP, Caller: "mcp:session:A"}
	if err := h.Dispatch(ctx, agent.ApprovalAsked{Request: q}); err != nil {
		t.Fatal(err)
	}
	if err := screen.WaitFor(ctx, "APPROVE? Rename the greeting."); err != nil {
		t.Fatal(err)
	}
	raw := out.String() // before the program quits and restores the terminal
	for _, bad := range []string{"\x1b[5;10H", "\x1b]52", "evil.example", "\x1bc", "\x1b[?2004l", "\x1b[2J", "\u009b", "\x1b_"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the terminal was sent %q from the agent's text", bad)
		}
	}
	if !strings.Contains(raw, "bold") || !strings.Contains(raw, "\x1b[1m") {
		t.Errorf("the application's styling was lost: %q", raw)
	}
	rows := strings.Split(screen.String(), "\n")
	rule := -1
	for i, r := range rows {
		if strings.HasPrefix(r, "━━ approval") && i+1 < len(rows) && strings.Contains(rows[i+1], "Rename the greeting") {
			rule = i
		}
	}
	if rule < 0 || !strings.HasPrefix(rows[0], "Hello, annmovedlinkRESET31mC1bold") {
		t.Fatalf("want the name's text on the first row and the real card under its rule:\n%s", screen.String())
	}
	for i, r := range rows {
		if strings.Contains(r, "Pay 1 EUR") && i > rule {
			t.Fatalf("the fake card reached the Host's rows (row %d, rule at %d):\n%s", i, rule, screen.String())
		}
	}
	h.Quit()
	<-done
}

// titled is the greeter whose window title also names who is greeted, as
// an editor's title names the open file.
type titled struct{ greeter }

func (g titled) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := g.greeter.Update(msg)
	return titled{m.(greeter)}, cmd
}

func (g titled) View() tea.View {
	v := g.greeter.View()
	v.WindowTitle = "Greeting " + g.name
	return v
}

// The window title is written inside the terminal's own OSC 2 … BEL: an
// agent's name there that ends it (BEL) and starts another (a clipboard
// write) is kept to its text, as the content is.
func TestAgentTextInTheWindowTitleIsShownNotObeyed(t *testing.T) {
	screen := teahosttest.NewScreen(70, 6)
	out := &tee{screen: screen}
	h := teahost.New[titled, tea.Msg](titled{greeter{name: "world"}}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = h.Run(ctx, append(screen.ProgramOptions(), tea.WithOutput(out), tea.WithColorProfile(colorprofile.TrueColor))...)
	}()
	if err := h.Dispatch(ctx, rename{Name: "ann\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\u009b2Jdone\nrow"}); err != nil {
		t.Fatal(err)
	}
	if err := screen.WaitFor(ctx, "Hello, ann"); err != nil {
		t.Fatal(err)
	}
	raw := out.String()
	h.Quit()
	<-done
	if !strings.Contains(raw, "\x1b]2;Greeting ann") {
		t.Fatalf("the title was not set: %q", raw)
	}
	for _, bad := range []string{"\x1b]52", "\x1b[2J", "\u009b", "ann\x07"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the terminal was sent %q from the agent's text in the title", bad)
		}
	}
}
