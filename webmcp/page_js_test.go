//go:build js && wasm

package webmcp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"syscall/js"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// These tests run the browser layer under Node (GOOS=js GOARCH=wasm go
// test -exec go_js_wasm_exec), against a JavaScript stand-in for
// document.modelContext that behaves as Chromium's does: registerTool
// returns a promise, refuses a duplicate name, and removes the tool when
// its {signal} aborts.

const fakePage = `
(() => {
	const mc = {
		tools: new Map(), options: new Map(), refuse: new Set(), seenSignals: [],
		registerTool(tool, opts) {
			if (this.refuse.has(tool.name) || this.tools.has(tool.name)) {
				return Promise.reject(new Error("InvalidStateError: Duplicate tool name"));
			}
			const signal = opts && opts.signal;
			if (!signal) return Promise.reject(new Error("no signal"));
			this.seenSignals.push(signal);
			return new Promise(resolve => setTimeout(() => {
				if (signal.aborted) return resolve();
				this.tools.set(tool.name, tool);
				this.options.set(tool.name, opts);
				signal.addEventListener("abort", () => this.tools.delete(tool.name));
				resolve();
			}, 1));
		},
		names() { return [...this.tools.keys()].sort().join(","); },
	};
	globalThis.fakeMC = mc;
	globalThis.document = {
		modelContext: mc, listeners: [],
		addEventListener(type, fn, capture) { this.listeners.push({type, fn, capture}); },
		removeEventListener(type, fn, capture) { this.listeners = this.listeners.filter(l => l.fn !== fn || l.capture !== capture); },
	};
	globalThis.FormData = class { constructor(el) { this.el = el; } get(k) { return k in this.el.values ? this.el.values[k] : null; } };
	globalThis.SubmitEvent = function SubmitEvent() {};
	Object.defineProperty(SubmitEvent.prototype, "agentInvoked", {get() { return !!this._agent; }});
})()
`

func installFakePage(t *testing.T) js.Value {
	t.Helper()
	js.Global().Call("eval", fakePage)
	t.Cleanup(func() {
		for _, name := range []string{"document", "navigator", "fakeMC", "FormData", "SubmitEvent"} {
			js.Global().Delete(name)
		}
	})
	return js.Global().Get("fakeMC")
}

func jsNames(mc js.Value) string { return mc.Call("names").String() }

func callJSTool(t *testing.T, mc js.Value, name string, args ...any) ToolResult {
	t.Helper()
	tool := mc.Get("tools").Call("get", name)
	if tool.IsUndefined() {
		t.Fatalf("no tool %s in the page (have %s)", name, jsNames(mc))
	}
	v, err := await(tool.Call("execute", args...))
	if err != nil {
		t.Fatalf("execute rejected: %v", err)
	}
	raw := js.Global().Get("JSON").Call("stringify", v).String()
	var res ToolResult
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		t.Fatalf("execute resolved %s: %v", raw, err)
	}
	return res
}

func TestPageModelContextDetection(t *testing.T) {
	if PageModelContext() != nil {
		t.Fatal("a model context outside a page")
	}
	if _, err := Register(context.Background(), Options{Runtime: &flakyAgent{}}); err != ErrNoModelContext {
		t.Fatalf("Register without a page model context = %v", err)
	}
	installFakePage(t)
	if PageModelContext() == nil {
		t.Fatal("document.modelContext was not found")
	}
	// The older name, when document has none.
	nav := js.Global().Get("Object").New()
	nav.Set("modelContext", js.Global().Get("document").Get("modelContext"))
	js.Global().Set("navigator", nav)
	js.Global().Get("document").Delete("modelContext")
	if PageModelContext() == nil {
		t.Fatal("navigator.modelContext was not found")
	}
	nav.Set("modelContext", js.Global().Get("Object").New()) // no registerTool
	if PageModelContext() != nil {
		t.Fatal("an object without registerTool was taken for a model context")
	}
}

