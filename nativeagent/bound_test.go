package nativeagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

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

// stuckRuntime is a runtime whose calls wait until release is closed,
// saying on entered that one has begun.
type stuckRuntime struct {
	entered chan<- string
	release <-chan struct{}
	user    string
}

func (s stuckRuntime) Describe() agent.Description                     { return agent.Description{} }
func (s stuckRuntime) Available() ([]agent.Descriptor, error)          { return nil, nil }
func (s stuckRuntime) AvailableSet(dst []bool) ([]bool, error)         { return dst[:0], nil }
func (s stuckRuntime) Offered(context.Context) (agent.Offer, error)    { return agent.Offer{}, nil }
func (s stuckRuntime) ContextRead(context.Context) (agent.Read, error) { return agent.Read{}, nil }
func (s stuckRuntime) ResourceRead(_ context.Context, name string) (agent.Read, error) {
	return agent.Read{}, &agent.ResourceError{Resource: name}
}
func (s stuckRuntime) CatchUp(context.Context) error  { return nil }
func (s stuckRuntime) Subscribe(func()) func()        { return func() {} }
func (s stuckRuntime) TrackOffer() agent.OfferTracker { return agent.TrackSet(s.AvailableSet) }
func (s stuckRuntime) CanSubscribe() bool             { return false }

func (s stuckRuntime) DispatchUnknown(ctx context.Context, name string, _ json.RawMessage, _ agent.Invocation) (agent.Result, error) {
	s.entered <- s.user
	select {
	case <-s.release:
	case <-ctx.Done():
	}
	return agent.Result{Tag: name}, nil
}

// The runtimes kept are bounded overall, by internal/bound's rule: at the
// bound an idle runtime gives way, but one in use never does; when every
// kept runtime is in use a new principal is refused 429 with Retry-After,
// tagged AgentRetryLaterError with the bound as data, nothing built for
// it, while the principals whose runtimes are kept go on being served.
func TestRuntimesInUseAreNeverDroppedAndANewcomerIsRefused(t *testing.T) {
	entered := make(chan string, 8)
	release := make(chan struct{})
	var made atomic.Int32
	handler, err := nativeagent.NewHandler(nativeagent.Options{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{UserID: token}, nil
		},
		NewRuntime: func(_ context.Context, p *auth.TokenInfo) (nativeagent.Runtime, error) {
			made.Add(1)
			return stuckRuntime{entered: entered, release: release, user: p.UserID}, nil
		},
		MaxRuntimes: 2,
		Logger:      slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	defer srv.Close()
	answers := make(chan int, 2)
	for _, u := range []string{"a", "b"} {
		go func() {
			status, _, _ := do(t, srv, "POST", actions+"wait", u, `{}`)
			answers <- status
		}()
	}
	<-entered
	<-entered // a's and b's runtimes are both in use
	status, res, hdr := do(t, srv, "POST", actions+"wait", "c", `{}`)
	var data struct {
		Bound       string `json:"bound"`
		Limit       int    `json:"limit"`
		PerIdentity bool   `json:"perIdentity"`
	}
	_ = json.Unmarshal(res.Data, &data)
	if status != http.StatusTooManyRequests || hdr.Get("Retry-After") != "1" || res.Refusal != agent.TagRetryLater ||
		data.Bound != "MaxRuntimes" || data.Limit != 2 || data.PerIdentity {
		t.Fatalf("a third principal while both kept runtimes are in use: %d Retry-After %q %+v", status, hdr.Get("Retry-After"), res)
	}
	if made.Load() != 2 || handler.Runtimes() != 2 {
		t.Fatalf("made %d runtimes, keeps %d: the refused principal had one built", made.Load(), handler.Runtimes())
	}
	if status, _, _ := do(t, srv, "GET", "/_agent-native/actions", "a", ""); status != http.StatusOK {
		t.Fatalf("a kept principal's catalogue meanwhile: %d", status)
	}
	close(release)
	for range 2 {
		if s := <-answers; s != http.StatusOK {
			t.Fatalf("a held call answered %d", s)
		}
	}
	go func() { <-entered }() // c's call passes straight through
	if status, _, _ := do(t, srv, "POST", actions+"wait", "c", `{}`); status != http.StatusOK {
		t.Fatalf("c once a runtime is idle: %d", status)
	}
	if made.Load() != 3 || handler.Runtimes() != 2 {
		t.Fatalf("made %d runtimes, keeps %d; want 3 made, 2 kept", made.Load(), handler.Runtimes())
	}
}
