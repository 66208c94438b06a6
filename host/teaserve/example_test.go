package teaserve_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teaserve"
)

// Example binds a key-driven program to its contract, serves it, and
// has an MCP client type into it over HTTP. A real program calls
// s.Main(os.Args[1:], os.Stdin, os.Stdout) and gets the terminal.
func Example() {
	dir, _ := os.MkdirTemp("", "teaserve-example-")
	defer os.RemoveAll(dir)
	os.Setenv("XDG_RUNTIME_DIR", dir)

	h := teahost.New[pad, tea.Msg](pad{}, nil)
	s, err := teaserve.New("example", h, padContract, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	started := make(chan struct{}, 1)
	h.Subscribe(func() {
		select {
		case started <- struct{}{}:
		default:
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error)
	go func() { done <- s.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(40, 5)) }()
	<-started

	ep, _ := teaserve.ReadEndpoint("example")
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ep.URL, HTTPClient: &http.Client{Transport: bearer{ep.Token}}}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "type_text", Arguments: map[string]any{"text": "hello"}})
	fmt.Println("error:", res.IsError)
	fmt.Println(h.Model().View().Content)
	cs.Close()
	cancel()
	fmt.Println("stopped:", <-done)
	// Output:
	// error: false
	// pad: hello
	// stopped: <nil>
}
