// Package bound owns the rule by which every foldagent surface bounds
// what one identity may hold (sessions, running tasks, held approvals,
// runtimes) and what all of them may hold together, and the answer a
// request gets beyond a bound.
//
// The rule, the same on MCP, A2A, Agent Native, the journey endpoint and
// the runtime's approvals:
//
//   - every per-identity resource has a per-identity bound and an overall
//     bound, each an option of the surface that owns it, with a safe
//     default (zero uses it; negative sets no bound);
//   - a request that would pass a bound is refused before anything is
//     built for it, with a *Refusal: a typed, retry-later answer that
//     names the bound (the option that sets it) and its limit, and says
//     when to try again (HTTP answers it 429 with Retry-After);
//   - one identity at its own bound is refused alone: the other
//     identities' places are untouched, so it never affects them;
//   - nothing is taken from a holder that is using what it holds: a
//     surface may make room by ending something idle (a session whose
//     client has sent nothing for a while, a runtime holding nothing), but
//     never something in use, and never silently (the evicted client is
//     answered "not found" and opens again).
//
// A Counter keeps the counts for one kind of resource; the surface keeps
// the resources themselves and decides what, if anything, is idle enough
// to make room.
package bound
