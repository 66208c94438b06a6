//go:build !(js && wasm)

// The browser tests drive Chromium from the host; they do not build for
// js/wasm (chromedp starts processes).

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/internal/peer"
)

// These tests run the application in real headless Chromium, against its
// native WebMCP implementation (--enable-features=WebMCP): tools are read
// with document.modelContext.getTools() and called with executeTool(),
// the way a browser-resident agent reaches them.

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// served builds the wasm once per test binary and serves it on loopback.
func served(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(Handler(builtApp(t))) // 127.0.0.1
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// page opens the application in a fresh headless Chromium with WebMCP
// enabled and waits until its tools are published.
func page(t *testing.T) context.Context {
	t.Helper()
	return pageWith(t, "")
}

// pageWith is page with a script run in the document before the page's
// own scripts.
func pageWith(t *testing.T, initScript string) context.Context {
	t.Helper()
	exe := peer.Program(t, "chromium", "chromium-browser", "google-chrome")
	url := served(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("enable-features", "WebMCP"),
		chromedp.UserDataDir(t.TempDir()),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelCtx := chromedp.NewContext(actx)
	t.Cleanup(cancelCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelTimeout)
	if initScript != "" {
		err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			_, err := cdp.Call(ctx, target, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: initScript})
			return err
		}))
		if err != nil {
			t.Fatalf("adding the init script: %v", err)
		}
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.WaitReady(chromedp.CSS(`body:not([data-webmcp="loading"])`)),
	); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	switch state := eval[string](t, ctx, `document.body.dataset.webmcp`); state {
	case "ready":
	case "absent":
		// This Chromium has no document.modelContext even with the
		// feature flag.
		peer.Require(t, "a Chromium with WebMCP (Debian's chromium 156 has it)", false)
	default:
		t.Fatalf("the application did not start (state %q): %s", state, text(t, ctx, "#agent"))
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`li[data-id="t2"]`))); err != nil {
		t.Fatal(err)
	}
	return ctx
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// tools is what a browser agent sees: the names getTools() lists.
func tools(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return eval[[]string](t, ctx, `document.modelContext.getTools().then(ts => ts.map(t => t.name).sort())`)
}

// waitTools polls until the tool list is exactly want.
func waitTools(t *testing.T, ctx context.Context, want ...string) {
	t.Helper()
	slices.Sort(want)
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := tools(t, ctx)
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("tools = %v, want %v", got, want)
		}
		// The tools are the browser's (another process), read over the
		// DevTools protocol: nothing tells this test they changed, so
		// they are read again after a pause, within a deadline.
		time.Sleep(50 * time.Millisecond)
	}
}

type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool           `json:"isError"`
	Meta    map[string]any `json:"_meta"`
}

func (r toolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// execute calls a tool through the browser, as an agent in the page does.
func execute(t *testing.T, ctx context.Context, name, input string) toolResult {
	t.Helper()
	raw := eval[string](t, ctx, fmt.Sprintf(`(async () => {
		const tool = (await document.modelContext.getTools()).find(t => t.name === %q);
		if (!tool) throw new Error("no tool named " + %q);
		return await document.modelContext.executeTool(tool, %s);
	})()`, name, name, input))
	var res toolResult
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		t.Fatalf("executeTool(%s) answered %q, not a tool result: %v", name, raw, err)
	}
	return res
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("reading %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func titles(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return eval[[]string](t, ctx, `[...document.querySelectorAll("#todos li .title")].map(e => e.textContent)`)
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		// The tools are the browser's (another process), read over the
		// DevTools protocol: nothing tells this test they changed, so
		// they are read again after a pause, within a deadline.
		time.Sleep(50 * time.Millisecond)
	}
}

var baseTools = []string{"create_todo", "rename_todo", "select_todo", "toggle_todo"}

