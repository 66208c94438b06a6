package a2aagent_test

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/httpguard/httpguardtest"
)

func TestCardDescribesTheContract(t *testing.T) {
	f := start(t, nil)
	card := f.card(t)
	var ids []string
	for _, s := range card.Skills {
		ids = append(ids, s.ID)
	}
	if want := []string{"add_item", "clear_items", "start_job", "quick_job", "explode"}; !slices.Equal(ids, want) {
		t.Fatalf("skills %q, want %q", ids, want)
	}
	if tags := card.Skills[1].Tags; !slices.Equal(tags, []string{a2aagent.TagConditional, a2aagent.TagAuthorized}) {
		t.Errorf("clear_items tags %q", tags)
	}
	if tags := card.Skills[0].Tags; len(tags) != 0 {
		t.Errorf("add_item tags %q, want none", tags)
	}
	var ext *a2a.AgentExtension
	for i := range card.Capabilities.Extensions {
		if card.Capabilities.Extensions[i].URI == a2aagent.InputSchemaExtension {
			ext = &card.Capabilities.Extensions[i]
		}
	}
	if ext == nil {
		t.Fatal("the card does not declare the input-schema extension")
	}
	schemas, _ := ext.Params["skills"].(map[string]any)
	add, _ := schemas["add_item"].(map[string]any)
	props, _ := add["properties"].(map[string]any)
	if _, ok := props["title"]; !ok {
		t.Errorf("add_item schema %s has no title property", mustJSON(add))
	}
	if len(schemas) != len(card.Skills) {
		t.Errorf("%d schemas for %d skills", len(schemas), len(card.Skills))
	}
	if _, ok := card.SecuritySchemes[a2aagent.BearerScheme].(a2a.HTTPAuthSecurityScheme); !ok {
		t.Errorf("security schemes %v, want bearer", card.SecuritySchemes)
	}
	if len(card.SecurityRequirements) != 1 {
		t.Errorf("security requirements %v", card.SecurityRequirements)
	}
	if !card.Capabilities.Streaming {
		t.Error("the card does not declare streaming")
	}
	if len(card.SupportedInterfaces) == 0 || card.SupportedInterfaces[0].URL != f.srv.URL || card.SupportedInterfaces[0].ProtocolVersion != a2a.Version {
		t.Errorf("interfaces %s, want JSON-RPC 1.0 at %s", mustJSON(card.SupportedInterfaces), f.srv.URL)
	}
}

func TestCompletedTaskIsTheInvocation(t *testing.T) {
	f := start(t, nil)
	c := f.client(t, "owner-tok")
	task := sendTask(t, c, skillMessage("add_item", map[string]any{"title": "milk"}))
	if task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("state %s (%q), want completed", task.Status.State, statusText(task))
	}
	if got := statusText(task); got != "Dispatched AddItem" {
		t.Errorf("text %q", got)
	}
	data := statusData(task)
	inv, _ := data["invocation"].(map[string]any)
	if inv["id"] != string(task.ID) || inv["transport"] != string(agent.A2A) {
		t.Errorf("result invocation %v, want the task id %s over a2a", inv, task.ID)
	}
	if n := f.applied.Load(); n != 1 {
		t.Errorf("update applied %d AddItem, want 1", n)
	}
	entries := f.audit.Entries()
	if len(entries) != 1 || entries[0].Invocation != string(task.ID) || entries[0].Transport != agent.A2A || entries[0].Principal != "olivia" {
		t.Errorf("audit %s", mustJSON(entries))
	}
	got, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: task.ID})
	if err != nil || got.Status.State != a2a.TaskStateCompleted {
		t.Errorf("GetTask: %v %v", got, err)
	}
}