func TestPageRegistersAndWithdrawsTools(t *testing.T) {
	mc := installFakePage(t)
	rt, host := bindTodo(t)
	reg, err := Register(context.Background(), Options{Runtime: rt})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := jsNames(mc); got != "create_todo,explode_todo,select_todo" {
		t.Fatalf("page tools = %s", got)
	}
	tool := mc.Get("tools").Call("get", "create_todo")
	if tool.Get("inputSchema").Type() != js.TypeObject || tool.Get("inputSchema").Get("type").String() != "object" {
		t.Fatal("inputSchema was not handed over as a JSON Schema object")
	}
	if tool.Get("description").String() != "Add a todo to the list." {
		t.Fatalf("description = %s", tool.Get("description"))
	}

	host.set(todoModel{Todos: []string{"a"}, Selected: 0})
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := jsNames(mc); !strings.Contains(got, "delete_selected_todo") {
		t.Fatalf("page tools after a selection = %s", got)
	}
	reg.Unregister()
	if got := jsNames(mc); got != "" {
		t.Fatalf("page tools after Unregister = %s", got)
	}
	signals := mc.Get("seenSignals")
	for i := range signals.Length() {
		if !signals.Index(i).Get("aborted").Bool() {
			t.Fatalf("registration signal %d was not aborted", i)
		}
	}
}

func TestPageRefusedRegistration(t *testing.T) {
	mc := installFakePage(t)
	mc.Get("refuse").Call("add", "select_todo")
	rt, _ := bindTodo(t)
	reg, err := Register(context.Background(), Options{Runtime: rt, WithoutFollowingModel: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	err = reg.Refresh(context.Background())
	if err == nil || !strings.Contains(err.Error(), "Duplicate tool name") {
		// The background pass may have met the refusal first; refresh
		// again, which must meet it too since it is retried.
		if err = reg.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), "Duplicate tool name") {
			t.Fatalf("Refresh = %v, want the browser's refusal", err)
		}
	}
	if slices.Contains(reg.Registered(), "select_todo") {
		t.Fatal("a refused registration was recorded")
	}
	mc.Get("refuse").Call("delete", "select_todo")
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(reg.Registered(), "select_todo") || !strings.Contains(jsNames(mc), "select_todo") {
		t.Fatal("the refused registration was not retried")
	}
}

func TestPageExecute(t *testing.T) {
	mc := installFakePage(t)
	rt, host := bindTodo(t)
	host.set(todoModel{Todos: []string{"a"}, Selected: 0})
	reg, err := Register(context.Background(), Options{Runtime: rt})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	input := js.Global().Get("JSON").Call("parse", `{"title":"from js"}`)
	live := js.Global().Get("AbortController").New()
	opts := js.Global().Get("Object").New()
	opts.Set("signal", live.Get("signal"))
	if res := callJSTool(t, mc, "create_todo", input, opts); res.IsError || res.Text() != "Dispatched CreateTodo" {
		t.Fatalf("execute = %+v", res)
	}
	if got := host.Model().Todos; !slices.Equal(got, []string{"a", "from js"}) {
		t.Fatalf("Model todos = %v", got)
	}
	// No input at all is an empty object.
	if res := callJSTool(t, mc, "delete_selected_todo"); res.IsError || res.Text() != "Dispatched DeleteSelectedTodo" {
		t.Fatalf("execute without input = %+v", res)
	}
	// A wrong input is a tool error, and the promise still resolves.
	bad := js.Global().Get("JSON").Call("parse", `{"title":7}`)
	if res := callJSTool(t, mc, "create_todo", bad); !res.IsError || res.Text() != (&agent.InvalidInputError{Capability: "create_todo"}).Error() {
		t.Fatalf("execute with a wrong input = %+v", res)
	}
	// The execution's signal is the call's cancellation.
	aborted := js.Global().Get("AbortController").New()
	aborted.Call("abort")
	opts = js.Global().Get("Object").New()
	opts.Set("signal", aborted.Get("signal"))
	res := callJSTool(t, mc, "create_todo", input, opts)
	if want := (&agent.CancelledError{Capability: "create_todo"}).Error(); !res.IsError || res.Text() != want {
		t.Fatalf("execute with an aborted signal = %+v, want %q", res, want)
	}
	if n := len(host.Model().Todos); n != 1 {
		t.Fatalf("refused calls changed the Model: %d todos", n)
	}
}

