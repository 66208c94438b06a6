//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/peer"
	"github.com/foldagent/foldagent/internal/testbin"
)

// nodePeers is where the official TypeScript MCP client is installed.
const nodePeers = "../../mcpagent/testdata/node"

// scriptStep is one line a node script reports.
type scriptStep struct {
	Step   string          `json:"step"`
	OK     bool            `json:"ok"`
	Detail json.RawMessage `json:"detail"`
}

// personScript runs a node script against the shop and acts as the
// person when it says where it is: at checkout the person gives the
// address (typed into the shop's keyboard pipe), and once the payment is
// held the person approves it (y). It returns every step, and fails the
// test on a step that failed, a step missing from want, or a script that
// did not end cleanly.
func personScript(t *testing.T, keys, script string, want []string, args ...string) []scriptStep {
	t.Helper()
	dir := peer.NodeModules(t, nodePeers, "@modelcontextprotocol/sdk")
	node := peer.Program(t, "node")
	cmd := exec.Command(node, append([]string{filepath.Join(dir, script)}, args...)...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	p := testbin.StartPiped(t, cmd)
	stdin, stdout := p.Stdin, p.Stdout
	var steps []scriptStep
	var pressing chan struct{}
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		var s scriptStep
		if err := json.Unmarshal(lines.Bytes(), &s); err != nil {
			t.Errorf("not a step: %s", lines.Text())
			continue
		}
		steps = append(steps, s)
		if !s.OK {
			t.Errorf("step %q failed: %s", s.Step, s.Detail)
		}
		switch s.Step {
		case "at checkout":
			typeInto(t, keys, "a1 Main St\r")
			_, _ = io.WriteString(stdin, "address\n")
		case "held before the client's timeout", "working: waiting for the person":
			// The person presses y until it takes: the card counts no key
			// before it has stood unchanged for its settle time, and a
			// headless person has no screen to watch for that.
			if pressing == nil {
				pressing = make(chan struct{})
				go pressUntil(t, keys, pressing)
			}
			_, _ = io.WriteString(stdin, "answered\n")
		case "the agent learns it was paid", "working -> completed, and the agent learns it was paid":
			if pressing != nil {
				close(pressing)
				pressing = nil
			}
		}
	}
	if pressing != nil {
		close(pressing)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("%s: %v", script, err)
	}
	for _, w := range want {
		found := false
		for _, s := range steps {
			found = found || (s.Step == w && s.OK)
		}
		if !found {
			t.Errorf("%s never reported %q", script, w)
		}
	}
	return steps
}

func keyPipe(t *testing.T) string {
	t.Helper()
	keys := filepath.Join(t.TempDir(), "keys")
	if err := syscall.Mkfifo(keys, 0o600); err != nil {
		t.Fatal(err)
	}
	return keys
}

var heldSteps = []string{
	"at checkout", "review open", "held before the client's timeout",
	"held says nothing was done and the person has not answered", "the agent learns it was paid",
	"paying again is refused: the order is already paid (a state, not who asks)", "order-1 is paid, once",
}

// The official TypeScript client, with its defaults (a 60-second request
// timeout, not reset by progress), pays on the real shop while the person
// answers only after the shop's patience (-patience, short here so the
// test does not wait a minute; the default is 50 s): the call is answered
// held before the client gives up, nothing done yet; the person's later
// y pays it once, and the agent, asking again, learns it was paid. Over
// stdio and over HTTP.
func TestOfficialClientLearnsALatePersonsAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the shop and node")
	}
	bin := testbin.Build(t, "examples/shop")
	t.Run("stdio", func(t *testing.T) {
		keys := keyPipe(t)
		personScript(t, keys, "held.mjs", heldSteps,
			"stdio", bin, "-mcp", "stdio", "-tools", "dynamic", "-keys", keys, "-patience", "3s", "-pay-delay", "20ms")
	})
	t.Run("http", func(t *testing.T) {
		keys := keyPipe(t)
		url := runHTTPShop(t, "-tools", "dynamic", "-keys", keys, "-patience", "3s", "-pay-delay", "20ms")
		personScript(t, keys, "held.mjs", heldSteps, "http", url, "s3cret")
	})
}

var taskSteps = []string{
	"at checkout", "review open", "a held payment is a task at once", "its status says it waits for the person",
	"tasks/cancel withdraws it", "the next payment is a task", "working: waiting for the person",
	"working -> completed, and the agent learns it was paid", "order-1 is paid, once", "the withdrawn task stays cancelled",
}

// A client that speaks tasks pays on the real shop: a payment held for
// the person is a task that goes working -> completed once the person
// approves, and tasks/cancel on another held payment withdraws it: the
// audit shows its card withdrawn at the caller's word, and one payment
// only. On a 2025-11-25 session over stdio and HTTP (the TypeScript
// client's low-level requests, params.task), and on the sessionless
// 2026-07-28 revision over HTTP (the tasks extension).
func TestTasksClientPaysAndCancels(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the shop and node")
	}
	bin := testbin.Build(t, "examples/shop")
	check := func(t *testing.T, audit string) {
		t.Helper()
		b, err := os.ReadFile(audit)
		if err != nil {
			t.Fatal(err)
		}
		var withdrawn, approved, dispatched int
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var e struct {
				Capability string `json:"capability"`
				Decision   string `json:"decision"`
				Approval   *struct {
					Answer string `json:"answer"`
				} `json:"approval"`
			}
			if json.Unmarshal([]byte(line), &e) != nil || e.Capability != "pay" {
				continue
			}
			if e.Decision == "dispatched" {
				dispatched++
			}
			if e.Approval != nil && e.Approval.Answer == "cancelled" {
				withdrawn++
			}
			if e.Approval != nil && e.Approval.Answer == "approved" {
				approved++
			}
		}
		if withdrawn != 1 || approved != 1 || dispatched != 1 {
			t.Fatalf("audit: %d withdrawn, %d approved, %d dispatched payments; want 1 each:\n%s", withdrawn, approved, dispatched, b)
		}
	}
	t.Run("stdio", func(t *testing.T) {
		keys, audit := keyPipe(t), filepath.Join(t.TempDir(), "audit.jsonl")
		personScript(t, keys, "tasks.mjs", append([]string{"the server declares tasks for tools/call"}, taskSteps...),
			"stdio", bin, "-mcp", "stdio", "-tools", "dynamic", "-keys", keys, "-pay-delay", "20ms", "-audit", audit)
		check(t, audit)
	})
	for _, mode := range []string{"http", "ext"} {
		t.Run(mode, func(t *testing.T) {
			keys, audit := keyPipe(t), filepath.Join(t.TempDir(), "audit.jsonl")
			url := runHTTPShop(t, "-tools", "dynamic", "-sessionless", "-keys", keys, "-pay-delay", "20ms", "-audit", audit)
			first := "the server declares tasks for tools/call"
			if mode == "ext" {
				first = "server/discover declares the tasks extension"
			}
			personScript(t, keys, "tasks.mjs", append([]string{first}, taskSteps...), mode, url, "s3cret")
			check(t, audit)
		})
	}
}

// pressUntil types y into the headless shop's keys every 50 ms until stop
// closes: a person pressing y until the card takes it. It never blocks on
// a shop that has gone (the pipe is opened without waiting for a reader).
func pressUntil(t *testing.T, keys string, stop <-chan struct{}) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			f, err := os.OpenFile(keys, os.O_WRONLY|syscall.O_NONBLOCK, 0)
			if err != nil {
				continue // nobody reads the keys now
			}
			_, _ = f.WriteString("y")
			f.Close()
		}
	}
}
