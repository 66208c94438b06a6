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
	Runtime *agent.Runtime[App, tea.Msg, Principal]
	host    Host
}

// Bind binds the contract to a running App. Each principal's calls go
// through ForPrincipal.
func Bind(h Host) (*Bound, error) {
	rt, err := agent.Bind(Contract(), agent.Host[App, tea.Msg](h), &agent.BindOptions[Principal]{
		Principal: principalFromContext,
	})
	if err != nil {
		return nil, err
	}
	return &Bound{Runtime: rt, host: h}, nil
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
