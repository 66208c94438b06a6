package bindmcp_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
	"github.com/foldagent/foldagent/journey/bind/bindmcp"
)

// A counter with a home page and a detail page that opens once the count
// is positive.
type counter struct {
	Page  string
	Count int
}

type (
	Increment struct{}
	Open      struct{}
)

type np = agent.NoPrincipal

// One application, one contract, one journey declaration: served as the
// contract's dynamic tools (what the Model offers now: open_detail is not
// offered at count 0) or as the fixed journey tools, by one option.
func ExampleNewServer() {
	p := loop.New(loop.Funcs(func() (counter, loop.Cmd[any]) { return counter{Page: "home"}, nil },
		func(m counter, msg any) (counter, loop.Cmd[any]) {
			switch msg.(type) {
			case Increment:
				m.Count++
			case Open:
				m.Page = "detail"
			}
			return m, nil
		}), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx)

	inc := agent.Expose(agent.Variant[Increment, counter, np]{Name: "increment", Description: "Add one."})
	open := agent.Expose(agent.Variant[Open, counter, np]{Name: "open_detail", Description: "Open the detail page.",
		Available: func(m counter) bool { return m.Count > 0 }})
	rt, err := agent.Bind(agent.Make(agent.Definition[counter, np]{Capabilities: []agent.Capability[counter, np]{inc, open}}), p, nil)
	if err != nil {
		panic(err)
	}
	def := bind.Def[counter, np]{
		Page:  func(m counter) string { return m.Page },
		State: func(m counter) map[string]any { return map[string]any{"count": m.Count} },
		Pages: []bind.Page[counter, np]{
			{ID: "home", Actions: []bind.Action[counter, np]{
				{Name: "increment", Does: "Add one.", Capability: inc, Writes: []string{"count"}},
				{Name: "open", Does: "Open the detail page.", Capability: open, GoTo: "detail"},
			}},
			{ID: "detail"},
		},
		Journeys: []journey.Journey{{ID: "visit", Does: "Count, then open the detail page.", Steps: []string{"increment", "open"}}},
	}

	for _, tools := range []bindmcp.Tools{bindmcp.Dynamic, bindmcp.Fixed} {
		srv, _, err := bindmcp.NewServer("counter", rt, p.Model, def, &bindmcp.Options{Tools: tools})
		if err != nil {
			panic(err)
		}
		st, ct := mcp.NewInMemoryTransports()
		if _, err := srv.Connect(ctx, st, nil); err != nil {
			panic(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "example"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			panic(err)
		}
		list, err := cs.ListTools(ctx, nil)
		if err != nil {
			panic(err)
		}
		var names []string
		for _, t := range list.Tools {
			names = append(names, t.Name)
		}
		slices.Sort(names)
		fmt.Println(tools, names)
		cs.Close()
		srv.Close()
	}
	// Output:
	// dynamic [increment]
	// fixed [counter.did_it_work counter.do_action counter.journey.visit counter.whats_here counter.why]
}