func TestRefusalsAreRejectedAndDispatchNothing(t *testing.T) {
	f := start(t, nil)
	owner, viewer := f.client(t, "owner-tok"), f.client(t, "viewer-tok")
	cases := []struct {
		name   string
		c      *a2aclient.Client
		req    *a2a.SendMessageRequest
		tag    string
		substr string
	}{
		{"unknown skill", owner, skillMessage("no_such_skill", nil), agent.TagUnknownCapability, "no capability"},
		{"wrong type", owner, skillMessage("add_item", map[string]any{"title": 3}), agent.TagInvalidInput, "does not match"},
		{"undeclared member", owner, skillMessage("add_item", map[string]any{"title": "x", "extra": true}), agent.TagInvalidInput, "does not match"},
		{"unavailable", owner, skillMessage("clear_items", nil), agent.TagUnavailable, "not offered"},
	}
	for _, tc := range cases {
		task := sendTask(t, tc.c, tc.req)
		if task.Status.State != a2a.TaskStateRejected {
			t.Errorf("%s: state %s, want rejected", tc.name, task.Status.State)
		}
		if got := statusText(task); !strings.Contains(got, tc.substr) {
			t.Errorf("%s: text %q, want it to say %q", tc.name, got, tc.substr)
		}
		if got := statusData(task)["_tag"]; got != tc.tag {
			t.Errorf("%s: _tag %v, want %s", tc.name, got, tc.tag)
		}
	}
	if n := f.applied.Load(); n != 0 {
		t.Fatalf("refusals dispatched %d Messages", n)
	}
	// A viewer may not clear a list that has items.
	sendTask(t, owner, skillMessage("add_item", map[string]any{"title": "milk"}))
	task := sendTask(t, viewer, skillMessage("clear_items", nil))
	if task.Status.State != a2a.TaskStateRejected || statusText(task) != "Only an owner may clear the list." {
		t.Errorf("viewer clear_items: %s %q", task.Status.State, statusText(task))
	}
	if items := f.model().Items; len(items) != 1 {
		t.Errorf("a refused clear changed the list: %q", items)
	}
}

func TestDefectIsFailedWithAGenericMessage(t *testing.T) {
	f := start(t, nil)
	task := sendTask(t, f.client(t, "owner-tok"), skillMessage("explode", nil))
	if task.Status.State != a2a.TaskStateFailed {
		t.Fatalf("state %s, want failed", task.Status.State)
	}
	if got := statusText(task); got != `Capability "explode" failed unexpectedly.` {
		t.Errorf("text %q", got)
	}
	if strings.Contains(mustJSON(task), "secret") {
		t.Errorf("the task reveals the cause: %s", mustJSON(task))
	}
}

func TestMessageWithoutSkillIsInvalidParams(t *testing.T) {
	f := start(t, nil)
	c := f.client(t, "owner-tok")
	for name, req := range map[string]*a2a.SendMessageRequest{
		"text only":     {Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("add milk"))},
		"skill missing": {Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewDataPart(map[string]any{"input": map[string]any{}}))},
		"skill number":  {Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewDataPart(map[string]any{"skill": 3}))},
	} {
		_, err := c.SendMessage(context.Background(), req)
		if err == nil || !strings.Contains(err.Error(), "data part naming a skill") {
			t.Errorf("%s: %v, want invalid params naming the data part", name, err)
		}
	}
	if n := f.h.Tasks(); n != 0 {
		t.Errorf("%d tasks stored, want none", n)
	}
	list, err := c.ListTasks(context.Background(), &a2a.ListTasksRequest{})
	if err != nil || len(list.Tasks) != 0 {
		t.Errorf("ListTasks: %v %v", list, err)
	}
}

func TestFollowUpMessageIsRefused(t *testing.T) {
	f := start(t, nil)
	owner, other := f.client(t, "owner-tok"), f.client(t, "other-tok")
	task := sendTask(t, owner, skillMessage("add_item", map[string]any{"title": "milk"}))
	req := skillMessage("add_item", map[string]any{"title": "eggs"})
	req.Message.TaskID = task.ID
	if _, err := owner.SendMessage(context.Background(), req); err == nil || isNotFound(err) {
		t.Errorf("owner's follow-up: %v, want invalid params", err)
	}
	if _, err := other.SendMessage(context.Background(), req); !isNotFound(err) {
		t.Errorf("another principal's follow-up: %v, want task not found", err)
	}
	if n := f.applied.Load(); n != 1 {
		t.Errorf("follow-ups dispatched: %d applied", n)
	}
}

