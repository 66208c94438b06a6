//go:build unix

package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/testbin"
)

// The person's q in the headless shop ends the process, and the payment
// that waited for them is answered at once as the person having left
// (AgentPersonLeftError), not as a timeout much later. Before, q stopped
// the program and left the process serving, and the payment was answered
// only when its approval timed out.
func TestHeadlessQuitEndsTheShopAndAnswersHeldCalls(t *testing.T) {
	bin := testbin.Build(t, "examples/shop")
	keys := filepath.Join(t.TempDir(), "keys")
	if err := syscall.Mkfifo(keys, 0o600); err != nil {
		t.Fatal(err)
	}
	const bound = 20 * time.Second // each wait below ends on an event
	cmd := exec.Command(bin, "-mcp", "stdio", "-tools", "dynamic", "-keys", keys, "-pay-delay", "20ms", "-approval-timeout", "1h")
	cmd.Stderr = os.Stderr
	updated := make(chan struct{}, 1)
	waiting := make(chan string, 1)
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(context.Context, *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case updated <- struct{}{}:
			default:
			}
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			select {
			case waiting <- r.Params.Message:
			default:
			}
		},
	})
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	// The transport owns the process: its connection ends when the
	// process does.
	exited := make(chan error, 1)
	go func() { exited <- cs.Wait() }()

	call := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		return res
	}
	call("open_product", map[string]any{"sku": "dress-red"})
	call("add_to_cart", map[string]any{"qty": 1})
	call("go_to_cart", nil)
	call("checkout", nil)
	awaitAddress(t, cs, keys, updated, bound) // the person gives the address
	call("open_review", nil)

	paid := make(chan *mcp.CallToolResult, 1)
	go func() {
		p := &mcp.CallToolParams{Name: "pay", Arguments: map[string]any{"order": "order-1"}}
		p.SetProgressToken("pay-1")
		res, err := cs.CallTool(context.Background(), p)
		if err != nil {
			t.Error(err)
		}
		paid <- res
	}()
	select {
	case <-waiting: // held for the person
	case <-time.After(bound):
		t.Fatal("the payment was never held for the person")
	}
	typeInto(t, keys, "q")
	began := time.Now()
	select {
	case res := <-paid:
		if res == nil {
			t.Fatal("the held payment got no answer")
		}
		var data map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &data)
		if !res.IsError || data["_tag"] != "AgentPersonLeftError" {
			t.Fatalf("the held payment: %+v (%s)", res, b)
		}
		t.Logf("the held payment answered %v after q", time.Since(began))
	case <-time.After(bound):
		t.Fatal("the held payment was not answered after q")
	}
	select {
	case <-exited:
		t.Logf("the shop ended %v after q", time.Since(began))
	case <-time.After(bound):
		t.Fatal("q did not end the headless shop")
	}
	_ = cs.Close() // reaps the process, which has ended
	if st := cmd.ProcessState; st == nil || !st.Success() {
		t.Fatalf("the shop ended with %v", st)
	}
}
