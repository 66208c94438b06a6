package agent_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/foldagent/foldagent/agent"
)

// A refusal because the world is not in the state the call needs is not
// a refusal of the caller: RefuseState answers it with an AgentStateError,
// which every adapter tells apart from AgentAuthorizationError (Agent
// Native answers it 409, not 403).
func ExampleRefuseState() {
	reset := agent.Expose(agent.Variant[Reset, counterModel, agent.NoPrincipal]{
		Description: "Set the counter back to zero.",
		Authorize: func(_ context.Context, _ Reset, c agent.Call[counterModel, agent.NoPrincipal]) (agent.Decision, error) {
			if c.Model.Count == 0 {
				return agent.RefuseState("The counter is already at zero."), nil
			}
			return agent.Allow, nil
		},
	})
	c := agent.Make(agent.Definition[counterModel, agent.NoPrincipal]{Capabilities: []agent.Capability[counterModel, agent.NoPrincipal]{reset}})
	rt := agent.MustBind(c, &counterHost{}, nil)
	_, err := rt.DispatchUnknown(context.Background(), "reset", json.RawMessage(`{}`), agent.Invocation{})
	reply := agent.ReplyTo("reset", agent.Result{}, err)
	fmt.Println(reply.Tag)
	fmt.Println(string(reply.Data))
	// Output:
	// AgentStateError
	// {"_tag":"AgentStateError","capability":"reset","tag":"Reset","message":"The counter is already at zero."}
}
