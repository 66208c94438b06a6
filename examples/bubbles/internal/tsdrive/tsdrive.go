package tsdrive

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/host/teaserve"
	"github.com/foldagent/foldagent/internal/peer"
	"github.com/foldagent/foldagent/internal/testbin"
	"github.com/foldagent/foldagent/internal/tmuxtest"
)

// Need states the peers a test needs (node, tmux and the pinned client)
// before it does any work, and returns the node directory to load the
// client from. A short run skips unless peers are required.
func Need(t *testing.T) string {
	t.Helper()
	if testing.Short() && !peer.Required() {
		t.Skip("drives a real terminal and node")
	}
	peer.Program(t, "node")
	peer.Program(t, "tmux")
	return peer.NodeModules(t, filepath.Join(moduleRoot(), "mcpagent/testdata/node"), "@modelcontextprotocol/sdk")
}

// moduleRoot is the module's directory, found from this file's.
func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "../../../..")
}

// App is a bubbles program as a test runs it.
type App struct {
	Name   string            // the command's name, which is also its served name
	Script string            // the client script, in the test's testdata
	Ready  func(string) bool // holds of the program's first screen
	Cols   int               // the terminal's size; 60×24 when zero
	Rows   int
	bin    string
}

// Build builds the command at examples/bubbles/<Name> (once per test
// binary) and returns a with it.
func (a App) Build(t *testing.T) App {
	a.bin = testbin.Build(t, "examples/bubbles/"+a.Name)
	return a
}

// Run is one run of an App in a terminal of its own.
type Run struct {
	Term *tmuxtest.Terminal
	app  App
	dir  string
}

// Start runs the program in a new terminal, with a runtime directory of
// its own (where its socket and endpoint file go), and waits for its first
// screen.
func (a App) Start(t *testing.T, session string) *Run {
	t.Helper()
	cols, rows := a.Cols, a.Rows
	if cols == 0 {
		cols, rows = 60, 24
	}
	dir := t.TempDir()
	term := tmuxtest.Start(t, session, "env XDG_RUNTIME_DIR="+dir+" "+a.bin, cols, rows)
	term.Wait("the first screen", a.Ready)
	return &Run{Term: term, app: a, dir: dir}
}

// Step is one step the script reported.
type Step struct {
	Step   string          `json:"step"`
	OK     bool            `json:"ok"`
	Detail json.RawMessage `json:"detail"`
}

func (s Step) String() string { return s.Step + " " + string(s.Detail) }

// Names are the steps' names, in order.
func Names(steps []Step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Step
	}
	return out
}

// Drive runs the script against r over mode ("stdio" or "http"), passing
// text (the agent's text the script sends), and returns every step it
// reported. A step that failed fails t. When the script pauses after a
// step named in at, the function there runs (the person's keys, a look at
// the screen) and the script goes on.
func (r *Run) Drive(t *testing.T, nodeDir, mode, text string, at map[string]func()) []Step {
	t.Helper()
	script, err := filepath.Abs(r.app.Script)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{script, nodeDir, text, mode, r.app.bin, r.dir}
	if mode == "http" {
		t.Setenv("XDG_RUNTIME_DIR", r.dir)
		ep, err := teaserve.ReadEndpoint(r.app.Name) // written before the first screen
		if err != nil {
			t.Fatal(err)
		}
		args = []string{script, nodeDir, text, mode, ep.URL, ep.Token}
	}
	cmd := exec.Command("node", args...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	steps := read(t, stdout, func(s Step) {
		if f, ok := at[s.Step]; ok {
			f()
			if _, err := io.WriteString(stdin, "go\n"); err != nil {
				t.Fatal(err)
			}
		}
	})
	if err := cmd.Wait(); err != nil {
		t.Errorf("the script: %v", err)
	}
	return steps
}

func read(t *testing.T, out io.Reader, each func(Step)) []Step {
	t.Helper()
	var steps []Step
	lines := bufio.NewScanner(out)
	lines.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for lines.Scan() {
		var s Step
		if err := json.Unmarshal(lines.Bytes(), &s); err != nil {
			t.Fatalf("the script wrote %q", lines.Text())
		}
		if !s.OK {
			t.Errorf("step %q failed: %s", s.Step, s.Detail)
		}
		steps = append(steps, s)
		each(s)
	}
	return steps
}

// WantSteps fails t unless the steps are named want, in order.
func WantSteps(t *testing.T, steps []Step, want ...string) {
	t.Helper()
	if got := Names(steps); !slices.Equal(got, want) {
		t.Fatalf("steps %q, want %q", got, want)
	}
}

// Same fails t unless again's answers are first's, step for step.
func Same(t *testing.T, mode string, first, again []Step) {
	t.Helper()
	if !slices.Equal(lines(first), lines(again)) {
		t.Fatalf("over %s, the answers differ from the first run's:\n%s\n---\n%s", mode, strings.Join(lines(first), "\n"), strings.Join(lines(again), "\n"))
	}
}

func lines(steps []Step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.String()
	}
	return out
}

// Thrice runs drive on three runs of a, each in a terminal of its own:
// over stdio, over stdio again and over HTTP, and fails t unless the
// three answer alike.
func (a App) Thrice(t *testing.T, drive func(r *Run, mode string) []Step) {
	t.Helper()
	first := drive(a.Start(t, a.Name+"-ts1"), "stdio")
	for i, mode := range []string{"stdio", "http"} {
		Same(t, mode, first, drive(a.Start(t, fmt.Sprintf("%s-ts%d", a.Name, i+2)), mode))
	}
}
