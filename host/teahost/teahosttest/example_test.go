package teahosttest_test

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/teahosttest"
)

type counter struct{ n int }

type add struct{ N int }

func (c counter) Init() tea.Cmd { return nil }
func (c counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if a, ok := msg.(add); ok {
		c.n += a.N
	}
	return c, nil
}
func (c counter) View() tea.View { return tea.NewView(fmt.Sprintf("count: %d\n(q quits)", c.n)) }

func Example() {
	screen := teahosttest.NewScreen(30, 4)
	h := teahost.New[counter, add](counter{}, nil)
	go h.Run(context.Background(), screen.ProgramOptions()...)
	defer h.Quit()

	h.Dispatch(context.Background(), add{N: 12}) // what an agent does
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := screen.WaitFor(ctx, "count: 12"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(screen)
	// Output:
	// count: 12
	// (q quits)
}
