package mcpshell

import (
	"time"

	"github.com/foldagent/foldagent/internal/bound"
)

// The session bounds of both adapters' HTTP handlers. The rule and its
// figures:
//
//   - One identity may hold DefaultMaxSessionsPerPrincipal (1,024)
//     sessions, and all identities together DefaultMaxSessions (4,096).
//   - At its own bound, an identity's new session takes the place of its
//     least recently used session that has had no request for
//     DefaultEvictIdleAfter (one minute): a client that went away without
//     DELETE does not lock its identity out for the idle timeout, and a
//     client that calls again within a minute never loses its session.
//   - Otherwise the new session is refused, 429 with Retry-After, and
//     nothing is built: no live client is broken to make room, and no
//     other identity's session is ever ended for it.
//
// A session with no request for DefaultSessionTimeout is ended.
const (
	DefaultSessionTimeout          = 30 * time.Minute
	DefaultMaxSessionsPerPrincipal = 1024
	DefaultMaxSessions             = 4096
	DefaultEvictIdleAfter          = time.Minute
)

// Places returns the counter of session places from the options' values,
// per identity and in all (zero: the default; negative: no bound).
func Places(perPrincipal, total int) *bound.Counter {
	return bound.NewCounter(
		bound.Limit{Name: "MaxSessionsPerPrincipal", Max: bound.Resolve(perPrincipal, DefaultMaxSessionsPerPrincipal)},
		bound.Limit{Name: "MaxSessions", Max: bound.Resolve(total, DefaultMaxSessions)},
		bound.DefaultRetryAfter)
}

// Admit takes a place for key's new session. At key's own bound it asks
// evict to end key's least recently used session idle long enough, and
// tries again; evict reports whether it ended one, or else how long until
// one will be idle long enough (zero when none is idle), which becomes
// the refusal's retry hint. The overall bound never makes room: that would
// end another identity's session. A nil result is a place taken.
func Admit(places *bound.Counter, key string, evict func(key string) (bool, time.Duration)) *bound.Refusal {
	for {
		err := places.Take(key)
		if err == nil {
			return nil
		}
		r, _ := bound.As(err)
		if !r.PerIdentity {
			return r
		}
		evicted, wait := evict(key)
		if !evicted {
			if wait > 0 {
				r.RetryAfter = wait
			}
			return r
		}
	}
}

// RefusalMessage is the sentence a refused new session is answered with:
// what to do at the identity's own bound, or at the server's.
func RefusalMessage(r *bound.Refusal) string {
	if r.PerIdentity {
		return "This identity already holds as many open sessions as the server allows, and none has been idle long enough to give way. Reuse one, end one (HTTP DELETE with its session id), or initialize again after the time in the Retry-After header."
	}
	return "The server already holds as many open sessions as it allows. Initialize again after the time in the Retry-After header."
}

// SessionCaller is the caller key of an MCP session with an id (streamable
// HTTP): the same in both adapters, as the ids are the SDK's, unique
// across handlers.
func SessionCaller(id string) string { return "mcp:session:" + id }
