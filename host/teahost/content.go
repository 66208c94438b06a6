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
// line feed and tab, carriage return, DEL, C1 controls written as UTF-8
// (U+009B is a one-rune CSI to a terminal that honours C1), and the bidi
// controls that reorder what a bidi terminal shows (U+202E makes
// "invoice\u202Efdp.exe" read "invoiceexe.pdf"). A sequence never spans
// a line break: a string sequence its line does not end loses only its
// introducer, so agent text cannot hide the application's rows after it.
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
	for {
		line, rest, more := strings.Cut(s, "\n")
		shownLine(&b, line)
		if !more {
			return b.String()
		}
		b.WriteByte('\n')
		s = rest
	}
}

// shownTitle keeps of a window title its text alone. The terminal reads
// it inside its own OSC 2 … BEL, which any control rune would end, so
// styling goes too, and a line break or tab becomes a space.
func shownTitle(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == '\n' || r == '\t' || unsafeRune(r) }) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, ansi.Strip(shownContent(s)))
}

// shownLine writes what is kept of line, which holds no line break. Once
// the line holds a string sequence it does not end, a later one is not
// ended either: each loses its introducer without another search, so a
// line of many costs what one does.
func shownLine(b *strings.Builder, line string) {
	unended := false
	for len(line) > 0 {
		n, keep := nextPiece(line, &unended)
		if keep {
			b.WriteString(line[:n])
		}
		line = line[n:]
	}
}

// nextPiece returns the length of what s starts with (a run of plain
// text, a rune, or a whole sequence) and whether it is kept. unended is
// set once s holds a string sequence its line does not end.
func nextPiece(s string, unended *bool) (n int, keep bool) {
	c := s[0]
	switch {
	case strings.HasPrefix(s, "\x1b["):
		n := csiLen(s)
		return n, isSGR(s[:n])
	case c == 0x1b || (c >= 0x80 && c <= 0x9f):
		// ESC, or an 8-bit C1 byte (never the first byte of a UTF-8
		// rune): the whole sequence it starts. A string (OSC, DCS, APC,
		// SOS, PM) its line does not end loses only its introducer:
		// what follows is shown as text, so an agent's unterminated
		// string cannot hide the rows after it.
		if *unended && startsString(s) {
			return min(introducerLen(c), len(s)), false
		}
		seq, _, n, _ := ansi.DecodeSequence(s, 0, nil)
		if startsString(seq) && !endsString(seq) {
			*unended = true
			return min(introducerLen(c), len(s)), false
		}
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

// startsString reports whether s starts with a string sequence's
// introducer: OSC, DCS, APC, SOS or PM, as ESC and a byte or as one 8-bit
// C1 byte.
func startsString(s string) bool {
	switch {
	case len(s) >= 2 && s[0] == 0x1b:
		return strings.IndexByte("]P_X^", s[1]) >= 0
	case len(s) >= 1:
		return strings.IndexByte("\x9d\x90\x9f\x98\x9e", s[0]) >= 0
	}
	return false
}

// endsString reports whether the string sequence seq ends with its
// terminator: BEL or ST (ESC \, or 8-bit).
func endsString(seq string) bool {
	return strings.HasSuffix(seq, "\x07") || strings.HasSuffix(seq, "\x1b\\") || strings.HasSuffix(seq, "\x9c")
}

// introducerLen is the length of a sequence's introducer that starts
// with c: ESC and the byte after it, or one 8-bit C1 byte.
func introducerLen(c byte) int {
	if c == 0x1b {
		return 2
	}
	return 1
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
// control but line feed and tab, DEL, C1 controls, the bidi embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069), and the
// invalid-UTF-8 stand-in (an 8-bit introducer byte decodes as it).
func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		// Bidi embeddings, overrides and isolates: a terminal that
		// orders text obeys them, and shows other text than is there.
		return true
	}
	return r == utf8.RuneError
}
