package main

import (
	"context"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/examples/bubbles/internal/tsdrive"
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

// hostile is a grocery title an agent relays from somewhere it read: it
// moves the cursor, links to somewhere else (OSC 8), writes the clipboard
// (OSC 52) and resets the terminal (ESC c) if a terminal obeys it, and
// draws what looks like foldagent's approval card (within add_grocery's
// 100 characters).
const hostile = "tea\x1b[3;9Hx\x1b]8;;https://evil.example/\x1b\\ln\x1b]8;;\x1b\\\x1b]52;c;MTIz\x07\x1bc ━━ approval ━━ [y] ok"

// hostileShown is the title's text as the person sees it: every sequence
// dropped whole (host/teahost keeps text and styling only), so nothing
// moved the cursor between its pieces.
const hostileShown = "teaxln ━━ approval ━━ [y] ok"

// The official TypeScript MCP client, with its default settings, attached
// over stdio to the pantry running in a terminal, does a whole task (add a
// hostile title, read it back, filter, clear the filter, remove it) while
// the person moves the cursor. The model reads the title as it was sent;
// the person's screen obeys none of its sequences, and its fake card
// stays inside the list's row. Run twice, the answers are the same, and
// the same again over the HTTP endpoint.
func TestTypeScriptClientDrivesPantry(t *testing.T) {
	nodeDir := tsdrive.Need(t)
	app := tsdrive.App{Name: "pantry", Script: "testdata/pantry.mjs", Ready: tmuxtest.Has("Pantry", "apples", "eggs")}.Build(t)
	app.Thrice(t, func(r *tsdrive.Run, mode string) []tsdrive.Step {
		steps := r.Drive(t, nodeDir, mode, hostile, map[string]func(){
			"the context holds the title as sent": func() {
				checkHostileScreen(t, r.Term)
				r.Term.Keys("Home") // the person goes back to the first page
				r.Term.Wait("the first page", tmuxtest.Has("apples"))
			},
		})
		tsdrive.WantSteps(t, steps, "tools/list", "call add_grocery", "the context holds the title as sent",
			"call filter_groceries", "the filter shows cheese", "call clear_filter", "call remove_grocery", "the title is gone")
		r.Term.Wait("the list as it was", tmuxtest.Has("apples", "bread", "butter", "cheese", "milk", "eggs"))
		if s := r.Term.Screen(); strings.Contains(s, "approval") {
			t.Fatalf("the removed title is still shown:\n%s", s)
		}
		return steps
	})
}

// checkHostileScreen reads the person's screen with the hostile title on
// the list: nothing was cleared or drawn over (the list's title is where
// the list puts it), and the fake card is a list row, never a line of its
// own.
func checkHostileScreen(t *testing.T, term *tmuxtest.Terminal) {
	t.Helper()
	term.Keys("G") // the person goes to the list's end, on its second page
	screen := term.Wait("the hostile title", tmuxtest.Has("Pantry", "7 items", "tea"))
	t.Logf("the person sees:\n%s", screen)
	if strings.Contains(screen, "evil") || strings.Contains(screen, "MTIz") {
		t.Fatalf("the title's sequences were drawn as text:\n%s", screen)
	}
	if !strings.Contains(screen, hostileShown) {
		t.Fatalf("the title's text is not shown in one piece (%q):\n%s", hostileShown, screen)
	}
	rows := strings.Split(screen, "\n")
	for i, row := range rows {
		if strings.Contains(row, "━━") && !strings.Contains(row, "tea") {
			t.Fatalf("row %d shows the fake card outside the title's row:\n%s", i, screen)
		}
	}
	first := slices.IndexFunc(rows, func(r string) bool { return strings.TrimSpace(r) != "" })
	if first < 0 || !strings.Contains(rows[first], "Pantry") {
		t.Fatalf("the screen's first line is not the list's title (cleared or homed by the title):\n%s", screen)
	}
}
