package devtools

import (
	"context"
	"encoding/json"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/mcpagent"
)

// Agent wraps an MCP adapter's runtime so that every Message its calls
// dispatch is recorded as identity's: the calls are the runtime's own,
// with an invocation id minted here when the adapter gave none (the id the
// agent audit then records too) and the caller's mark in the context that
// reaches the host. Use it in mcpagent.HTTPOptions.NewRuntime, naming the
// principal the verifier found.
//
// The wrapper keeps every method of rt (its versioned reads, its offer as
// a set, CatchUp), so the adapter serves it as it would rt.
//
// Deprecated: the runtime hands the host every agent's Message with its
// invocation and its principal as the runtime's audit log names it
// (agent.InvocationFrom), and the recorder reads them there: bind the
// runtime with an agent.AuditLog whose AuditOptions.Principal names the
// principal and serve rt itself. Agent is left for a runtime bound
// without such a log; its identity wins over the audit's.
func Agent[Model, Msg, P any](rt *agent.Runtime[Model, Msg, P], identity string) mcpagent.Runtime {
	return marked[Model, Msg, P]{Runtime: rt, identity: identity}
}

type marked[Model, Msg, P any] struct {
	*agent.Runtime[Model, Msg, P]
	identity string
}

// DispatchUnknown marks ctx with the agent and calls the runtime.
func (m marked[Model, Msg, P]) DispatchUnknown(ctx context.Context, name string, payload json.RawMessage, inv agent.Invocation) (agent.Result, error) {
	if inv.ID == "" {
		inv.ID = agent.NewInvocationID()
	}
	ctx = WithAgent(ctx, AgentOrigin{
		Identity:   m.identity,
		Caller:     agent.CallerFrom(ctx),
		Invocation: inv.ID,
		Transport:  string(inv.Transport),
	})
	return m.Runtime.DispatchUnknown(ctx, name, payload, inv)
}
