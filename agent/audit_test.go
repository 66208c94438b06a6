package agent_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/agentslog"
)

// cmpClock is a deterministic clock for audit entries.
func cmpClock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

// cmpSecretCap is a capability with a secret among its inputs and an
// authorize hook that refuses anyone but the owner.
type cmpLogin struct {
	User    string         `json:"user"`
	Token   string         `json:"token"`
	Options map[string]any `json:"options,omitempty"`
}

func (cmpLogin) cmpMsg() {}

func cmpLoginCap() *agent.Exposed[cmpLogin, cmpModel, cmpUser] {
	return agent.Expose(agent.Variant[cmpLogin, cmpModel, cmpUser]{
		Description: "Log in.",
		Authorize: func(_ context.Context, in cmpLogin, call agent.Call[cmpModel, cmpUser]) (agent.Decision, error) {
			if call.Principal.Role != "owner" {
				return agent.RefuseBecause("Only the owner may log in."), nil
			}
			return agent.Allow, nil
		},
	})
}

func TestAuditRecordsEveryDecision(t *testing.T) {
	h := newCmpHost()
	clock := cmpClock()
	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{
		Principal: func(u cmpUser) string { return u.ID },
		Clock:     clock,
	})
	role := "owner"
	rt := cmpBind(cmpContract(cmpCreateCap(nil), cmpDeleteCap(), cmpNoiseCap(), cmpLoginCap()), h, &agent.BindOptions[cmpUser]{
		Audit: audit,
		Principal: func(context.Context, agent.Invocation) (cmpUser, error) {
			return cmpUser{ID: "u-" + role, Secret: "s3cr3t", Role: role}, nil
		},
	})
	bg := context.Background()
	mcp := func(id string) agent.Invocation { return agent.Invocation{ID: id, Transport: agent.MCP} }
	// dispatched (no completion), completed, failed, unknown capability,
	// invalid input, authorization refusal, host defect.
	_, _ = cmpDispatch(t, rt, bg, "noise", `{}`, mcp("1"))
	_, _ = cmpDispatch(t, rt, bg, "create_todo", `{"title":"Milk"}`, mcp("2"))
	_, _ = cmpDispatch(t, rt, bg, "create_todo", `{"title":""}`, mcp("3"))
	_, _ = cmpDispatch(t, rt, bg, "create_todoo", `{"title":"Milk"}`, mcp("4"))
	_, _ = cmpDispatch(t, rt, bg, "create_todo", `{"title":1}`, mcp("5"))
	role = "guest"
	_, _ = cmpDispatch(t, rt, bg, "cmp_login", `{"user":"a","token":"t"}`, mcp("6"))
	role = "owner"
	h.dispatchFn = func(context.Context, cmpMsg) error { return errors.New("host is down") }
	_, _ = cmpDispatch(t, rt, bg, "noise", `{}`, mcp("7"))
	h.dispatchFn = nil
	// Typed paths are audited too, including a Message type never exposed.
	_, _ = agent.DispatchMessage(bg, rt, cmpPing{}, agent.Invocation{ID: "8"})
	_, _ = agent.DispatchMessage(bg, rt, cmpDelete{ID: "t1"}, agent.Invocation{ID: "9"})

	type row struct{ inv, transport, capability, tag, principal, decision, outcome string }
	want := []row{
		{"1", "mcp", "noise", "cmpNoise", "u-owner", "dispatched", "dispatched"},
		{"2", "mcp", "create_todo", "cmpCreate", "u-owner", "dispatched", "completed"},
		{"3", "mcp", "create_todo", "cmpCreate", "u-owner", "dispatched", "failed"},
		{"4", "mcp", "create_todoo", "", "", "refused", agent.TagUnknownCapability},
		{"5", "mcp", "create_todo", "cmpCreate", "", "refused", agent.TagInvalidInput},
		{"6", "mcp", "cmp_login", "cmpLogin", "u-guest", "refused", agent.TagAuthorization},
		{"7", "mcp", "noise", "cmpNoise", "u-owner", "unknown", agent.TagDefect},
		{"8", "in-app", "cmpPing", "", "", "refused", agent.TagUnknownCapability},
		{"9", "in-app", "delete_todo", "cmpDelete", "u-owner", "dispatched", "completed"},
	}
	got := audit.Entries()
	if len(got) != len(want) {
		t.Fatalf("audit holds %d entries, want %d: %+v", len(got), len(want), got)
	}
	for i, e := range got {
		r := row{e.Invocation, string(e.Transport), e.Capability, e.Tag, e.Principal, string(e.Decision), e.Outcome}
		if r != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, r, want[i])
		}
		if e.Input != nil {
			t.Errorf("entry %d keeps input without IncludeInput: %s", i, e.Input)
		}
		if i > 0 && !e.At.After(got[i-1].At) {
			t.Errorf("entry %d is not after entry %d", i, i-1)
		}
	}
}

