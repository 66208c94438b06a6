// Command bubbletea is the README's "Serve your Bubble Tea app": a Bubble
// Tea program whose only Messages are keys, served to agents while a
// person uses it.
package main

import (
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/keyact"
	"github.com/foldagent/foldagent/host/teaserve"
)

// counter is an ordinary Bubble Tea model: + and - change it, and nothing
// in it knows about agents.
type counter struct{ N int }

func (c counter) Init() tea.Cmd { return nil }
func (c counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "+":
			c.N++
		case "-":
			c.N--
		case "q", "ctrl+c":
			return c, tea.Quit
		}
	}
	return c, nil
}
func (c counter) View() tea.View {
	return tea.NewView(fmt.Sprintf("count: %d (+/- to change, q to quit)", c.N))
}

type By struct {
	Times int `json:"times" jsonschema:"how many times to press the key, 1 to 100"`
}

var contract = agent.Make(agent.Definition[counter, agent.NoPrincipal]{
	Context: agent.Project(func(c counter) counter { return c }),
	Capabilities: []agent.Capability[counter, agent.NoPrincipal]{
		keyact.Expose(keyact.Action[By, counter, agent.NoPrincipal]{
			Name:        "increase",
			Description: "Increase the count by pressing + the given number of times.",
			Keys: func(in By, _ counter) []tea.KeyPressMsg {
				keys := make([]tea.KeyPressMsg, min(max(in.Times, 0), 100))
				for i := range keys {
					keys[i] = teahost.Key("+")
				}
				return keys
			},
		}),
	},
})

func main() {
	h := teahost.New[counter, tea.Msg](counter{}, nil)
	s, err := teaserve.New("counter", h, contract, nil)
	if err == nil {
		err = s.Main(os.Args[1:], os.Stdin, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "counter:", err)
		os.Exit(1)
	}
}
