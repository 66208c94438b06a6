//go:build js && wasm

package loop

import "os"

// defaultLogger is the Logger of a Program without one in a browser
// build: a line per report on standard error (the console), so that the
// page does not link log/slog for the few reports a Program makes.
func defaultLogger() Logger { return lineLogger{os.Stderr} }
