package a2aagent_test

import (
	"context"
	"errors"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/mcpagent"
)

// An application serves its contract as an A2A agent at /agent: the card
// at /agent/.well-known/agent-card.json, JSON-RPC at /agent. Identity
// comes from the bearer token; each principal's tasks run on a runtime
// bound to that principal.
func ExampleNewHandler() {
	prog := loop.New[model, msg](loop.Funcs(func() (model, loop.Cmd[msg]) { return model{}, nil }, update), nil)
	h, err := a2aagent.NewHandler(a2aagent.HTTPOptions{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			u, ok := tokens[token]
			if !ok {
				return nil, auth.ErrInvalidToken
			}
			return mcpagent.TokenFor(u.Name, u), nil
		},
		NewRuntime: func(_ context.Context, info *auth.TokenInfo) (a2aagent.Runtime, error) {
			u, ok := mcpagent.PrincipalOf[user](info)
			if !ok {
				return nil, errors.New("no user for this token")
			}
			return agent.Bind[model, msg, user](contract, prog, &agent.BindOptions[user]{
				Principal: func(context.Context, agent.Invocation) (user, error) { return u, nil },
			})
		},
		Contract: contract.Describe(),
		Card:     a2aagent.CardOptions{Name: "jobs", Version: "1.0.0"},
	})
	if err != nil {
		panic(err)
	}
	defer h.Close()
	mux := http.NewServeMux()
	mux.Handle("/agent", http.StripPrefix("/agent", h))
	mux.Handle("/agent/", http.StripPrefix("/agent", h))
	_ = &http.Server{Addr: "127.0.0.1:8080", Handler: mux} // then ListenAndServe
}
