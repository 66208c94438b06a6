package mcpagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
	"github.com/foldagent/foldagent/mcpagent"
)

// registerDesk serves one register per identity (alice, bob) over a
// Handler: each identity's runtime is its own program, for the test to
// answer as that person.
type registerDesk struct {
	t     *testing.T
	srv   *httptest.Server
	mu    sync.Mutex
	progs map[string]*loop.Program[register, any]
}

func startDesk(t *testing.T, tune func(*mcpagent.Options)) *registerDesk {
	t.Helper()
	d := &registerDesk{t: t, progs: map[string]*loop.Program[register, any]{}}
	opts := &mcpagent.Options{Logger: quietLogger()}
	if tune != nil {
		tune(opts)
	}
	h, err := mcpagent.NewHandler(mcpagent.HTTPOptions{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			if token != "alice" && token != "bob" {
				return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
			}
			return &auth.TokenInfo{UserID: token}, nil
		},
		NewRuntime: func(_ context.Context, p *auth.TokenInfo) (mcpagent.Runtime, error) {
			prog, rt := registerRuntime(t)
			d.mu.Lock()
			d.progs[p.UserID] = prog
			d.mu.Unlock()
			return rt, nil
		},
		Server: opts,
		Logger: quietLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	d.srv = httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); d.srv.Close() })
	return d
}

func (d *registerDesk) prog(user string) *loop.Program[register, any] {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.progs[user]
}

