package agenttest_test

import (
	"fmt"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/agenttest"
)

type counter struct{ N int }

type Reset struct{}

// In an application's own test, Golden keeps the committed files true:
//
//	func TestAgentContract(t *testing.T) {
//		agenttest.Golden(t, contract(), "agent.json")
//		agenttest.Golden(t, contract(), "AGENT.md")
//	}
//
// When the contract changes, the test fails with a diff like this one;
// go test -update rewrites the files.
func ExampleDiff() {
	before := agent.Make(agent.Definition[counter, agent.NoPrincipal]{Capabilities: []agent.Capability[counter, agent.NoPrincipal]{
		agent.Expose(agent.Variant[Reset, counter, agent.NoPrincipal]{Description: "Reset the counter."}),
	}})
	after := agent.Make(agent.Definition[counter, agent.NoPrincipal]{Capabilities: []agent.Capability[counter, agent.NoPrincipal]{
		agent.Expose(agent.Variant[Reset, counter, agent.NoPrincipal]{Description: "Set the counter back to zero."}),
	}})
	old, _ := agenttest.Render(before, "agent.json")
	cur, _ := agenttest.Render(after, "agent.json")
	fmt.Print(agenttest.Diff(string(old), string(cur)))
	// Output:
	//         "name": "reset",
	//         "tag": "Reset",
	// -       "description": "Reset the counter.",
	// +       "description": "Set the counter back to zero.",
	//         "inputSchema": {
	//           "type": "object",
}
