package main

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/a2aagent/a2av03"
)

// a2a03Path is where the A2A 0.3 endpoint is mounted, below the A2A 1.0
// endpoint's own mount point.
const a2a03Path = "/v0.3"

// a2aHandlers serve the todo contract as an A2A agent, under the same
// bearer tokens as MCP: A2A 1.0 (JSON-RPC and HTTP+JSON), whose card also
// lists the 0.3 endpoint, and, for callers still on A2A 0.3, the 0.3
// JSON-RPC endpoint (to mount at a2a03Path below the 1.0 one). h is the
// handler to close. Each principal gets one runtime, bound as it is for
// MCP.
func a2aHandlers(b *Bound, t tokens, origins []string, logger *slog.Logger) (h *a2aagent.Handler, v10, v03 http.Handler, err error) {
	h, err = a2aagent.NewHandler(a2aagent.HTTPOptions{
		Verifier: t.verify,
		NewRuntime: func(_ context.Context, info *auth.TokenInfo) (a2aagent.Runtime, error) {
			return runtimeFor(b, info)
		},
		Contract:       b.contract.Describe(),
		Card:           a2aagent.CardOptions{Name: "todo", Description: "A todo list: create, rename, select, complete and delete todos."},
		AllowedOrigins: origins,
		Logger:         logger,
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return h, a2av03.Advertise(h, a2a03Path), a2av03.NewHandler(h, a2a03Path), nil
}
