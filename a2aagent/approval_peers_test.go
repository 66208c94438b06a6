package a2aagent_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/peer"
)

// The official JavaScript A2A client (@a2a-js/sdk) sees a held call as
// WORKING, waiting for the person, then COMPLETED, REJECTED (declined) or
// FAILED (unanswered). The test plays the person in the app: it answers
// each request by the order it names, the moment the app is asked.
func TestPeerJavaScriptClientApproval(t *testing.T) {
	peer.Program(t, "node")
	dir := peer.NodeModules(t, "testdata/node", "@a2a-js/sdk")
	if testing.Short() && !peer.Required() {
		t.Skip("peer tests launch processes; skipped under -short")
	}
	f := startRegister(t, time.Minute)
	stop := f.prog.Observe(func(msg any) {
		asked, ok := msg.(agent.ApprovalAsked)
		if !ok {
			return
		}
		var in Refund
		_ = json.Unmarshal(asked.Request.Input, &in)
		var answer agent.ApprovalAnswer
		switch {
		case strings.HasPrefix(in.Order, "approve-"):
			answer = asked.Request.Approve("pat")
		case strings.HasPrefix(in.Order, "decline-"):
			answer = agent.ApprovalAnswer{ID: asked.Request.ID, Reason: "not this one", By: "pat"}
		default:
			return // the person looks away
		}
		// Observers run on update's goroutine: answer from another.
		go func() { _ = f.prog.Dispatch(context.Background(), answer) }()
	})
	defer stop()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := exec.CommandContext(ctx, "node", "approval.mjs", f.url, "clerk-tok", "hasty-tok")
	client.Dir = dir
	client.Stderr = os.Stderr
	out, err := client.Output()
	if err != nil {
		t.Errorf("client: %v", err)
	}
	var got []string
	lines := bufio.NewScanner(strings.NewReader(string(out)))
	for lines.Scan() {
		var s step
		if json.Unmarshal(lines.Bytes(), &s) != nil || s.Step == "" {
			continue
		}
		got = append(got, s.Step)
		if !s.OK {
			t.Errorf("step %q failed: %s", s.Step, s.Detail)
		} else {
			t.Logf("ok  %s %s", s.Step, s.Detail)
		}
	}
	want := []string{
		"card tags refund needs-approval",
		"approved refund streamed working then completed",
		"declined refund streamed working then rejected",
		"unanswered refund failed",
	}
	if !slices.Equal(got, want) {
		t.Errorf("steps reported %q, want %q\n%s", got, want, out)
	}
	if got := f.prog.Model().Refunded; !slices.Equal(got, []string{"approve-1"}) {
		t.Errorf("refunded %v, want only the approved order", got)
	}
}
