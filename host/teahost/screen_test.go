package teahost_test

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// vt is a minimal terminal emulator for the tests: it replays what Bubble
// Tea's renderer wrote into a grid of cells, so a test can assert on what a
// person would see rather than on the byte stream, which only carries the
// cells that changed. It understands printable text, CR, LF (as CR LF, the
// way a terminal with ONLCR does), BS, and the CSI cursor and erase
// sequences the renderer uses; other sequences (colours, modes) are ignored.
type vt struct {
	w, h  int
	rows  [][]rune
	x, y  int
	state byte
	p     *ansi.Parser
}

func newVT(w, h int) *vt {
	t := &vt{w: w, h: h, p: ansi.NewParser()}
	t.rows = make([][]rune, h)
	for i := range t.rows {
		t.rows[i] = blank(w)
	}
	return t
}

func blank(w int) []rune { return []rune(strings.Repeat(" ", w)) }

func (t *vt) clamp() {
	t.x = max(0, min(t.x, t.w-1))
	t.y = max(0, min(t.y, t.h-1))
}

func (t *vt) lineFeed() {
	t.x = 0
	if t.y == t.h-1 {
		t.rows = append(t.rows[1:], blank(t.w))
		return
	}
	t.y++
}

func (t *vt) write(data string) {
	for len(data) > 0 {
		seq, width, n, st := ansi.DecodeSequence(data, t.state, t.p)
		t.state = st
		data = data[n:]
		switch {
		case width > 0:
			r := []rune(seq)
			if t.x < t.w && len(r) > 0 {
				t.rows[t.y][t.x] = r[0]
			}
			t.x = min(t.x+width, t.w-1)
		case seq == "\r":
			t.x = 0
		case seq == "\n":
			t.lineFeed()
		case seq == "\b":
			t.x = max(0, t.x-1)
		case strings.HasPrefix(seq, "\x1b["):
			t.csi(ansi.Cmd(t.p.Command()))
		}
	}
}

func (t *vt) csi(cmd ansi.Cmd) {
	if cmd.Prefix() != 0 || cmd.Intermediate() != 0 {
		return // private modes and the like
	}
	arg := func(i, def int) int {
		v, _ := t.p.Param(i, def)
		if v == 0 {
			return def
		}
		return v
	}
	switch cmd.Final() {
	case 'A':
		t.y -= arg(0, 1)
	case 'B':
		t.y += arg(0, 1)
	case 'C':
		t.x += arg(0, 1)
	case 'D':
		t.x -= arg(0, 1)
	case 'E':
		t.y, t.x = t.y+arg(0, 1), 0
	case 'F':
		t.y, t.x = t.y-arg(0, 1), 0
	case 'G', '`':
		t.x = arg(0, 1) - 1
	case 'd':
		t.y = arg(0, 1) - 1
	case 'H', 'f':
		t.y, t.x = arg(0, 1)-1, arg(1, 1)-1
	case 'K':
		switch v, _ := t.p.Param(0, 0); v {
		case 0:
			fill(t.rows[t.y][t.x:])
		case 1:
			fill(t.rows[t.y][:t.x+1])
		case 2:
			fill(t.rows[t.y])
		}
	case 'J':
		switch v, _ := t.p.Param(0, 0); v {
		case 0:
			fill(t.rows[t.y][t.x:])
			for _, r := range t.rows[t.y+1:] {
				fill(r)
			}
		case 1:
			for _, r := range t.rows[:t.y] {
				fill(r)
			}
			fill(t.rows[t.y][:t.x+1])
		case 2, 3:
			for _, r := range t.rows {
				fill(r)
			}
		}
	case 'X':
		fill(t.rows[t.y][t.x:min(t.w, t.x+arg(0, 1))])
	case 'P':
		n := min(arg(0, 1), t.w-t.x)
		row := t.rows[t.y]
		copy(row[t.x:], row[t.x+n:])
		fill(row[t.w-n:])
	case '@':
		n := min(arg(0, 1), t.w-t.x)
		row := t.rows[t.y]
		copy(row[t.x+n:], row[t.x:t.w-n])
		fill(row[t.x : t.x+n])
	case 'b':
		if t.x > 0 {
			c := t.rows[t.y][t.x-1]
			for range arg(0, 1) {
				t.rows[t.y][t.x] = c
				t.x = min(t.x+1, t.w-1)
			}
		}
	case 'L':
		n := min(arg(0, 1), t.h-t.y)
		rows := append([][]rune(nil), t.rows[:t.y]...)
		for range n {
			rows = append(rows, blank(t.w))
		}
		t.rows = append(rows, t.rows[t.y:t.h-n]...)
	case 'M':
		n := min(arg(0, 1), t.h-t.y)
		rows := append(append([][]rune(nil), t.rows[:t.y]...), t.rows[t.y+n:]...)
		for range n {
			rows = append(rows, blank(t.w))
		}
		t.rows = rows
	}
	t.clamp()
}

func fill(r []rune) {
	for i := range r {
		r[i] = ' '
	}
}

// String returns the screen, one line per row, trailing blanks trimmed.
func (t *vt) String() string {
	lines := make([]string, len(t.rows))
	for i, r := range t.rows {
		lines[i] = strings.TrimRight(string(r), " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}
