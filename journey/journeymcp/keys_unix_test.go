//go:build unix

package journeymcp_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// personKeys is the person's keyboard for an examples/shop binary run
// with -keys: a named pipe the shop reads key presses from, and a function
// that types into it.
func personKeys(t *testing.T) (path string, types func(keys string)) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "keys")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, func(keys string) {
		t.Helper()
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(keys); err != nil {
			t.Fatal(err)
		}
	}
}
