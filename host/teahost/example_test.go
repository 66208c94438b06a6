package teahost_test

import (
	"context"
	"fmt"
	"io"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/host/teahost"
)

// greeter is an ordinary Bubble Tea model.
type greeter struct{ name string }

// rename is the Message an agent may send.
type rename struct{ Name string }

func (g greeter) Init() tea.Cmd { return nil }

func (g greeter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case rename:
		g.name = msg.Name // g is a copy: the previous snapshot is untouched
	case tea.KeyPressMsg:
		if msg.String() == "q" {
			return g, tea.Quit
		}
	}
	return g, nil
}

func (g greeter) View() tea.View { return tea.NewView("Hello, " + g.name + "!") }

func Example() {
	h := teahost.New[greeter, rename](greeter{name: "world"}, nil)

	// Register before dispatching, as an agent runtime does, so the result
	// cannot be missed.
	applied := make(chan string, 1)
	h.Observe(func(m rename) { applied <- h.Model().View().Content })

	done := make(chan greeter)
	go func() {
		// A real application passes no options and gets the terminal.
		final, _ := h.Run(context.Background(), tea.WithInput(nil), tea.WithOutput(io.Discard))
		done <- final
	}()

	h.Dispatch(context.Background(), rename{Name: "agent"})
	fmt.Println(<-applied)

	h.Quit()
	fmt.Println("final:", (<-done).name)
	// Output:
	// Hello, agent!
	// final: agent
}