func TestNativeWebMCPToolsFollowAClickedSelection(t *testing.T) {
	ctx := page(t)
	// create_todo is the form's declarative tool, listed once: the
	// browser derives it from the form, and it is not registered again.
	waitTools(t, ctx, baseTools...)

	// A person clicks a todo: delete_selected_todo appears.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`li[data-id="t2"] .title`))); err != nil {
		t.Fatal(err)
	}
	waitTools(t, ctx, append(slices.Clone(baseTools), "delete_selected_todo")...)
	if got := text(t, ctx, "#selection"); got != "Selected: Walk the dog" {
		t.Fatalf("selection line = %q", got)
	}

	// Deleting it (through the tool) ends the selection: the tool goes.
	res := execute(t, ctx, "delete_selected_todo", `{}`)
	if res.IsError || res.text() != "Completed: ChangeKept" {
		t.Fatalf("delete_selected_todo = %+v", res)
	}
	// The result carries the version it was taken at (webmcp.MetaVersion).
	if v, ok := res.Meta["foldagent/version"].(float64); !ok || v < 1 {
		t.Fatalf("delete_selected_todo's _meta = %v, want a version", res.Meta)
	}
	waitTools(t, ctx, baseTools...)
	if got := titles(t, ctx); !slices.Equal(got, []string{"Buy milk"}) {
		t.Fatalf("todos on the page = %v", got)
	}
}

func TestNativeWebMCPExecuteChangesThePage(t *testing.T) {
	ctx := page(t)
	waitTools(t, ctx, baseTools...)

	res := execute(t, ctx, "rename_todo", `{"id": "t1", "title": "Buy oat milk"}`)
	// rename_todo completes on state: the call answers once the todo has
	// the new title.
	if res.IsError || res.text() != "Completed: RenameTodo (its condition on state holds)" {
		t.Fatalf("rename_todo = %+v", res)
	}
	waitFor(t, "the rename on the page", func() bool {
		return slices.Equal(titles(t, ctx), []string{"Buy oat milk", "Walk the dog"})
	})

	res = execute(t, ctx, "toggle_todo", `{"id": "t2"}`)
	if res.IsError || res.text() != "Completed: ChangeKept" {
		t.Fatalf("toggle_todo = %+v", res)
	}
	waitFor(t, "the todo shown done", func() bool {
		return eval[bool](t, ctx, `document.querySelector('li[data-id="t2"]').classList.contains("done") && document.querySelector('li[data-id="t2"] input').checked`)
	})

	res = execute(t, ctx, "select_todo", `{"id": "t1"}`)
	if res.IsError {
		t.Fatalf("select_todo = %+v", res)
	}
	waitFor(t, "the selection on the page", func() bool { return text(t, ctx, "#selection") == "Selected: Buy oat milk" })
}

func TestNativeWebMCPInvalidInputIsAToolError(t *testing.T) {
	ctx := page(t)
	waitTools(t, ctx, baseTools...)
	cases := []struct{ tool, input, want string }{
		{"rename_todo", `{"id": 1, "title": "x"}`, `The input for "rename_todo" does not match its input schema.`},
		{"rename_todo", `{"id": "t1"}`, `The input for "rename_todo" does not match its input schema.`},
		{"select_todo", `{"id": "t99"}`, `There is no todo with that id; read the list first.`},
	}
	for _, c := range cases {
		res := execute(t, ctx, c.tool, c.input)
		if !res.IsError || res.text() != c.want {
			t.Errorf("%s(%s) = %+v, want a tool error %q", c.tool, c.input, res, c.want)
		}
	}
	if got := titles(t, ctx); !slices.Equal(got, []string{"Buy milk", "Walk the dog"}) {
		t.Fatalf("refused calls changed the page: %v", got)
	}
	if got := text(t, ctx, "#selection"); got != "Nothing selected" {
		t.Fatalf("refused calls changed the selection: %q", got)
	}
}

