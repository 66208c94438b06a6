package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/internal/testbin"
)

// A tokens file the app cannot use is refused before anything is served,
// and the error names the flag and the file (and a bad role, and never a
// token); -demo is refused where there is no terminal app to show it in.
func TestCommandLineMistakesAreRefusedNamingTheFlag(t *testing.T) {
	bin := buildTodo(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "todos.json")
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	missing := filepath.Join(dir, "missing.json")
	empty := write("empty.json", `{}`)
	admin := write("admin.json", `{"s3cret-token": {"name": "ada", "role": "admin"}}`)
	// One token given to a viewer, then again to the owner: a map decode
	// keeps the last, which would make the viewer's token the owner's.
	twice := write("twice.json", `{"s3cret-token": {"name": "vi", "role": "viewer"}, "other-token": {"name": "bo", "role": "viewer"}, "s3cret-token": {"name": "ada", "role": "owner"}}`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-mcp", "http", "-tokens", missing}, "-tokens: open " + missing},
		{[]string{"-mcp", "http", "-tokens", empty}, "-tokens " + empty + ": the file names no token"},
		{[]string{"-mcp", "http", "-tokens", admin}, "-tokens " + admin + `: the principal "ada" has the role "admin": use owner or viewer`},
		{[]string{"-mcp", "http", "-tokens", twice}, "-tokens " + twice + `: entry 3 (principal "ada") repeats the token of entry 1 (principal "vi")`},
		{[]string{"-a2a", "http", "-tokens", twice}, "repeats the token of entry 1"},
		{[]string{"-mcp", "stdio", "-demo"}, "-demo shows a scripted agent in the terminal app; it cannot be combined with -mcp"},
		{[]string{"-mcp", "http", "-demo"}, "-demo shows a scripted agent"},
		{[]string{"-native", "http", "-demo"}, "-demo shows a scripted agent"},
	} {
		// A mode that ignored the mistake would serve until killed.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, bin, append(c.args, "-data", data)...)
		cmd.Stdin = strings.NewReader("") // an MCP client that sends nothing
		out, err := cmd.CombinedOutput()
		cancel()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%v: err %v, output %q; want it to say %q", c.args, err, out, c.want)
		}
		if strings.Contains(string(out), "MCP ") || strings.Contains(string(out), "s3cret-token") {
			t.Errorf("%v: served or showed a token before refusing: %q", c.args, out)
		}
	}
}

// Registered with an MCP client by its path, the installed command works
// from whatever directory the client starts it in: the list lives under
// the user's config directory, not the working directory.
func TestStdioFromAnyDirectory(t *testing.T) {
	bin := buildTodo(t)
	root := t.TempDir()
	config := filepath.Join(root, "config")
	env := append(os.Environ(), "XDG_CONFIG_HOME="+config, "HOME="+filepath.Join(root, "home"))
	for _, c := range []struct{ dir, title string }{{"a", "Milk"}, {"b", "Eggs"}} {
		dir := filepath.Join(root, c.dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.Command(bin, "-mcp", "stdio")
		cmd.Dir, cmd.Env = dir, env
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_todo", Arguments: map[string]any{"title": c.title}})
		cs.Close()
		cancel()
		if err != nil || res.IsError {
			t.Fatalf("create_todo from %s: %+v %v", c.dir, res, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("the command wrote into its working directory %s: %v", c.dir, entries)
		}
	}
	waitFile(t, filepath.Join(config, "foldagent-todo", "todos.json"), func(l todo.List) bool {
		return len(l.Todos) == 2 && l.Todos[0].Title == "Milk" && l.Todos[1].Title == "Eggs"
	})
}

// An owner started with a relative -data publishes its socket by its
// absolute path, so an MCP client started in another directory, naming
// the same list, attaches to it.
func TestAttachFromAnotherDirectory(t *testing.T) {
	bin := buildTodo(t)
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	owner := exec.Command(bin, "-mcp", "http", "-data", "todos.json")
	owner.Dir = a
	stdout := testbin.Start(t, owner).Stdout
	defer func() { _ = owner.Process.Signal(os.Interrupt); _ = owner.Wait() }()
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "MCP ") {
		t.Fatalf("the owner's first line: %q", lines.Text())
	}
	go func() {
		for lines.Scan() {
		}
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "-mcp", "stdio", "-data", filepath.Join(a, "todos.json"))
	cmd.Dir = b
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("attach from another directory: %v\nstderr: %s", err, stderr)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_todo", Arguments: map[string]any{"title": "Milk"}})
	if err != nil || res.IsError {
		t.Fatalf("create_todo: %+v %v; stderr: %s", res, err, stderr)
	}
	waitFile(t, filepath.Join(a, "todos.json"), func(l todo.List) bool {
		return len(l.Todos) == 1 && l.Todos[0].Title == "Milk"
	})
}
