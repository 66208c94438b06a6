//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An agent whose payment waits for the person ends its MCP session
// (DELETE) on the real binary: the DELETE is answered at once and the
// payment is withdrawn (audited cancelled, never dispatched), so no later
// y can pay it. Before, the SDK's close waited for the held call, so the
// DELETE was answered only when the person answered, and that answer
// paid for a session that had ended.
func TestDeleteWithAHeldPaymentOnTheRealShop(t *testing.T) {
	keys := filepath.Join(t.TempDir(), "keys")
	if err := syscall.Mkfifo(keys, 0o600); err != nil {
		t.Fatal(err)
	}
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	url := runHTTPShop(t, "-tools", "dynamic", "-keys", keys, "-audit", audit, "-pay-delay", "20ms", "-approval-timeout", "1h")
	const bound = 20 * time.Second // each wait below ends on an event
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
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{"s3cret"}}},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	toReview(t, cs, keys, updated, bound)

	paid := make(chan error, 1)
	go func() {
		p := &mcp.CallToolParams{Name: "pay", Arguments: map[string]any{"order": "order-1"}}
		p.SetProgressToken("pay-1")
		_, err := cs.CallTool(context.Background(), p)
		paid <- err
	}()
	select {
	case <-waiting:
	case <-time.After(bound):
		t.Fatal("the payment was never held for the person")
	}
	del, _ := http.NewRequest(http.MethodDelete, url, nil)
	del.Header.Set("Mcp-Session-Id", cs.ID())
	del.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	answered := make(chan *http.Response, 1)
	began := time.Now()
	go func() {
		resp, err := (&http.Client{Transport: bearer{"s3cret"}}).Do(del)
		if err != nil {
			t.Error(err)
		}
		answered <- resp
	}()
	select {
	case resp := <-answered:
		if resp == nil || resp.StatusCode != http.StatusNoContent {
			t.Fatalf("DELETE answered %v", resp)
		}
		resp.Body.Close()
		t.Logf("DELETE answered in %v with the payment held", time.Since(began))
	case <-time.After(bound):
		t.Fatal("DELETE not answered while a payment was held")
	}
	// The payment ended withdrawn: its final audit entry, written by the
	// other process (read again until it is there).
	var final map[string]any
	for deadline := time.Now().Add(bound); final == nil; {
		if final = payEnded(t, audit); final == nil {
			if time.Now().After(deadline) {
				t.Fatal("the held payment never ended")
			}
			time.Sleep(10 * time.Millisecond) // a file another process writes: nothing to wait on
		}
	}
	a, _ := final["approval"].(map[string]any)
	if a["answer"] != "cancelled" || final["decision"] == "dispatched" {
		t.Fatalf("the payment's end: %v", final)
	}
	if entries := payEntries(t, audit); slices.ContainsFunc(entries, func(e map[string]any) bool { return e["decision"] == "dispatched" }) {
		t.Fatalf("a payment ran for a session that ended: %v", entries)
	}
	select {
	case err := <-paid:
		_ = err // the deleted session's call ended with it
	case <-time.After(bound):
		t.Fatal("the held call's client was never released")
	}
}

// toReview walks the agent to the review, the person giving the address.
// updated receives the client's resources/updated notifications.
func toReview(t *testing.T, cs *mcp.ClientSession, keys string, updated <-chan struct{}, bound time.Duration) {
	t.Helper()
	for _, step := range []struct {
		name string
		args map[string]any
	}{{"open_product", map[string]any{"sku": "dress-red"}}, {"add_to_cart", map[string]any{"qty": 1}}, {"go_to_cart", nil}, {"checkout", nil}} {
		if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: step.name, Arguments: step.args}); err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", step.name, err, res)
		}
	}
	awaitAddress(t, cs, keys, updated, bound)
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "open_review"}); err != nil || res.IsError {
		t.Fatalf("open_review: %v %+v", err, res)
	}
}

// awaitAddress has the person type the address and returns once the
// context shows it: every tool is listed whatever the page (the dynamic
// tools list every capability), so the context, subscribed to, says
// when the review may open. updated receives resources/updated.
func awaitAddress(t *testing.T, cs *mcp.ClientSession, keys string, updated <-chan struct{}, bound time.Duration) {
	t.Helper()
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "app://context"}); err != nil {
		t.Fatal(err)
	}
	typeInto(t, keys, "a1 Main St\r")
	for {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "app://context"})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Contents[0].Text, `"address":"1 Main St"`) {
			return
		}
		select {
		case <-updated:
		case <-time.After(bound):
			t.Fatal("the address never reached the shop")
		}
	}
}

// payEntries reads the audit file's entries for pay.
func payEntries(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e map[string]any
		if json.Unmarshal(sc.Bytes(), &e) == nil && e["capability"] == "pay" {
			out = append(out, e)
		}
	}
	return out
}

// payEnded returns the entry that ended the held payment, or nil.
func payEnded(t *testing.T, path string) map[string]any {
	for _, e := range payEntries(t, path) {
		if a, _ := e["approval"].(map[string]any); a != nil && a["answer"] != nil && a["answer"] != "" {
			return e
		}
	}
	return nil
}
