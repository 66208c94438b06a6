package journeymcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/peer"
)

// shopRun is what testdata/node/both.mjs reports about one mode.
type shopRun struct {
	Mode            string `json:"mode"`
	ToolsBytesFirst int    `json:"toolsBytesFirst"`
	ToolsLists      int    `json:"toolsLists"`
	ToolsBytesTotal int    `json:"toolsBytesTotal"`
	Calls           int    `json:"calls"`
	ResultBytes     int    `json:"resultBytes"`
	Turns           []struct {
		Tool  string `json:"tool"`
		Bytes int    `json:"bytes"`
	} `json:"turns"`
	Orders  []string `json:"orders"`
	Refusal string   `json:"refusal"`
}

// TestTypeScriptClientBothModes drives the same two purchases (a paid blue
// dress, then a gift card the payment server refuses) with the official
// TypeScript client against one examples/shop binary, once over the fixed
// journey tools and once over the dynamic tools; in both, the person types
// the delivery address at the shop's keyboard, and the agent opens the
// review and pays. Both go through the same contract: the audit logs must
// agree entry for entry (capability, decision, outcome), no entry changes
// the address (no route offers it to an agent), and both must report the
// refusal with its reason.
// It logs the bytes and calls of each, side by side.
func TestTypeScriptClientBothModes(t *testing.T) {
	node := peer.Program(t, "node")
	dir := peer.NodeModules(t, filepath.Join("testdata", "node"), "@modelcontextprotocol/sdk")
	bin := buildShop(t)
	type audited struct{ Capability, Decision, Outcome, Transport string }
	runs := map[string]shopRun{}
	trails := map[string][]audited{}
	for _, mode := range []string{"fixed", "dynamic"} {
		auditPath := filepath.Join(t.TempDir(), "audit.jsonl")
		keys, _ := personKeys(t) // the script types the address into it as the person
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		cmd := exec.CommandContext(ctx, node, "both.mjs", mode, bin, "-keys", keys, "-mcp", "stdio", "-pay-delay", "300ms", "-audit", auditPath)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("%s: the TypeScript client failed: %v\nstdout:\n%s\nstderr:\n%s", mode, err, out, stderr.String())
		}
		var r shopRun
		if err := json.Unmarshal(bytes.TrimSpace(out), &r); err != nil {
			t.Fatalf("%s: %v: %s", mode, err, out)
		}
		runs[mode] = r
		f, err := os.Open(auditPath)
		if err != nil {
			t.Fatal(err)
		}
		sc := agent.NewJSONLinesScanner(bufio.NewReader(f))
		for sc.Scan() {
			e := sc.Entry()
			trails[mode] = append(trails[mode], audited{e.Capability, string(e.Decision), string(e.Outcome), string(e.Transport)})
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	fx, dy := runs["fixed"], runs["dynamic"]
	if !slices.Equal(fx.Orders, dy.Orders) || len(fx.Orders) != 2 {
		t.Fatalf("orders differ: %v / %v", fx.Orders, dy.Orders)
	}
	if !slices.Equal(trails["fixed"], trails["dynamic"]) {
		t.Fatalf("the audit trails differ:\nfixed:   %v\ndynamic: %v", trails["fixed"], trails["dynamic"])
	}
	var placed []string
	held := 0
	for _, e := range trails["fixed"] {
		if e.Capability == "pay" && e.Decision == string(agent.DecisionHeld) && e.Outcome == agent.OutcomeAwaitingApproval {
			held++ // each payment waited for the person first
			continue
		}
		if e.Transport != string(agent.MCP) || e.Decision != string(agent.DecisionDispatched) {
			t.Fatalf("entry %+v", e)
		}
		if strings.Contains(e.Capability, "address") {
			t.Fatalf("an agent changed the address: %+v", e)
		}
		if e.Capability == "pay" {
			placed = append(placed, e.Outcome)
		}
	}
	if held != 2 || !slices.Equal(placed, []string{string(agent.OutcomeCompleted), string(agent.OutcomeFailed)}) {
		t.Fatalf("pay outcomes %v, want completed then failed", placed)
	}
	if dy.ToolsLists != 1 {
		t.Fatalf("dynamic: the tools were listed %d times; the shop lists every tool once", dy.ToolsLists)
	}
	for _, r := range []shopRun{fx, dy} {
		if !strings.Contains(r.Refusal, "gift card") {
			t.Fatalf("%s: the refusal carries no reason: %q", r.Mode, r.Refusal)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-34s %10s %10s\n", "two purchases (paid, refused)", "fixed", "dynamic")
	fmt.Fprintf(&b, "%-34s %10d %10d\n", "tool array bytes (first list)", fx.ToolsBytesFirst, dy.ToolsBytesFirst)
	fmt.Fprintf(&b, "%-34s %10d %10d\n", "tools/list calls", fx.ToolsLists, dy.ToolsLists)
	fmt.Fprintf(&b, "%-34s %10d %10d\n", "tool array bytes (all lists)", fx.ToolsBytesTotal, dy.ToolsBytesTotal)
	fmt.Fprintf(&b, "%-34s %10d %10d\n", "tools/call calls", fx.Calls, dy.Calls)
	fmt.Fprintf(&b, "%-34s %10d %10d\n", "result bytes (all calls)", fx.ResultBytes, dy.ResultBytes)
	fmt.Fprintf(&b, "%-34s %10d %10d\n", "bytes read in all", fx.ToolsBytesTotal+fx.ResultBytes, dy.ToolsBytesTotal+dy.ResultBytes)
	for _, r := range []shopRun{fx, dy} {
		fmt.Fprintf(&b, "%s turns:", r.Mode)
		for _, tn := range r.Turns {
			fmt.Fprintf(&b, " %s=%d", tn.Tool, tn.Bytes)
		}
		b.WriteString("\n")
	}
	t.Log(b.String())
}
