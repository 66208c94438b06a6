// Command pantry is bubbles' list run in the terminal with its agent
// contract served: over MCP HTTP on loopback while it runs, and to a stdio
// client started as `pantry -mcp stdio`, attached to the running program.
package main

import (
	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/examples/bubbles/apps"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teaserve"
)

func main() {
	h := teahost.New[apps.Pantry, tea.Msg](apps.NewPantry("apples", "bread", "butter", "cheese", "milk", "eggs"), nil)
	teaserve.Main("pantry", h, apps.PantryContract, nil)
}
