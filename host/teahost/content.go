package teahost

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// shownContent keeps of an application's view what a terminal shows and
// nothing it obeys: text, line breaks, tabs and SGR styling (ESC [ … m,
// with digits, ';' and ':' between). Every other sequence is dropped
// whole: cursor moves and erasures (CSI), OSC (window title, clipboard
// 52, hyperlinks 8), DCS, APC, SOS and PM strings, ESC sequences (ESC c
// resets the terminal), mode toggles such as bracketed paste (CSI ? 2004
// l), 8-bit C1 introducers; and so is every other control rune: C0 but
// line feed and tab, carriage return, DEL, and C1 controls written as
// UTF-8 (U+009B is a one-rune CSI to a terminal that honours C1).
//
// The application's text can hold what an agent wrote (a list's title,
// an item's name), and Bubble Tea's renderer parses the view into cells
// but passes some of that on: hyperlinks, the string sequences, and C1
// runes. Dropping rather than showing keeps the application's own layout:
// what is left is exactly what the person would have seen had the
// terminal ignored the sequences.
func shownContent(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for len(s) > 0 {
		n, keep := nextPiece(s)
		if keep {
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// nextPiece returns the length of what s starts with (a run of plain
// text, a rune, or a whole sequence) and whether it is kept.
func nextPiece(s string) (n int, keep bool) {
	c := s[0]
	switch {
	case strings.HasPrefix(s, "\x1b["):
		n := csiLen(s)
		return n, isSGR(s[:n])
	case c == 0x1b || (c >= 0x80 && c <= 0x9f):
		// ESC, or an 8-bit C1 byte (never the first byte of a UTF-8
		// rune): the whole sequence it starts.
		seq, _, n, _ := ansi.DecodeSequence(s, 0, nil)
		return max(n, 1), isSGR(seq)
	case c >= 0x80:
		r, size := utf8.DecodeRuneInString(s)
		return size, !unsafeRune(r)
	case unsafeRune(rune(c)):
		return 1, false
	}
	i := strings.IndexFunc(s, func(r rune) bool { return r >= 0x80 || unsafeRune(r) })
	if i < 0 {
		i = len(s)
	}
	return i, true
}

// csiLen returns the length of the CSI sequence s starts with (ESC [,
// parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one final byte
// 0x40–0x7E), or of what is there up to the first byte that breaks it.
func csiLen(s string) int {
	i := 2
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
		i++
	}
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// isSGR reports whether seq is a 7-bit Select Graphic Rendition sequence
// with plain parameters.
func isSGR(seq string) bool {
	p, ok := strings.CutPrefix(seq, "\x1b[")
	if !ok {
		return false
	}
	p, ok = strings.CutSuffix(p, "m")
	return ok && strings.Trim(p, "0123456789;:") == ""
}

// unsafeRune is a rune a terminal may act on: ESC, every other C0
// control but line feed and tab, DEL, C1 controls, and the invalid-UTF-8
// stand-in (an 8-bit introducer byte decodes as it).
func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	}
	return r == utf8.RuneError
}
