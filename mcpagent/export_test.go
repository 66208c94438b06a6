package mcpagent

import "time"

// WithPatienceTick makes the Servers built with o end each patience wait
// on the next value sent on tick, instead of after Patience.
func WithPatienceTick(o *Options, tick <-chan time.Time) { o.patienceTick = tick }

// HeldCount reports how many held calls and tasks s keeps.
func HeldCount(s *Server) int { return s.held.Count() }

// ToolChanges reports how many times s changed the tool set it
// advertises: one per Model change that changed the offer, whatever
// number of list_changed notices the SDK's time-based debounce sent for
// it.
func ToolChanges(s *Server) uint64 {
	s.toolMu.Lock()
	defer s.toolMu.Unlock()
	return s.tools.changes
}
