package agent

import (
	"context"
	"encoding/hex"
	"math/rand/v2"
	"sync"
)

// Transport names the route an invocation arrived by. Adapters use the
// constants below; an application may use its own.
type Transport string

// Transports used by this module's adapters.
const (
	InApp  Transport = "in-app"
	MCP    Transport = "mcp"
	WebMCP Transport = "webmcp"
	A2A    Transport = "a2a"
)

// Invocation identifies one call of a capability. Its zero value is ready
// to use: dispatch fills in a fresh ID (see NewInvocationID) and the in-app
// transport. An adapter passes its own ID and transport.
//
// Cancellation is not a field: it is the context.Context passed to
// dispatch.
type Invocation struct {
	ID        string    `json:"id"`
	Transport Transport `json:"transport"`
	// SeenVersion is the version of the state the caller planned this
	// call against, when it cites one (a version a read or a Result gave
	// it). A cited version wins over the caller's last look when the call
	// is judged (see Watch). 0 cites nothing. Adapters read it from the
	// protocol: MCP's _meta, A2A message metadata, an Agent Native
	// request header (each adapter's documentation says where).
	SeenVersion uint64 `json:"seenVersion,omitempty"`
	// SeenWhole says the caller was shown the whole of SeenVersion's
	// state, as a read shows it (journey/bind cites the version its
	// session's answer showed), not only what a Result carried. A Result
	// at the cited version is then no narrower look: the call is judged
	// against that version's Model. False (the zero value) judges a
	// cited version that is also the caller's last Result's by what that
	// Result showed (see Watch).
	SeenWhole bool `json:"seenWhole,omitempty"`
}

func (inv Invocation) withDefaults(newID func() string) Invocation {
	if inv.ID == "" {
		inv.ID = newID()
	}
	if inv.Transport == "" {
		inv.Transport = InApp
	}
	return inv
}

// NewInvocationID returns a fresh random invocation id (a version 4 UUID).
// It is the default generator; an adapter that mints its own ids can use
// it too.
//
// An id must be unique (it keys a completion's waiter and an audit entry,
// and audit logs of several processes may be read together) and not
// predictable by a caller, who could otherwise name another invocation's
// id in its input. Its 122 random bits come from math/rand/v2's global
// generator: ChaCha8, seeded per thread from the operating system's (the
// browser's) secure randomness and rekeyed as it goes, so its output
// cannot be predicted from earlier ids, which is all an id needs;
// crypto/rand would add nothing here but its code, which a browser build
// would have to download.
func NewInvocationID() string {
	var b [16]byte
	e := entropyPool.Get().(*entropy)
	e.read(b[:])
	entropyPool.Put(e)
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	// The canonical 8-4-4-4-12 form, hex-encoded in place: this runs on
	// every adapter call, where fmt's formatting cost four times as much.
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:36], b[10:16])
	return string(out[:])
}

// entropy hands out random bytes a block at a time: an adapter mints an
// id on every call, and one refill per 32 ids costs less than one per id.
// Every byte is handed out once and then cleared.
type entropy struct {
	buf [512]byte
	off int
}

var entropyPool = sync.Pool{New: func() any { return &entropy{off: 512} }}

func (e *entropy) read(b []byte) {
	if e.off+len(b) > len(e.buf) {
		for i := 0; i < len(e.buf); i += 8 {
			v := rand.Uint64()
			for j := range 8 {
				e.buf[i+j] = byte(v >> (8 * j))
			}
		}
		e.off = 0
	}
	n := copy(b, e.buf[e.off:])
	clear(e.buf[e.off : e.off+n])
	e.off += n
}

// Call is what an Authorize hook and a mapped variant's ToMessage receive
// beside the decoded input: the invocation (its id and transport), the
// Model snapshot that Available approved, and the principal resolved for
// this invocation. Authorize and ToMessage see the same Call, so a value
// one checked is the value the other reads.
type Call[Model, P any] struct {
	Invocation Invocation
	Model      Model
	Principal  P
}

