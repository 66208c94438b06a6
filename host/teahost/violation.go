package teahost

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/foldagent/foldagent/host/inert"
)

// A violation stands once found. A model changed in place stands for the
// rest of the run: the application shares memory with what agents read,
// and no later Update undoes that (the default copy, or an Update that
// returns a new model, does). A model of another type stands until an
// Update returns one of the Host's type again, which is then published,
// and agents read the program as it is. While one stands, the person sees
// it (violationLine, drawn at the bottom of the view) and, unless
// Options.ServeDespiteViolation, agents' calls are refused
// (DispatchTracked returns a *ViolationError).

// ViolationError is what DispatchTracked, and so an agent's call, is
// refused with while a violation stands (see
// Options.ServeDespiteViolation). It reports non-delivery (NotDelivered
// returns true): nothing was done, and an agent runtime tells the agent
// so, and that it may try again.
type ViolationError struct {
	// Violation is the one standing.
	Violation *Violation
}

// Error says why calls are refused and names the violation.
func (e *ViolationError) Error() string {
	return "teahost: agents' calls are refused, since what they read of the program may be wrong: " + e.Violation.Error()
}

// Unwrap returns the Violation.
func (e *ViolationError) Unwrap() error { return e.Violation }

// NotDelivered reports true: the Message was not queued.
func (e *ViolationError) NotDelivered() bool { return true }

// Violated returns the violation standing, or nil when none does.
func (h *Host[M, Msg]) Violated() *Violation { return h.violated.Load() }

// refusal is DispatchTracked's refusal while a violation stands, nil
// otherwise.
func (h *Host[M, Msg]) refusal() error {
	if h.opts.ServeDespiteViolation {
		return nil
	}
	if v := h.violated.Load(); v != nil {
		return &ViolationError{Violation: v}
	}
	return nil
}

// violationLine is the line the person sees while a violation stands.
// It names the kind and the field path, never a value.
func (h *Host[M, Msg]) violationLine() (string, bool) {
	v := h.violated.Load()
	if v == nil {
		return "", false
	}
	var b strings.Builder
	b.WriteString("⚠ foldagent: agents' view of this program may be wrong: its Update ")
	if v.Kind == MutatedInPlace {
		b.WriteString("changed the model in place")
		if v.Path != "" {
			b.WriteString(" (at " + v.Path + ")")
		}
	} else {
		b.WriteString("returned another type (" + v.Model + ")")
	}
	switch {
	case h.opts.ServeDespiteViolation:
		b.WriteString("; their calls go on.")
	case v.Kind == MutatedInPlace:
		b.WriteString("; their calls are refused until it restarts.")
	default:
		b.WriteString("; their calls are refused until it returns its own type.")
	}
	return b.String(), true
}

// drawBottom draws region at the bottom of v: the application's content
// clipped to the rows above it (when the terminal's height is known),
// each line cut to width, and the region's lines inert, the first shown
// as a rule when ruled.
func (w wrapped[M, Msg]) drawBottom(v tea.View, region []string, ruled bool) tea.View {
	width := w.width
	if width <= 0 {
		width = 80
	}
	if w.height > 0 && len(region) > w.height {
		region = region[len(region)-w.height:]
	}
	app := strings.Split(strings.ReplaceAll(v.Content, "\r", ""), "\n")
	if w.height > 0 {
		rows := max(0, w.height-len(region))
		if len(app) > rows {
			app = app[:rows]
		}
		for len(app) < rows {
			app = append(app, "")
		}
		if v.Cursor != nil && v.Cursor.Y >= rows {
			v.Cursor = nil
		}
	}
	var b strings.Builder
	for _, l := range app {
		b.WriteString(ansi.Truncate(withoutPassThrough(l), width, ""))
		b.WriteString("\n")
	}
	// Whatever the application's text left open (a style, a link) ends
	// where the region starts.
	for i, l := range region {
		b.WriteString("\x1b[0m\x1b]8;;\x1b\\")
		if i == 0 && ruled {
			b.WriteString("\x1b[1;7m" + l + "\x1b[0m")
		} else {
			b.WriteString(inert.Line(l, width))
		}
		if i < len(region)-1 {
			b.WriteString("\n")
		}
	}
	v.Content = b.String()
	return v
}

// stand records v as the violation standing; one changed in place is
// kept over any later one. settle ends a standing model of another type,
// once a model of the Host's type is published again.
func (h *Host[M, Msg]) stand(v *Violation) {
	if now := h.violated.Load(); now == nil || now.Kind != MutatedInPlace {
		h.violated.Store(v)
	}
}

func (h *Host[M, Msg]) settle() {
	if now := h.violated.Load(); now != nil && now.Kind == TypeChanged {
		h.violated.Store(nil)
	}
}