func TestOneRuntimePerPrincipal(t *testing.T) {
	f := start(t, nil)
	for _, tok := range []string{"owner-tok", "viewer-tok", "owner-tok", "other-tok", "viewer-tok"} {
		c := f.client(t, tok)
		sendTask(t, c, skillMessage("add_item", map[string]any{"title": tok}))
		sendTask(t, c, skillMessage("add_item", map[string]any{"title": tok}))
	}
	if n := f.runtimes.Load(); n != 3 {
		t.Errorf("NewRuntime called %d times for 3 principals", n)
	}
	byUser := map[string]int{}
	for _, e := range f.audit.Entries() {
		byUser[e.Principal]++
	}
	if byUser["olivia"] != 4 || byUser["victor"] != 4 || byUser["oscar"] != 2 {
		t.Errorf("audit by principal %v", byUser)
	}
}

func TestRESTBinding(t *testing.T) {
	f := start(t, nil)
	c, err := a2aclient.NewFromCard(context.Background(), f.card(t),
		a2aclient.WithRESTTransport(httpClient("owner-tok")),
		a2aclient.WithConfig(a2aclient.Config{PreferredTransports: []a2a.TransportProtocol{a2a.TransportProtocolHTTPJSON}}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	task := sendTask(t, c, skillMessage("add_item", map[string]any{"title": "milk"}))
	if task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("state %s", task.Status.State)
	}
	got, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: task.ID})
	if err != nil || got.ID != task.ID {
		t.Fatalf("GetTask over REST: %v %v", got, err)
	}
}