func TestNativeWebMCPFormToolSubmittedByTheAgent(t *testing.T) {
	ctx := page(t)
	waitTools(t, ctx, baseTools...)
	attrs := eval[map[string]string](t, ctx, `(() => { const f = document.getElementById("create"), i = document.getElementById("title");
		return {toolname: f.getAttribute("toolname"), tooldescription: f.getAttribute("tooldescription"),
			autosubmit: String(f.hasAttribute("toolautosubmit")), field: i.getAttribute("name"),
			param: i.getAttribute("toolparamdescription")}; })()`)
	// The form carries the contract's own description of create_todo.
	want := map[string]string{"toolname": "create_todo", "tooldescription": todo.Contract().Describe().Capabilities[0].Description,
		"autosubmit": "true", "field": "title", "param": "The new todo's title."}
	for k, v := range want {
		if attrs[k] != v {
			t.Fatalf("form attribute %s = %q, want %q (all: %v)", k, attrs[k], v, attrs)
		}
	}

	// The browser fills the form and submits it on the agent's behalf.
	res := execute(t, ctx, "create_todo", `{"title": "Water the plants"}`)
	// create_todo completes on a Message: the call answers once update
	// reports this call's own todo.
	if res.IsError || res.text() != "Completed: CreatedTodo" {
		t.Fatalf("create_todo through the form = %+v", res)
	}
	waitFor(t, "the new todo on the page", func() bool {
		return slices.Equal(titles(t, ctx), []string{"Buy milk", "Walk the dog", "Water the plants"})
	})
	if got := text(t, ctx, "#submits"); got != "0" {
		t.Fatalf("the application's submit handler ran %s times for the agent's submission, want 0", got)
	}
	// A person's submission is still the application's: they select what
	// the agent left in the field, type over it and press Add.
	eval[bool](t, ctx, `(() => { const i = document.getElementById("title"); i.focus(); i.select(); return true; })()`)
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`#title`), "Call mum"),
		chromedp.Click(chromedp.CSS(`#create button`)),
	); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the person's todo on the page", func() bool {
		return slices.Equal(titles(t, ctx), []string{"Buy milk", "Walk the dog", "Water the plants", "Call mum"})
	})
	if got := text(t, ctx, "#submits"); got != "1" {
		t.Fatalf("after a person's submission the application's handler count = %s, want 1", got)
	}
}

func TestNativeWebMCPUnregisterWithdrawsTheTools(t *testing.T) {
	ctx := page(t)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`li[data-id="t1"] .title`))); err != nil {
		t.Fatal(err)
	}
	waitTools(t, ctx, append(slices.Clone(baseTools), "delete_selected_todo")...)
	// The application unregisters on pagehide: every imperative tool's
	// registration is aborted, and only the form, which the browser
	// derives from the markup, is left.
	eval[bool](t, ctx, `window.dispatchEvent(new Event("pagehide")) || true`)
	waitTools(t, ctx, "create_todo")
	// A Model change afterwards registers nothing again.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`li[data-id="t2"] .title`))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the new selection on the page", func() bool { return text(t, ctx, "#selection") == "Selected: Walk the dog" })
	// Not a wait for something to happen: no tool may be registered
	// again, and no event marks an absence; the pause gives a wrong
	// registration the chance to show itself.
	time.Sleep(200 * time.Millisecond)
	if got := tools(t, ctx); !slices.Equal(got, []string{"create_todo"}) {
		t.Fatalf("after Unregister a Model change registered tools again: %v", got)
	}
}

// squatter registers a tool named toggle_todo before the application
// starts, so the browser refuses the application's own registration of
// that name (Chromium: "Duplicate tool name").
const squatter = `
window.squatter = new AbortController();
document.modelContext.registerTool({
	name: "toggle_todo", description: "Someone else's tool.",
	inputSchema: {type: "object", properties: {}},
	execute: async () => ({content: [{type: "text", text: "squatter"}]}),
}, {signal: window.squatter.signal});
`

func TestNativeWebMCPRefusedRegistrationIsRetried(t *testing.T) {
	ctx := pageWith(t, squatter)
	// The browser refused the application's toggle_todo: the name is the
	// squatter's.
	waitTools(t, ctx, baseTools...)
	if res := execute(t, ctx, "toggle_todo", `{"id": "t1"}`); res.text() != "squatter" {
		t.Fatalf("toggle_todo = %+v, want the squatter's tool", res)
	}
	// The squatter leaves. The refused registration was not recorded as
	// live, so nothing named toggle_todo is left…
	eval[bool](t, ctx, `(window.squatter.abort(), true)`)
	waitTools(t, ctx, "create_todo", "rename_todo", "select_todo")
	// …and the next reconcile, started by a person's click, registers it.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`li[data-id="t1"] .title`))); err != nil {
		t.Fatal(err)
	}
	waitTools(t, ctx, append(slices.Clone(baseTools), "delete_selected_todo")...)
	res := execute(t, ctx, "toggle_todo", `{"id": "t1"}`)
	if res.IsError || res.text() != "Completed: ChangeKept" {
		t.Fatalf("toggle_todo after the retry = %+v", res)
	}
	waitFor(t, "the todo shown done", func() bool {
		return eval[bool](t, ctx, `document.querySelector('li[data-id="t1"]').classList.contains("done")`)
	})
}

