package agentslog_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/agentslog"
)

// A counter application: the Model, its one Message, and a host that
// applies it on Dispatch.
type model struct{ Count int }

type msg interface{ isMsg() }

type Increment struct {
	By int `json:"by"`
}

func (Increment) isMsg() {}

type host struct {
	mu sync.Mutex
	m  model
}

func (h *host) Model() model { h.mu.Lock(); defer h.mu.Unlock(); return h.m }

func (h *host) Dispatch(_ context.Context, m msg) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.m.Count += m.(Increment).By
	return nil
}

type user struct{ ID, Role string }

// Every decision of the runtime, refusals included, becomes one slog
// record: here a dispatch, and a refusal of input the schema does not
// accept (refused before the principal is resolved, so it names none).
func ExampleAuditSink() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		// The example drops the record's time, for stable output.
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	audit := agent.NewAuditLog(agent.AuditOptions[user]{
		Principal:    func(u user) string { return u.ID }, // an id, never the identity
		IncludeInput: true,
		Sinks:        []agent.AuditSink{agentslog.AuditSink{Logger: logger, Message: "audit"}},
		Clock:        func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
	})
	contract := agent.Make(agent.Definition[model, user]{
		Capabilities: []agent.Capability[model, user]{
			agent.Expose(agent.Variant[Increment, model, user]{Description: "Add to the counter."}),
		},
	})
	rt, err := agent.Bind(contract, &host{}, &agent.BindOptions[user]{
		Principal: func(context.Context, agent.Invocation) (user, error) { return user{ID: "u-42", Role: "owner"}, nil },
		Audit:     audit,
	})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	_, _ = rt.DispatchUnknown(ctx, "increment", json.RawMessage(`{"by":2}`), agent.Invocation{ID: "inv-1", Transport: "mcp"})
	_, _ = rt.DispatchUnknown(ctx, "increment", json.RawMessage(`{"by":"two"}`), agent.Invocation{ID: "inv-2", Transport: "mcp"})
	// Output:
	// level=INFO msg=audit at=2026-01-02T03:04:05.000Z invocation=inv-1 transport=mcp capability=increment tag=Increment principal=u-42 decision=dispatched outcome=dispatched input="{\"by\":2}"
	// level=INFO msg=audit at=2026-01-02T03:04:05.000Z invocation=inv-2 transport=mcp capability=increment tag=Increment decision=refused outcome=AgentInvalidInputError input="{\"by\":\"two\"}"
}
