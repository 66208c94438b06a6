package journeymcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/peer"
	"github.com/foldagent/foldagent/internal/testbin"
)

// TestTypeScriptClientPurchase is the black-box test: the official
// TypeScript MCP client (@modelcontextprotocol/sdk, pinned in
// testdata/node) starts examples/shop as a subprocess and drives it over
// stdio through a purchase: the address refused to the agent and typed by
// the person at the shop's keyboard, the payment refused behind the
// closed review, the payment pending on the person's on-screen question
// (no chat confirm), did_it_work, settled,
// and a second payment of the order refused as a duplicate. testdata/node/purchase.mjs checks every step and prints one
// JSON line per step, which this test checks again.
func TestTypeScriptClientPurchase(t *testing.T) {
	node := peer.Program(t, "node")
	dir := peer.NodeModules(t, filepath.Join("testdata", "node"), "@modelcontextprotocol/sdk")
	bin := buildShop(t)
	keys, _ := personKeys(t) // the script types into it as the person

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "purchase.mjs", bin, "-keys", keys, "-mcp", "stdio", "-pay-delay", "700ms")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the TypeScript client failed: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	steps := map[string]map[string]any{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not a JSON line: %q", sc.Text())
		}
		s, _ := m["step"].(string)
		if _, seen := steps[s]; !seen {
			order = append(order, s)
		}
		steps[s] = m
	}
	want := []string{"tools", "whats_here", "step", "person", "pending", "awaiting-human", "did_it_work", "settled", "duplicate", "done"}
	if len(order) != len(want) {
		t.Fatalf("steps %v, want %v\nstderr:\n%s", order, want, stderr.String())
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("steps %v, want %v", order, want)
		}
	}
	if p := steps["pending"]; p["effectStatus"] != "pending" || p["personApproves"] != true {
		t.Fatalf("pending: %v", p)
	}
	if a := steps["awaiting-human"]; a["askId"] != true || a["performed"] != false {
		t.Fatalf("awaiting-human: %v", a)
	}
	if d := steps["did_it_work"]; d["judgment"] != "still-pending" || d["stillWorking"] != true {
		t.Fatalf("did_it_work: %v", d)
	}
	if s := steps["settled"]; s["effectStatus"] != "performed" || s["outcome"] != "committed" || s["judgment"] != "done" {
		t.Fatalf("settled: %v", s)
	}
	if p := steps["person"]; p["agentRefused"] != "PRINCIPAL_NOT_ALLOWED" || p["payRefused"] != "NODE_NOT_VISIBLE" {
		t.Fatalf("person: %v", p)
	}
	if d := steps["duplicate"]; d["reason"] != "DUPLICATE_EXECUTION" || d["priorTransitionId"] != steps["pending"]["transitionId"] {
		t.Fatalf("duplicate: %v", d)
	}
	if d := steps["done"]; d["listChanged"] != 0.0 {
		t.Fatalf("list_changed sent: %v", d)
	}
}

// buildShop is examples/shop, built once per test binary.
func buildShop(t *testing.T) string { return testbin.Build(t, "examples/shop") }

func TestMain(m *testing.M) { testbin.Main(m) }
