package teahost

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/approvals"
	"github.com/foldagent/foldagent/host/inert"
)

// ApprovalOptions turns on the person's approval cards (Options.Approvals):
// the Host draws the requests an agent runtime holds for the person's
// approval over the application's view, and answers them with the
// person's y and n, with no change to the application's Update or View.
//
// The zero value is valid: the default settle time (approvals.DefaultSettle),
// answers by "you", agents numbered by an Agents of the Host's own, and
// the system clock.
type ApprovalOptions struct {
	// Options configures the deck: the settle time, who answers, and the
	// Agents naming the callers (share it with the application's
	// approvals.Activity lines, so both name an agent alike).
	approvals.Options
	// Now is the clock the settle time is measured by. Nil means
	// time.Now; a test passes its own.
	Now func() time.Time
}

// settled is the Message a card's settle timer sends: the card is drawn
// again, now saying the person's keys count.
type settled struct{}

// cardRule is the top edge of the region the Host reserves for the card.
// The application's content is clipped to the rows above it and cannot
// draw into it.
const cardRule = "━━ approval · drawn by foldagent, outside this app "

// settleTimer returns the Cmd that redraws the card once it has settled;
// a test of this package replaces it.
func (h *Host[M, Msg]) settleTimer(d time.Duration) tea.Cmd {
	if h.timer != nil {
		return h.timer(d)
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return settled{} })
}

func (h *Host[M, Msg]) now() time.Time {
	if n := h.opts.Approvals.Now; n != nil {
		return n()
	}
	return time.Now()
}

// dispatchedInput is a key press or a window size queued by Dispatch
// (an agent's Message, or the application's code): the application's
// Update gets it, but it is never the person's key nor the terminal's
// size, so it answers no card and lays none out.
type dispatchedInput struct{ msg tea.Msg }

// markInput marks msg, queued by Dispatch, when it looks like the
// terminal's input (one a recorder's origin wraps is known by that).
func markInput(msg tea.Msg) tea.Msg {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.WindowSizeMsg:
		return dispatchedInput{msg}
	}
	return msg
}

// approval handles what the deck takes before the application's Update:
// the runtime's requests (which then go on to the application too), the
// window's size, and the person's keys while a card is shown. A key
// press that was dispatched (an agent's Message) is not the person's: it
// goes to the application and leaves the deck as it was. consumed
// reports a Message the application must not see; cmd is what to run
// beside the application's own (the settle timer, the answer).
func (w wrapped[M, Msg]) approval(msg tea.Msg, dispatched bool) (next wrapped[M, Msg], cmd tea.Cmd, consumed bool) {
	h := w.h
	before, _ := w.deck.SettlesAt()
	switch m := msg.(type) {
	case settled:
		return w, nil, true
	case tea.WindowSizeMsg:
		// Update took the terminal's size (resize).
	case agent.ApprovalAsked, agent.ApprovalWithdrawn:
		w.deck, _ = w.deck.Update(m, h.now())
	case tea.KeyPressMsg:
		if dispatched {
			break
		}
		if k := m.String(); m.IsRepeat && w.deck.Len() > 0 && (k == "y" || k == "n") {
			// A y held down since before the card came is not an answer.
			return w, nil, true
		}
		if m.String() == "y" && !w.cardFits() {
			// The window cuts the card: the person was not shown all a
			// y would approve.
			return w, nil, true
		}
		deck, answer, res := w.deck.Key(m.String(), h.now())
		w.deck = deck
		switch res {
		case approvals.Dropped, approvals.NotWhole:
			consumed = true
		case approvals.Answered:
			consumed = true
			cmd = func() tea.Msg { return answer }
		}
	}
	if at, ok := w.deck.SettlesAt(); ok && !at.Equal(before) {
		cmd = tea.Batch(cmd, h.settleTimer(at.Sub(h.now())+time.Millisecond))
	}
	return w, cmd, consumed
}

// cutCard is the keys line of a card the window is too short for.
const cutCard = "  the window is too short for the whole card: n declines; y counts once it is shown whole"

// cardWidth is the width the card is drawn at.
func (w wrapped[M, Msg]) cardWidth() int {
	if w.width <= 0 {
		return 80
	}
	return w.width
}

// resize takes the terminal's new size. A card the old size cut that the
// new one shows whole is drawn anew: its settle time starts again.
func (w wrapped[M, Msg]) resize(size tea.WindowSizeMsg) wrapped[M, Msg] {
	cut := w.h.opts.Approvals != nil && !w.cardFits()
	w.width, w.height = size.Width, size.Height
	if cut && w.cardFits() {
		w.deck = w.deck.Redrawn(w.h.now())
	}
	return w
}

// cardFits reports whether the card in front, with its rule, fits the
// window's rows (a window of unknown height is taken to fit).
func (w wrapped[M, Msg]) cardFits() bool {
	card, ok := w.deck.Card(w.h.now())
	return !ok || w.height <= 0 || 1+len(card.Lines(w.cardWidth())) <= w.height
}

// approvalRegion is the card in front, if any, as the bottom region's
// lines: the rule first, then the card's lines (on a terminal too short
// for the card: the rows that fit, and a keys line saying y does not
// count until the card is shown whole).
func (w wrapped[M, Msg]) approvalRegion() ([]string, bool) {
	card, ok := w.deck.Card(w.h.now())
	if !ok {
		return nil, false
	}
	width := w.cardWidth()
	lines := card.Lines(width)
	region := append([]string{rule(width)}, lines...)
	if w.height > 0 && len(region) > w.height {
		region = append(region[:max(1, w.height-1)], inert.Line(cutCard, width))
		region = region[:min(len(region), w.height)]
	}
	return region, true
}

// rule is the region's top edge, width cells wide.
func rule(width int) string {
	r := inert.Line(cardRule, width)
	if n := width - inert.Width(r); n > 0 {
		r += strings.Repeat("━", n)
	}
	return r
}

// withoutPassThrough drops the string sequences (APC, DCS, SOS, PM) that
// Bubble Tea's renderer passes to the terminal as they are: an image, or a
// multiplexer's pass-through, could otherwise draw across the card's
// region while one is shown. Styles and text are kept.
func withoutPassThrough(line string) string {
	// Only ESC, or a byte of 0x80 and above (an 8-bit introducer, or
	// UTF-8), can start one.
	if !strings.ContainsFunc(line, func(r rune) bool { return r == 0x1b || r >= 0x80 }) {
		return line
	}
	var b strings.Builder
	var state byte
	for len(line) > 0 {
		seq, _, n, next := ansi.DecodeSequence(line, state, nil)
		if !ansi.HasApcPrefix(seq) && !ansi.HasDcsPrefix(seq) && !ansi.HasSosPrefix(seq) && !ansi.HasPmPrefix(seq) {
			b.WriteString(seq)
		}
		state, line = next, line[n:]
	}
	return b.String()
}
