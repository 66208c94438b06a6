package inert

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text returns s as one line of inert text: every control character,
// escape sequence introducer, line break and invisible format character
// is replaced by a visible stand-in (see the package documentation). Its
// width is not bounded; use [Line] for that.
func Text(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		b.WriteString(show(r, n))
	}
	return b.String()
}

// Line returns s as one line of inert text, as Text does, at most width
// terminal cells wide: a longer line is cut, and the cut marked with "…"
// (which counts). A width below one returns "".
func Line(s string, width int) string {
	if width < 1 {
		return ""
	}
	t := Text(s)
	if Width(t) <= width {
		return t
	}
	var b strings.Builder
	used := 0
	for _, r := range t {
		w := runeWidth(r)
		if used+w > width-1 { // a cell is kept for the mark
			break
		}
		b.WriteRune(r)
		used += w
	}
	b.WriteString("…")
	return b.String()
}

// show is the visible form of one decoded rune (n bytes long).
func show(r rune, n int) string {
	switch {
	case r == utf8.RuneError && n == 1:
		return "\uFFFD"
	case r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029:
		return "␤"
	case r < 0x20:
		return string(rune(0x2400 + r)) // the control pictures: ␀ … ␟, ␛ for ESC
	case r == 0x7F:
		return "␡"
	case r >= 0x80 && r <= 0x9F:
		return "␛" + string(rune(r-0x40)) // U+009B (CSI) reads ␛[
	case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r) || unicode.Is(unicode.Cs, r) || r == 0xFFFE || r == 0xFFFF:
		return fmt.Sprintf("⟨U+%04X⟩", r)
	}
	return string(r)
}

// Width returns how many terminal cells s takes when drawn, as Line counts
// them: two for a wide or fullwidth rune or an emoji, none for a
// combining mark, one for any other rune. It assumes s is already inert
// (it counts a control character as one cell).
func Width(s string) int {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w
}

func runeWidth(r rune) int {
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me):
		return 0
	case wide(r):
		return 2
	}
	return 1
}

// wideRanges are the East Asian Wide and Fullwidth blocks, and the emoji
// and symbol planes terminals draw two cells wide, leaning wide.
var wideRanges = [...][2]rune{
	{0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23FA},
	{0x25FD, 0x25FE}, {0x2600, 0x27BF}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B55},
	{0x2E80, 0x303E}, {0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF},
	{0xA000, 0xA4CF}, {0xA960, 0xA97F}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF},
	{0xFE10, 0xFE19}, {0xFE30, 0xFE6F}, {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6},
	{0x16FE0, 0x18CFF}, {0x1AFF0, 0x1B2FF}, {0x1F000, 0x1FAFF}, {0x20000, 0x3FFFD},
}

func wide(r rune) bool {
	if r < 0x1100 {
		return false
	}
	for _, g := range wideRanges {
		if r < g[0] {
			return false
		}
		if r <= g[1] {
			return true
		}
	}
	return false
}
