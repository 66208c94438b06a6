package approvals

import (
	"fmt"
	"slices"
	"sync"
)

// Agents names the callers a person sees act, in the order they first
// appear: agent 1, agent 2, … A caller is the adapter's key for an agent
// (agent.CallerFrom, agent.ApprovalRequest.Caller): a session id, which
// means nothing to the person and must not be drawn as if it did. The
// card and the activity lines share one Agents, so a card's "asked by
// agent 2" is the agent 2 of the activity lines.
//
// Names only grow, up to MaxAgents callers: a caller keeps its number, and
// callers beyond the bound are each named "another agent". It is safe for concurrent
// use, and shared by value copies of the Deck and Activity holding it
// (which is sound, as a name once given never changes). The zero value
// is ready to use; a nil *Agents names every caller "an agent".
type Agents struct {
	mu      sync.Mutex
	callers []string
}

// MaxAgents is how many callers an Agents numbers.
const MaxAgents = 1024

// Name returns the caller's name, numbering it if it is new; "" (a call
// that named no caller) is "an agent".
func (g *Agents) Name(caller string) string {
	if g == nil || caller == "" {
		return "an agent"
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	i := slices.Index(g.callers, caller)
	if i < 0 {
		if len(g.callers) >= MaxAgents {
			return "another agent"
		}
		i = len(g.callers)
		g.callers = append(g.callers, caller)
	}
	return fmt.Sprintf("agent %d", i+1)
}
