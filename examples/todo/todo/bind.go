package todo

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
)

// Host is what the todo contract binds to: a running todo App whose
// Messages are Bubble Tea Messages (teahost.Host[App, tea.Msg] is one).
type Host interface {
	agent.Host[App, tea.Msg]
	agent.Subscriber
	agent.Observer[tea.Msg]
}

// Bound is the todo contract bound to a running App, with the audit log
// that feeds the activity panel.
type Bound struct {
	// Runtime resolves the principal from the dispatch context (see
	// WithPrincipal); in-process callers use it.
	Runtime *agent.Runtime[App, tea.Msg, Principal]
	// Audit holds every decision of every runtime bound here, refusals
	// included.
	Audit *agent.AuditLog[Principal]
	host  Host
}

// RuntimeFor binds a runtime whose every call acts as p, sharing the audit
// log (and so the activity panel). A protocol adapter makes one per
// authenticated session: identity comes from the transport, never from a
// tool's arguments.
func (b *Bound) RuntimeFor(p Principal) (*agent.Runtime[App, tea.Msg, Principal], error) {
	return agent.Bind(Contract(), b.host, &agent.BindOptions[Principal]{
		Principal: func(context.Context, agent.Invocation) (Principal, error) { return p, nil },
		Audit:     b.Audit,
	})
}

// Bind binds the contract to a running App. Each principal's calls go
// through ForPrincipal.
//
// Every decision is recorded in an audit log whose entries also reach the
// running App as Activity Messages, so the person at the terminal sees
// each agent action and refusal as it happens. More sinks (a JSON Lines
// file, slog) can be passed in.
func Bind(h Host, sinks ...agent.AuditSink) (*Bound, error) {
	audit := agent.NewAuditLog(agent.AuditOptions[Principal]{
		Principal: func(p Principal) string { return p.Name },
		Sinks:     append([]agent.AuditSink{activitySink{h}}, sinks...),
	})
	rt, err := agent.Bind(Contract(), h, &agent.BindOptions[Principal]{
		Principal: principalFromContext,
		Audit:     audit,
	})
	if err != nil {
		return nil, err
	}
	return &Bound{Runtime: rt, Audit: audit, host: h}, nil
}

// activitySink turns audit entries into Activity Messages for the panel.
type activitySink struct{ h Host }

func (s activitySink) Record(e agent.AuditEntry) error {
	who := e.Principal
	if who == "" {
		who = "anonymous"
	}
	return s.h.Dispatch(context.Background(), Activity{At: e.At, Who: who, Capability: e.Capability, Outcome: e.Outcome})
}

type principalKey struct{}

// WithPrincipal returns a context carrying p; dispatches made with it act
// as p. Identity comes from the caller's transport (a token, a session),
// never from tool arguments.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

func principalFromContext(ctx context.Context, _ agent.Invocation) (Principal, error) {
	p, _ := ctx.Value(principalKey{}).(Principal)
	return p, nil
}

// Model returns the running App's current Model.
func (b *Bound) Model() App { return b.host.Model() }
