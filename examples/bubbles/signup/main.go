// Command signup is a huh form run in the terminal with its agent
// contract served: over MCP HTTP on loopback while it runs, and to a stdio
// client started as `signup -mcp stdio`, attached to the running program.
package main

import (
	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/examples/bubbles/apps"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teaserve"
)

func main() {
	h := teahost.New[apps.Signup, tea.Msg](apps.NewSignup(), nil)
	teaserve.Main("signup", h, apps.SignupContract, nil)
}