// Decision is an authorize hook's answer: Allow, Refuse, RefuseBecause or
// RefuseState. Only this package makes Decisions. The zero value (nil)
// refuses, so a hook that forgets to decide fails closed.
type Decision interface {
	// Allowed reports whether the decision permits the invocation.
	Allowed() bool
	// Reason returns the refusal's reason, or "" when none was given.
	Reason() string
	decision() refusal
}

// Verdict is the type of the two decisions that give no reason, Allow and
// Refuse: constants, so no code can redefine them.
type Verdict bool

const (
	// Allow permits the invocation.
	Allow Verdict = true
	// Refuse refuses the invocation without saying why; the agent is told
	// only that it is not authorized.
	Refuse Verdict = false
)

// Allowed reports whether v is Allow.
func (v Verdict) Allowed() bool { return bool(v) }

// Reason returns "": a Verdict gives no reason.
func (v Verdict) Reason() string { return "" }

func (v Verdict) decision() refusal { return refusal{allowed: bool(v)} }

// refusal is a decision with a reason (RefuseBecause, RefuseState), and
// the form the runtime reads every Decision in.
type refusal struct {
	_       incomparable // never compared: no equality function compiled
	allowed bool
	reason  string
	state   bool // refused because the world is not in the state asked of it
}

func (r refusal) Allowed() bool     { return r.allowed }
func (r refusal) Reason() string    { return r.reason }
func (r refusal) decision() refusal { return r }

// readDecision is d as the runtime reads it: nil refuses.
func readDecision(d Decision) refusal {
	if d == nil {
		return refusal{}
	}
	return d.decision()
}

// RefuseBecause refuses the invocation with a reason written for the
// calling agent; the reason becomes the AuthorizationError's message.
// Write it as an authored sentence: do not put Model values or input in it.
func RefuseBecause(reason string) Decision { return refusal{reason: reason} }

// RefuseState refuses the invocation because the world is not in the
// state the call needs (the order is already paid; the id names an order
// that is not the one under review): the caller may be allowed, and the
// call well formed, but what it would act on is not so. The reason,
// written for the calling agent, becomes the StateError's message (tag
// AgentStateError), told apart from who-may refusals on every surface.
// Write it as an authored sentence: do not put Model values or input in
// it.
func RefuseState(reason string) Decision { return refusal{reason: reason, state: true} }

// NoPrincipal is the principal type of a contract whose hooks never read a
// principal.
type NoPrincipal = struct{}

// NoInput is the input type of a mapped capability that takes nothing from
// the agent: its schema is an object with no members, so the agent sends
// {} (or no arguments), and ToMessage builds the Message from the Call
// alone, typically from the snapshot Available approved.
type NoInput struct{}

type invocationKey struct{}

// Handed is what the runtime hands the host beside an agent's Message
// (InvocationFrom): the invocation and the principal it acts as.
type Handed struct {
	Invocation
	// Principal names the principal the call was resolved to, as the
	// runtime's audit log projects it (AuditOptions.Principal): the id
	// the audit entry records, never the principal itself. "" when the
	// runtime has no audit log with a projection.
	Principal string
}

// InvocationFrom reports the invocation whose Message is being handed to
// the host with ctx: a host (or a recorder attached to it, such as
// devtools) reads it in Dispatch to tell an agent's Message from the
// person's or the application's own, with its id (the audit log's),
// transport and principal. The caller's key is CallerFrom(ctx).
func InvocationFrom(ctx context.Context) (Handed, bool) {
	if c, ok := ctx.Value(invocationKey{}).(*invocationCtx); ok {
		return c.handed, true
	}
	return Handed{}, false
}

// invocationCtx carries the invocation to the host in one allocation
// (context.WithValue would box it as well).
type invocationCtx struct {
	context.Context
	handed Handed
}

func (c *invocationCtx) Value(key any) any {
	if key == (invocationKey{}) {
		return c
	}
	return c.Context.Value(key)
}
