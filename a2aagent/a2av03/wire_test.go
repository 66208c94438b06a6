package a2av03_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/a2aagent/a2av03"
	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/loopwait"
)

// A jobs application for the wire tests: a job's task stays working until
// the test dispatches its JobDone, so a test decides when it ends.

type jobs struct {
	Items []string
	Jobs  int
}

type jobMsg interface{ isJobMsg() }

type (
	Note struct {
		Title string `json:"title"`
	}
	StartJob struct {
		ID string `json:"-"`
	}
	JobDone struct{ ID string }
)

func (Note) isJobMsg()     {}
func (StartJob) isJobMsg() {}
func (JobDone) isJobMsg()  {}

type jobInput struct{}

func updateJobs(m jobs, msg jobMsg) (jobs, loop.Cmd[jobMsg]) {
	switch msg := msg.(type) {
	case Note:
		m.Items = append(append([]string(nil), m.Items...), msg.Title)
	case StartJob:
		m.Jobs++
	}
	return m, nil
}

var jobsContract = agent.Make(agent.Definition[jobs, agent.NoPrincipal]{
	Capabilities: []agent.Capability[jobs, agent.NoPrincipal]{
		agent.Expose(agent.Variant[Note, jobs, agent.NoPrincipal]{Description: "Note a title."}),
		agent.ExposeMapped(agent.Mapped[jobInput, StartJob, jobs, agent.NoPrincipal]{
			Name:        "start_job",
			Description: "Start a job; its task ends when the job reports back.",
			ToMessage: func(_ jobInput, c agent.Call[jobs, agent.NoPrincipal]) StartJob {
				return StartJob{ID: c.Invocation.ID}
			},
			Completion: agent.CompleteOn(
				agent.On(func(_ jobInput, got JobDone, inv agent.Invocation) bool { return got.ID == inv.ID }),
			).Within(time.Minute),
		}),
	},
})

