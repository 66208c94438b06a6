package journeymcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/peer"
)

// TestTypeScriptClientSeesThePersonDecide drives examples/shop's dynamic
// tools with the official TypeScript MCP client: each payment, called
// with a progress token, is told while it waits that it waits for the
// person, who answers at the shop's keyboard: approved, it completes;
// declined, it is AgentDeclinedError; unanswered, AgentApprovalTimeoutError.
func TestTypeScriptClientSeesThePersonDecide(t *testing.T) {
	node := peer.Program(t, "node")
	dir := peer.NodeModules(t, filepath.Join("testdata", "node"), "@modelcontextprotocol/sdk")
	bin := buildShop(t)
	keys, _ := personKeys(t)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "approve.mjs", bin, "-keys", keys, "-mcp", "stdio", "-pay-delay", "20ms", "-approval-timeout", "4s") // longer than the card's settle time
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the TypeScript client failed: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	type payment struct {
		Step     string   `json:"step"`
		Progress []string `json:"progress"`
		IsError  bool     `json:"isError"`
		Tag      *string  `json:"tag"`
		Status   *string  `json:"status"`
	}
	var got []payment
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var p payment
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("not a JSON line: %q", sc.Text())
		}
		got = append(got, p)
	}
	const waiting = "Waiting for the person to approve this in the app."
	str := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	want := []struct{ step, tag, status string }{
		{"approved", "", "completed"},
		{"declined", "AgentDeclinedError", ""},
		{"unanswered", "AgentApprovalTimeoutError", ""},
	}
	if len(got) != len(want) {
		t.Fatalf("payments %+v\nstderr:\n%s", got, stderr.String())
	}
	for i, w := range want {
		p := got[i]
		if p.Step != w.step || str(p.Tag) != w.tag || str(p.Status) != w.status || p.IsError != (w.tag != "") ||
			!slices.Contains(p.Progress, waiting) {
			t.Errorf("%s: %+v", w.step, p)
		}
	}
}
