package main

import (
	"context"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/host/teaserve"
	"github.com/foldagent/foldagent/internal/testbin"
	"github.com/foldagent/foldagent/internal/tmuxtest"
)

func TestMain(m *testing.M) { testbin.Main(m) }

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %+v", name, err, res)
	}
}

// The real binary runs in a terminal; a stdio client started as
// `pantry -mcp stdio` attaches to it, an HTTP client reads its endpoint,
// and the person presses keys in between: the screen shows all of it.
func TestPantryInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal")
	}
	bin := testbin.Build(t, "examples/bubbles/pantry")
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	term := tmuxtest.Start(t, "pantry", "env XDG_RUNTIME_DIR="+run+" "+bin, 60, 24)
	term.Wait("the list", tmuxtest.Has("Pantry", "apples", "bread", "milk"))
	// The socket and the endpoint file are made before the list draws.

	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cmd := exec.Command(bin, "-mcp", "stdio")
	cmd.Env = append(cmd.Environ(), "XDG_RUNTIME_DIR="+run)
	local, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	call(t, local, "remove_grocery", map[string]any{"name": "bread"})
	term.Wait("bread gone", tmuxtest.Lacks("bread"))

	term.Keys("j", "j") // the person moves the cursor
	ep, err := teaserve.ReadEndpoint("pantry")
	if err != nil {
		t.Fatal(err)
	}
	web, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ep.URL, HTTPClient: &http.Client{Transport: bearer{ep.Token}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer web.Close()
	call(t, web, "remove_grocery", map[string]any{"name": "milk"})
	call(t, web, "filter_groceries", map[string]any{"text": "che"})
	screen := term.Wait("the filter", tmuxtest.Has("cheese"))
	if strings.Contains(screen, "milk") || strings.Contains(screen, "bread") {
		t.Fatalf("removed groceries still shown:\n%s", screen)
	}
	term.Keys("Escape") // the person clears the filter
	term.Wait("every grocery left", tmuxtest.Has("apples", "butter", "cheese", "eggs"))
}
