package mcpagent_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/stdio/stdiotest"
	"github.com/foldagent/foldagent/internal/testbin"
)

// TestStdioCarriesOnlyProtocol runs the todo example over stdio and
// checks that every line it writes to standard output is a JSON-RPC
// message, through a session that lists, calls, refuses and reads.
func TestStdioCarriesOnlyProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a command; skipped under -short")
	}
	cmd := exec.Command(todoServer(t), "-mcp", "stdio", "-data", filepath.Join(t.TempDir(), "todos.json"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	p := testbin.StartPiped(t, cmd)
	stdin, stdout := p.Stdin, p.Stdout

	requests := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"create_todo","arguments":{"title":"milk"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"create_todo","arguments":{"title":7}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"app://todos"}}`,
	}
	go func() {
		for _, r := range requests {
			io.WriteString(stdin, r+"\n")
		}
	}()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	answered := map[float64]map[string]any{}
	deadline := time.After(10 * time.Second)
	for len(answered) < 6 {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("stdout closed after %d answers; stderr:\n%s", len(answered), stderr.String())
			}
			var msg map[string]any
			if err := json.Unmarshal([]byte(line), &msg); err != nil || msg["jsonrpc"] != "2.0" {
				t.Fatalf("stdout carried a line that is not JSON-RPC: %q", line)
			}
			if id, ok := msg["id"].(float64); ok {
				answered[id] = msg
			}
		case <-deadline:
			t.Fatalf("only %d answers; stderr:\n%s", len(answered), stderr.String())
		}
	}
	if res, _ := answered[4]["result"].(map[string]any); res["isError"] != true {
		t.Fatalf("invalid input: %v", answered[4])
	}
	if e, _ := answered[5]["error"].(map[string]any); e["code"] != float64(-32602) {
		t.Fatalf("unknown tool: %v", answered[5])
	}
}

// TestStdioSurvivesBadLines runs the todo example over stdio and sends,
// between good requests, each kind of line a client should not send: each
// is answered with the JSON-RPC error its kind gets, and serving goes on.
// The create_todo call arrives with a multi-byte character split across
// two writes, and the list read afterwards shows exactly that one todo.
func TestStdioSurvivesBadLines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a command; skipped under -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := stdiotest.Start(ctx, t, todoServer(t), "-mcp", "stdio", "-data", filepath.Join(t.TempDir(), "todos.json"))

	p.Send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}` + "\n")
	p.Want("1", 0)
	p.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")

	for _, bad := range []struct {
		line, id string
		code     int64
	}{
		{"this is not json", "null", -32700},
		{`{"jsonrpc":"2.0","id":90,"method":"tools/ca`, "null", -32700}, // truncated
		{`[{"jsonrpc":"2.0","id":91,"method":"tools/list"}]`, "null", -32600},
		{`{"foo":1}`, "null", -32600},
		{`{"id":92,"method":"tools/list"}`, "92", -32600},
	} {
		p.Send(bad.line + "\n")
		p.Want(bad.id, bad.code)
	}

	p.Send("\n\r\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\r\n")
	list := p.Want("2", 0)
	if !strings.Contains(string(list.Result), `"create_todo"`) {
		t.Fatalf("tools/list has no create_todo: %s", list.Result)
	}

	create := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"create_todo","arguments":{"title":"crème brûlée"}}}` + "\n"
	split := strings.Index(create, "è") + 1 // inside the two bytes of è
	p.Send(create[:split])
	p.Send(create[split:])
	if r := p.Want("3", 0); strings.Contains(string(r.Result), `"isError":true`) {
		t.Fatalf("create_todo: %s", r.Result)
	}

	// A truncated request followed at once by a whole one, in one write:
	// the first is refused and the second still answered.
	p.Send(`{"jsonrpc":"2.0","id":93,"method":"resources/re` + "\n" +
		`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"app://todos"}}` + "\n")
	p.Want("null", -32700)
	read := p.Want("4", 0)
	var res struct {
		Contents []struct {
			Text string `json:"text"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(read.Result, &res); err != nil || len(res.Contents) != 1 {
		t.Fatalf("resources/read: %s", read.Result)
	}
	if n := strings.Count(res.Contents[0].Text, "crème brûlée"); n != 1 {
		t.Fatalf("the list holds %d todos titled crème brûlée, want 1: %s", n, res.Contents[0].Text)
	}
	p.End()
}
