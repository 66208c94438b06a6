package teahost

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Each kind of sequence a view can hold: what the person's terminal is
// handed of it.
func TestShownContentKeepsTextAndStylingOnly(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"plain", "a\tb\nc", "a\tb\nc"},
		{"wide and combining", "日本 é ✓", "日本 é ✓"},
		{"SGR", "\x1b[1;38;2;255:0:0mred\x1b[m", "\x1b[1;38;2;255:0:0mred\x1b[m"},
		{"cursor move", "a\x1b[5;10Hb\x1b[2Ac", "abc"},
		{"erase", "a\x1b[2Jb\x1b[Kc", "abc"},
		{"private mode", "a\x1b[?2004lb\x1b[?1049hc", "abc"},
		{"SGR-like private", "a\x1b[?1mb", "ab"},
		{"OSC 52 BEL", "a\x1b]52;c;cHduZWQ=\x07b", "ab"},
		{"OSC 8 ST", "\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"window title", "a\x1b]0;pwned\x07b", "ab"},
		{"reset", "a\x1bcb", "ab"},
		{"DCS", "a\x1bPq#0\x1b\\b", "ab"},
		{"APC", "a\x1b_Gf=100\x1b\\b", "ab"},
		{"C1 CSI as UTF-8", "a\u009b31mb", "a31mb"},
		{"C1 CSI byte", "a\x9b31mb", "ab"},
		{"C0", "a\x07\x08\rb\x7f", "ab"},
		{"unterminated OSC", "a\x1b]52;c;xyz", "a52;c;xyz"},
		{"unterminated OSC hides no row", "title\x1b]0;x\nTotal 1000 EUR\n[q] quit", "title0;x\nTotal 1000 EUR\n[q] quit"},
		{"unterminated APC hides no row", "title\x1b_\nrow2\nrow3", "title\nrow2\nrow3"},
		{"unterminated SOS hides no row", "title\x1bX\nrow2", "title\nrow2"},
		{"unterminated 8-bit OSC hides no row", "title\x9d0;x\nrow2", "title0;x\nrow2"},
		{"a string across rows ends at its row", "a\x1b]0;x\nrow2\x07b", "a0;x\nrow2b"},
		{"OSC then the next row's styling", "a\x1b]0;t\x07\n\x1b[1mrow2\x1b[0m", "a\n\x1b[1mrow2\x1b[0m"},
		{"bidi override", "invoice\u202efdp.exe", "invoicefdp.exe"},
		{"bidi embeddings and isolates", "a\u202ab\u202bc\u202cd\u202de\u2066f\u2067g\u2068h\u2069i", "abcdefghi"},
		{"marks, joiners and emoji kept", "a\u200eb\u200fc 👩\u200d💻 e\u0301", "a\u200eb\u200fc 👩\u200d💻 e\u0301"},
		{"bad UTF-8", "a\xffb", "ab"},
	} {
		if got := shownContent(c.in); got != c.want {
			t.Errorf("%s: shownContent(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// A window title keeps its text alone: nothing that would end the
// terminal's OSC 2 around it.
func TestShownTitleKeepsTextOnly(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"plain", "notes — 日本 é", "notes — 日本 é"},
		{"BEL then OSC 52", "a\x07\x1b]52;c;eA==\x07b", "ab"},
		{"ST", "a\x1b\\b", "ab"},
		{"styling", "\x1b[1ma\x1b[0mb", "ab"},
		{"rows and tabs", "a\nb\tc", "a b c"},
		{"C1", "a\u009c\u009bb", "ab"},
	} {
		if got := shownTitle(c.in); got != c.want {
			t.Errorf("%s: shownTitle(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// The cost of keeping a styled view's text and styling, against x/ansi's
// Strip of the same view (which drops the styling too) as the baseline.
func BenchmarkShownContent(b *testing.B) {
	line := "\x1b[1;32m  ✓ \x1b[0mbuy some milk and eggs \x1b[2m(added by agent 1)\x1b[0m\n"
	view := ""
	for range 40 {
		view += line
	}
	b.Run("shownContent", func(b *testing.B) {
		b.SetBytes(int64(len(view)))
		for b.Loop() {
			_ = shownContent(view)
		}
	})
	// An agent's title of unterminated strings on one long row, then
	// the application's rows: as cheap per byte as the styled view.
	hostile := strings.Repeat("\x1b]x", 4000) + "\n" + view
	b.Run("hostile", func(b *testing.B) {
		b.SetBytes(int64(len(hostile)))
		for b.Loop() {
			_ = shownContent(hostile)
		}
	})
	b.Run("baseline=ansi.Strip", func(b *testing.B) {
		b.SetBytes(int64(len(view)))
		for b.Loop() {
			_ = ansi.Strip(view)
		}
	})
}
