// Command notes is bubbles' textarea run in the terminal with its agent
// contract served: over MCP HTTP on loopback while it runs, and to a stdio
// client started as `notes -mcp stdio`, attached to the running program.
package main

import (
	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/examples/bubbles/apps"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teaserve"
)

func main() {
	h := teahost.New[apps.Notes, tea.Msg](apps.NewNotes(), nil)
	teaserve.Main("notes", h, apps.NotesContract, nil)
}
