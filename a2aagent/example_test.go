package a2aagent_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/mcpagent"
)

// An application serves its contract as an A2A agent at /agent: the card
// at /agent/.well-known/agent-card.json, JSON-RPC at /agent. Identity
// comes from the bearer token; each principal's tasks run on a runtime
// bound to that principal. Here a client reads the card, finds a skill on
// it, and sends a message that runs it: the task is the invocation.
func ExampleNewHandler() {
	prog := loop.New[model, msg](loop.Funcs(func() (model, loop.Cmd[msg]) { return model{}, nil }, update), nil)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = prog.Run(ctx) }()
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
		Logger:   quietLogger(),
	})
	if err != nil {
		panic(err)
	}
	defer h.Close()
	mux := http.NewServeMux()
	mux.Handle("/agent", http.StripPrefix("/agent", h))
	mux.Handle("/agent/", http.StripPrefix("/agent", h))
	srv := httptest.NewServer(mux) // an application: &http.Server{Addr: ..., Handler: mux}
	defer srv.Close()

	card, err := agentcard.NewResolver(http.DefaultClient).Resolve(ctx, srv.URL+"/agent")
	if err != nil {
		panic(err)
	}
	fmt.Println("card:", card.Name, "with", len(card.Skills), "skills, the first", card.Skills[0].ID)
	client, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithJSONRPCTransport(httpClient("owner-tok")))
	if err != nil {
		panic(err)
	}
	defer client.Destroy()
	res, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser,
		a2a.NewDataPart(map[string]any{"skill": "add_item", "input": map[string]any{"title": "milk"}}))})
	if err != nil {
		panic(err)
	}
	fmt.Println("task:", res.(*a2a.Task).Status.State)
	_, err = agentcard.NewResolver(http.DefaultClient).Resolve(ctx, srv.URL+"/agent") // the card needs no token
	fmt.Println("card without a token:", err == nil)
	resp, err := http.Post(srv.URL+"/agent", "application/json", nil) // everything else does
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println("a request without a token:", resp.StatusCode)
	// Output:
	// card: jobs with 5 skills, the first add_item
	// task: TASK_STATE_COMPLETED
	// card without a token: true
	// a request without a token: 401
}
