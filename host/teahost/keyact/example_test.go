package keyact_test

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/keyact"
)

// An action is a capability like any other: its name, description and
// input schema are what an adapter offers an agent, and the presses it
// sends are computed from the snapshot the call read.
func ExampleExpose() {
	c := agent.Make(agent.Definition[menu, agent.NoPrincipal]{
		Capabilities: []agent.Capability[menu, agent.NoPrincipal]{
			keyact.Expose(keyact.Action[row, menu, agent.NoPrincipal]{
				Name:        "mark_below",
				Description: "Move down by the given rows and mark the row there.",
				Available:   func(m menu) bool { return !m.Help },
				Keys: func(in row, _ menu) []tea.KeyPressMsg {
					keys := make([]tea.KeyPressMsg, 0, in.Row+1)
					for range in.Row {
						keys = append(keys, teahost.Key("down"))
					}
					return append(keys, teahost.Key("x"))
				},
			}),
		},
	})
	d := c.Describe().Capabilities[0]
	fmt.Println(d.Name)
	fmt.Println(d.Description)
	fmt.Println(string(d.InputSchema))
	// Output:
	// mark_below
	// Move down by the given rows and mark the row there.
	// {"type":"object","properties":{"row":{"type":"integer"}},"required":["row"],"additionalProperties":false}
}
