package mcpagent

import "time"

// WithPatienceTick makes the Servers built with o end each patience wait
// on the next value sent on tick, instead of after Patience.
func WithPatienceTick(o *Options, tick <-chan time.Time) { o.patienceTick = tick }

// HeldCount reports how many held calls and tasks s keeps.
func HeldCount(s *Server) int { return s.held.count() }
