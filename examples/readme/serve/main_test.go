package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/testbin"
)

func TestMain(m *testing.M) { testbin.Main(m) }

// callText calls a tool and returns its first text, and whether it is an
// error result.
func callText(t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// The README's program, launched by an MCP client over stdio, acts as its
// local owner.
func TestServeStdio(t *testing.T) {
	bin := testbin.Build(t, "examples/readme/serve")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "-stdio")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if text, isErr := callText(t, ctx, cs, "create_todo", map[string]any{"title": "Milk"}); isErr || text != "Dispatched CreateTodo" {
		t.Fatalf("create_todo: %q (error %v)", text, isErr)
	}
}

// Over HTTP each bearer token is a User: the owner may create a todo, the
// viewer is refused with the contract's sentence, and no token is 401.
func TestServeHTTPWithPrincipals(t *testing.T) {
	bin := testbin.Build(t, "examples/readme/serve")
	// The README shows this file, as the tokens file's format.
	tokens, err := filepath.Abs("testdata/tokens.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-addr", "127.0.0.1:0", "-tokens", tokens)
	cmd.Dir = t.TempDir() // nothing depends on the working directory
	cmd.Stderr = os.Stderr
	stdout := testbin.Start(t, cmd).Stdout
	lines := bufio.NewScanner(stdout)
	var url string
	if lines.Scan() {
		url, _ = strings.CutPrefix(lines.Text(), "MCP ")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("first line %q", lines.Text())
	}

	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without a token: %d", resp.StatusCode)
	}

	for _, c := range []struct {
		token, want string
		isErr       bool
	}{
		{"owner-tok", "Dispatched CreateTodo", false},
		{"viewer-tok", "Viewers may not add todos.", true},
	} {
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{c.token}}}
		cs, err := client.Connect(ctx, transport, nil)
		if err != nil {
			t.Fatal(err)
		}
		text, isErr := callText(t, ctx, cs, "create_todo", map[string]any{"title": "Milk"})
		cs.Close()
		if text != c.want || isErr != c.isErr {
			t.Errorf("%s: create_todo = %q (error %v), want %q (error %v)", c.token, text, isErr, c.want, c.isErr)
		}
	}
}

// A tokens file that cannot be used is refused before anything is served,
// naming the flag or the file.
func TestServeHTTPRefusesABadTokensFile(t *testing.T) {
	bin := testbin.Build(t, "examples/readme/serve")
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct{ file, want string }{
		{filepath.Join(dir, "missing.json"), "-tokens: open "},
		{write("empty.json", `{}`), "empty.json: no tokens"},
		{write("admin.json", `{"t": {"name": "ada", "role": "admin"}}`), "admin.json: each token needs a name and the role owner or viewer"},
		{write("twice.json", `{"s3cret": {"name": "vi", "role": "viewer"}, "s3cret": {"name": "ada", "role": "owner"}}`), `twice.json: "vi" and "ada" are given the same token`},
		{write("array.json", `[]`), "array.json: want a JSON object of tokens"},
	} {
		out, err := exec.Command(bin, "-addr", "127.0.0.1:0", "-tokens", c.file).CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) || strings.Contains(string(out), "MCP ") || strings.Contains(string(out), "s3cret") {
			t.Errorf("-tokens %s: err %v, output %q; want it to say %q", c.file, err, out, c.want)
		}
	}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
