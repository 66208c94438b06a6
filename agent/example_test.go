package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/foldagent/foldagent/agent"
)

// The application: a counter whose Messages are plain structs.
type counterModel struct{ Count int }

type counterMsg interface{ counterMsg() }

type Increment struct {
	By int `json:"by"`
}

type Reset struct{}

func (Increment) counterMsg() {}
func (Reset) counterMsg()     {}

// counterHost is the smallest possible host: a Model behind a mutex, and an
// update applied on Dispatch. host/loop is the ready one.
type counterHost struct {
	mu    sync.Mutex
	model counterModel
}

func (h *counterHost) Model() counterModel {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.model
}

func (h *counterHost) Dispatch(_ context.Context, msg counterMsg) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch m := msg.(type) {
	case Increment:
		h.model = counterModel{Count: h.model.Count + m.By}
	case Reset:
		h.model = counterModel{}
	}
	return nil
}

type counterCap[M any] = agent.Variant[M, counterModel, agent.NoPrincipal]

func counterContract() (*agent.Contract[counterModel, agent.NoPrincipal], *agent.Exposed[Increment, counterModel, agent.NoPrincipal]) {
	increment := agent.Expose(counterCap[Increment]{Description: "Add a number to the counter."})
	c := agent.Make(agent.Definition[counterModel, agent.NoPrincipal]{
		Context: agent.Project(func(m counterModel) map[string]int { return map[string]int{"count": m.Count} }),
		Capabilities: []agent.Capability[counterModel, agent.NoPrincipal]{
			increment,
			agent.Expose(counterCap[Reset]{
				Description: "Set the counter back to zero.",
				Available:   func(m counterModel) bool { return m.Count != 0 },
			}),
		},
	})
	return c, increment
}

func ExampleExpose() {
	increment := agent.Expose(counterCap[Increment]{Description: "Add a number to the counter."})
	d := increment.Descriptor()
	fmt.Println(d.Name, d.Tag)
	fmt.Println(string(d.InputSchema))
	// Output:
	// increment Increment
	// {"type":"object","properties":{"by":{"type":"integer"}},"required":["by"],"additionalProperties":false}
}

func ExampleBind() {
	c, _ := counterContract()
	rt, err := agent.Bind(c, &counterHost{}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	available, _ := rt.Available()
	for _, d := range available {
		fmt.Println(d.Name)
	}
	// Output:
	// increment
}

func ExampleDispatch() {
	c, increment := counterContract()
	h := &counterHost{}
	rt := agent.MustBind(c, h, nil)
	ctx := context.Background()

	// In-process, with a compile-time checked input.
	if _, err := agent.Dispatch(ctx, rt, increment, Increment{By: 2}, agent.Invocation{}); err != nil {
		fmt.Println(err)
	}
	// From the wire, as an adapter does.
	res, err := rt.DispatchUnknown(ctx, "increment", json.RawMessage(`{"by":40}`), agent.Invocation{Transport: agent.MCP})
	fmt.Println(res.Tag, err, h.Model().Count)
	_, text := agent.Summarize(res)
	fmt.Println(text)

	// Refusals are typed, with a message written for the agent.
	_, err = rt.DispatchUnknown(ctx, "increment", json.RawMessage(`{"by":"many"}`), agent.Invocation{})
	fmt.Println(err)
	// Output:
	// Increment <nil> 42
	// Dispatched Increment
	// The input for "increment" does not match its input schema.
}

func ExampleManifest() {
	c, _ := counterContract()
	fmt.Print(string(agent.Manifest(c)))
	// Output:
	// {
	//   "capabilities": [
	//     {
	//       "name": "increment",
	//       "tag": "Increment",
	//       "description": "Add a number to the counter.",
	//       "inputSchema": {
	//         "type": "object",
	//         "properties": {
	//           "by": {
	//             "type": "integer"
	//           }
	//         },
	//         "required": [
	//           "by"
	//         ],
	//         "additionalProperties": false
	//       },
	//       "modelDependent": false,
	//       "requiresAuthorization": false
	//     },
	//     {
	//       "name": "reset",
	//       "tag": "Reset",
	//       "description": "Set the counter back to zero.",
	//       "inputSchema": {
	//         "type": "object",
	//         "properties": {},
	//         "required": [],
	//         "additionalProperties": false
	//       },
	//       "modelDependent": true,
	//       "requiresAuthorization": false
	//     }
	//   ],
	//   "resources": [],
	//   "context": {
	//     "type": [
	//       "null",
	//       "object"
	//     ],
	//     "additionalProperties": {
	//       "type": "integer"
	//     }
	//   }
	// }
}
