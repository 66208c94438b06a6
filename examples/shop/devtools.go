package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/devtools"
	"github.com/foldagent/foldagent/devtools/teadevtools"
	"github.com/foldagent/foldagent/examples/shop/shop"
	"github.com/foldagent/foldagent/host/approvals"
	"github.com/foldagent/foldagent/host/teahost"
)

// devtoolsFlags are -devtools and -devtools-dispatch, as the todo
// example's.
type devtoolsFlags struct {
	on, dispatch bool
}

func (d devtoolsFlags) check() error {
	if d.dispatch && !d.on {
		return errors.New("-devtools-dispatch enables dispatch in -devtools; give -devtools too")
	}
	return nil
}

// attachDevtools is -devtools: the store's history recorded at the
// host's door (teadevtools), each agent's Messages named as the panel
// names it (agent 1, agent 2: the runtime hands the host its invocation
// and caller, and Options.NameAgent names the caller), served on loopback
// behind a random token and published in the per-user registry, where
// foldagent-devtools started in this directory, or one above it, finds
// it. Off, it attaches nothing. The returned close unpublishes and stops
// serving.
func attachDevtools(f devtoolsFlags, th *teahost.Host[App, tea.Msg], audit *agent.AuditLog[agent.NoPrincipal], agents *approvals.Agents, logger *slog.Logger) (func(), error) {
	if !f.on {
		return func() {}, nil
	}
	d, l, err := teadevtools.Serve(th, devtools.Options{
		App:       "shop",
		Messages:  shopMessages(),
		Audit:     audit.Entries,
		Publish:   devtools.Registry(""),
		Dispatch:  f.dispatch,
		NameAgent: agents.Name,
	})
	if err != nil {
		return nil, fmt.Errorf("-devtools: %w", err)
	}
	// Never the token: the registry holds it, owner-only.
	fmt.Fprintf(os.Stderr, "shop: devtools at %s, published for foldagent-devtools run in %s\n", l.URL, l.Dir)
	return func() {
		if err := d.Close(); err != nil {
			logger.Warn("shop: devtools did not close cleanly", "err", err)
		}
	}, nil
}

// shopMessages are the store's Message types, for the devtools' schema
// tool and (when enabled) their dispatch.
func shopMessages() []devtools.MessageType {
	return []devtools.MessageType{
		devtools.Message[shop.Search](), devtools.Message[shop.OpenProduct](),
		devtools.Message[shop.AddToCart](), devtools.Message[shop.GoCart](),
		devtools.Message[shop.GoCatalog](), devtools.Message[shop.GoCheckout](),
		devtools.Message[shop.RemoveLine](), devtools.Message[shop.OpenReview](),
		devtools.Message[shop.CloseReview](), devtools.Message[shop.PaymentSucceeded](),
		devtools.Message[shop.PaymentRefused](),
	}
}
