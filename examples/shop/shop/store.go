package shop

import (
	"context"
	"errors"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// Loop is the store as a host/loop application: it starts on the catalog
// and runs each payment as a Cmd. A program whose Model is the store (a
// headless MCP server, a test) runs it; the terminal app calls Update
// from its own.
func Loop(payDelay time.Duration) loop.App[Model, any] {
	return loop.Funcs(
		func() (Model, loop.Cmd[any]) { return New(payDelay), nil },
		func(m Model, msg any) (Model, loop.Cmd[any]) {
			m, pay := Update(m, msg)
			if pay == nil {
				return m, nil
			}
			return m, func(_ context.Context, send func(any)) { send(pay()) }
		},
	)
}

// Runtime is the store's contract bound to a running store.
type Runtime = agent.Runtime[Model, any, agent.NoPrincipal]

// Store is a running headless store: the program, the contract bound to
// it, and the audit log of every decision.
type Store struct {
	Program *loop.Program[Model, any]
	Runtime *Runtime
	Audit   *agent.AuditLog[agent.NoPrincipal]
	stop    context.CancelFunc
	done    chan error
}

// Start runs a store whose payment server answers after payDelay (zero:
// 600 ms). Close stops it.
func Start(payDelay time.Duration) (*Store, error) {
	p := loop.New(Loop(payDelay), nil)
	audit := agent.NewAuditLog(agent.AuditOptions[agent.NoPrincipal]{})
	rt, err := agent.Bind(Contract(), p, &agent.BindOptions[agent.NoPrincipal]{Audit: audit})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	st := &Store{Program: p, Runtime: rt, Audit: audit, stop: cancel, done: make(chan error, 1)}
	go func() { st.done <- p.Run(ctx) }()
	return st, nil
}

// Model is the store's current Model.
func (st *Store) Model() Model { return st.Program.Model() }

// Orders returns the placed orders.
func (st *Store) Orders() []Order { return st.Model().Orders }

// Close stops the store, letting a payment in flight finish within a
// bound.
func (st *Store) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := st.Program.Stop(ctx)
	st.stop()
	if rerr := <-st.done; err == nil && !errors.Is(rerr, context.Canceled) {
		err = rerr
	}
	return err
}