func TestAuditEntryJSONFieldNames(t *testing.T) {
	e := agent.AuditEntry{
		At: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Invocation: "i", Transport: agent.MCP, Capability: "c", Tag: "T",
		Principal: "p", Decision: agent.DecisionRefused, Outcome: agent.TagAuthorization, Input: json.RawMessage(`{"a":1}`),
	}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"at":1767323045000,"invocation":"i","transport":"mcp","capability":"c","tag":"T","principal":"p","decision":"refused","outcome":"AgentAuthorizationError","input":{"a":1}}`
	if string(b) != want {
		t.Fatalf("JSON = %s\nwant   %s", b, want)
	}
	var back agent.AuditEntry
	if err := json.Unmarshal(b, &back); err != nil || !back.At.Equal(e.At) || back.Capability != "c" || string(back.Input) != `{"a":1}` {
		t.Fatalf("round trip: %+v %v", back, err)
	}
	b, _ = json.Marshal(agent.AuditEntry{Invocation: "i", Decision: agent.DecisionDispatched, Outcome: agent.OutcomeDispatched})
	for _, absent := range []string{`"tag"`, `"principal"`, `"input"`} {
		if strings.Contains(string(b), absent) {
			t.Fatalf("%s must be omitted when empty: %s", absent, b)
		}
	}
}

func TestAuditPrincipalOnlyThroughProjection(t *testing.T) {
	h := newCmpHost()
	noProjection := agent.NewAuditLog(agent.AuditOptions[cmpUser]{IncludeInput: true})
	rt := cmpBind(cmpContract(cmpNoiseCap()), h, &agent.BindOptions[cmpUser]{Audit: noProjection, Principal: cmpPrincipal})
	_, _ = cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{})
	e := noProjection.Entries()[0]
	if e.Principal != "" {
		t.Fatalf("a log without a projection kept the principal %q", e.Principal)
	}
	b, _ := json.Marshal(noProjection.Entries())
	if bytes.Contains(b, []byte("hunter2")) || bytes.Contains(b, []byte("u-7")) {
		t.Fatalf("the identity leaked into the log: %s", b)
	}

	// A projection that panics leaves the principal out and is reported.
	var reported []error
	var mu sync.Mutex
	panicky := agent.NewAuditLog(agent.AuditOptions[cmpUser]{
		Principal: func(cmpUser) string { panic("projection exploded") },
		OnError:   func(err error) { mu.Lock(); reported = append(reported, err); mu.Unlock() },
	})
	rt = cmpBind(cmpContract(cmpNoiseCap()), h, &agent.BindOptions[cmpUser]{Audit: panicky, Principal: cmpPrincipal})
	if _, err := cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{}); err != nil {
		t.Fatalf("a panicking projection changed the result: %v", err)
	}
	if e := panicky.Entries(); len(e) != 1 || e[0].Principal != "" || e[0].Outcome != agent.OutcomeDispatched {
		t.Fatalf("entries = %+v", e)
	}
	if len(reported) != 1 || !strings.Contains(reported[0].Error(), "projection exploded") {
		t.Fatalf("reported = %v", reported)
	}
}

func TestAuditInputAndRedaction(t *testing.T) {
	h := newCmpHost()
	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{IncludeInput: true, Redact: []string{"token"}})
	rt := cmpBind(cmpContract(cmpLoginCap(), cmpNoiseCap()), h, &agent.BindOptions[cmpUser]{Audit: audit, Principal: cmpPrincipal})
	bg := context.Background()
	_, err := cmpDispatch(t, rt, bg, "cmp_login", `{ "user": "ada", "token": "abc123", "options": {"token": "nested"} }`, agent.Invocation{})
	if err != nil {
		t.Fatal(err)
	}
	// Field names match case-insensitively, as the decoder does.
	_, _ = cmpDispatch(t, rt, bg, "cmp_login", `{"user":"bob","TOKEN":"xyz"}`, agent.Invocation{})
	// A refused invocation keeps its input too (here: invalid).
	_, _ = cmpDispatch(t, rt, bg, "cmp_login", `{"user":"eve","token":"t","extra":1}`, agent.Invocation{})
	// Not an object: no input.
	_, _ = cmpDispatch(t, rt, bg, "cmp_login", `["token"]`, agent.Invocation{})
	_, _ = cmpDispatch(t, rt, bg, "cmp_login", `"token"`, agent.Invocation{})
	_, _ = cmpDispatch(t, rt, bg, "cmp_login", `{not json`, agent.Invocation{})
	_, _ = cmpDispatch(t, rt, bg, "cmp_login", `{"user":"a"} {"token":"b"}`, agent.Invocation{})
	_, _ = cmpDispatch(t, rt, bg, "cmp_login", `{"user":"a",}`, agent.Invocation{})

	e := audit.Entries()
	want := []string{
		`{"user":"ada","token":"[redacted]","options":{"token":"nested"}}`,
		`{"user":"bob","TOKEN":"[redacted]"}`,
		`{"user":"eve","token":"[redacted]","extra":1}`,
		``, ``, ``, ``, ``,
	}
	if len(e) != len(want) {
		t.Fatalf("%d entries", len(e))
	}
	for i, w := range want {
		if string(e[i].Input) != w {
			t.Errorf("entry %d input = %s, want %s", i, e[i].Input, w)
		}
	}
	if e[2].Outcome != agent.TagInvalidInput {
		t.Errorf("entry 2 outcome = %s", e[2].Outcome)
	}

	// Without Redact the input is kept as sent, compacted.
	plain := agent.NewAuditLog(agent.AuditOptions[cmpUser]{IncludeInput: true})
	rt = cmpBind(cmpContract(cmpLoginCap()), h, &agent.BindOptions[cmpUser]{Audit: plain, Principal: cmpPrincipal})
	_, _ = cmpDispatch(t, rt, bg, "cmp_login", "{\n \"user\": \"ada\",\n \"token\": \"abc\"\n}", agent.Invocation{})
	if got := string(plain.Entries()[0].Input); got != `{"user":"ada","token":"abc"}` {
		t.Fatalf("input = %s", got)
	}

	// Entries returns a copy: changing it changes nothing in the log.
	c := plain.Entries()
	c[0].Input[2] = 'X'
	c[0].Outcome = "tampered"
	if again := plain.Entries(); again[0].Outcome == "tampered" || string(again[0].Input) != `{"user":"ada","token":"abc"}` {
		t.Fatalf("Entries shares memory with the log: %+v", again[0])
	}
}

func TestAuditCapacityEvictsOldestFirst(t *testing.T) {
	h := newCmpHost()
	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{Capacity: 3})
	rt := cmpBind(cmpContract(cmpNoiseCap()), h, &agent.BindOptions[cmpUser]{Audit: audit})
	for _, id := range []string{"1", "2", "3", "4", "5"} {
		_, _ = cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{ID: id})
	}
	var ids []string
	for _, e := range audit.Entries() {
		ids = append(ids, e.Invocation)
	}
	if strings.Join(ids, ",") != "3,4,5" || audit.Len() != 3 || audit.Capacity() != 3 {
		t.Fatalf("ids = %v, len = %d", ids, audit.Len())
	}
	audit.Clear()
	if audit.Len() != 0 || len(audit.Entries()) != 0 {
		t.Fatal("Clear left entries")
	}
	_, _ = cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{ID: "6"})
	if e := audit.Entries(); len(e) != 1 || e[0].Invocation != "6" {
		t.Fatalf("after Clear: %+v", e)
	}
	if agent.NewAuditLog(agent.AuditOptions[cmpUser]{}).Capacity() != agent.DefaultAuditCapacity || agent.DefaultAuditCapacity != 500 {
		t.Fatal("the default capacity is 500")
	}
	for _, bad := range []func(){
		func() { agent.NewAuditLog(agent.AuditOptions[cmpUser]{Capacity: -1}) },
		func() { agent.NewAuditLog(agent.AuditOptions[cmpUser]{Sinks: []agent.AuditSink{nil}}) },
	} {
		func() {
			defer func() {
				if v, _ := recover().(string); !strings.Contains(v, "NewAuditLog") {
					t.Fatalf("panic = %q", v)
				}
			}()
			bad()
		}()
	}
}

type cmpSinkFunc func(agent.AuditEntry) error

func (f cmpSinkFunc) Record(e agent.AuditEntry) error { return f(e) }

// A sink that panics or fails never changes a dispatch's result, and the
// other sinks and the log still get the entry.
func TestAuditSinkFailuresNeverChangeTheResult(t *testing.T) {
	h := newCmpHost()
	var mu sync.Mutex
	var reported []string
	var kept []agent.AuditEntry
	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{
		IncludeInput: true,
		Sinks: []agent.AuditSink{
			cmpSinkFunc(func(agent.AuditEntry) error { panic("sink exploded") }),
			cmpSinkFunc(func(agent.AuditEntry) error { return errors.New("disk full") }),
			cmpSinkFunc(func(e agent.AuditEntry) error {
				mu.Lock()
				defer mu.Unlock()
				e.Input[0] = 'X' // a sink cannot reach the log's copy
				kept = append(kept, e)
				return nil
			}),
		},
		OnError: func(err error) {
			mu.Lock()
			defer mu.Unlock()
			reported = append(reported, err.Error())
			panic("and the error reporter panics too")
		},
	})
	rt := cmpBind(cmpContract(), h, &agent.BindOptions[cmpUser]{Audit: audit})
	res, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"Milk"}`, agent.Invocation{})
	if err != nil || res.Completion.Status != agent.Completed {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	_, err = cmpDispatch(t, rt, context.Background(), "rename_project", `{"name":7}`, agent.Invocation{})
	if tagOf(err) != agent.TagInvalidInput {
		t.Fatalf("a failing sink changed a refusal: %v", err)
	}
	if len(kept) != 2 || audit.Len() != 2 || string(audit.Entries()[0].Input) != `{"title":"Milk"}` {
		t.Fatalf("kept = %d, log = %d, input = %s", len(kept), audit.Len(), audit.Entries()[0].Input)
	}
	if len(reported) != 4 || !strings.Contains(reported[0], "sink exploded") || !strings.Contains(reported[1], "disk full") {
		t.Fatalf("reported = %q", reported)
	}
}

