//go:build !(js && wasm)

package loop

import "log/slog"

// defaultLogger is the Logger of a Program without one: log/slog's
// default logger, so a server that configured slog.SetDefault gets the
// Program's reports in the same place and shape as its own.
func defaultLogger() Logger { return slog.Default() }