// serveJobs runs the jobs application with its 1.0 endpoint (advertising
// the 0.3 one on its card) at / and its 0.3 endpoint at /v0.3, for the
// token "a-tok".
func serveJobs(t *testing.T) (*httptest.Server, *loop.Program[jobs, jobMsg]) {
	t.Helper()
	prog := loop.New[jobs, jobMsg](loop.Funcs(func() (jobs, loop.Cmd[jobMsg]) { return jobs{}, nil }, updateJobs), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	h, err := a2aagent.NewHandler(a2aagent.HTTPOptions{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			user, ok := strings.CutSuffix(token, "-tok")
			if !ok {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{UserID: user}, nil
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (a2aagent.Runtime, error) {
			return agent.Bind[jobs, jobMsg, agent.NoPrincipal](jobsContract, prog, nil)
		},
		Contract: jobsContract.Describe(),
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", a2av03.Advertise(h, "/v0.3"))
	v03 := http.StripPrefix("/v0.3", a2av03.NewHandler(h, "/v0.3"))
	mux.Handle("/v0.3", v03)
	mux.Handle("/v0.3/", v03)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { srv.Close(); h.Close(); cancel(); <-done })
	return srv, prog
}

// call posts one JSON-RPC request to the 0.3 endpoint and decodes the
// response; raw is the body as sent.
func call(t *testing.T, srv *httptest.Server, body string) (out map[string]any, raw string) {
	t.Helper()
	resp := post(t, srv, body)
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q", ct)
	}
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return out, string(b)
}

func post(t *testing.T, srv *httptest.Server, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v0.3", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer a-tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	return resp
}

// events reads a server-sent event stream to its end: one JSON-RPC
// response per data line.
func events(t *testing.T, resp *http.Response) []map[string]any {
	t.Helper()
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	var out []map[string]any
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		data, ok := strings.CutPrefix(lines.Text(), "data: ")
		if !ok {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("event %s: %v", data, err)
		}
		out = append(out, ev)
	}
	return out
}

// get walks a decoded JSON value by object keys and array indexes.
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

func sendBody(method string, id any, skill string, input string, extra string) string {
	idJSON, _ := json.Marshal(id)
	return `{"jsonrpc":"2.0","id":` + string(idJSON) + `,"method":"` + method + `","params":{"message":{"kind":"message","role":"user","messageId":"m-` + skill +
		`","parts":[{"kind":"text","text":"please"},{"kind":"data","data":{"skill":"` + skill + `","input":` + input + `}}]}` + extra + `}}`
}

// noV1 fails when a 1.0 spelling (an upper-case state or role) reached a
// 0.3 answer.
func noV1(t *testing.T, raw string) {
	t.Helper()
	for _, v1 := range []string{"TASK_STATE_", "ROLE_", `"protocolBinding"`} {
		if strings.Contains(raw, v1) {
			t.Errorf("a 1.0 spelling %s in a 0.3 answer: %s", v1, raw)
		}
	}
}

func TestWireSendAnswersA03Task(t *testing.T) {
	srv, prog := serveJobs(t)
	out, raw := call(t, srv, sendBody("message/send", "req-1", "note", `{"title":"milk"}`, ""))
	noV1(t, raw)
	if out["jsonrpc"] != "2.0" || out["id"] != "req-1" || out["error"] != nil {
		t.Fatalf("envelope %s", raw)
	}
	res := out["result"]
	for _, c := range []struct {
		path []any
		want any
	}{
		{[]any{"kind"}, "task"},
		{[]any{"status", "state"}, "completed"},
		{[]any{"status", "message", "kind"}, "message"},
		{[]any{"status", "message", "role"}, "agent"},
		{[]any{"status", "message", "parts", 0, "kind"}, "text"},
		{[]any{"status", "message", "parts", 0, "text"}, "Dispatched Note"},
		{[]any{"status", "message", "parts", 1, "kind"}, "data"},
		{[]any{"status", "message", "parts", 1, "data", "capability"}, "note"},
		{[]any{"status", "message", "taskId"}, get(res, "id")},
		{[]any{"history", 0, "kind"}, "message"},
		{[]any{"history", 0, "role"}, "user"},
		{[]any{"history", 0, "messageId"}, "m-note"},
		{[]any{"history", 0, "parts", 0, "text"}, "please"},
		{[]any{"history", 0, "parts", 1, "data", "skill"}, "note"},
	} {
		if got := get(res, c.path...); got != c.want {
			t.Errorf("result%v = %v, want %v", c.path, got, c.want)
		}
	}
	if id, _ := get(res, "id").(string); id == "" || get(res, "contextId") == nil || get(res, "status", "timestamp") == nil {
		t.Errorf("task without id, contextId or timestamp: %s", raw)
	}
	if items := prog.Model().Items; len(items) != 1 || items[0] != "milk" {
		t.Errorf("items %q", items)
	}
}

func TestWireStreamSendsTheTaskThenAFinalStatusUpdate(t *testing.T) {
	srv, _ := serveJobs(t)
	evs := events(t, post(t, srv, sendBody("message/stream", 7, "note", `{"title":"eggs"}`, "")))
	if len(evs) != 2 {
		t.Fatalf("%d events, want the task and its final status: %v", len(evs), evs)
	}
	first, last := evs[0]["result"], evs[1]["result"]
	if evs[0]["id"] != float64(7) || evs[1]["id"] != float64(7) {
		t.Errorf("ids %v %v, want the request's", evs[0]["id"], evs[1]["id"])
	}
	if get(first, "kind") != "task" || get(first, "status", "state") != "working" {
		t.Errorf("first event %v, want the task, working", first)
	}
	if get(last, "kind") != "status-update" || get(last, "final") != true || get(last, "status", "state") != "completed" ||
		get(last, "taskId") != get(first, "id") || get(last, "contextId") != get(first, "contextId") {
		t.Errorf("last event %v, want the final status-update of %v, completed", last, get(first, "id"))
	}
	if get(last, "status", "message", "parts", 0, "text") != "Dispatched Note" {
		t.Errorf("final status message %v", get(last, "status", "message"))
	}
}

func TestWireGetReadsTheTaskBack(t *testing.T) {
	srv, _ := serveJobs(t)
	sent, _ := call(t, srv, sendBody("message/send", 1, "note", `{"title":"tea"}`, ""))
	id := get(sent, "result", "id").(string)
	out, raw := call(t, srv, `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":"`+id+`"}}`)
	noV1(t, raw)
	res := out["result"]
	if get(res, "kind") != "task" || get(res, "id") != id || get(res, "status", "state") != "completed" ||
		get(res, "status", "message", "parts", 0, "text") != "Dispatched Note" {
		t.Errorf("tasks/get %s", raw)
	}
}

func TestWireCancelEndsARunningTaskAndRefusesACompletedOne(t *testing.T) {
	srv, _ := serveJobs(t)
	// Not blocking: the answer is the task as it starts, still working.
	sent, raw := call(t, srv, sendBody("message/send", 1, "start_job", `{}`, `,"configuration":{"blocking":false}`))
	if get(sent, "result", "kind") != "task" || get(sent, "result", "status", "state") != "working" {
		t.Fatalf("non-blocking send %s", raw)
	}
	id := get(sent, "result", "id").(string)
	cancel := `{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{"id":"` + id + `"}}`
	out, raw := call(t, srv, cancel)
	noV1(t, raw)
	if get(out, "result", "kind") != "task" || get(out, "result", "id") != id || get(out, "result", "status", "state") != "canceled" {
		t.Fatalf("tasks/cancel %s", raw)
	}
	// Cancelling it again answers it as it is: cancelled.
	if out, raw := call(t, srv, cancel); get(out, "result", "status", "state") != "canceled" {
		t.Fatalf("second tasks/cancel %s", raw)
	}
	// A task that completed cannot be cancelled.
	done, _ := call(t, srv, sendBody("message/send", 3, "note", `{"title":"x"}`, ""))
	out, raw = call(t, srv, `{"jsonrpc":"2.0","id":4,"method":"tasks/cancel","params":{"id":"`+get(done, "result", "id").(string)+`"}}`)
	if get(out, "error", "code") != float64(-32002) || out["result"] != nil || out["id"] != float64(4) {
		t.Fatalf("cancel of a completed task %s, want error -32002", raw)
	}
	if msg, _ := get(out, "error", "message").(string); msg != "That task has already ended, so it cannot be cancelled." {
		t.Errorf("message %q, want this package's sentence, not the SDK's error chain", msg)
	}
}

func TestWireResubscribeFollowsARunningTaskToItsEnd(t *testing.T) {
	srv, prog := serveJobs(t)
	sent, _ := call(t, srv, sendBody("message/send", 1, "start_job", `{}`, `,"configuration":{"blocking":false}`))
	id := get(sent, "result", "id").(string)
	// The runtime waits for the job's completion once it applied StartJob.
	loopwait.Until(t, prog, "the job started", func(m jobs) bool { return m.Jobs >= 1 })
	resp := post(t, srv, `{"jsonrpc":"2.0","id":"sub","method":"tasks/resubscribe","params":{"id":"`+id+`"}}`)
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	var evs []map[string]any
	for lines.Scan() {
		data, ok := strings.CutPrefix(lines.Text(), "data: ")
		if !ok {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
		if len(evs) == 1 {
			// Subscribed: the snapshot came first. Now the job ends.
			if err := prog.Dispatch(context.Background(), JobDone{ID: id}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(evs) < 2 {
		t.Fatalf("events %v", evs)
	}
	if first := evs[0]["result"]; get(first, "kind") != "task" || get(first, "id") != id || get(first, "status", "state") != "working" {
		t.Errorf("first event %v, want the task as it is, working", first)
	}
	last := evs[len(evs)-1]["result"]
	if evs[len(evs)-1]["id"] != "sub" || get(last, "kind") != "status-update" || get(last, "final") != true ||
		get(last, "status", "state") != "completed" || get(last, "status", "message", "parts", 0, "text") != "Completed: JobDone" {
		t.Errorf("last event %v, want the final status-update, completed", evs[len(evs)-1])
	}
}

func TestWireErrors(t *testing.T) {
	srv, prog := serveJobs(t)
	for _, c := range []struct {
		name, body string
		id         any
		code       float64
	}{
		{"not JSON", `{"jsonrpc":"2.0",`, nil, -32700},
		{"no jsonrpc version", `{"id":1,"method":"tasks/get","params":{"id":"x"}}`, float64(1), -32600},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"}}]`, nil, -32600},
		{"an object id", `{"jsonrpc":"2.0","id":{},"method":"tasks/get","params":{"id":"x"}}`, nil, -32600},
		{"a 1.0 method name", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{}}`, float64(1), -32601},
		{"no message", `{"jsonrpc":"2.0","id":"a","method":"message/send","params":{}}`, "a", -32602},
		{"a 1.0 part", `{"jsonrpc":"2.0","id":"b","method":"message/send","params":{"message":{"role":"user","messageId":"m","parts":[{"data":{"skill":"note","input":{"title":"x"}}}]}}}`, "b", -32602},
		{"a 1.0 role", `{"jsonrpc":"2.0","id":"c","method":"message/send","params":{"message":{"kind":"message","role":"ROLE_USER","messageId":"m","parts":[{"kind":"data","data":{"skill":"note","input":{"title":"x"}}}]}}}`, "c", -32602},
		{"no skill", `{"jsonrpc":"2.0","id":"d","method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"text","text":"note x"}]}}}`, "d", -32602},
		{"an unknown task", `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":"no-such-task"}}`, float64(2), -32001},
		{"push notifications", `{"jsonrpc":"2.0","id":3,"method":"tasks/pushNotificationConfig/set","params":{}}`, float64(3), -32003},
	} {
		out, raw := call(t, srv, c.body)
		if out["jsonrpc"] != "2.0" || out["id"] != c.id || out["result"] != nil || get(out, "error", "code") != c.code {
			t.Errorf("%s: %s, want error %v with id %v", c.name, raw, c.code, c.id)
		}
		if msg, _ := get(out, "error", "message").(string); msg == "" || strings.ContainsAny(msg[:1], "abcdefghijklmnopqrstuvwxyz") {
			t.Errorf("%s: message %q, want an authored sentence", c.name, msg)
		}
		if strings.Contains(raw, "no-such-task") {
			t.Errorf("%s: a runtime value in the answer: %s", c.name, raw)
		}
	}
	// A stream's error is an event of the stream.
	evs := events(t, post(t, srv, `{"jsonrpc":"2.0","id":9,"method":"tasks/resubscribe","params":{"id":"no-such-task"}}`))
	if len(evs) != 1 || evs[0]["id"] != float64(9) || get(evs[0], "error", "code") != float64(-32001) {
		t.Errorf("resubscribe to an unknown task: %v", evs)
	}
	if items := prog.Model().Items; len(items) != 0 {
		t.Errorf("refused requests applied %q", items)
	}
}

func TestAdvertisePutsThe03EndpointOnThe10Card(t *testing.T) {
	srv, _ := serveJobs(t)
	resp, err := http.Get(srv.URL + a2aagent.CardPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var card struct {
		SupportedInterfaces []struct {
			URL             string `json:"url"`
			ProtocolBinding string `json:"protocolBinding"`
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"supportedInterfaces"`
		Skills []struct {
			ID string `json:"id"`
		} `json:"skills"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&card); err != nil {
		t.Fatal(err)
	}
	var v10, v03 int
	for _, i := range card.SupportedInterfaces {
		switch {
		case i.ProtocolVersion == "1.0" && i.URL == srv.URL:
			v10++
		case i.ProtocolVersion == "0.3" && i.URL == srv.URL+"/v0.3" && i.ProtocolBinding == "JSONRPC":
			v03++
		}
	}
	if v10 != 2 || v03 != 1 || len(card.Skills) != 2 {
		t.Errorf("interfaces %+v, skills %d: want the two 1.0 interfaces, the 0.3 JSON-RPC one, both skills", card.SupportedInterfaces, len(card.Skills))
	}
	// The 0.3 endpoint's own card, in the 0.3 form.
	resp, err = http.Get(srv.URL + "/v0.3" + a2aagent.CardPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var c03 map[string]any
	if err := json.Unmarshal(b, &c03); err != nil {
		t.Fatal(err)
	}
	noV1(t, string(b))
	if c03["protocolVersion"] != "0.3.0" || c03["url"] != srv.URL+"/v0.3" || c03["preferredTransport"] != "JSONRPC" ||
		get(c03, "securitySchemes", "bearer", "type") != "http" || get(c03, "security", 0, "bearer") == nil ||
		get(c03, "capabilities", "streaming") != true || get(c03, "skills", 1, "id") != "start_job" || c03["supportedInterfaces"] != nil {
		t.Errorf("0.3 card %s", b)
	}
}
