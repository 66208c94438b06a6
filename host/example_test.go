package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/teahosttest"
)

// titled is an application whose one Message sets its title.
type titled struct{ Title string }

func (t titled) Init() tea.Cmd { return nil }
func (t titled) Update(m tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := m.(SetTitle); ok {
		t.Title = s.Title
	}
	return t, nil
}
func (t titled) View() tea.View { return tea.NewView(t.Title) }

// One contract, bound with no adapter code to either host: host/loop for
// a program with no UI, host/teahost for a Bubble Tea program a person
// watches. The agent's call is the same on both.
func Example() {
	c := agent.Make(agent.Definition[titled, agent.NoPrincipal]{Capabilities: []agent.Capability[titled, agent.NoPrincipal]{
		agent.Expose(agent.Variant[SetTitle, titled, agent.NoPrincipal]{
			Description: "Set the title.",
			Completion:  agent.When(func(m titled) string { return m.Title }, func(title string, in SetTitle) bool { return title == in.Title }),
		}),
	}})
	ctx, cancel := context.WithCancel(context.Background())
	var running sync.WaitGroup
	defer running.Wait()
	defer cancel()
	call := func(h agent.Host[titled, any], title string) {
		rt, err := agent.Bind(c, h, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		in, _ := json.Marshal(map[string]string{"title": title})
		res, err := rt.DispatchUnknown(ctx, "set_title", in, agent.Invocation{})
		fmt.Println(res.Completion.Status, h.Model().Title, err)
	}

	p := loop.New(loop.Funcs(
		func() (titled, loop.Cmd[any]) { return titled{}, nil },
		func(m titled, msg any) (titled, loop.Cmd[any]) { n, _ := m.Update(msg); return n.(titled), nil },
	), nil)
	running.Go(func() { _ = p.Run(ctx) })
	call(p, "from the loop")

	th := teahost.New[titled, any](titled{}, nil)
	running.Go(func() { _, _ = th.Run(ctx, teahosttest.NewScreen(20, 2).ProgramOptions()...) })
	call(th, "from Bubble Tea")
	// Output:
	// completed from the loop <nil>
	// completed from Bubble Tea <nil>
}
