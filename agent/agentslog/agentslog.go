package agentslog

import (
	"context"
	"log/slog"

	"github.com/foldagent/foldagent/agent"
)

// AuditSink writes each audit entry as one log/slog record, with the
// entry's fields as attributes (input, when kept, as a JSON string). The
// zero value logs to slog.Default() at slog.LevelInfo with the message
// "agent audit".
type AuditSink struct {
	// Logger receives the records. Nil means slog.Default().
	Logger *slog.Logger
	// Level is the records' level. The zero value is slog.LevelInfo.
	Level slog.Level
	// Message is the records' message. Empty means "agent audit".
	Message string
}

// Record logs e. It never fails.
func (s AuditSink) Record(e agent.AuditEntry) error {
	logger := s.Logger
	if logger == nil {
		logger = slog.Default()
	}
	msg := s.Message
	if msg == "" {
		msg = "agent audit"
	}
	attrs := make([]slog.Attr, 0, 9)
	attrs = append(attrs,
		slog.Time("at", e.At),
		slog.String("invocation", e.Invocation),
		slog.String("transport", string(e.Transport)),
		slog.String("capability", e.Capability),
	)
	if e.Tag != "" {
		attrs = append(attrs, slog.String("tag", e.Tag))
	}
	if e.Principal != "" {
		attrs = append(attrs, slog.String("principal", e.Principal))
	}
	attrs = append(attrs, slog.String("decision", string(e.Decision)), slog.String("outcome", e.Outcome))
	if e.Input != nil {
		attrs = append(attrs, slog.String("input", string(e.Input)))
	}
	logger.LogAttrs(context.Background(), s.Level, msg, attrs...)
	return nil
}
