package loop

import (
	"bytes"
	"log/slog"
	"testing"
)

// The default Logger writes one line per report: the message, then each
// key with its value quoted, so a multi-line stack stays on the line.
func TestLineLogger(t *testing.T) {
	var buf bytes.Buffer
	lineLogger{&buf}.Error("loop: contained a panic", "source", "update", "stack", "a\nb", "odd")
	want := "loop: contained a panic source=\"update\" stack=\"a\\nb\"\n"
	if buf.String() != want {
		t.Fatalf("got %q, want %q", buf.String(), want)
	}
}

// A *slog.Logger is a Logger, so Options.Logger takes one as it did.
func TestSlogLoggerIsALogger(t *testing.T) {
	var buf bytes.Buffer
	var l Logger = slog.New(slog.NewTextHandler(&buf, nil))
	l.Error("loop: contained a panic", "source", "cmd")
	if !bytes.Contains(buf.Bytes(), []byte("source=cmd")) {
		t.Fatalf("slog wrote %q", buf.String())
	}
}

// Without a Logger, a server's Program reports through slog.Default(),
// so it follows whatever the application set with slog.SetDefault.
func TestNilLoggerIsSlogDefault(t *testing.T) {
	if got := defaultLogger(); got != Logger(slog.Default()) {
		t.Fatalf("default Logger is %T, want slog.Default()", got)
	}
}
