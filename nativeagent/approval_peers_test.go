package nativeagent_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/a2aagent/a2av03"
	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/peer"
	"github.com/foldagent/foldagent/nativeagent"
)

// The Agent Native framework's own A2A client reaches a call that needs
// the person's approval where an Agent Native application keeps its A2A
// endpoint: streamed, it sees the task working and waiting for the
// person, then completed; sent, a declined refund comes back rejected
// with the person's reason as data. The test plays the person in the app.
func TestAgentNativeA2AClientWaitsForThePerson(t *testing.T) {
	node := peer.Program(t, "node")
	dir := peer.NodeModules(t, "testdata/node", "@agent-native/core")
	if testing.Short() && !peer.Required() {
		t.Skip("peer tests launch processes; skipped under -short")
	}
	prog := loop.New(loop.Funcs(func() (register, loop.Cmd[any]) { return register{}, nil }, registerUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	defer func() { cancel(); <-done }()
	stop := prog.Observe(func(msg any) {
		asked, ok := msg.(agent.ApprovalAsked)
		if !ok {
			return
		}
		var in Refund
		_ = json.Unmarshal(asked.Request.Input, &in)
		answer := asked.Request.Decline("pat", "not this one")
		if strings.HasPrefix(in.Order, "approve-") {
			answer = asked.Request.Approve("pat")
		}
		// Observers run on update's goroutine: answer from another.
		go func() { _ = prog.Dispatch(context.Background(), answer) }()
	})
	defer stop()
	h, err := a2aagent.NewHandler(a2aagent.HTTPOptions{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			if token != "clerk-tok" {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{UserID: "clerk"}, nil
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (a2aagent.Runtime, error) {
			return agent.Bind(registerContract, prog, &agent.BindOptions[agent.NoPrincipal]{ApprovalTimeout: time.Minute})
		},
		Contract: registerContract.Describe(),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	mux := http.NewServeMux()
	mux.Handle(nativeagent.DefaultPrefix+"/a2a", http.StripPrefix(nativeagent.DefaultPrefix+"/a2a", a2av03.NewHandler(h, "/a2a")))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	run, stopRun := context.WithTimeout(context.Background(), 90*time.Second)
	defer stopRun()
	cmd := exec.CommandContext(run, node, "approval.mjs", srv.URL, "clerk-tok")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Errorf("approval.mjs: %v", err)
	}
	var got []string
	lines := bufio.NewScanner(strings.NewReader(string(out)))
	for lines.Scan() {
		var s struct {
			Step   string          `json:"step"`
			OK     bool            `json:"ok"`
			Detail json.RawMessage `json:"detail"`
		}
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
		"streamed refund waits for the person, then completes",
		"sent refund declined by the person is rejected",
	}
	if !slices.Equal(got, want) {
		t.Errorf("steps reported %q, want %q\n%s", got, want, out)
	}
	if got := prog.Model().Refunded; !slices.Equal(got, []string{"approve-1"}) {
		t.Errorf("refunded %v, want only the approved order", got)
	}
}
