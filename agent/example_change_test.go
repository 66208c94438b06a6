package agent_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// A call's result says what it changed of the context: here the items the
// agent sees, and nothing of the Model's Secret, which the projection
// hides.
func ExampleChange() {
	prog := loop.New[tableModel, tableMsg](tableApp{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = prog.Run(ctx) }()
	rt := agent.MustBind(tableContract(true, nil), prog, nil)

	res, err := rt.DispatchUnknown(ctx, "add_item", json.RawMessage(`{"name":"pen"}`), agent.Invocation{})
	if err != nil {
		fmt.Println(err)
		return
	}
	changed, _ := json.Marshal(res.Changed)
	fmt.Println(string(changed))
	res, _ = rt.DispatchUnknown(ctx, "bump_secret", json.RawMessage(`{}`), agent.Invocation{})
	changed, _ = json.Marshal(res.Changed)
	fmt.Println(string(changed))
	// Output:
	// {"from":1,"to":2,"paths":[{"path":"/items","value":["pen"]}]}
	// {"from":2,"to":3,"paths":[]}
}
