package teaserve_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/keyact"
	"github.com/foldagent/foldagent/host/teahost/teahosttest"
	"github.com/foldagent/foldagent/host/teaserve"
)

// pad is a key-driven program: it keeps what it was typed.
type pad struct{ Text string }

func (p pad) Init() tea.Cmd { return nil }
func (p pad) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.Text != "" {
		p.Text += k.Text
	}
	return p, nil
}
func (p pad) View() tea.View { return tea.NewView("pad: " + p.Text) }

type typeIn struct {
	Text string `json:"text" jsonschema:"what to type"`
}

var padContract = agent.Make(agent.Definition[pad, agent.NoPrincipal]{
	Context: agent.Project(func(p pad) pad { return p }),
	Capabilities: []agent.Capability[pad, agent.NoPrincipal]{
		keyact.Expose(keyact.Action[typeIn, pad, agent.NoPrincipal]{
			Name: "type_text", Description: "Type text into the pad, as the person would.",
			Keys: func(in typeIn, _ pad) []tea.KeyPressMsg { return teahost.Type(in.Text) },
		}),
	},
})

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func typeText(t *testing.T, cs *mcp.ClientSession, text string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "type_text", Arguments: map[string]any{"text": text}})
	if err != nil || res.IsError {
		t.Fatalf("type_text(%q): %v %+v", text, err, res)
	}
}

func readText(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "app://context"})
	if err != nil {
		t.Fatal(err)
	}
	var p pad
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &p); err != nil {
		t.Fatal(err)
	}
	return p.Text
}

// The program runs in its terminal (a pipe and a screen here) while an
// HTTP client and a stdio client attached through the socket type into
// it, and the person types too: every one of them lands in the one model.
func TestServeOverHTTPAndAttachedStdio(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	h := teahost.New[pad, tea.Msg](pad{}, nil)
	s, err := teaserve.New("padtest", h, padContract, nil)
	if err != nil {
		t.Fatal(err)
	}
	keys, person := io.Pipe()
	screen := teahosttest.NewScreen(40, 5)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	seen := make(chan struct{}, 64)
	h.Subscribe(func() { seen <- struct{}{} })
	go func() { ran <- s.Run(ctx, append(screen.ProgramOptions(), tea.WithInput(keys))...) }()
	defer func() {
		cancel()
		person.Close()
		if err := <-ran; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	<-seen // the program is running: its socket and endpoint are up

	// A second copy of the program is refused at start-up.
	second, err := teaserve.New("padtest", teahost.New[pad, tea.Msg](pad{}, nil), padContract, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := second.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "already running") {
		t.Fatalf("second copy: %v", err)
	}

	ep, err := teaserve.ReadEndpoint("padtest")
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	web, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ep.URL, HTTPClient: &http.Client{Transport: bearer{ep.Token}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer web.Close()

	cin, toServer := io.Pipe()
	fromServer, cout := io.Pipe()
	go func() { _ = teaserve.Attach("padtest", teaserve.Hello{}, cin, cout); cout.Close() }()
	local, err := client.Connect(ctx, &mcp.IOTransport{Reader: fromServer, Writer: toServer}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()

	typeText(t, web, "ab")
	if _, err := person.Write([]byte("P")); err != nil {
		t.Fatal(err)
	}
	for !strings.Contains(h.Model().Text, "P") {
		<-seen
	}
	typeText(t, local, "cd")
	if got := readText(t, web); got != "abPcd" {
		t.Fatalf("context = %q, want abPcd", got)
	}
	if got := readText(t, local); got != "abPcd" {
		t.Fatalf("context over the socket = %q", got)
	}
}

func TestSocketRefusedWhenOpenToOthers(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", dir)
	if err := os.Mkdir(filepath.Join(dir, "foldagent"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "foldagent"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := teaserve.Listen("x"); err == nil || !strings.Contains(err.Error(), "open to other users") {
		t.Fatalf("Listen in a 0755 directory: %v", err)
	}
	if _, err := teaserve.Dial("x", teaserve.Hello{}); err == nil || !strings.Contains(err.Error(), "open to other users") {
		t.Fatalf("Dial in a 0755 directory: %v", err)
	}
	if err := os.Chmod(filepath.Join(dir, "foldagent"), 0o700); err != nil {
		t.Fatal(err)
	}
	sock, err := teaserve.Listen("x")
	if err != nil {
		t.Fatal(err)
	}
	defer sock.Close()
	if err := os.Chmod(sock.Path(), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := teaserve.Dial("x", teaserve.Hello{}); err == nil || !strings.Contains(err.Error(), "open to other users") {
		t.Fatalf("Dial to a 0666 socket: %v", err)
	}
}

// A bad program name fails at New, before anything is opened.
func TestNewRefusesABadName(t *testing.T) {
	if _, err := teaserve.New("bad name!", teahost.New[pad, tea.Msg](pad{}, nil), padContract, nil); err == nil {
		t.Fatal("a bad program name was accepted")
	}
}
