package nativeagent_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/nativeagent"
)

// A refusal because the world is not in the state the call needs is a
// conflict with the resource's state (409, AgentStateError), not a
// refusal of the caller (403): clearing an empty list, here, for a
// contract that says so with agent.RefuseState.
func TestStateRefusalIs409(t *testing.T) {
	clear := agent.Expose(capability[ClearNotes]{
		Name: "clear_notes", Description: "Remove every note.",
		Authorize: func(_ context.Context, _ ClearNotes, c call) (agent.Decision, error) {
			if len(c.Model.Notes) == 0 {
				return agent.RefuseState("There are no notes to clear."), nil
			}
			return agent.Allow, nil
		},
	})
	c := agent.Make(agent.Definition[model, user]{Capabilities: []agent.Capability[model, user]{clear}})
	h := &host{}
	handler, err := nativeagent.NewHandler(nativeagent.Options{
		Verifier: func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{UserID: "ada", Scopes: []string{"owner"}}, nil
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (nativeagent.Runtime, error) {
			return agent.Bind(c, h, &agent.BindOptions[user]{
				Principal: func(context.Context, agent.Invocation) (user, error) { return user{Name: "ada", Role: "owner"}, nil },
			})
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	status, res, _ := do(t, srv, "POST", actions+"clear_notes", "owner-tok", `{}`)
	if status != http.StatusConflict || res.OK || res.Refusal != agent.TagState || res.Message != "There are no notes to clear." {
		t.Fatalf("%d %+v, want 409 %s", status, res, agent.TagState)
	}
	if h.count() != 0 {
		t.Fatal("a refused call reached update")
	}
}
