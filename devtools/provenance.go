package devtools

import (
	"context"
	"strings"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// Who caused a change: the Kind of a Provenance.
const (
	// KindPerson: the person's own input: an input event of the terminal
	// (keys, mouse, paste, the window's size and focus) or a Message the
	// application's UI dispatched marked as input (loop.WithInput). Door
	// "input".
	KindPerson = "person"
	// KindAgent: an agent, through an agent runtime (its caller, and with
	// WithAgent or Agent its identity, session and invocation).
	KindAgent = "agent"
	// KindApp: the application's own effect: a command's result (Cause
	// names the version whose update returned it), a contained panic
	// turned into a Message, or a Message the application's own code
	// dispatched with no mark of an agent, the developer or the person's
	// input (Door "dispatch"): such a dispatch may follow anything, so it
	// is not told to be the person's.
	KindApp = "app"
	// KindDeveloper: the developer, through this package's dispatch tool.
	KindDeveloper = "developer"
	// KindUnknown: a Message queued before the recorder was attached.
	KindUnknown = "unknown"
)

// Provenance says where an applied Message came from. It is read at the
// one door every Message enters, the host's dispatch and apply path,
// never guessed from the Message.
type Provenance struct {
	// Kind is KindPerson, KindAgent, KindApp, KindDeveloper or KindUnknown.
	Kind string `json:"kind"`
	// Door is how the Message entered the host: "dispatch", "cmd",
	// "panic", or "input" (a terminal event).
	Door string `json:"door"`
	// Agent names the agent, for KindAgent.
	Agent *AgentOrigin `json:"agent,omitempty"`
	// Cause is the version whose update returned the command that sent
	// the Message (Door "cmd").
	Cause uint64 `json:"cause,omitempty"`
	// Developer names the developer tool's caller, for KindDeveloper.
	Developer string `json:"developer,omitempty"`
}

// AgentOrigin names the agent behind a Message.
type AgentOrigin struct {
	// Identity is who the agent acts as: the principal's id, as the
	// runtime's audit log projects it (agent.AuditOptions.Principal;
	// the runtime hands it to the host with the invocation,
	// agent.InvocationFrom), or as WithAgent named it, or else as
	// Options.NameAgent names its caller. Empty when only the caller is
	// known.
	Identity string `json:"identity,omitempty"`
	// Caller is the agent runtime's caller key (agent.WithCaller), such as
	// "mcp:session:…".
	Caller string `json:"caller,omitempty"`
	// Session is the protocol session, when the caller names one.
	Session string `json:"session,omitempty"`
	// Invocation is the invocation id, the one the agent audit records.
	Invocation string `json:"invocation,omitempty"`
	// Transport is the route the call came by ("mcp", "in-app", …).
	Transport string `json:"transport,omitempty"`
}

// markKey keys the one mark a dispatch context carries for the recorder
// (an agent's or the developer's), read with one lookup per Message.
type markKey struct{}

// mark is an agent's origin, or the developer tool's name.
type mark struct {
	agent     *AgentOrigin
	developer string
}

// WithAgent returns a context whose dispatches are recorded as the agent's
// that o names. An adapter wrapper (Agent) sets it for every call; an
// application calling agent.Dispatch itself can set it too.
func WithAgent(ctx context.Context, o AgentOrigin) context.Context {
	return context.WithValue(ctx, markKey{}, &mark{agent: &o})
}

// withDeveloper marks the developer tool's dispatches.
func withDeveloper(ctx context.Context, who string) context.Context {
	return context.WithValue(ctx, markKey{}, &mark{developer: who})
}

// FromDispatch is the provenance of a Message dispatched with ctx, for a
// host adapter that feeds Add: see dispatchOrigin.
func FromDispatch(ctx context.Context) Provenance {
	o := dispatchOrigin(ctx)
	return o.provenance(0)
}

// dispatchOrigin reads where a Message dispatched with ctx came from: a
// developer's or agent's mark, else the invocation an agent runtime
// handed the host, else an agent runtime's caller, else the
// application's own dispatch.
func dispatchOrigin(ctx context.Context) origin {
	if ctx == nil {
		return origin{kind: kindUnknown, door: doorDispatch}
	}
	mk, _ := ctx.Value(markKey{}).(*mark)
	if mk != nil && mk.agent == nil {
		return origin{kind: kindDeveloper, door: doorDispatch, mk: mk}
	}
	if mk != nil {
		a := *mk.agent
		if a.Caller == "" {
			a.Caller = agent.CallerFrom(ctx)
		}
		if a.Session == "" {
			a.Session = sessionOf(a.Caller)
		}
		return origin{kind: kindAgent, door: doorDispatch, agent: &a}
	}
	if h, ok := agent.InvocationFrom(ctx); ok {
		c := agent.CallerFrom(ctx)
		return origin{kind: kindAgent, door: doorDispatch, agent: &AgentOrigin{Identity: h.Principal, Caller: c,
			Session: sessionOf(c), Invocation: h.ID, Transport: string(h.Transport)}}
	}
	if c := agent.CallerFrom(ctx); c != "" {
		return origin{kind: kindAgent, door: doorDispatch, agent: &AgentOrigin{Caller: c, Session: sessionOf(c)}}
	}
	if loop.IsInput(ctx) {
		return origin{kind: kindPerson, door: doorInput}
	}
	return origin{kind: kindApp, door: doorDispatch}
}

// sessionOf is the session a caller key names ("mcp:session:ID").
func sessionOf(caller string) string {
	if s, ok := strings.CutPrefix(caller, "mcp:session:"); ok {
		return s
	}
	return ""
}

// label is a short human name of the provenance, for listings:
// "person", "agent alice", "app (cmd of v12)", "developer".
func (p Provenance) label() string {
	switch {
	case p.Kind == KindAgent && p.Agent != nil && strings.HasPrefix(p.Agent.Identity, "agent "):
		return p.Agent.Identity // a name such as NameAgent's "agent 2"
	case p.Kind == KindAgent && p.Agent != nil && p.Agent.Identity != "":
		return "agent " + p.Agent.Identity
	case p.Kind == KindAgent && p.Agent != nil:
		return "agent " + p.Agent.Caller
	}
	return p.Kind
}
