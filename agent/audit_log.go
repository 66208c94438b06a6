//go:build !js

package agent

import "log/slog"

// logLost is the report of an audit failure when the application set no
// AuditOptions.OnError: an Error record on log/slog's default logger.
func logLost(err error) {
	slog.Default().Error("agent: audit entry not kept", "err", err)
}
