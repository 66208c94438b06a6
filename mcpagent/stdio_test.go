package mcpagent_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStdioCarriesOnlyProtocol runs the todo example over stdio and
// checks that every line it writes to standard output is a JSON-RPC
// message, through a session that lists, calls, refuses and reads.
func TestStdioCarriesOnlyProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a command; skipped under -short")
	}
	cmd := exec.Command(todoServer(t), "-mcp", "stdio", "-data", filepath.Join(t.TempDir(), "todos.json"))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()

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
