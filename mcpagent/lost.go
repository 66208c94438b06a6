package mcpagent

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// NoticeHealth is what a Server failed to send its clients so far:
// notifications that did not reach a session (one that went away, a
// stream that broke), counted by kind. Nothing a call answers is in it:
// a notification is an extra, and losing one never changes a result.
// Each loss is also logged at Warn on Options.Logger. The zero value is a
// Server that lost nothing.
type NoticeHealth struct {
	// Progress counts progress notifications of a waiting call not sent.
	Progress uint64
	// ResourceUpdates counts notifications/resources/updated not sent to
	// a subscribed session.
	ResourceUpdates uint64
	// ListChanged counts notifications/*/list_changed not sent to a
	// session.
	ListChanged uint64
	// Other counts any other notification the SDK failed to send for the
	// Server.
	Other uint64
	// LastError is the last loss and LastAt when it was; nil and zero
	// when there was none.
	LastError error
	LastAt    time.Time
}

// Lost returns the sum of the counts.
func (n NoticeHealth) Lost() uint64 { return n.Progress + n.ResourceUpdates + n.ListChanged + n.Other }

// NoticeHealth returns what s failed to send its clients so far.
func (s *Server) NoticeHealth() NoticeHealth { return s.lost.health() }

// noticeLoss counts one Server's lost notifications and tells its logger.
type noticeLoss struct {
	log                             atomic.Pointer[slog.Logger]
	progress, updates, lists, other atomic.Uint64
	mu                              sync.Mutex
	last                            error
	at                              time.Time
}

// noticeKind is what a lost notification was.
type noticeKind int

const (
	lostProgress noticeKind = iota
	lostResourceUpdate
	lostListChanged
	lostOther
)

func kindOf(method string) noticeKind {
	switch {
	case method == "notifications/progress":
		return lostProgress
	case method == "notifications/resources/updated":
		return lostResourceUpdate
	case strings.HasSuffix(method, "/list_changed"):
		return lostListChanged
	}
	return lostOther
}

// report counts a notification of kind that was not sent, for err, and
// logs it. A nil err, or a nil l, reports nothing.
func (l *noticeLoss) report(kind noticeKind, what string, err error) {
	if l == nil || err == nil {
		return
	}
	[]*atomic.Uint64{&l.progress, &l.updates, &l.lists, &l.other}[kind].Add(1)
	l.mu.Lock()
	l.last, l.at = fmt.Errorf("mcpagent: %s not sent: %w", what, err), time.Now()
	l.mu.Unlock()
	log := l.log.Load()
	if log == nil {
		log = slog.Default()
	}
	log.Warn("mcpagent: a notification was not sent", "notification", what, "error", err)
}

func (l *noticeLoss) health() NoticeHealth {
	l.mu.Lock()
	last, at := l.last, l.at
	l.mu.Unlock()
	return NoticeHealth{Progress: l.progress.Load(), ResourceUpdates: l.updates.Load(), ListChanged: l.lists.Load(),
		Other: l.other.Load(), LastError: last, LastAt: at}
}

// sdkLogger returns the logger the SDK is given for the Server: it keeps
// the SDK's own activity out of the application's log, as a discarding
// logger would, but counts and reports the notifications the SDK failed
// to send to a session (it logs each "calling <method>: <error>" at Warn
// and goes on: a loss the Server would otherwise never hear of).
func (l *noticeLoss) sdkLogger(log *slog.Logger) *slog.Logger {
	l.log.Store(log)
	return slog.New(sdkLossHandler{l: l})
}

// sdkLossHandler is the slog.Handler of sdkLogger.
type sdkLossHandler struct{ l *noticeLoss }

func (h sdkLossHandler) Enabled(_ context.Context, level slog.Level) bool {
	return level >= slog.LevelWarn
}

func (h sdkLossHandler) Handle(_ context.Context, r slog.Record) error {
	call, ok := strings.CutPrefix(r.Message, "calling ")
	if !ok {
		return nil
	}
	method, cause, ok := strings.Cut(call, ": ")
	if !ok || !strings.HasPrefix(method, "notifications/") {
		return nil
	}
	h.l.report(kindOf(method), method, sdkError(cause))
	return nil
}

func (h sdkLossHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h sdkLossHandler) WithGroup(string) slog.Handler      { return h }

// sdkError is the cause of a loss the SDK told only as text.
type sdkError string

func (e sdkError) Error() string { return string(e) }
