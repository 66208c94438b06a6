package teahosttest

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestScreenReplaysCursorMovement(t *testing.T) {
	s := NewScreen(20, 4)
	// What Bubble Tea's renderer wrote for "title: waiting" → "title: hi",
	// count 0 → 12: only the changed cells, placed by cursor movement.
	s.Write([]byte("\x1b[?25l\r\x1b[Jtitle: waiting\nkeys:\ncount: 0"))
	s.Write([]byte("\x1b[2A\x1b[Dhi\x1b[K\n\n\x1b[7C12"))
	if got, want := s.String(), "title: hi\nkeys:\ncount: 12"; got != want {
		t.Fatalf("screen = %q, want %q", got, want)
	}
}

func TestScreenSequences(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"CUP and erase line", "abcdef\x1b[1;3H\x1b[K", "ab"},
		{"ECH", "abcdef\x1b[1;2H\x1b[2X", "a  def"},
		{"DCH", "abcdef\x1b[1;2H\x1b[2P", "adef"},
		{"ICH", "abcdef\x1b[1;2H\x1b[2@", "a  bcdef"},
		{"REP", "ab\x1b[3b", "abbbb"},
		{"CHA", "abcdef\x1b[4GX", "abcXef"},
		{"SGR ignored", "\x1b[1;31mred\x1b[0m", "red"},
		{"ED below", "ab\ncd\x1b[1;2H\x1b[J", "a"},
		{"scroll", "1\n2\n3\n4\n5", "2\n3\n4\n5"},
		{"delete line", "a\nb\nc\x1b[2;1H\x1b[M", "a\nc"},
		{"insert line", "a\nb\x1b[2;1H\x1b[L", "a\n\nb"},
		{"backspace", "ab\bX", "aX"},
	}
	for _, c := range cases {
		s := NewScreen(10, 4)
		s.Write([]byte(c.in))
		if got := s.String(); got != c.want {
			t.Errorf("%s: screen = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestWaitFor(t *testing.T) {
	s := NewScreen(10, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	waited := make(chan error, 1)
	go func() { waited <- s.WaitFor(ctx, "ready") }()
	s.Write([]byte("ready")) // before WaitFor looks, or after: it sees it either way
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	short, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	err := s.WaitFor(short, "never")
	if err == nil || !strings.Contains(err.Error(), "ready") || !strings.Contains(err.Error(), `"never"`) {
		t.Fatalf("WaitFor timeout error = %v, want one naming the text and showing the screen", err)
	}
}

func TestNewScreenRejectsBadSize(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "0x3") {
			t.Fatalf("recovered %v, want a panic naming the size", r)
		}
	}()
	NewScreen(0, 3)
}
