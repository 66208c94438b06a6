package mcpagent

import (
	"github.com/foldagent/foldagent/internal/bound"
)

// newListenPlaces returns the counter of the sessionless path's
// subscriptions/listen streams. A listen stream is that revision's
// long-lived connection, what a session is on the others, and it is
// bounded by the same numbers, in places of its own (internal/bound's
// rule): MaxSessionsPerPrincipal streams per identity, MaxSessions in
// all. So a flood of streams on one token is refused at its own bound
// and never affects another identity, and all of them together stay
// within MaxSessions. An open stream is never ended to make room: it is
// in use while it is open.
func newListenPlaces(opts HTTPOptions) *bound.Counter {
	return bound.NewCounter(
		bound.Limit{Name: "MaxSessionsPerPrincipal", Max: max(opts.MaxSessionsPerPrincipal, 0)},
		bound.Limit{Name: "MaxSessions", Max: bound.Resolve(opts.MaxSessions, DefaultMaxSessions)},
		bound.DefaultRetryAfter)
}

// holdListen takes a place for one subscriptions/listen stream of the
// identity key, or returns the *bound.Refusal of the bound it would pass.
func (h *Handler) holdListen(key string) (*bound.Hold, *bound.Refusal) {
	hold, err := h.listens.Acquire(key)
	if err != nil {
		r, _ := bound.As(err)
		return nil, r
	}
	return hold, nil
}

// refuseListen answers a subscriptions/listen request beyond a bound: 429
// with Retry-After, and a JSON-RPC error whose data names the bound, its
// limit and when to retry (maxStreams repeats the limit). Nothing was
// opened for it.
func refuseListen(g *guard, id []byte, r *bound.Refusal) {
	r.SetHeaders(g.Header())
	data := r.Data()
	data["maxStreams"] = r.Limit
	msg := "This identity already holds as many open subscription streams as the server allows. Close one, then listen again after the time in the Retry-After header."
	if !r.PerIdentity {
		msg = "The server already holds as many open subscription streams as it allows. Listen again after the time in the Retry-After header."
	}
	writeRPCError(g, bound.StatusCode, id, codeTooManySessions, msg, data)
}
