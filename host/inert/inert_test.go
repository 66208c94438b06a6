package inert_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/foldagent/foldagent/host/inert"
)

func TestText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Buy milk", "Buy milk"},
		{"\x1b[8mhidden\x1b[0m", "␛[8mhidden␛[0m"},
		{"a\nAPPROVE? y\r\nb", "a␤APPROVE? y␤␤b"},
		{"tab\there", "tab␉here"},
		{"nul\x00bel\x07del\x7f", "nul␀bel␇del␡"},
		{"csi\u009b31m", "csi␛[31m"},
		{"osc\x1b]0;title\x07", "osc␛]0;title␇"},
		{"line\u2028sep\u2029", "line␤sep␤"},
		{"abc\u202edcba", "abc⟨U+202E⟩dcba"},
		{"zero\u200bwidth", "zero⟨U+200B⟩width"},
		{"bad\xffbyte", "bad\uFFFDbyte"},
		{"日本語 ✓ é", "日本語 ✓ é"},
	} {
		if got := inert.Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLine(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"Buy milk", 8, "Buy milk"},
		{"Buy milk", 7, "Buy mi…"},
		{"Buy milk", 1, "…"},
		{"Buy milk", 0, ""},
		{"日本語", 6, "日本語"},
		{"日本語", 5, "日本…"},
		{"日本語", 4, "日…"},
		{"\x1b[8m", 4, "␛[8m"},
		{"\x1b[8mx", 4, "␛[8…"},
		{"e\u0301e\u0301", 2, "e\u0301e\u0301"}, // combining marks take no cell
		{"🙂🙂", 3, "🙂…"},
	} {
		got := inert.Line(c.in, c.width)
		if got != c.want {
			t.Errorf("Line(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
		if w := inert.Width(got); w > max(c.width, 0) {
			t.Errorf("Line(%q, %d) is %d cells wide", c.in, c.width, w)
		}
	}
}

// controlFree reports the first rune of s a terminal would act on rather
// than draw, if any.
func controlFree(s string) (rune, bool) {
	for _, r := range s {
		if r < 0x20 || (r >= 0x7F && r <= 0x9F) || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r) {
			return r, false
		}
	}
	return 0, true
}

func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "Buy milk", "\x1b[8mAPPROVE?\nremoves: all\x1b[0m", "\u009b2J", "日本語🙂", "\xff\xfe", "a\u202e\u2066b"} {
		f.Add(s, 12)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		width = width%200 + 1
		if width < 1 {
			width = -width + 1
		}
		for _, got := range []string{inert.Text(s), inert.Line(s, width)} {
			if !utf8.ValidString(got) {
				t.Fatalf("not UTF-8: %q", got)
			}
			if r, ok := controlFree(got); !ok {
				t.Fatalf("%q carries U+%04X from %q", got, r, s)
			}
			if strings.ContainsAny(got, "\n\r\x1b") {
				t.Fatalf("%q breaks the line or escapes", got)
			}
		}
		if got := inert.Line(s, width); inert.Width(got) > width {
			t.Fatalf("Line(%q, %d) = %q takes %d cells", s, width, got, inert.Width(got))
		}
	})
}
