package teahost

import (
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
		{"unterminated OSC", "a\x1b]52;c;xyz", "a"},
		{"bad UTF-8", "a\xffb", "ab"},
	} {
		if got := shownContent(c.in); got != c.want {
			t.Errorf("%s: shownContent(%q) = %q, want %q", c.name, c.in, got, c.want)
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
	b.Run("baseline=ansi.Strip", func(b *testing.B) {
		b.SetBytes(int64(len(view)))
		for b.Loop() {
			_ = ansi.Strip(view)
		}
	})
}