// rpc posts one JSON-RPC request and returns its decoded answer and the
// session id the response names.
func (d *registerDesk) rpc(token, revision, session, method, params string) (map[string]any, string) {
	d.t.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"` + method + `","params":` + params + `}`
	req, err := http.NewRequest(http.MethodPost, d.srv.URL, strings.NewReader(body))
	if err != nil {
		d.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("MCP-Protocol-Version", revision)
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if revision >= mcpagent.SessionlessRevision {
		req.Header.Set("Mcp-Method", method)
		var named struct{ Name, TaskID string }
		_ = json.Unmarshal([]byte(params), &named)
		if name := named.Name + named.TaskID; name != "" {
			req.Header.Set("Mcp-Name", name)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if resp.StatusCode/100 != 2 && !strings.Contains(b.String(), `"error"`) {
		d.t.Fatalf("%s: status %d: %s", method, resp.StatusCode, b.String())
	}
	if b.Len() == 0 {
		return nil, resp.Header.Get("Mcp-Session-Id")
	}
	return sseResult(d.t, b.String()), resp.Header.Get("Mcp-Session-Id")
}

// taskMeta is the per-request _meta of a sessionless client that speaks
// the tasks extension.
const taskMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"},"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

func (d *registerDesk) ext(token, method, params string) map[string]any {
	d.t.Helper()
	msg, _ := d.rpc(token, mcpagent.SessionlessRevision, "", method, params)
	return msg
}

func result(t *testing.T, msg map[string]any) map[string]any {
	t.Helper()
	r, ok := msg["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result in %v", msg)
	}
	return r
}

// pollTask reads a task through get until cond holds of it.
func pollTask(t *testing.T, get func() map[string]any, what string, cond func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := get()
		if cond(r) {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: last read %v", what, r)
		}
		time.Sleep(5 * time.Millisecond) // a client's poll
	}
}

// On the sessionless revision, a client that declares the tasks
// extension gets a task for a call that waits for the person: the handle
// at once; tasks/get says it waits for the person, then carries the
// result once the person approved; another identity's get finds nothing
// and its cancel changes nothing; tasks/cancel on a held call withdraws
// the card and nothing runs.
func TestSessionlessTaskExtension(t *testing.T) {
	d := startDesk(t, nil)
	created := result(t, d.ext("alice", "tools/call", `{"name":"refund","arguments":{"order":"o-1"},`+taskMeta+`}`))
	id, _ := created["taskId"].(string)
	if created["resultType"] != "task" || created["status"] != "working" || len(id) != 32 || created["ttlSeconds"] != nil {
		t.Fatalf("created = %v", created)
	}
	get := func(token string) func() map[string]any {
		return func() map[string]any { return d.ext(token, "tasks/get", `{"taskId":"`+id+`",`+taskMeta+`}`) }
	}
	waiting := pollTask(t, func() map[string]any { return result(t, get("alice")()) }, "waiting for the person",
		func(r map[string]any) bool {
			return strings.Contains(fmt.Sprint(r["statusMessage"]), "person to approve")
		})
	if waiting["status"] != "working" || waiting["resultType"] != "complete" || waiting["result"] != nil {
		t.Fatalf("waiting = %v", waiting)
	}
	// Bob cannot see or cancel alice's task.
	if e, _ := get("bob")()["error"].(map[string]any); e == nil || e["code"] != float64(-32602) {
		t.Fatalf("bob's tasks/get = %v", get("bob")())
	}
	if r := result(t, d.ext("bob", "tasks/cancel", `{"taskId":"`+id+`",`+taskMeta+`}`)); r["resultType"] != "complete" {
		t.Fatalf("bob's cancel = %v", r)
	}
	prog := d.prog("alice")
	req := loopwait.Until(t, prog, "the card", func(m register) bool { return len(m.Asked) == 1 }).Asked[0]
	if err := prog.Dispatch(context.Background(), req.Approve("alice")); err != nil {
		t.Fatal(err)
	}
	done := pollTask(t, func() map[string]any { return result(t, get("alice")()) }, "completed",
		func(r map[string]any) bool { return r["status"] != "working" })
	res, _ := done["result"].(map[string]any)
	if done["status"] != "completed" || res == nil || res["isError"] == true || res["resultType"] != "complete" || done["ttlSeconds"] == nil {
		t.Fatalf("done = %v", done)
	}
	if got := prog.Model().Refunded; !slices.Equal(got, []string{"o-1"}) {
		t.Fatalf("refunded = %v", got)
	}

	// Cancelled while held: the card goes and nothing is refunded.
	second := result(t, d.ext("alice", "tools/call", `{"name":"refund","arguments":{"order":"o-2"},`+taskMeta+`}`))
	id2 := second["taskId"].(string)
	loopwait.Until(t, prog, "the second card", func(m register) bool { return len(m.Asked) == 1 })
	if r := result(t, d.ext("alice", "tasks/cancel", `{"taskId":"`+id2+`",`+taskMeta+`}`)); len(r) != 1+countMeta(r) {
		t.Fatalf("cancel ack = %v", r)
	}
	cancelled := pollTask(t, func() map[string]any {
		return result(t, d.ext("alice", "tasks/get", `{"taskId":"`+id2+`",`+taskMeta+`}`))
	}, "cancelled", func(r map[string]any) bool { return r["status"] != "working" })
	if cancelled["status"] != "cancelled" || !strings.Contains(fmt.Sprint(cancelled["statusMessage"]), "nothing was done") {
		t.Fatalf("cancelled = %v", cancelled)
	}
	loopwait.Until(t, prog, "the card withdrawn", func(m register) bool { return len(m.Asked) == 0 })
	if got := prog.Model().Refunded; !slices.Equal(got, []string{"o-1"}) {
		t.Fatalf("refunded = %v", got)
	}
	// tasks/result is not the extension's.
	if e, _ := d.ext("alice", "tasks/result", `{"taskId":"`+id+`",`+taskMeta+`}`)["error"].(map[string]any); e == nil || e["code"] != float64(-32601) {
		t.Fatalf("tasks/result on 2026-07-28 = %v", e)
	}
}

func countMeta(r map[string]any) int {
	if _, ok := r["_meta"]; ok {
		return 1
	}
	return 0
}

// A sessionless client that does not declare the extension gets no task:
// its call is answered as any other (here: held at its patience).
func TestSessionlessWithoutTheExtensionGetsNoTask(t *testing.T) {
	tick := make(chan time.Time, 1)
	d := startDesk(t, func(o *mcpagent.Options) { mcpagent.WithPatienceTick(o, tick) })
	tick <- time.Now()
	r := result(t, d.ext("alice", "tools/call", `{"name":"refund","arguments":{"order":"o-1"},`+sessionlessMeta+`}`))
	sc, _ := r["structuredContent"].(map[string]any)
	if r["resultType"] != "complete" || r["taskId"] != nil || sc["_tag"] != agent.TagHeld {
		t.Fatalf("answer = %v", r)
	}
}

// On a 2025-11-25 session, the server declares the tasks capability; a
// task-augmented tools/call gets its task at once, tasks/get follows it,
// tasks/result answers the call's result naming the task, tasks/list
// lists it; another identity's session finds none of it; tasks/cancel
// withdraws a held call.
func TestSessionTaskAugmentedCall(t *testing.T) {
	d := startDesk(t, nil)
	open := func(token string) string {
		init, sid := d.rpc(token, "2025-11-25", "", "initialize",
			`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}`)
		caps := result(t, init)["capabilities"].(map[string]any)
		if tc, _ := caps["tasks"].(map[string]any); tc == nil || tc["requests"] == nil {
			t.Fatalf("capabilities = %v", caps)
		}
		d.rpcNote(token, sid)
		return sid
	}
	alice, bob := open("alice"), open("bob")
	call := func(sid, order string) string {
		msg, _ := d.rpc("alice", "2025-11-25", sid, "tools/call", `{"name":"refund","arguments":{"order":"`+order+`"},"task":{"ttl":60000}}`)
		task, _ := result(t, msg)["task"].(map[string]any)
		if task == nil || task["status"] != "working" {
			t.Fatalf("tools/call = %v", msg)
		}
		return task["taskId"].(string)
	}
	id := call(alice, "o-1")
	get := func(token, sid, method, id string) map[string]any {
		msg, _ := d.rpc(token, "2025-11-25", sid, method, `{"taskId":"`+id+`"}`)
		return msg
	}
	pollTask(t, func() map[string]any { return result(t, get("alice", alice, "tasks/get", id)) }, "waiting for the person",
		func(r map[string]any) bool {
			return strings.Contains(fmt.Sprint(r["statusMessage"]), "person to approve")
		})
	for _, m := range []string{"tasks/get", "tasks/result", "tasks/cancel"} {
		if e, _ := get("bob", bob, m, id)["error"].(map[string]any); e == nil || e["code"] != float64(-32602) {
			t.Fatalf("bob's %s = %v", m, e)
		}
	}
	prog := d.prog("alice")
	req := loopwait.Until(t, prog, "the card", func(m register) bool { return len(m.Asked) == 1 }).Asked[0]
	if err := prog.Dispatch(context.Background(), req.Approve("alice")); err != nil {
		t.Fatal(err)
	}
	out := result(t, get("alice", alice, "tasks/result", id))
	related, _ := out["_meta"].(map[string]any)["io.modelcontextprotocol/related-task"].(map[string]any)
	if out["isError"] == true || related["taskId"] != id {
		t.Fatalf("tasks/result = %v", out)
	}
	if got := prog.Model().Refunded; !slices.Equal(got, []string{"o-1"}) {
		t.Fatalf("refunded = %v", got)
	}
	if r := result(t, get("alice", alice, "tasks/get", id)); r["status"] != "completed" || r["ttl"] == nil {
		t.Fatalf("tasks/get after = %v", r)
	}

	id2 := call(alice, "o-2")
	loopwait.Until(t, prog, "the second card", func(m register) bool { return len(m.Asked) == 1 })
	if r := result(t, get("alice", alice, "tasks/cancel", id2)); r["status"] != "cancelled" || r["taskId"] != id2 {
		t.Fatalf("tasks/cancel = %v", r)
	}
	loopwait.Until(t, prog, "the card withdrawn", func(m register) bool { return len(m.Asked) == 0 })
	if got := prog.Model().Refunded; !slices.Equal(got, []string{"o-1"}) {
		t.Fatalf("refunded = %v", got)
	}
	msg, _ := d.rpc("alice", "2025-11-25", alice, "tasks/list", `{}`)
	if tasks, _ := result(t, msg)["tasks"].([]any); len(tasks) != 2 {
		t.Fatalf("tasks/list = %v", msg)
	}
}

// rpcNote sends notifications/initialized on a session.
func (d *registerDesk) rpcNote(token, sid string) {
	d.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, d.srv.URL, strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	resp.Body.Close()
}

// Tasks are bounded per identity: beyond MaxHeldPerIdentity a
// task-augmented call is refused with -32000 and nothing is asked; the
// other identity is not affected.
func TestTasksAreBoundedPerIdentity(t *testing.T) {
	d := startDesk(t, func(o *mcpagent.Options) { o.MaxHeldPerIdentity = 1 })
	first := result(t, d.ext("alice", "tools/call", `{"name":"refund","arguments":{"order":"o-1"},`+taskMeta+`}`))
	if first["resultType"] != "task" {
		t.Fatalf("first = %v", first)
	}
	msg := d.ext("alice", "tools/call", `{"name":"refund","arguments":{"order":"o-2"},`+taskMeta+`}`)
	if e, _ := msg["error"].(map[string]any); e == nil || e["code"] != float64(-32000) {
		t.Fatalf("second = %v", msg)
	}
	if r := result(t, d.ext("bob", "tools/call", `{"name":"refund","arguments":{"order":"o-3"},`+taskMeta+`}`)); r["resultType"] != "task" {
		t.Fatalf("bob = %v", r)
	}
	prog := d.prog("alice")
	if m := loopwait.Until(t, prog, "one card", func(m register) bool { return len(m.Asked) == 1 }); m.Asked[0].Input == nil || string(m.Asked[0].Input) != `{"order":"o-1"}` {
		t.Fatalf("cards = %v", m.Asked)
	}
}
