package devtools_test

import (
	"context"
	"fmt"

	"github.com/foldagent/foldagent/devtools"
	"github.com/foldagent/foldagent/host/loop"
)

type incremented struct {
	By int `json:"by"`
}

// A counter whose every change is recorded with who made it: the
// person's input (the UI dispatches a click with loop.WithInput), the
// command update returned, and the application's own dispatch.
func ExampleAttachLoop() {
	prog := loop.New(loop.Funcs(
		func() (int, loop.Cmd[incremented]) { return 0, nil },
		func(n int, m incremented) (int, loop.Cmd[incremented]) {
			if m.By == 10 {
				return n + m.By, loop.Emit(incremented{By: 1}) // an effect of the app's own
			}
			return n + m.By, nil
		},
	), nil)
	dev, err := devtools.AttachLoop(prog, devtools.Options{})
	if err != nil {
		panic(err)
	}
	defer dev.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	applied := make(chan struct{}, 3)
	prog.Observe(func(incremented) { applied <- struct{}{} })
	go func() { _ = prog.Run(ctx) }()

	_ = prog.Dispatch(loop.WithInput(ctx), incremented{By: 10}) // a click
	<-applied
	<-applied
	_ = prog.Dispatch(ctx, incremented{By: 2}) // the app's own code
	<-applied

	entries, _ := dev.History(devtools.Filter{})
	for _, e := range entries {
		fmt.Println(e.Version, e.Type, e.By, e.Provenance.Door, e.Changed)
	}
	replayed, model, _ := dev.Replay(ctx, 3)
	fmt.Println("replayed to", replayed.Version, "=", model, "matches:", replayed.Matches)
	// Output:
	// 2 devtools_test.incremented person input [/]
	// 3 devtools_test.incremented app cmd [/]
	// 4 devtools_test.incremented app dispatch [/]
	// replayed to 3 = 11 matches: true
}
