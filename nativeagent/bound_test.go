package nativeagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/loopwait"
	"github.com/foldagent/foldagent/nativeagent"
)

// A caller holding as many calls waiting for the person as it may is
// refused its next one at once: 429 with Retry-After, the refusal tagged
// AgentRetryLaterError, and nothing shown to the person.
func TestHeldBeyondTheBoundIs429WithRetryAfter(t *testing.T) {
	f := startRegister(t, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i := range agent.DefaultMaxHeldPerIdentity {
		f.post(ctx, "refund", fmt.Sprintf(`{"order":"o-%d"}`, i))
	}
	loopwait.Until(t, f.prog, "the caller's calls held at its bound", func(m register) bool { return len(m.Asked) == agent.DefaultMaxHeldPerIdentity })
	req, _ := http.NewRequest(http.MethodPost, f.url+"/actions/refund", strings.NewReader(`{"order":"one more"}`))
	req.Header.Set("Authorization", "Bearer clerk-tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var res nativeagent.Result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "1" || res.OK || res.Refusal != agent.TagRetryLater {
		t.Fatalf("past the bound: %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	if n := len(f.prog.Model().Asked); n != agent.DefaultMaxHeldPerIdentity {
		t.Fatalf("%d requests on the person's screen, want %d: the refused one was shown", n, agent.DefaultMaxHeldPerIdentity)
	}
	cancel()
	loopwait.Until(t, f.prog, "every held call withdrawn", func(m register) bool { return len(m.Asked) == 0 })
}