// A failing sink with no OnError is not silent: each lost entry is logged
// with log/slog's default logger, and counted in Health, which says the
// log is failing until an entry is kept again. The calls still run: a
// failing sink never fails a dispatch unless the application asks.
func TestAuditSinkFailureIsLoggedAndCountedByDefault(t *testing.T) {
	var buf bytes.Buffer
	was := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(was) })
	var full sync.Mutex // held: the disk is full
	fullNow := true
	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{
		Sinks: []agent.AuditSink{cmpSinkFunc(func(agent.AuditEntry) error {
			full.Lock()
			defer full.Unlock()
			if fullNow {
				return errors.New("no space left on device")
			}
			return nil
		})},
	})
	if h := audit.Health(); h != (agent.AuditHealth{}) {
		t.Fatalf("a new log's health: %+v", h)
	}
	rt := cmpBind(cmpContract(cmpNoiseCap()), newCmpHost(), &agent.BindOptions[cmpUser]{Audit: audit})
	for range 3 {
		if _, err := cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{}); err != nil {
			t.Fatalf("a failing sink failed a dispatch: %v", err)
		}
	}
	h := audit.Health()
	if h.Failures != 3 || h.Lost != 3 || !h.Failing || h.LastError == nil || !strings.Contains(h.LastError.Error(), "no space left") || h.LastAt.IsZero() {
		t.Fatalf("health = %+v", h)
	}
	if n := strings.Count(buf.String(), `"msg":"agent: audit entry not kept"`); n != 3 || !strings.Contains(buf.String(), "no space left on device") {
		t.Fatalf("logged %d times: %s", n, buf.String())
	}
	full.Lock()
	fullNow = false
	full.Unlock()
	if _, err := cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	if h := audit.Health(); h.Failing || h.Lost != 3 {
		t.Fatalf("after a kept entry: %+v", h)
	}
}

