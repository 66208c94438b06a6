package teahosttest

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Screen is a headless terminal of a fixed size. It is safe for concurrent
// use: the program writes while the test reads.
type Screen struct {
	width, height int

	mu  sync.Mutex
	out bytes.Buffer
}

// NewScreen returns an empty screen of the given size in cells. A width or
// height below 1 is a programming error and panics.
func NewScreen(width, height int) *Screen {
	if width < 1 || height < 1 {
		panic(fmt.Sprintf("teahosttest: NewScreen needs a positive size, got %dx%d", width, height))
	}
	return &Screen{width: width, height: height}
}

// Write records output from the program.
func (s *Screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Write(p)
}

// String returns what the screen shows now: one line per row, trailing
// blanks and empty trailing rows removed.
func (s *Screen) String() string {
	s.mu.Lock()
	data := s.out.String()
	s.mu.Unlock()
	t := newVT(s.width, s.height)
	t.write(data)
	return t.String()
}

// ProgramOptions returns the options that run a program headless on this
// screen: output to the screen at its size, no input, a fixed TERM, and no
// signal handler (so the test process keeps its own). Options passed later
// override these.
func (s *Screen) ProgramOptions() []tea.ProgramOption {
	return []tea.ProgramOption{
		tea.WithOutput(s),
		tea.WithInput(nil),
		tea.WithWindowSize(s.width, s.height),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}),
		tea.WithoutSignalHandler(),
	}
}

// WaitFor waits until the screen shows want (a substring of String, which
// may span rows joined by "\n"), polling every few milliseconds. It returns
// nil once it does, or an error that includes the screen's current contents
// when ctx ends first.
func (s *Screen) WaitFor(ctx context.Context, want string) error {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		got := s.String()
		if strings.Contains(got, want) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("teahosttest: the screen never showed %q (%w); it shows:\n%s", want, ctx.Err(), got)
		case <-tick.C:
		}
	}
}

// vt is a minimal terminal emulator: it replays what Bubble Tea's renderer
// wrote into a grid of cells. It understands printable text, CR, LF (as CR
// LF, the way a terminal with ONLCR does), BS, and the CSI cursor, erase,
// insert and delete sequences the renderer uses; other sequences (colours,
// modes, titles) are ignored. Text past the last column overwrites it rather
// than wrapping.
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
