package stdiotest

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// Reply is one response read from the process.
type Reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// Process is a running server driven over its stdin and stdout.
type Process struct {
	t      *testing.T
	ctx    context.Context
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *syncBuilder
}

// Start runs name with args until ctx is done (which kills it) or the test
// ends. ctx bounds every read too.
func Start(ctx context.Context, t *testing.T, name string, args ...string) *Process {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &Process{t: t, ctx: ctx, cmd: cmd, stdin: stdin, lines: make(chan string), stderr: &syncBuilder{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			select {
			case p.lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return p
}

// Send writes raw to the process's standard input in one write.
func (p *Process) Send(raw string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, raw); err != nil {
		p.t.Fatalf("writing to the server: %v\nstderr:\n%s", err, p.stderr)
	}
}

// Next returns the next response the process writes, checking every line
// up to it (notifications included) is one JSON-RPC 2.0 message.
func (p *Process) Next() Reply {
	p.t.Helper()
	for {
		line, ok := p.line()
		if !ok {
			p.t.Fatalf("standard output ended while a reply was awaited\nstderr:\n%s", p.stderr)
		}
		if r, isResponse := p.check(line); isResponse {
			return r
		}
	}
}

// Want reads the next response and checks its id (as JSON text) and, for
// code not 0, that it is an error with that code; code 0 wants a result.
func (p *Process) Want(id string, code int64) Reply {
	p.t.Helper()
	r := p.Next()
	switch {
	case string(r.ID) != id:
		p.t.Fatalf("reply has id %s, want %s: error %+v result %.300s", r.ID, id, r.Error, r.Result)
	case code == 0 && r.Error != nil:
		p.t.Fatalf("reply %s is error %+v, want a result", id, r.Error)
	case code != 0 && (r.Error == nil || r.Error.Code != code):
		p.t.Fatalf("reply %s is error %+v result %.300s, want error %d", id, r.Error, r.Result, code)
	}
	return r
}

// End closes standard input and checks the process then writes only
// protocol and exits with status 0 before ctx is done.
func (p *Process) End() {
	p.t.Helper()
	p.stdin.Close()
	for {
		line, ok := p.line()
		if !ok {
			break
		}
		p.check(line)
	}
	if err := p.cmd.Wait(); err != nil {
		p.t.Fatalf("after end of input the server exited with %v (context: %v)\nstderr:\n%s", err, p.ctx.Err(), p.stderr)
	}
}

// line returns the next output line; false when output ended.
func (p *Process) line() (string, bool) {
	select {
	case line, ok := <-p.lines:
		return line, ok
	case <-p.ctx.Done():
		p.t.Fatalf("no output before the deadline: %v\nstderr:\n%s", p.ctx.Err(), p.stderr)
		return "", false
	}
}

// check fails the test unless line is one JSON-RPC 2.0 message, and
// returns it when it is a response.
func (p *Process) check(line string) (Reply, bool) {
	p.t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &m); err != nil || string(m["jsonrpc"]) != `"2.0"` {
		p.t.Fatalf("standard output carried a line that is not a JSON-RPC 2.0 message: %q", line)
	}
	_, hasMethod := m["method"]
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if hasMethod {
		if hasResult || hasError {
			p.t.Fatalf("a line is both a request and a response: %q", line)
		}
		return Reply{}, false
	}
	if hasResult == hasError {
		p.t.Fatalf("a response needs exactly one of result and error: %q", line)
	}
	if _, ok := m["id"]; !ok {
		p.t.Fatalf("a response without an id: %q", line)
	}
	var r Reply
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		p.t.Fatalf("decoding a response: %v: %q", err, line)
	}
	return r, true
}

// syncBuilder is a strings.Builder safe for the writes exec makes from its
// copying goroutine while a failing test reads it.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
