package a2av03_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/a2aagent/a2av03"
	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/httpguard/httpguardtest"
)

type model struct{ Items []string }

type AddItem struct {
	Title string `json:"title"`
}

func update(m model, msg AddItem) (model, loop.Cmd[AddItem]) {
	m.Items = append(append([]string(nil), m.Items...), msg.Title)
	return m, nil
}

var contract = agent.Make(agent.Definition[model, agent.NoPrincipal]{
	Capabilities: []agent.Capability[model, agent.NoPrincipal]{
		agent.Expose(agent.Variant[AddItem, model, agent.NoPrincipal]{Description: "Add an item."}),
	},
})

// serve runs the agent with its 1.0 endpoint at / and its 0.3 endpoint at
// /v0.3, both for the tokens "a-tok" (user a) and "b-tok" (user b).
func serve(t *testing.T) (*httptest.Server, *loop.Program[model, AddItem]) {
	t.Helper()
	return serveBounded(t, 0)
}

// serveBounded is serve with MaxRequestBodyBytes set to maxBody (zero
// keeps the default).
func serveBounded(t *testing.T, maxBody int64) (*httptest.Server, *loop.Program[model, AddItem]) {
	t.Helper()
	return serveWith(t, func(o *a2aagent.HTTPOptions) { o.MaxRequestBodyBytes = maxBody })
}

// serveWith is serve with the handler's options changed by opts.
func serveWith(t *testing.T, opts func(*a2aagent.HTTPOptions)) (*httptest.Server, *loop.Program[model, AddItem]) {
	t.Helper()
	prog := loop.New[model, AddItem](loop.Funcs(func() (model, loop.Cmd[AddItem]) { return model{}, nil }, update), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	o := a2aagent.HTTPOptions{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			user, ok := strings.CutSuffix(token, "-tok")
			if !ok {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{UserID: user}, nil
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (a2aagent.Runtime, error) {
			return agent.Bind[model, AddItem, agent.NoPrincipal](contract, prog, nil)
		},
		Contract: contract.Describe(),
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	opts(&o)
	h, err := a2aagent.NewHandler(o)
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

func rpc(t *testing.T, url, token, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

const send03 = `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m1","parts":[{"kind":"data","data":{"skill":"add_item","input":{"title":"milk"}}}]}}}`

func TestRawMessageSendIsAnsweredBy03(t *testing.T) {
	srv, prog := serve(t)
	code, out := rpc(t, srv.URL+"/v0.3", "a-tok", send03)
	if code != http.StatusOK {
		t.Fatalf("status %d: %v", code, out)
	}
	task, _ := out["result"].(map[string]any)
	status, _ := task["status"].(map[string]any)
	if task["kind"] != "task" || status["state"] != "completed" {
		t.Fatalf("result %v, want a 0.3 task, completed", out)
	}
	msg, _ := status["message"].(map[string]any)
	parts, _ := msg["parts"].([]any)
	first, _ := parts[0].(map[string]any)
	if first["kind"] != "text" || first["text"] != "Dispatched AddItem" {
		t.Errorf("status message parts %v", parts)
	}
	if items := prog.Model().Items; len(items) != 1 || items[0] != "milk" {
		t.Errorf("items %q", items)
	}
	id, _ := task["id"].(string)
	// The same task over 1.0, for the same principal only.
	get := `{"jsonrpc":"2.0","id":2,"method":"GetTask","params":{"id":"` + id + `"}}`
	if _, out := rpc(t, srv.URL, "a-tok", get); out["error"] != nil {
		t.Errorf("1.0 GetTask of a 0.3 task: %v", out["error"])
	}
	if _, out := rpc(t, srv.URL, "b-tok", get); out["error"] == nil {
		t.Error("another principal read the task over 1.0")
	}
	get03 := `{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"id":"` + id + `"}}`
	if _, out := rpc(t, srv.URL+"/v0.3", "b-tok", get03); out["error"] == nil {
		t.Error("another principal read the task over 0.3")
	}
	// The same checks guard 0.3.
	if code, _ := rpc(t, srv.URL+"/v0.3", "", send03); code != http.StatusUnauthorized {
		t.Errorf("0.3 without a token: %d", code)
	}
	if n := len(prog.Model().Items); n != 1 {
		t.Errorf("%d items after a refused call", n)
	}
}

// getCard reads the agent card at url.
func getCard(t *testing.T, url string) map[string]any {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var card map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&card); err != nil {
		t.Fatal(err)
	}
	return card
}

// Behind a proxy (BaseURL set), the 0.3 card and the 1.0 card's 0.3
// interface name the same public URL, never the one the proxy reached.
func TestCardFor03BehindAProxy(t *testing.T) {
	const public = "https://shop.example/agents"
	srv, _ := serveWith(t, func(o *a2aagent.HTTPOptions) { o.BaseURL = public + "/" })
	if card := getCard(t, srv.URL+"/v0.3"+a2aagent.CardPath); card["url"] != public+"/v0.3" {
		t.Errorf("0.3 card url %v, want %s/v0.3", card["url"], public)
	}
	card := getCard(t, srv.URL+a2aagent.CardPath)
	ifaces, _ := card["supportedInterfaces"].([]any)
	var urls []any
	for _, i := range ifaces {
		urls = append(urls, i.(map[string]any)["url"])
	}
	if len(urls) < 2 || urls[len(urls)-1] != public+"/v0.3" {
		t.Errorf("1.0 card interfaces %v, want the last at %s/v0.3", urls, public)
	}
	for _, u := range urls[:len(urls)-1] {
		if u != public+"/" {
			t.Errorf("1.0 card interfaces %v, want the 1.0 ones at %s/", urls, public)
		}
	}
}

func TestCardFor03(t *testing.T) {
	srv, _ := serve(t)
	card := getCard(t, srv.URL+"/v0.3"+a2aagent.CardPath)
	if card["url"] != srv.URL+"/v0.3" || card["protocolVersion"] == nil || card["preferredTransport"] != "JSONRPC" {
		t.Errorf("0.3 card url %v, protocolVersion %v, preferredTransport %v", card["url"], card["protocolVersion"], card["preferredTransport"])
	}
	skills, _ := card["skills"].([]any)
	if len(skills) != 1 {
		t.Errorf("skills %v", skills)
	}
}

// The 0.3 endpoint shares the 1.0 endpoint's guard: a chunked body over
// the bound is answered 413, as one that declares its length is, and
// applies nothing.
func TestChunkedBodyOverTheBoundIs413On03(t *testing.T) {
	srv, prog := serveBounded(t, 1024)
	big := strings.Replace(send03, "milk", strings.Repeat("m", 2048), 1)
	if code, _ := rpc(t, srv.URL+"/v0.3", "a-tok", big); code != http.StatusRequestEntityTooLarge {
		t.Fatalf("declared over-bound body: %d", code)
	}
	hdr := map[string]string{"Authorization": "Bearer a-tok", "Content-Type": "application/json"}
	if code, _, body := httpguardtest.PostChunked(t, srv.URL+"/v0.3", hdr, big); code != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked over-bound body: %d %s", code, body)
	}
	if code, _, body := httpguardtest.PostChunked(t, srv.URL+"/v0.3", hdr, send03); code != http.StatusOK || !strings.Contains(body, `"completed"`) {
		t.Errorf("chunked body within the bound: %d %s", code, body)
	}
	if items := prog.Model().Items; len(items) != 1 || items[0] != "milk" {
		t.Errorf("items %q, want only the one within the bound", items)
	}
}