// With RefuseUnaudited, calls are refused rather than run unaudited: once
// a record fails, every call is refused with the typed, retry-safe
// AuditUnavailableError, nothing dispatched; the refusals are recorded
// too, and the first one the recovered sink keeps lets calls run again.
func TestRefuseUnauditedRefusesWhileTheSinkFails(t *testing.T) {
	var mu sync.Mutex
	failing := false
	var kept []string
	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{
		RefuseUnaudited: true,
		OnError:         func(error) {},
		Sinks: []agent.AuditSink{cmpSinkFunc(func(e agent.AuditEntry) error {
			mu.Lock()
			defer mu.Unlock()
			if failing {
				return errors.New("read-only file system")
			}
			kept = append(kept, e.Outcome)
			return nil
		})},
	})
	setFailing := func(v bool) { mu.Lock(); failing = v; mu.Unlock() }
	h := newCmpHost()
	rt := cmpBind(cmpContract(), h, &agent.BindOptions[cmpUser]{Audit: audit})
	create := func() (agent.Result, error) {
		return cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"Milk"}`, agent.Invocation{})
	}
	if _, err := create(); err != nil {
		t.Fatal(err)
	}
	setFailing(true)
	if _, err := create(); err != nil {
		t.Fatalf("the call during which the sink first fails has run: %v", err)
	}
	before := len(h.Model().Todos)
	for range 3 {
		_, err := create()
		var refused *agent.AuditUnavailableError
		if !errors.As(err, &refused) || !refused.RetrySafe || refused.Capability != "create_todo" {
			t.Fatalf("a call while the audit cannot be kept: %v", err)
		}
		reply := agent.ReplyTo("create_todo", agent.Result{}, err)
		if reply.Tag != agent.TagAuditUnavailable || !strings.Contains(string(reply.Data), `"retrySafe":true`) || strings.Contains(reply.Text, "read-only") {
			t.Fatalf("the reply: %s %s", reply.Text, reply.Data)
		}
	}
	if n := len(h.Model().Todos); n != before {
		t.Fatalf("refused calls changed the Model: %d todos, had %d", n, before)
	}
	setFailing(false)
	if _, err := create(); tagOf(err) != agent.TagAuditUnavailable {
		t.Fatalf("the refusal the recovered sink keeps: %v", err)
	}
	if _, err := create(); err != nil {
		t.Fatalf("after the sink recovered: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"completed", "AgentAuditUnavailableError", "completed"}; !slices.Equal(kept, want) {
		t.Fatalf("the sink kept %v, want %v", kept, want)
	}
	if got := audit.Health(); got.Lost != 4 || got.Failing {
		t.Fatalf("health = %+v", got)
	}
}

func TestSlogAuditSink(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	h := newCmpHost()
	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{
		Principal:    func(u cmpUser) string { return u.ID },
		IncludeInput: true,
		Redact:       []string{"token"},
		Sinks:        []agent.AuditSink{agentslog.AuditSink{Logger: logger, Level: slog.LevelWarn}},
	})
	rt := cmpBind(cmpContract(cmpLoginCap()), h, &agent.BindOptions[cmpUser]{Audit: audit, Principal: cmpPrincipal})
	_, _ = cmpDispatch(t, rt, context.Background(), "cmp_login", `{"user":"ada","token":"abc"}`, agent.Invocation{ID: "inv-s", Transport: agent.A2A})
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatalf("%v: %s", err, buf.Bytes())
	}
	want := map[string]any{
		"level": "WARN", "msg": "agent audit", "invocation": "inv-s", "transport": "a2a", "capability": "cmp_login",
		"tag": "cmpLogin", "principal": "u-7", "decision": "dispatched", "outcome": "dispatched",
		"input": `{"user":"ada","token":"[redacted]"}`,
	}
	for k, v := range want {
		if rec[k] != v {
			t.Errorf("%s = %v, want %v", k, rec[k], v)
		}
	}
	if _, ok := rec["at"]; !ok {
		t.Error("at is missing")
	}
	if strings.Contains(buf.String(), "abc") || strings.Contains(buf.String(), "hunter2") {
		t.Fatalf("a secret reached the log: %s", buf.String())
	}
	// The zero value logs to slog.Default without failing.
	if err := (agentslog.AuditSink{}).Record(agent.AuditEntry{Invocation: "z"}); err != nil {
		t.Fatal(err)
	}
}

func TestJSONLinesSinkAppends(t *testing.T) {
	for _, syncEvery := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		if err := os.WriteFile(path, []byte(`{"earlier":"line"}`+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		sink, err := agent.OpenJSONLinesSink(path, agent.JSONLinesOptions{SyncEveryEntry: syncEvery})
		if err != nil {
			t.Fatal(err)
		}
		h := newCmpHost()
		audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{IncludeInput: true, Sinks: []agent.AuditSink{sink}})
		rt := cmpBind(cmpContract(), h, &agent.BindOptions[cmpUser]{Audit: audit})
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Go(func() {
				_, _ = cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{ID: "n" + string(rune('a'+i))})
			})
		}
		wg.Wait()
		if err := sink.Sync(); err != nil {
			t.Fatal(err)
		}
		if err := sink.Close(); err != nil {
			t.Fatal(err)
		}
		if err := sink.Close(); err != nil {
			t.Fatal("closing twice must be harmless")
		}
		if err := sink.Record(agent.AuditEntry{}); !errors.Is(err, agent.ErrSinkClosed) {
			t.Fatalf("Record after Close = %v", err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		var lines []string
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		f.Close()
		if len(lines) != 21 || lines[0] != `{"earlier":"line"}` {
			t.Fatalf("sync=%v: %d lines, first %q", syncEvery, len(lines), lines[0])
		}
		var ids []string
		for _, l := range lines[1:] {
			var e agent.AuditEntry
			if err := json.Unmarshal([]byte(l), &e); err != nil {
				t.Fatalf("line %q: %v", l, err)
			}
			if e.Decision != agent.DecisionDispatched || e.Capability != "noise" || string(e.Input) != `{}` {
				t.Fatalf("entry = %+v", e)
			}
			ids = append(ids, e.Invocation)
		}
		slices.Sort(ids)
		if len(slices.Compact(ids)) != 20 {
			t.Fatalf("ids = %v", ids)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Fatalf("mode = %v", fi.Mode())
		}
	}
	if _, err := agent.OpenJSONLinesSink(filepath.Join(t.TempDir(), "missing", "audit.jsonl"), agent.JSONLinesOptions{}); err == nil {
		t.Fatal("opening in a missing directory must fail")
	}
}

// Without an audit log nothing is recorded and the result is the same.
func TestNoAuditConfigured(t *testing.T) {
	h := newCmpHost()
	rt := cmpBind(cmpContract(), h, nil)
	res, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"Milk"}`, agent.Invocation{})
	if err != nil || res.Completion.Status != agent.Completed {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
}

