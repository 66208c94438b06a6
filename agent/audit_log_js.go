//go:build js

package agent

// logLost is the report of an audit failure when the application set no
// AuditOptions.OnError. A browser build links no log/slog (see
// examples/todo-web's size test), so it goes to the console, through the
// runtime's println.
func logLost(err error) {
	println("agent: audit entry not kept:", err.Error())
}
