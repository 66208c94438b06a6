package approvals

import (
	"fmt"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/inert"
)

// Entry is one line of activity: who did what, and how it ended.
type Entry struct {
	At time.Time
	// Caller is the acting agent's caller key (agent.CallerFrom), named
	// on screen by Agents; Who, when set, is the name shown instead (the
	// principal a transport authenticated, or "you" for the person).
	Caller, Who string
	// Capability is the capability or tool called, Input what it was
	// called with (JSON), Outcome how it ended in a word or two
	// ("completed", "refused", "approval declined") and Reason, when it
	// did not go through, the reason the agent was given.
	Capability, Input, Outcome, Reason string
}

// ActivityOptions configures an Activity. The zero value is valid: it
// keeps DefaultKeep lines, shows DefaultShow, and names callers with an
// Agents of its own.
type ActivityOptions struct {
	// Keep is how many lines are kept to scroll through (DefaultKeep when
	// zero); Show how many are drawn at once (DefaultShow when zero).
	Keep, Show int
	// Agents names the callers; share the Deck's. Nil means a new one.
	Agents *Agents
}

// The zero ActivityOptions' bounds.
const (
	DefaultKeep = 500
	DefaultShow = 8
)

// maxAsked bounds the requests an Activity remembers to word their end.
const maxAsked = 4096

// Activity is the activity lines: who did what (the person, agent 1,
// agent 2, …), with which capability and input, and how it ended; the
// newest at the bottom, scrollable. Like Deck it is a value: every
// method returns a new Activity. The zero value is empty and valid, with
// the default bounds; it numbers callers with an Agents of its own, made
// at the first Add.
type Activity struct {
	opts    ActivityOptions
	entries []Entry
	back    int // how many lines the view is scrolled back from the newest
	asked   []agent.ApprovalRequest
}

// NewActivity returns empty activity lines configured by opts.
func NewActivity(opts ActivityOptions) Activity {
	if opts.Agents == nil {
		opts.Agents = &Agents{}
	}
	return Activity{opts: opts}
}

func (a Activity) keep() int { return cmp(a.opts.Keep, DefaultKeep) }
func (a Activity) show() int { return cmp(a.opts.Show, DefaultShow) }

func cmp(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// Add appends e, keeping the last Keep lines, each text cut by Clip; a
// view scrolled back keeps the same lines in view.
func (a Activity) Add(e Entry) Activity {
	e.Caller, e.Who, e.Capability, e.Input = Clip(e.Caller), Clip(e.Who), Clip(e.Capability), Clip(e.Input)
	e.Outcome, e.Reason = Clip(e.Outcome), Clip(e.Reason)
	if a.opts.Agents == nil {
		a.opts.Agents = &Agents{} // shared by the copies made from here on
	}
	if e.Caller != "" && e.Who == "" {
		a.opts.Agents.Name(e.Caller) // numbered in the order agents first act
	}
	lines := a.entries[max(0, len(a.entries)-a.keep()+1):len(a.entries):len(a.entries)]
	a.entries = append(lines, e)
	if a.back > 0 {
		a.back = min(a.back+1, max(0, len(a.entries)-a.show()))
	}
	return a
}

// Approval takes the runtime's approval Messages and adds a line when a
// request ends ("approval approved", "approval stale", …), naming the
// agent that asked. It reports whether msg was one of them.
func (a Activity) Approval(msg any, now time.Time) (Activity, bool) {
	switch m := msg.(type) {
	case agent.ApprovalAsked:
		asked := a.asked[max(0, len(a.asked)-maxAsked+1):len(a.asked):len(a.asked)]
		a.asked = append(asked, m.Request)
		return a, true
	case agent.ApprovalWithdrawn:
		i := slices.IndexFunc(a.asked, func(q agent.ApprovalRequest) bool { return q.ID == m.ID })
		if i < 0 {
			return a, true
		}
		q := a.asked[i]
		a.asked = slices.Delete(slices.Clone(a.asked), i, i+1)
		return a.Add(Entry{At: now, Caller: q.Caller, Capability: q.Capability, Input: string(q.Input), Outcome: "approval " + string(m.Why)}), true
	}
	return a, false
}

// Scroll moves the view n lines back (n > 0, older) or forward (n < 0),
// within the lines kept.
func (a Activity) Scroll(n int) Activity {
	a.back = min(max(0, a.back+n), max(0, len(a.entries)-a.show()))
	return a
}

// End scrolls to the newest line, which the view then follows.
func (a Activity) End() Activity { a.back = 0; return a }

// Entries returns the lines kept, oldest first.
func (a Activity) Entries() []Entry { return slices.Clone(a.entries) }

// inputWidth bounds the input shown on a line.
const inputWidth = 48

// Lines draws the view: a heading ("agent activity:", with which lines
// are shown when not all fit), then the lines in view, oldest first, each
// at most width cells and inert.
func (a Activity) Lines(width int) []string {
	width = max(width, 20)
	head := "agent activity:"
	if len(a.entries) == 0 {
		return []string{head + " none yet"}
	}
	end := len(a.entries) - a.back
	start := max(0, end-a.show())
	if len(a.entries) > a.show() {
		head += fmt.Sprintf(" lines %d–%d of %d", start+1, end, len(a.entries))
		if a.back > 0 {
			head += " (scrolled back; end follows the newest)"
		}
	}
	out := []string{head}
	for _, e := range a.entries[start:end] {
		who := e.Who
		if who == "" {
			who = a.opts.Agents.Name(e.Caller)
		}
		s := fmt.Sprintf("  %s  %s: %s %s → %s", e.At.Format("15:04:05"), inert.Text(who), inert.Text(e.Capability), inert.Line(e.Input, inputWidth), inert.Text(e.Outcome))
		if e.Reason != "" {
			s += " (" + inert.Text(e.Reason) + ")"
		}
		out = append(out, inert.Line(s, width))
	}
	return out
}

// Agents returns the Agents naming the callers (nil on a zero Activity
// before its first Add): give it to the Deck, so the card names an agent
// as these lines do.
func (a Activity) Agents() *Agents { return a.opts.Agents }

// MaxText bounds each text an activity line keeps (Clip): an agent's
// input or reason may be a mebibyte, and the panel keeps Keep lines.
const MaxText = 1024

// Clip is s cut to MaxText bytes on a character boundary, saying how long
// it was when it is cut. An application that also dispatches its
// activity reports as Messages (which a recorder such as devtools keeps)
// clips them with it where it makes them.
func Clip(s string) string {
	if len(s) <= MaxText {
		return s
	}
	cut := MaxText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + strconv.Itoa(len(s)) + " bytes in all)"
}
