package nativeagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/httpguard/httpguardtest"
	"github.com/foldagent/foldagent/nativeagent"
)

// The application: a list of notes, kept by a synchronous host.

type model struct{ Notes []string }

type msg interface{ isMsg() }

type AddInput struct {
	Text string `json:"text"`
}
type AddNote struct{ Text, Request string }
type NoteAdded struct {
	Index   int    `json:"index"`
	Request string `json:"-"`
}
type AddRefused struct{ Request string }
type ClearNotes struct{}
type Explode struct{}
type Later struct{}

func (AddNote) isMsg()    {}
func (NoteAdded) isMsg()  {}
func (AddRefused) isMsg() {}
func (ClearNotes) isMsg() {}
func (Explode) isMsg()    {}
func (Later) isMsg()      {}

type host struct {
	mu        sync.Mutex
	m         model
	observers []func(msg)
	applied   []msg
}

func (h *host) Model() model { h.mu.Lock(); defer h.mu.Unlock(); return h.m }

func (h *host) Observe(f func(msg)) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.observers = append(h.observers, f)
	i := len(h.observers) - 1
	return func() { h.mu.Lock(); h.observers[i] = nil; h.mu.Unlock() }
}

func (h *host) Dispatch(_ context.Context, m msg) error {
	if _, ok := m.(Explode); ok {
		return errors.New("secret detail: the disk at /srv/notes is full")
	}
	var facts []msg
	h.mu.Lock()
	h.applied = append(h.applied, m)
	switch m := m.(type) {
	case AddNote:
		if m.Text == "" {
			facts = append(facts, AddRefused{Request: m.Request})
		} else {
			h.m.Notes = append(append([]string(nil), h.m.Notes...), m.Text)
			facts = append(facts, NoteAdded{Index: len(h.m.Notes) - 1, Request: m.Request})
		}
	case ClearNotes:
		h.m.Notes = nil
	}
	obs := append([]func(msg){}, h.observers...)
	h.mu.Unlock()
	for _, f := range facts {
		for _, o := range obs {
			if o != nil {
				o(f)
			}
		}
	}
	return nil
}

func (h *host) count() int { h.mu.Lock(); defer h.mu.Unlock(); return len(h.applied) }

type user struct{ Name, Role string }

type (
	capability[M any] = agent.Variant[M, model, user]
	mapped[In, M any] = agent.Mapped[In, M, model, user]
	call              = agent.Call[model, user]
)

var contract = agent.Make(agent.Definition[model, user]{
	Capabilities: []agent.Capability[model, user]{
		agent.ExposeMapped(mapped[AddInput, AddNote]{
			Name:        "add_note",
			Description: "Add a note with the given text. Returns once it is in the list.",
			ToMessage:   func(in AddInput, c call) AddNote { return AddNote{Text: in.Text, Request: c.Invocation.ID} },
			Completion: agent.CompleteOn(agent.On(func(_ AddInput, got NoteAdded, inv agent.Invocation) bool { return got.Request == inv.ID })).
				FailOn(agent.On(func(_ AddInput, got AddRefused, inv agent.Invocation) bool { return got.Request == inv.ID })).
				Within(2 * time.Second),
		}),
		agent.Expose(capability[ClearNotes]{
			Name:        "clear_notes",
			Description: "Remove every note.",
			Available:   func(m model) bool { return len(m.Notes) > 0 },
			Authorize: func(_ context.Context, _ ClearNotes, c call) (agent.Decision, error) {
				if c.Principal.Role != "owner" {
					return agent.RefuseBecause("Only the owner may clear the notes."), nil
				}
				return agent.Allow, nil
			},
		}),
		agent.Expose(capability[Explode]{Name: "explode", Description: "Fail inside the application."}),
	},
})