func TestPageAnswersAgentSubmissions(t *testing.T) {
	installFakePage(t)
	doc := js.Global().Get("document")
	rt, host := bindTodo(t)
	form := MustFormTool(rt.Contract(), "create_todo", nil)
	reg, err := Register(context.Background(), Options{Runtime: rt, Forms: []*Form{form}})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(reg.Registered(), "create_todo") {
		t.Fatal("with declarative tools, the form's capability was also registered imperatively")
	}
	listeners := doc.Get("listeners")
	if listeners.Length() != 1 || listeners.Index(0).Get("type").String() != "submit" || !listeners.Index(0).Get("capture").Bool() {
		t.Fatal("no capture-phase submit listener on the document")
	}
	submit := listeners.Index(0).Get("fn")
	newEvent := func(agentInvoked bool, toolname, title string) js.Value {
		js.Global().Set("evArgs", js.ValueOf(map[string]any{"agent": agentInvoked, "toolname": toolname, "title": title}))
		return js.Global().Call("eval", `(() => {
			const a = globalThis.evArgs, ev = new SubmitEvent();
			ev._agent = a.agent;
			ev.target = {values: {title: a.title}, getAttribute: n => n === "toolname" ? a.toolname : null};
			ev.preventDefault = () => { ev.prevented = true; };
			ev.stopImmediatePropagation = () => { ev.stopped = true; };
			ev.respondWith = p => { ev.response = p; };
			return ev;
		})()`)
	}

	person := newEvent(false, "create_todo", "typed by a person")
	submit.Invoke(person)
	if person.Get("prevented").Truthy() || person.Get("stopped").Truthy() || !person.Get("response").IsUndefined() {
		t.Fatal("a person's submission was touched")
	}
	other := newEvent(true, "some_other_form", "x")
	submit.Invoke(other)
	if other.Get("prevented").Truthy() || !other.Get("response").IsUndefined() {
		t.Fatal("another form's agent submission was answered")
	}

	ev := newEvent(true, "create_todo", "filled by the agent")
	submit.Invoke(ev)
	if !ev.Get("prevented").Bool() || !ev.Get("stopped").Bool() {
		t.Fatal("the agent's submission was not kept from the application's handler")
	}
	v, err := await(ev.Get("response"))
	if err != nil {
		t.Fatal(err)
	}
	if v.Get("isError").Bool() || v.Get("content").Index(0).Get("text").String() != "Dispatched CreateTodo" {
		t.Fatalf("respondWith got %s", js.Global().Get("JSON").Call("stringify", v))
	}
	if got := host.Model().Todos; !slices.Equal(got, []string{"filled by the agent"}) {
		t.Fatalf("Model todos = %v", got)
	}
	reg.Unregister()
	if doc.Get("listeners").Length() != 0 {
		t.Fatal("Unregister left the submit listener")
	}
}

func TestPageAnnotationsOptionsAndStructuredContent(t *testing.T) {
	mc := installFakePage(t)
	rt, _ := annotatedRuntime(t)
	reg, err := Register(context.Background(), Options{Runtime: rt, ExposedTo: []string{"https://agent.example"}})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	stringify := func(v js.Value) string { return js.Global().Get("JSON").Call("stringify", v).String() }
	for name, want := range map[string]string{
		"count_todos": `{"readOnlyHint":true}`,
		"clear_todos": `{"consequentialHint":true}`,
	} {
		if got := mc.Get("tools").Call("get", name).Get("annotations"); got.IsUndefined() || stringify(got) != want {
			t.Errorf("%s annotations = %v, want %s", name, got, want)
		}
	}
	if got := mc.Get("tools").Call("get", "create_todo").Get("annotations"); !got.IsUndefined() {
		t.Errorf("create_todo annotations = %s, want none", stringify(got))
	}
	if got := stringify(mc.Get("options").Call("get", "create_todo").Get("exposedTo")); got != `["https://agent.example"]` {
		t.Errorf("exposedTo = %s", got)
	}
	// The result carries its data as an object the agent reads as JSON.
	tool := mc.Get("tools").Call("get", "create_todo")
	v, err := await(tool.Call("execute", js.Global().Get("JSON").Call("parse", `{"title":"from js"}`)))
	if err != nil {
		t.Fatal(err)
	}
	sc := v.Get("structuredContent")
	if sc.Type() != js.TypeObject || sc.Get("capability").String() != "create_todo" || sc.Get("invocation").Get("transport").String() != "webmcp" {
		t.Fatalf("execute resolved %s", stringify(v))
	}
	v, err = await(tool.Call("execute", js.Global().Get("JSON").Call("parse", `{"title":7}`)))
	if err != nil {
		t.Fatal(err)
	}
	if got := stringify(v.Get("structuredContent").Get("problems")); got != `[{"path":"/title","code":"wrong_type"}]` {
		t.Fatalf("refusal problems = %s in %s", got, stringify(v))
	}
}
