package journeymcp_test

import (
	"context"
	"fmt"
	"github.com/foldagent/foldagent/journey/fixed"
	"log"

	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/journeymcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Serving a session's port over MCP. A real host would call
// srv.Run(ctx, journeymcp.StdioTransport()), or hand srv.MCP() to
// mcp.NewStreamableHTTPHandler; the in-memory pair keeps the example
// self-contained.
func ExampleNewServer() {
	g := journey.MustNewGraph("notes", journey.GraphDef{
		Pages: []journey.Page{{ID: "list", Actions: []journey.Action{
			{Name: "add", Does: "Add a note", Writes: []string{"notes"}},
		}}},
		Journeys: []journey.Journey{{ID: "jot", Does: "Jot a note down", Steps: []string{"add"}}},
	})
	s := g.MustNewSession(journey.Options{State: map[string]any{"notes": 0}})
	s.RegisterActions("list", journey.Registration{Handlers: map[string]journey.Handler{
		"add": journey.Typed(func(ctx context.Context, _ struct{}) (any, error) {
			id, _ := journey.TransitionIDFrom(ctx)
			s.UpdateState(map[string]any{"notes": 1}, id)
			return nil, nil
		}),
	}})
	srv, err := journeymcp.NewServer(fixed.Serve(s, fixed.Options{}), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		log.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	list, _ := cs.ListTools(ctx, nil)
	for _, t := range list.Tools {
		fmt.Println(t.Name)
	}
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes.do_action", Arguments: map[string]any{"action": "add"}})
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text[:70])
	// Output:
	// notes.journey.jot
	// notes.whats_here
	// notes.why
	// notes.do_action
	// notes.did_it_work
	// false {"ok":true,"judgment":"done","did":"list.add","effectStatus":"performe
}