func TestHTTPChecks(t *testing.T) {
	f := start(t, func(o *a2aagent.HTTPOptions) {
		o.AllowedOrigins = []string{"https://allowed.example"}
		o.MaxRequestBodyBytes = 2048
	})
	body := `{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}`
	do := func(mod func(*http.Request), payload string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, f.srv.URL, strings.NewReader(payload))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer owner-tok")
		mod(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := do(func(*http.Request) {}, body); r.StatusCode != http.StatusOK {
		t.Errorf("a good request: %d", r.StatusCode)
	}
	r := do(func(r *http.Request) { r.Header.Del("Authorization") }, body)
	if r.StatusCode != http.StatusUnauthorized || r.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("no token: %d %q", r.StatusCode, r.Header.Get("WWW-Authenticate"))
	}
	if r := do(func(r *http.Request) { r.Header.Set("Authorization", "Bearer nope") }, body); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("bad token: %d", r.StatusCode)
	}
	if r := do(func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, body); r.StatusCode != http.StatusForbidden {
		t.Errorf("foreign origin: %d", r.StatusCode)
	}
	if r := do(func(r *http.Request) { r.Header.Set("Origin", "https://allowed.example") }, body); r.StatusCode != http.StatusOK {
		t.Errorf("allowed origin: %d", r.StatusCode)
	}
	if r := do(func(r *http.Request) { r.Host = "evil.example" }, body); r.StatusCode != http.StatusForbidden {
		t.Errorf("DNS rebinding Host: %d", r.StatusCode)
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{"pad":"` + strings.Repeat("x", 4096) + `"}}`
	if r := do(func(*http.Request) {}, big); r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body: %d", r.StatusCode)
	}
	// The card needs no token, but the same Host and Origin checks.
	resp, err := http.Get(f.srv.URL + a2aagent.CardPath)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("card: %v %v", resp, err)
	}
	resp.Body.Close()
	req, _ := http.NewRequest(http.MethodGet, f.srv.URL+a2aagent.CardPath, nil)
	req.Host = "evil.example"
	resp, err = http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("card with a rebinding Host: %v %v", resp, err)
	}
	resp.Body.Close()
}

func TestNewHandlerNeedsIdentity(t *testing.T) {
	if _, err := a2aagent.NewHandler(a2aagent.HTTPOptions{}); err == nil || !strings.Contains(err.Error(), "Verifier") {
		t.Errorf("no verifier: %v", err)
	}
	if _, err := a2aagent.NewHandler(a2aagent.HTTPOptions{Verifier: verifier}); err == nil || !strings.Contains(err.Error(), "NewRuntime") {
		t.Errorf("no NewRuntime: %v", err)
	}
}

// A token for the same user name with a weaker role is another principal:
// it gets a runtime of its own (so its clear is refused as a viewer's),
// and the owner's tasks are not found for it.
func TestSameNamedWeakerTokenIsAnotherPrincipal(t *testing.T) {
	f := start(t, nil)
	owner, weaker := f.client(t, "owner-tok"), f.client(t, "olivia-viewer-tok")
	added := sendTask(t, owner, skillMessage("add_item", map[string]any{"title": "milk"}))
	task := sendTask(t, weaker, skillMessage("clear_items", nil))
	if task.Status.State != a2a.TaskStateRejected || statusText(task) != "Only an owner may clear the list." {
		t.Fatalf("the same-named viewer's clear_items: %s %q", task.Status.State, statusText(task))
	}
	if items := f.model().Items; len(items) != 1 {
		t.Fatalf("a refused clear changed the list: %q", items)
	}
	if _, err := weaker.GetTask(context.Background(), &a2a.GetTaskRequest{ID: added.ID}); !isNotFound(err) {
		t.Fatalf("the same-named viewer read the owner's task: %v", err)
	}
}

// A body over the bound is answered 413 however its length is told: with
// Content-Length, or chunked with none, on both bindings. A chunked body
// within the bound is served as before.
func TestHTTPChunkedBodyOverTheBoundIs413(t *testing.T) {
	f := start(t, func(o *a2aagent.HTTPOptions) { o.MaxRequestBodyBytes = 2048 })
	hdr := map[string]string{"Authorization": "Bearer owner-tok", "Content-Type": "application/json"}
	small := `{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}`
	big := `{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{"pad":"` + strings.Repeat("x", 4096) + `"}}`

	// The answer a declared over-bound length gets, to compare with.
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL, strings.NewReader(big))
	req.Header.Set("Authorization", "Bearer owner-tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("declared over-bound body: %d", resp.StatusCode)
	}

	for _, path := range []string{"/", "/message:send"} {
		status, h, body := httpguardtest.PostChunked(t, f.srv.URL+path, hdr, big)
		if status != http.StatusRequestEntityTooLarge || body != string(want) || h.Get("Content-Type") != resp.Header.Get("Content-Type") {
			t.Errorf("chunked over-bound body to %s: %d %q %q, want 413 %q", path, status, h.Get("Content-Type"), body, want)
		}
	}
	status, _, body := httpguardtest.PostChunked(t, f.srv.URL, hdr, small)
	if status != http.StatusOK || !strings.Contains(body, `"result"`) {
		t.Errorf("chunked body within the bound: %d %s", status, body)
	}
	// Identity still comes first for a body whose length is not declared.
	status, _, _ = httpguardtest.PostChunked(t, f.srv.URL, map[string]string{"Content-Type": "application/json"}, big)
	if status != http.StatusUnauthorized {
		t.Errorf("chunked over-bound body without a token: %d, want 401", status)
	}
}

// A negative MaxRequestBodyBytes uses the default, as zero does: a small
// request is served (it was answered 413, as every request was, when the
// negative bound was kept), and a body over the default is still 413.
func TestNegativeBodyBoundUsesTheDefault(t *testing.T) {
	f := start(t, func(o *a2aagent.HTTPOptions) { o.MaxRequestBodyBytes = -1 })
	post := func(payload string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, f.srv.URL, strings.NewReader(payload))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer owner-tok")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := post(`{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}`); s != http.StatusOK {
		t.Errorf("a small request with a negative bound: %d, want 200", s)
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{"pad":"` + strings.Repeat("x", int(a2aagent.DefaultMaxRequestBodyBytes)) + `"}}`
	if s := post(big); s != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over the default with a negative bound: %d, want 413", s)
	}
}
