// Command pantry is bubbles' list run in the terminal with its agent
// contract served: over MCP HTTP on loopback while it runs, and to a stdio
// client started as `pantry -mcp stdio`, attached to the running program.
package main

import (
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/examples/bubbles/apps"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teaserve"
)

func main() {
	h := teahost.New[apps.Pantry, tea.Msg](apps.NewPantry("apples", "bread", "butter", "cheese", "milk", "eggs"), nil)
	s, err := teaserve.New("pantry", h, apps.PantryContract, nil)
	if err == nil {
		err = s.Main(os.Args[1:], os.Stdin, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pantry:", err)
		os.Exit(1)
	}
}
