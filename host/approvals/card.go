package approvals

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/inert"
)

// Card is one request as the person is shown it. Everything in it but
// the Summary (the contract's own sentence) came from an agent or the
// Model: Lines draws it as inert text, and a view that draws the fields
// itself must too (or put them where they are only ever text, such as a
// DOM text node).
type Card struct {
	// Request is the request shown; its Digest is the card's fingerprint.
	Request agent.ApprovalRequest
	// Position and Of say which card this is of how many wait ("1 of 3").
	Position, Of int
	// Agent is the asking caller's name (Agents: "agent 2").
	Agent string
	// Covers is what an approval covers: the input's fields, then the
	// watched values.
	Covers []Field
	// Settled is true once the card has been on screen, unchanged, for
	// the settle time: y and n answer it. Until then Wait is how long is
	// left.
	Settled bool
	Wait    time.Duration
	// Dropped is true when a key came before the card settled and was
	// ignored.
	Dropped bool
	// Whole is true when the card shows everything an approval covers:
	// at most MaxFields values, none longer than MaxValueCells cells. A
	// card that is not whole can be declined, never approved: y would
	// approve values the person was not shown.
	Whole bool
}

// Field is one value an approval covers. Value is JSON, compact, as the
// request carries it.
type Field struct {
	// Name is the input field's name, or the watch's name (with the
	// field's, "watch.field", for a watched object's fields).
	Name string
	// Watched is true for a watched value: the approval is void if it
	// moves before the answer.
	Watched bool
	Value   string
}

// covers lists the input's fields (in name order; an input that is not a
// JSON object is one field, "input") and the watched values (by name; a
// watched JSON object one field a line, named watch.field).
func covers(q agent.ApprovalRequest) []Field {
	var out []Field
	var fields map[string]json.RawMessage
	if json.Unmarshal(q.Input, &fields) == nil && fields != nil {
		for _, k := range sortedKeys(fields) {
			out = append(out, Field{Name: k, Value: compact(fields[k])})
		}
	} else if len(q.Input) > 0 {
		out = append(out, Field{Name: "input", Value: compact(q.Input)})
	}
	for _, k := range sortedKeys(q.Watched) {
		// A watched object reads best one field a line.
		var obj map[string]json.RawMessage
		if json.Unmarshal(q.Watched[k], &obj) == nil && len(obj) > 0 {
			for _, f := range sortedKeys(obj) {
				out = append(out, Field{Name: k + "." + f, Watched: true, Value: compact(obj[f])})
			}
			continue
		}
		out = append(out, Field{Name: k, Watched: true, Value: compact(q.Watched[k])})
	}
	return out
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func compact(v json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}

// The card's limits: it shows at most MaxFields values (saying how many
// more there are), and each value up to MaxValueCells terminal cells
// (cut with "…" past them). A card within both is whole; the person can
// approve only a whole card.
const (
	MaxFields     = 8
	MaxValueCells = 4096
)

// whole reports whether a card of covers shows every value in full.
func whole(covers []Field) bool {
	if len(covers) > MaxFields {
		return false
	}
	for _, f := range covers {
		if inert.Width(inert.Text(f.Value)) > MaxValueCells {
			return false
		}
	}
	return true
}

// Lines draws the card as lines of at most width cells (a width below 20
// counts as 20), every value inert and wrapped whole up to MaxValueCells:
// the first says what is asked and names the agent, then the card's
// position, what the approval covers, and last what the keys do now (on
// a card that is not Whole: that only n counts). Lines never contain a
// line break.
func (c Card) Lines(width int) []string {
	width = max(width, 20)
	line := func(s string) string { return inert.Line(s, width) }
	lines := []string{
		line("APPROVE? " + c.Request.Summary),
		line(fmt.Sprintf("  card %d of %d · asked by %s over %s", c.Position, c.Of, c.Agent, c.Request.Transport)),
	}
	for i, f := range c.Covers {
		if i == MaxFields {
			lines = append(lines, line(fmt.Sprintf("  … and %d more values", len(c.Covers)-MaxFields)))
			break
		}
		label := "  " + f.Name + ": "
		if f.Watched {
			label = "  " + f.Name + " (watched): "
		}
		lines = append(lines, wrap(label, f.Value, width)...)
	}
	switch {
	case c.Settled && !c.Whole:
		lines = append(lines, line("  too long to show whole, so it cannot be approved: n declines"))
	case c.Settled:
		lines = append(lines, line("  y approves, n declines"))
	case c.Dropped:
		lines = append(lines, line(fmt.Sprintf("  a key came too soon and was ignored: keys count in %s", seconds(c.Wait))))
	default:
		lines = append(lines, line(fmt.Sprintf("  read the card: y and n count in %s", seconds(c.Wait))))
	}
	return lines
}

// seconds words a wait for the person, rounded up to a tenth.
func seconds(d time.Duration) string {
	tenths := (d + 99*time.Millisecond) / (100 * time.Millisecond)
	return fmt.Sprintf("%d.%ds", tenths/10, tenths%10)
}

// wrap draws label and value (inert, cut past MaxValueCells cells) over
// as many lines of width cells as it takes, continuation lines indented.
func wrap(label, value string, width int) []string {
	const indent = "      "
	var out []string
	var b strings.Builder
	used := 0
	for _, r := range inert.Text(label) + inert.Line(value, MaxValueCells) {
		w := inert.Width(string(r))
		if used+w > width {
			out = append(out, b.String())
			b.Reset()
			b.WriteString(indent)
			used = len(indent)
		}
		b.WriteRune(r)
		used += w
	}
	return append(out, b.String())
}
