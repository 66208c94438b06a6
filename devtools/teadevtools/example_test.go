package teadevtools_test

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/devtools"
	"github.com/foldagent/foldagent/devtools/teadevtools"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/teahosttest"
)

// A running Bubble Tea program with devtools attached: each Update is
// recorded with who caused it, and a past version is rebuilt by replay
// without touching the live program.
func Example() {
	h := teahost.New[pad, tea.Msg](pad{}, nil)
	d, err := teadevtools.Attach(h, devtools.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	noted := make(chan struct{}, 2)
	h.Observe(func(m tea.Msg) {
		if _, ok := m.(note); ok {
			noted <- struct{}{}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = h.Run(ctx, teahosttest.NewScreen(40, 5).ProgramOptions()...)
	}()
	defer func() { cancel(); <-done }()

	// The application's own dispatch, then an agent's.
	_ = h.Dispatch(context.Background(), note{Text: "draft"})
	<-noted
	byAlice := devtools.WithAgent(context.Background(), devtools.AgentOrigin{Identity: "alice", Invocation: "inv-1"})
	_ = h.Dispatch(byAlice, note{Text: "hello"})
	<-noted

	entries, _ := d.History(devtools.Filter{Type: "teadevtools_test.note"})
	for _, e := range entries {
		fmt.Printf("%s by %s\n", e.Type, e.By)
	}
	_, then, err := d.Replay(ctx, entries[0].Version)
	fmt.Printf("replayed to the first note: %q %v\n", then.Note, err)
	// Output:
	// teadevtools_test.note by app
	// teadevtools_test.note by agent alice
	// replayed to the first note: "draft" <nil>
}