func server(t *testing.T) (*httptest.Server, *host, *int) {
	t.Helper()
	h := &host{}
	made := new(int)
	var mu sync.Mutex
	handler, err := nativeagent.NewHandler(nativeagent.Options{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			switch token {
			case "owner-tok":
				return &auth.TokenInfo{UserID: "ada", Scopes: []string{"owner"}}, nil
			case "viewer-tok": // same user name, weaker role
				return &auth.TokenInfo{UserID: "ada", Scopes: []string{"viewer"}}, nil
			}
			return nil, auth.ErrInvalidToken
		},
		NewRuntime: func(_ context.Context, p *auth.TokenInfo) (nativeagent.Runtime, error) {
			mu.Lock()
			*made++
			mu.Unlock()
			u := user{Name: p.UserID, Role: p.Scopes[0]}
			return agent.Bind(contract, h, &agent.BindOptions[user]{
				Principal: func(context.Context, agent.Invocation) (user, error) { return u, nil },
			})
		},
		MaxRequestBodyBytes: 1024,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return srv, h, made
}

func do(t *testing.T, srv *httptest.Server, method, path, token, body string) (int, nativeagent.Result, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var res nativeagent.Result
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("%s %s: body is not an action result: %s", method, path, raw)
	}
	if resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("%s %s: content type %q", method, path, resp.Header.Get("Content-Type"))
	}
	return resp.StatusCode, res, resp.Header
}

const actions = "/_agent-native/actions/"

// Every status and result shape of the convention, from outside.
func TestActionsOverHTTP(t *testing.T) {
	srv, h, made := server(t)

	// A completion capability: completed, with the completing Message as data.
	status, res, _ := do(t, srv, "POST", actions+"add_note", "owner-tok", `{"text":"milk"}`)
	if status != 200 || !res.OK || res.Completion != "completed" || res.Tag != "AddNote" || res.Message != "Completed: NoteAdded" {
		t.Fatalf("add_note: %d %+v", status, res)
	}
	var data struct {
		Capability string `json:"capability"`
		Invocation struct {
			Transport string `json:"transport"`
		} `json:"invocation"`
	}
	if err := json.Unmarshal(res.Data, &data); err != nil || data.Capability != "add_note" || data.Invocation.Transport != "agent-native" {
		t.Fatalf("add_note data %s: %v", res.Data, err)
	}
	// ... and failed: 200 with ok false, completion failed.
	status, res, _ = do(t, srv, "POST", actions+"add_note", "owner-tok", `{"text":""}`)
	if status != 200 || res.OK || res.Completion != "failed" || res.Message != "Failed: AddRefused" {
		t.Fatalf("add_note refused by the app: %d %+v", status, res)
	}

	before := h.count()
	cases := []struct {
		name, method, path, token, body string
		status                          int
		tag                             string
	}{
		{"schema refuses a wrong type", "POST", "add_note", "owner-tok", `{"text":5}`, 400, agent.TagInvalidInput},
		{"schema refuses an undeclared member", "POST", "add_note", "owner-tok", `{"text":"a","extra":1}`, 400, agent.TagInvalidInput},
		{"not JSON", "POST", "add_note", "owner-tok", `{"text":`, 400, agent.TagInvalidInput},
		{"no token", "POST", "add_note", "", `{"text":"a"}`, 401, ""},
		{"bad token", "POST", "add_note", "nope", `{"text":"a"}`, 401, ""},
		{"a viewer clearing", "POST", "clear_notes", "viewer-tok", `{}`, 403, agent.TagAuthorization},
		{"unknown action", "POST", "launch", "owner-tok", `{}`, 404, agent.TagUnknownCapability},
		{"GET an action", "GET", "add_note", "owner-tok", ``, 405, ""},
		{"body over the bound", "POST", "add_note", "owner-tok", `{"text":"` + strings.Repeat("x", 2000) + `"}`, 413, ""},
		{"a host defect", "POST", "explode", "owner-tok", `{}`, 500, agent.TagDefect},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, res, hdr := do(t, srv, tc.method, actions+tc.path, tc.token, tc.body)
			if status != tc.status || res.OK || res.Refusal != tc.tag || res.Message == "" || res.Error != res.Message {
				t.Fatalf("%d %+v, want %d tag %q", status, res, tc.status, tc.tag)
			}
			switch tc.status {
			case 401:
				if hdr.Get("WWW-Authenticate") == "" {
					t.Fatal("401 without WWW-Authenticate")
				}
			case 405:
				if hdr.Get("Allow") != "POST" {
					t.Fatalf("Allow = %q", hdr.Get("Allow"))
				}
			case 500:
				if strings.Contains(res.Message, "disk") || strings.Contains(string(res.Data), "disk") || !strings.Contains(res.Message, "explode") {
					t.Fatalf("a defect's answer must name only the action: %+v", res)
				}
			}
		})
	}
	// explode reached the host's Dispatch (which failed); nothing else did.
	if got := h.count() - before; got != 0 {
		t.Fatalf("%d Messages applied by refused calls", got)
	}

	// Unavailable: 200 with ok false, as an action's run returns it.
	do(t, srv, "POST", actions+"add_note", "owner-tok", `{"text":"x"}`)
	status, res, _ = do(t, srv, "POST", actions+"clear_notes", "owner-tok", `{}`)
	if status != 200 || !res.OK {
		t.Fatalf("owner clears: %d %+v", status, res)
	}
	status, res, _ = do(t, srv, "POST", actions+"clear_notes", "owner-tok", ``)
	// Answered 200, and still one meaning per field: the refusal's tag
	// under refusal, no Message type under tag, and error repeating the
	// message as on every refusal.
	if status != 200 || res.OK || res.Refusal != agent.TagUnavailable || res.Tag != "" || res.Error == "" || res.Error != res.Message {
		t.Fatalf("clear with nothing to clear: %d %+v", status, res)
	}
	// One runtime per identity: owner and viewer (same user name) are two.
	if *made != 2 {
		t.Fatalf("runtimes made = %d, want 2", *made)
	}
}

