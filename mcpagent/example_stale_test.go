package mcpagent_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/mcpagent"
)

// A rack: the item open on screen, and a bag the open item goes into.
type rack struct {
	Open string   `json:"open"`
	Bag  []string `json:"bag"`
}

type (
	ShowItem struct {
		Item string `json:"item" jsonschema:"the item to open"`
	}
	BagIt struct{ Item string }
)

// Two MCP sessions on one application: what each was shown is what its
// calls act on. Session B looks, session A opens another item, and B's
// bag_it (which bags the open item) is refused as built on a state B did
// not see, naming the watch that moved; once B reads again, its call
// applies to the item it saw.
func Example_actingOnWhatWasSeen() {
	open := agent.Watching("openItem", func(m rack) string { return m.Open })
	c := agent.Make(agent.Definition[rack, agent.NoPrincipal]{
		Context: agent.Project(func(m rack) rack { return m }),
		Capabilities: []agent.Capability[rack, agent.NoPrincipal]{
			agent.Expose(agent.Variant[ShowItem, rack, agent.NoPrincipal]{Name: "show_item", Description: "Open an item."}),
			agent.ExposeMapped(agent.Mapped[agent.NoInput, BagIt, rack, agent.NoPrincipal]{
				Name: "bag_it", Description: "Put the open item in the bag.",
				Available: func(m rack) bool { return m.Open != "" },
				ToMessage: func(_ agent.NoInput, c agent.Call[rack, agent.NoPrincipal]) BagIt { return BagIt{Item: c.Model.Open} },
				Watches:   []agent.Watch[rack]{open},
			}),
		},
	})
	prog := loop.New(loop.Funcs(func() (rack, loop.Cmd[any]) { return rack{}, nil },
		func(m rack, msg any) (rack, loop.Cmd[any]) {
			switch msg := msg.(type) {
			case ShowItem:
				m.Open = msg.Item
			case BagIt:
				m.Bag = append(slices.Clone(m.Bag), msg.Item)
			}
			return m, nil
		}), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go prog.Run(ctx)
	rt := agent.MustBind(c, prog, nil)
	srv, err := mcpagent.NewServer(rt, nil)
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	session := func() *mcp.ClientSession {
		st, ct := mcp.NewInMemoryTransports()
		if _, err := srv.Connect(ctx, st, nil); err != nil {
			panic(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "example"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			panic(err)
		}
		return cs
	}
	a, b := session(), session()
	defer a.Close()
	defer b.Close()
	call := func(cs *mcp.ClientSession, name string, args map[string]any) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			panic(err)
		}
		tag, _ := res.StructuredContent.(map[string]any)["_tag"].(string)
		moved, _ := res.StructuredContent.(map[string]any)["moved"].([]any)
		fmt.Println(name, "error:", res.IsError, tag, moved)
	}
	read := func(cs *mcp.ClientSession) {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "app://context"}); err != nil {
			panic(err)
		}
	}

	call(a, "show_item", map[string]any{"item": "red scarf"})
	read(b)
	call(a, "show_item", map[string]any{"item": "blue scarf"})
	call(b, "bag_it", nil) // built on the red scarf
	read(b)
	call(b, "bag_it", nil) // the blue scarf, which B now saw
	fmt.Println("bag:", prog.Model().Bag)
	// Output:
	// show_item error: false  []
	// show_item error: false  []
	// bag_it error: true AgentStaleViewError [openItem]
	// bag_it error: false  []
	// bag: [blue scarf]
}
