package main

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/a2aagent/a2av03"
	"github.com/foldagent/foldagent/examples/todo/todo"
)

// a2aHandlers serve the todo contract as an A2A agent, under the same
// bearer tokens as MCP: A2A 1.0 (JSON-RPC and HTTP+JSON) and, for callers
// still on A2A 0.3, the 0.3 JSON-RPC endpoint. Each principal gets one
// runtime, bound as it is for MCP.
func a2aHandlers(b *Bound, t tokens, origins []string, logger *slog.Logger) (*a2aagent.Handler, http.Handler, error) {
	h, err := a2aagent.NewHandler(a2aagent.HTTPOptions{
		Verifier: t.verify,
		NewRuntime: func(_ context.Context, info *auth.TokenInfo) (a2aagent.Runtime, error) {
			return b.RuntimeFor(principalOf(info))
		},
		Contract:       todo.Contract().Describe(),
		Card:           a2aagent.CardOptions{Name: "todo", Description: "A todo list: create, rename, select, complete and delete todos."},
		AllowedOrigins: origins,
		Logger:         logger,
	})
	if err != nil {
		return nil, nil, err
	}
	return h, a2av03.NewHandler(h), nil
}