// FuzzAuditInputRedaction checks the hand-written top-level scan against
// encoding/json: with a redaction that names no field the input is the
// compacted payload, and with one that names a field that field alone
// reads "[redacted]".
func FuzzAuditInputRedaction(f *testing.F) {
	for _, seed := range []string{
		`{}`, ` { } `, `{"a":1}`, `{"token":"x"}`, `{"a":"}","token":{"b":[1,2,{"c":"]"}]}}`,
		`{"a\"b":1,"token":"\\\""}`, `{"\u0074oken":"secret","x":null}`, `{"a":[],"b":{},"TOKEN":true}`,
		"{\n\t\"token\" :\n \"x\" ,\r\n \"y\" : [ 1 , 2 ] }", `{"a":1,"a":2}`, `[1]`, `"s"`, `{"a":}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		h := newCmpHost()
		none := agent.NewAuditLog(agent.AuditOptions[cmpUser]{IncludeInput: true, Redact: []string{"no-such-field"}})
		token := agent.NewAuditLog(agent.AuditOptions[cmpUser]{IncludeInput: true, Redact: []string{"token"}})
		c := cmpContract(cmpLoginCap())
		for _, log := range []*agent.AuditLog[cmpUser]{none, token} {
			rt := cmpBind(c, h, &agent.BindOptions[cmpUser]{Audit: log, Principal: cmpPrincipal})
			_, _ = cmpDispatch(t, rt, context.Background(), "cmp_login", payload, agent.Invocation{})
		}
		var obj map[string]json.RawMessage
		isObject := json.Unmarshal([]byte(payload), &obj) == nil && obj != nil
		gotNone, gotToken := none.Entries()[0].Input, token.Entries()[0].Input
		if !isObject {
			if gotNone != nil || gotToken != nil {
				t.Fatalf("input kept for a non-object %q: %s / %s", payload, gotNone, gotToken)
			}
			return
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(payload)); err != nil {
			t.Fatal(err)
		}
		if string(gotNone) != compact.String() {
			t.Fatalf("payload %q: kept %s, want %s", payload, gotNone, compact.String())
		}
		var redacted map[string]json.RawMessage
		if err := json.Unmarshal(gotToken, &redacted); err != nil {
			t.Fatalf("payload %q: redacted input %s is not JSON: %v", payload, gotToken, err)
		}
		for k, v := range obj {
			want := v
			if strings.EqualFold(k, "token") {
				want = json.RawMessage(`"[redacted]"`)
			}
			var a, b any
			_ = json.Unmarshal(want, &a)
			_ = json.Unmarshal(redacted[k], &b)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("payload %q: field %q = %s, want %s", payload, k, redacted[k], want)
			}
		}
		if len(redacted) != len(obj) {
			t.Fatalf("payload %q: %d fields, want %d", payload, len(redacted), len(obj))
		}
	})
}
