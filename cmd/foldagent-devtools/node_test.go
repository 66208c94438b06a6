package main_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/peer"
	"github.com/foldagent/foldagent/internal/testbin"
)

// TestTypeScriptClient drives the command with the official TypeScript
// MCP client: it picks the project's app, not another project's newer
// one, and follows the app's restart with another tool set.
func TestTypeScriptClient(t *testing.T) {
	peer.Program(t, "node")
	dir := peer.NodeModules(t, "testdata/node", "@modelcontextprotocol/sdk")
	if testing.Short() && !peer.Required() {
		t.Skip("peer tests launch processes; skipped under -short")
	}
	bin := testbin.Build(t, "cmd/foldagent-devtools")
	reg, proj, sub, other := project(t)
	first := startApp(t, reg, appSpec{name: "shop-1", dir: sub, tools: []string{"echo"}})
	startApp(t, reg, appSpec{name: "shop2", dir: other, tools: []string{"echo"}, started: 10})

	cmd := exec.Command("node", "client.mjs", bin, proj, reg)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	p := testbin.StartPiped(t, cmd)
	stdin, stdout := p.Stdin, p.Stdout
	timer := time.AfterFunc(2*bound, func() { cmd.Process.Kill() })
	defer timer.Stop()

	got := map[string]string{}
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		var s struct {
			Step  string `json:"step"`
			Value any    `json:"value"`
		}
		if json.Unmarshal(lines.Bytes(), &s) != nil {
			continue
		}
		got[s.Step] = fmt.Sprint(s.Value)
		if s.Step == "ready" {
			first.stop()
			startApp(t, reg, appSpec{name: "shop-2", dir: sub, tools: []string{"echo", "count"}, started: 1})
			fmt.Fprintln(stdin, "go")
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the client: %v (steps so far %v)", err, got)
	}
	for step, want := range map[string]string{
		"tools":                 "attached_app,echo",
		"echo":                  "shop-1: hi",
		"attached_app":          "shop-1",
		"echo after a restart":  "shop-2: hi",
		"list_changed":          "true",
		"tools after a restart": "attached_app,count,echo",
		"count":                 "shop-2: 2 items",
	} {
		if got[step] != want {
			t.Errorf("%s: %q, want %q", step, got[step], want)
		}
	}
}
