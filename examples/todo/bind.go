package main

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
)

// Runtime is the todo contract bound to the running App.
type Runtime = agent.Runtime[todo.List, tea.Msg, todo.Principal]

// Bound is the todo contract bound to a running App, with the audit log
// that feeds the activity panel.
type Bound struct {
	// Runtime resolves the principal from the dispatch context (see
	// WithPrincipal); in-process callers use it.
	Runtime *Runtime
	// Audit holds every decision of every runtime bound here, refusals
	// included.
	Audit *agent.AuditLog[todo.Principal]
	host  todo.Host[App, tea.Msg]
}

// RuntimeFor binds a runtime whose every call acts as p, sharing the audit
// log (and so the activity panel). A protocol adapter makes one per
// authenticated session: identity comes from the transport, never from a
// tool's arguments.
func (b *Bound) RuntimeFor(p todo.Principal) (*Runtime, error) {
	opts := todo.As(p)
	opts.Audit = b.Audit
	return agent.Bind(todo.Contract(), b.list(), opts)
}

// list is the running App as the contract sees it: its List.
func (b *Bound) list() todo.Host[todo.List, tea.Msg] {
	return todo.Focus(b.host, func(a App) todo.List { return a.List })
}

// Bind binds the contract to a running App (a teahost.Host). Each
// principal's calls go through RuntimeFor.
//
// Every decision is recorded in an audit log whose entries also reach the
// running App as Activity Messages, so the person at the terminal sees
// each agent action and refusal as it happens. More sinks (a JSON Lines
// file, slog) can be passed in.
func Bind(h todo.Host[App, tea.Msg], sinks ...agent.AuditSink) (*Bound, error) {
	b := &Bound{host: h}
	b.Audit = agent.NewAuditLog(agent.AuditOptions[todo.Principal]{
		Principal: func(p todo.Principal) string { return p.Name },
		Sinks:     append([]agent.AuditSink{activitySink{h}}, sinks...),
	})
	rt, err := agent.Bind(todo.Contract(), b.list(), &agent.BindOptions[todo.Principal]{
		Principal: principalFromContext,
		Audit:     b.Audit,
	})
	if err != nil {
		return nil, err
	}
	b.Runtime = rt
	return b, nil
}

// activitySink turns audit entries into Activity Messages for the panel.
type activitySink struct{ h agent.Host[App, tea.Msg] }

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
func WithPrincipal(ctx context.Context, p todo.Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

func principalFromContext(ctx context.Context, _ agent.Invocation) (todo.Principal, error) {
	p, _ := ctx.Value(principalKey{}).(todo.Principal)
	return p, nil
}

// Model returns the running App's current Model.
func (b *Bound) Model() App { return b.host.Model() }