// The catalogue lists every capability in the framework's registry shape.
func TestCatalogue(t *testing.T) {
	srv, _, _ := server(t)
	req, _ := http.NewRequest("GET", srv.URL+"/_agent-native/actions", nil)
	req.Header.Set("Authorization", "Bearer viewer-tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var cat map[string]nativeagent.Action
	if err := json.NewDecoder(resp.Body).Decode(&cat); err != nil {
		t.Fatal(err)
	}
	if len(cat) != 3 {
		t.Fatalf("catalogue has %d actions: %v", len(cat), cat)
	}
	a := cat["add_note"]
	var schema struct {
		Type       string         `json:"type"`
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(a.Tool.Parameters, &schema); err != nil || schema.Type != "object" || schema.Properties["text"] == nil {
		t.Fatalf("add_note parameters %s: %v", a.Tool.Parameters, err)
	}
	if a.HTTP.Method != "POST" || !a.RequiresAuth || a.ReadOnly || !strings.HasPrefix(a.Tool.Description, "Add a note") {
		t.Fatalf("add_note = %+v", a)
	}
	// clear_notes is listed although the empty list makes it unavailable.
	if _, ok := cat["clear_notes"]; !ok {
		t.Fatal("the catalogue is filtered by availability")
	}
}

// A browser page from another origin, and a DNS-rebinding request on
// loopback, are refused before anything else.
func TestOriginAndRebinding(t *testing.T) {
	srv, h, _ := server(t)
	for _, hdr := range []map[string]string{
		{"Origin": "https://evil.example"},
		{"Host": "evil.example"},
	} {
		req, _ := http.NewRequest("POST", srv.URL+actions+"add_note", strings.NewReader(`{"text":"x"}`))
		req.Header.Set("Authorization", "Bearer owner-tok")
		for k, v := range hdr {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 403 {
			t.Fatalf("%v: status %d, want 403", hdr, resp.StatusCode)
		}
	}
	if h.count() != 0 {
		t.Fatal("a refused request dispatched")
	}
}

// The least recently used runtime is dropped past the bound and made again.
func TestRuntimesAreBounded(t *testing.T) {
	h := &host{}
	made := 0
	handler, err := nativeagent.NewHandler(nativeagent.Options{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{UserID: token, Scopes: []string{"owner"}}, nil
		},
		NewRuntime: func(_ context.Context, p *auth.TokenInfo) (nativeagent.Runtime, error) {
			made++
			return agent.Bind(contract, h, nil)
		},
		MaxRuntimes: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	defer srv.Close()
	for _, u := range []string{"a", "b", "a", "c", "a", "b"} {
		if status, res, _ := do(t, srv, "POST", actions+"add_note", u, `{"text":"x"}`); status != 200 || !res.OK {
			t.Fatalf("%s: %d %+v", u, status, res)
		}
	}
	// a, b, (a kept), c evicts b, (a kept), b made again and evicts c.
	if made != 4 {
		t.Fatalf("runtimes made = %d, want 4", made)
	}
}

func TestNewHandlerNeedsIdentityAndRuntime(t *testing.T) {
	if _, err := nativeagent.NewHandler(nativeagent.Options{}); err == nil || !strings.Contains(err.Error(), "NewRuntime") {
		t.Fatalf("err = %v", err)
	}
	_, err := nativeagent.NewHandler(nativeagent.Options{NewRuntime: func(context.Context, *auth.TokenInfo) (nativeagent.Runtime, error) { return nil, nil }})
	if err == nil || !strings.Contains(err.Error(), "Verifier") {
		t.Fatalf("err = %v", err)
	}
}

// stoppedHost refuses every Message as a stopped host does.
type stoppedHost struct{ host }

type notDelivered struct{}

func (notDelivered) Error() string      { return "stopped" }
func (notDelivered) NotDelivered() bool { return true }

func (s *stoppedHost) Dispatch(context.Context, msg) error { return notDelivered{} }

// A Message the application did not accept is 503 with Retry-After: the
// caller may safely send it again.
func TestNotDeliveredIsRetryable(t *testing.T) {
	h := &stoppedHost{}
	handler, err := nativeagent.NewHandler(nativeagent.Options{
		Verifier: func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{UserID: "ada"}, nil
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (nativeagent.Runtime, error) {
			return agent.Bind(contract, h, nil)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	defer srv.Close()
	status, res, hdr := do(t, srv, "POST", actions+"explode", "tok", `{}`)
	if status != 503 || res.OK || res.Refusal != agent.TagNotDelivered || hdr.Get("Retry-After") == "" {
		t.Fatalf("%d %+v %v", status, res, hdr)
	}
}

// A chunked body over the bound (no Content-Length) gets the same 413 as
// one that declares its length, and applies nothing; a chunked body within
// the bound is served.
func TestChunkedBodyOverTheBoundIs413(t *testing.T) {
	srv, h, _ := server(t)
	big := `{"text":"` + strings.Repeat("x", 2000) + `"}`
	_, want, _ := do(t, srv, "POST", actions+"add_note", "owner-tok", big)
	before := h.count()
	hdr := map[string]string{"Authorization": "Bearer owner-tok", "Content-Type": "application/json"}
	status, got, body := httpguardtest.PostChunked(t, srv.URL+actions+"add_note", hdr, big)
	var res nativeagent.Result
	if err := json.Unmarshal([]byte(body), &res); err != nil || status != http.StatusRequestEntityTooLarge ||
		got.Get("Content-Type") != "application/json" || res.OK || res.Message != want.Message || res.Message == "" {
		t.Fatalf("chunked over-bound body: %d %+v (%v), want 413 %+v", status, res, err, want)
	}
	if n := h.count() - before; n != 0 {
		t.Fatalf("%d Messages applied by an over-bound body", n)
	}
	status, _, body = httpguardtest.PostChunked(t, srv.URL+actions+"add_note", hdr, `{"text":"a"}`)
	if status != http.StatusOK || h.count()-before != 1 {
		t.Fatalf("chunked body within the bound: %d %s", status, body)
	}
}
