package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/devtools/registry"
	"github.com/foldagent/foldagent/internal/testbin"
)

func TestMain(m *testing.M) { testbin.Main(m) }

// bound is how long a test waits for an event before failing.
const bound = 20 * time.Second

// t0 is the start time of the first stand-in of a test; each next one
// starts a second later, so "newest" does not depend on the clock.
var t0 = time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)

// app is a stand-in for an application serving devtools: an MCP server
// with the tools named, over streamable HTTP on 127.0.0.1, behind a
// bearer token, published in a registry.
type app struct {
	name    string
	entry   registry.Entry
	srv     *httptest.Server
	refused atomic.Int64 // requests answered 401
	remove  func() error
	stopped sync.Once
}

type echoIn struct {
	Text string `json:"text"`
}

type countIn struct {
	Items []string `json:"items"`
}

// appSpec describes a stand-in: its name, where it runs, which tools it
// has ("echo", "count"), and whether it accepts the token it publishes.
type appSpec struct {
	name, dir string
	tools     []string
	started   int  // seconds after t0
	refuses   bool // accepts only another token than the published one
}

func startApp(t testing.TB, reg string, spec appSpec) *app {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: spec.name, Version: "1"}, nil)
	for _, tool := range spec.tools {
		switch tool {
		case "echo":
			mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Repeats a text, naming the app."},
				func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
					return text(spec.name + ": " + in.Text), nil, nil
				})
		case "count":
			mcp.AddTool(server, &mcp.Tool{Name: "count", Description: "Counts items, naming the app."},
				func(_ context.Context, _ *mcp.CallToolRequest, in countIn) (*mcp.CallToolResult, any, error) {
					return text(fmt.Sprintf("%s: %d items", spec.name, len(in.Items))), nil, nil
				})
		default:
			t.Fatalf("no stand-in tool %q", tool)
		}
	}
	a := &app{name: spec.name}
	published, accepted := registry.NewToken(), ""
	if accepted = published; spec.refuses {
		accepted = registry.NewToken()
	}
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !registry.Authorized(r, accepted) {
			a.refused.Add(1)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	a.entry = registry.Entry{Dir: spec.dir, URL: a.srv.URL + "/devtools", Token: published, App: spec.name,
		Started: t0.Add(time.Duration(spec.started) * time.Second)}
	remove, err := registry.Publish(reg, a.entry)
	if err != nil {
		a.srv.Close()
		t.Fatal(err)
	}
	a.remove = remove
	t.Cleanup(a.stop)
	return a
}

// stop removes the stand-in's entry and stops its server, as an
// application that exits does.
func (a *app) stop() {
	a.stopped.Do(func() {
		a.remove()
		a.srv.CloseClientConnections()
		a.srv.Close()
	})
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// lockedBuffer is a bytes.Buffer safe for the command's stderr copier and
// the test to use together.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// agent is a coding agent's side: the command run as a subprocess, and an
// MCP client talking to it over its stdin and stdout.
type agent struct {
	t       testing.TB
	session *mcp.ClientSession
	changed chan struct{}
	stderr  *lockedBuffer
	answers []string // every answer, whole
}

// startCommand runs the command in dir with extra arguments and env.
func startCommand(t testing.TB, dir string, env []string, args ...string) *agent {
	t.Helper()
	cmd := exec.Command(testbin.Build(t, "cmd/foldagent-devtools"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	ag := &agent{t: t, changed: make(chan struct{}, 1000), stderr: &lockedBuffer{}}
	cmd.Stderr = ag.stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case ag.changed <- struct{}{}:
			default:
				t.Error("more tools/list_changed notices than the test can hold")
			}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to the command: %v\n%s", err, ag.stderr)
	}
	ag.session = session
	t.Cleanup(func() { session.Close() })
	return ag
}

// tools lists the command's tools by name.
func (ag *agent) tools() string {
	ag.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	res, err := ag.session.ListTools(ctx, nil)
	if err != nil {
		ag.t.Fatalf("tools/list: %v\n%s", err, ag.stderr)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

// call calls a tool and returns its text, "error: " before a tool error.
func (ag *agent) call(name string, args any) string {
	ag.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	res, err := ag.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		ag.t.Fatalf("tools/call %s: %v\n%s", name, err, ag.stderr)
	}
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	out := strings.Join(parts, "\n")
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		out += "\n" + string(b)
	}
	ag.answers = append(ag.answers, out)
	if res.IsError {
		return "error: " + out
	}
	return out
}

// drain forgets the list_changed notices received so far.
func (ag *agent) drain() {
	for {
		select {
		case <-ag.changed:
		default:
			return
		}
	}
}

// waitChanged waits for a tools/list_changed notice.
func (ag *agent) waitChanged(what string) {
	ag.t.Helper()
	select {
	case <-ag.changed:
	case <-time.After(bound):
		ag.t.Fatalf("%s: no tools/list_changed within %v\n%s", what, bound, ag.stderr)
	}
}

// sentence is an answer up to its first colon: the fixed part of an
// error, without the paths, addresses and times after it.
func sentence(s string) string {
	if i := strings.Index(s, ": "); i >= 0 && strings.HasPrefix(s, "error: ") {
		if j := strings.Index(s[i+2:], ": "); j >= 0 {
			return s[:i+2+j]
		}
	}
	return s
}

// project makes the directories of a test: root/shop (the project, its
// app in root/shop/cmd/app) and root/shop2 (another project whose path
// starts with the first's).
func project(t testing.TB) (reg, proj, sub, other string) {
	root := t.TempDir()
	reg, proj, other = filepath.Join(root, "registry"), filepath.Join(root, "shop"), filepath.Join(root, "shop2")
	sub = filepath.Join(proj, "cmd", "app")
	for _, d := range []string{sub, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return reg, proj, sub, other
}
