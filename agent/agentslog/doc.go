// Package agentslog writes a foldagent runtime's audit entries to
// log/slog.
//
// It is a package of its own, beside agent, so that the agent package
// does not import log/slog, whose initialisation (a default logger with
// its text formatting) would otherwise be linked into every binary built
// with agent, a browser's included. An application that audits to slog
// adds the sink:
//
//	audit := agent.NewAuditLog(agent.AuditOptions[User]{
//		Sinks: []agent.AuditSink{agentslog.AuditSink{Logger: logger}},
//	})
package agentslog