// startTool starts a tool call through the browser without waiting for
// it, keeping its promise in window[key]; result waits for it.
func startTool(t *testing.T, ctx context.Context, key, name, input string) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(async () => {
		const tool = (await document.modelContext.getTools()).find(t => t.name === %q);
		if (!tool) throw new Error("no tool named " + %q);
		window[%q] = document.modelContext.executeTool(tool, %s);
		return true;
	})()`, name, name, key, input))
}

func result(t *testing.T, ctx context.Context, key string) toolResult {
	t.Helper()
	raw := eval[string](t, ctx, fmt.Sprintf(`window[%q]`, key))
	var res toolResult
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		t.Fatalf("%s answered %q, not a tool result: %v", key, raw, err)
	}
	return res
}

// An agent's clear_completed waits for the person, asked in the page they
// are using: the card names the todos it removes; Approve lets it run,
// Decline refuses it with nothing removed, a change of the done todos
// while it waits voids it (AgentStaleViewError, in Chromium), and the card
// goes each time.
func TestNativeWebMCPPersonApprovesInThePage(t *testing.T) {
	ctx := page(t)
	waitTools(t, ctx, baseTools...)
	card := func() string {
		return eval[string](t, ctx, `document.getElementById("approval").hidden ? "" : document.getElementById("approval").textContent`)
	}

	// The person marks a todo done; the agent asks to clear it.
	eval[bool](t, ctx, `(document.querySelector('li[data-id="t1"] input').click(), true)`)
	waitTools(t, ctx, append(slices.Clone(baseTools), "clear_completed")...)
	startTool(t, ctx, "approved", "clear_completed", `{}`)
	waitFor(t, "the card naming Buy milk", func() bool {
		c := card()
		return strings.Contains(c, "Remove every todo that is done.") && strings.Contains(c, "Buy milk") && !strings.Contains(c, "Walk the dog")
	})
	if got := titles(t, ctx); !slices.Equal(got, []string{"Buy milk", "Walk the dog"}) {
		t.Fatalf("a held call changed the page: %v", got)
	}
	eval[bool](t, ctx, `(document.getElementById("approve").click(), true)`)
	if res := result(t, ctx, "approved"); res.IsError || res.text() != "Completed: ChangeKept" {
		t.Fatalf("approved clear_completed = %+v", res)
	}
	waitFor(t, "the cleared list and no card", func() bool {
		return slices.Equal(titles(t, ctx), []string{"Walk the dog"}) && card() == ""
	})

	// Declined: nothing removed.
	eval[bool](t, ctx, `(document.querySelector('li[data-id="t2"] input').click(), true)`)
	waitTools(t, ctx, append(slices.Clone(baseTools), "clear_completed")...)
	startTool(t, ctx, "declined", "clear_completed", `{}`)
	waitFor(t, "the card naming Walk the dog", func() bool { return strings.Contains(card(), "Walk the dog") })
	eval[bool](t, ctx, `(document.getElementById("decline").click(), true)`)
	if res := result(t, ctx, "declined"); !res.IsError || !strings.Contains(res.text(), "declined") {
		t.Fatalf("declined clear_completed = %+v", res)
	}
	waitFor(t, "the card gone", func() bool { return card() == "" })
	if got := titles(t, ctx); !slices.Equal(got, []string{"Walk the dog"}) {
		t.Fatalf("a declined clear changed the page: %v", got)
	}

	// The person adds a todo and marks it done while the agent's request
	// waits: the done todos are not what the card showed, so the request
	// is void and the call refused as built on a state that moved.
	startTool(t, ctx, "moved", "clear_completed", `{}`)
	waitFor(t, "the third card", func() bool { return strings.Contains(card(), "Walk the dog") })
	if res := execute(t, ctx, "create_todo", `{"title": "Call mom"}`); res.IsError {
		t.Fatalf("create_todo = %+v", res)
	}
	waitFor(t, "the new todo", func() bool { return slices.Equal(titles(t, ctx), []string{"Walk the dog", "Call mom"}) })
	eval[bool](t, ctx, `(document.querySelector('li[data-id="t3"] input').click(), true)`)
	if res := result(t, ctx, "moved"); !res.IsError || !strings.Contains(res.text(), `What "clear_completed" depends on changed since you last read it`) {
		t.Fatalf("clear_completed over a moved list = %+v", res)
	}
	waitFor(t, "the void card gone", func() bool { return card() == "" })
	if got := titles(t, ctx); !slices.Equal(got, []string{"Walk the dog", "Call mom"}) {
		t.Fatalf("a void clear changed the page: %v", got)
	}
}
