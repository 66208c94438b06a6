package a2av03_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/a2aagent/a2av03"
	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// An agent served over A2A 1.0 at /a2a and, for callers still on 0.3,
// over A2A 0.3 at /a2a/v0.3: the same tasks, owners and checks. The 1.0
// card lists the 0.3 endpoint as one more interface (Advertise); a 0.3
// client sends message/send with "kind" on the message and its parts.
func ExampleNewHandler() {
	prog := loop.New[model, AddItem](loop.Funcs(func() (model, loop.Cmd[AddItem]) { return model{}, nil }, update), nil)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = prog.Run(ctx) }()
	h, err := a2aagent.NewHandler(a2aagent.HTTPOptions{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			if token != "secret" {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{UserID: "ann"}, nil
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (a2aagent.Runtime, error) {
			return agent.Bind[model, AddItem, agent.NoPrincipal](contract, prog, nil)
		},
		Contract: contract.Describe(),
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		panic(err)
	}
	defer h.Close()
	mux := http.NewServeMux()
	v10 := http.StripPrefix("/a2a", a2av03.Advertise(h, "/v0.3"))
	mux.Handle("/a2a", v10)
	mux.Handle("/a2a/", v10)
	v03 := http.StripPrefix("/a2a/v0.3", a2av03.NewHandler(h, "/v0.3"))
	mux.Handle("/a2a/v0.3", v03)
	mux.Handle("/a2a/v0.3/", v03)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/a2a/v0.3", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{
		"kind":"message","role":"user","messageId":"m1",
		"parts":[{"kind":"data","data":{"skill":"add_item","input":{"title":"milk"}}}]}}}`))
	req.Header.Set("Authorization", "Bearer secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var answer struct {
		Result struct {
			Kind   string `json:"kind"`
			Status struct {
				State   string `json:"state"`
				Message struct {
					Parts []struct {
						Kind string `json:"kind"`
						Text string `json:"text"`
					} `json:"parts"`
				} `json:"message"`
			} `json:"status"`
		} `json:"result"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		panic(err)
	}
	first := answer.Result.Status.Message.Parts[0]
	fmt.Println(answer.Result.Kind, answer.Result.Status.State)
	fmt.Println(first.Kind, first.Text)
	fmt.Println(prog.Model().Items)
	// Output:
	// task completed
	// text Dispatched AddItem
	// [milk]
}

// Serving 0.3 must not link gRPC or protobuf, in this package or in the
// todo example that imports it: a fresh clone's first build stays small.
func TestNoGRPCDependency(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".", "github.com/foldagent/foldagent/examples/todo").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list listed %d packages: %s", len(deps), out)
	}
	for _, dep := range deps {
		if strings.HasPrefix(dep, "google.golang.org/grpc") || strings.HasPrefix(dep, "google.golang.org/protobuf") ||
			strings.HasPrefix(dep, "github.com/a2aproject/a2a-go/a2a") || strings.Contains(dep, "a2acompat") {
			t.Errorf("depends on %s", dep)
		}
	}
}
