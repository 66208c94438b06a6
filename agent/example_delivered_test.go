package agent_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// A caller learns which Model version its Message makes before any Model
// listener sees that version: a listener can then tell the caller's own
// change from the application's Messages queued around it.
func ExampleWhenDelivered() {
	c, _ := counterContract()
	p := loop.New(loop.Funcs(func() (counterModel, loop.Cmd[counterMsg]) { return counterModel{}, nil },
		func(m counterModel, msg counterMsg) (counterModel, loop.Cmd[counterMsg]) {
			if inc, ok := msg.(Increment); ok {
				m.Count += inc.By
			}
			return m, nil
		}), nil)
	rt := agent.MustBind(c, p, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = p.Run(ctx) }()

	mine := make(chan uint64, 1)
	call := agent.WhenDelivered(ctx, func(v uint64) { mine <- v })
	res, err := rt.DispatchUnknown(call, "increment", json.RawMessage(`{"by":2}`), agent.Invocation{})
	if err != nil {
		fmt.Println(err)
		return
	}
	v := <-mine
	fmt.Println(rt.TracksDelivery(), v == res.Version)
	// Output:
	// true true
}
