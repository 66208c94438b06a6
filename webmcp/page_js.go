//go:build js && wasm

package webmcp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall/js"
)

// PageModelContext returns the page's model context: document.modelContext,
// where the WebMCP proposal and current Chromium put it, or else
// navigator.modelContext, the older name earlier browsers and agent
// extensions still provide. It returns nil when the page has neither, so
// feature detection is a nil check.
//
// The value it returns implements FormContext, so it can also answer the
// agent submissions of declarative forms.
func PageModelContext() ModelContext {
	mc := pageModelContextValue()
	if mc.IsUndefined() {
		return nil
	}
	return NewModelContext(mc)
}

func pageModelContextValue() js.Value {
	global := js.Global()
	for _, owner := range []string{"document", "navigator"} {
		o := global.Get(owner)
		if !o.Truthy() {
			continue
		}
		mc := o.Get("modelContext")
		if mc.Truthy() && mc.Get("registerTool").Type() == js.TypeFunction {
			return mc
		}
	}
	return js.Undefined()
}

// NewModelContext adapts a JavaScript object with WebMCP's registerTool
// (tool, {signal, exposedTo}) → Promise to ModelContext: the page's own, an agent
// extension's, or a polyfill's. The result implements FormContext.
func NewModelContext(mc js.Value) ModelContext {
	return &pageContext{mc: mc}
}

// DeclarativeTools reports whether the browser derives tools from
// annotated forms: SubmitEvent.prototype has agentInvoked.
func DeclarativeTools() bool {
	se := js.Global().Get("SubmitEvent")
	if !se.Truthy() {
		return false
	}
	return js.Global().Get("Reflect").Call("has", se.Get("prototype"), "agentInvoked").Bool()
}

// SetAttrs sets each attribute on a DOM element, as a view does with the
// attributes of a Form.
func SetAttrs(el js.Value, attrs []Attr) {
	for _, a := range attrs {
		el.Call("setAttribute", a.Name, a.Value)
	}
}

type pageContext struct {
	mc js.Value
}

// RegisterTool calls registerTool with a fresh AbortController's signal
// and waits for the browser's answer; the function it returns aborts that
// controller. It must not be called from inside a JavaScript callback: it
// waits for a promise, which needs the event loop.
func (p *pageContext) RegisterTool(ctx context.Context, tool Tool) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	execute := js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
		// A panic must not escape into the JavaScript callback, where it
		// would end the Go program: the call fails like any defect.
		defer func() {
			if v := recover(); v != nil {
				out = newPromise(func(resolve func(js.Value)) { resolve(resultToJS(failedUnexpectedly(tool.Name))) })
			}
		}()
		return executeFromJS(tool, args)
	})
	schema := js.Global().Get("JSON").Call("parse", string(tool.InputSchema))
	desc := js.Global().Get("Object").New()
	desc.Set("name", tool.Name)
	desc.Set("description", tool.Description)
	desc.Set("inputSchema", schema)
	if a := tool.Annotations; a != nil {
		annotations := js.Global().Get("Object").New()
		if a.ReadOnlyHint {
			annotations.Set("readOnlyHint", true)
		}
		if a.ConsequentialHint {
			annotations.Set("consequentialHint", true)
		}
		desc.Set("annotations", annotations)
	}
	desc.Set("execute", execute)
	controller := js.Global().Get("AbortController").New()
	opts := js.Global().Get("Object").New()
	opts.Set("signal", controller.Get("signal"))
	if len(tool.ExposedTo) > 0 {
		origins := make([]any, len(tool.ExposedTo))
		for i, o := range tool.ExposedTo {
			origins[i] = o
		}
		opts.Set("exposedTo", js.ValueOf(origins))
	}

	var once sync.Once
	unregister := func() {
		once.Do(func() {
			controller.Call("abort")
			execute.Release()
		})
	}
	// Giving up the wait abandons the registration: the browser then
	// rejects it, or drops it at once if it had accepted it.
	stop := context.AfterFunc(ctx, unregister)
	promise, err := catch(func() js.Value { return p.mc.Call("registerTool", desc, opts) })
	if err == nil {
		_, err = await(promise)
	}
	if !stop() || err != nil {
		unregister()
		if err == nil {
			err = ctx.Err()
		}
		return nil, err
	}
	return unregister, nil
}

func (p *pageContext) DeclarativeTools() bool { return DeclarativeTools() }

// AnswerForms listens for submit on the document in the capture phase,
// ahead of the application's handlers on the form. A submission the
// browser marks agentInvoked, of a form whose toolname is one of forms,
// is kept from the page (preventDefault, stopImmediatePropagation) and
// answered through respondWith; every other submission is left alone.
func (p *pageContext) AnswerForms(forms []*Form, answer func(context.Context, *Form, map[string]string) ToolResult) (stop func()) {
	byName := make(map[string]*Form, len(forms))
	for _, f := range forms {
		byName[f.name] = f
	}
	doc := js.Global().Get("document")
	listener := js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
		// An unexpected page (a target without FormData, say) must not
		// end the Go program from inside the event handler.
		defer func() { _ = recover() }()
		if len(args) == 0 {
			return nil
		}
		ev := args[0]
		if !ev.Get("agentInvoked").Truthy() {
			return nil // a person's submission: the application's
		}
		el := ev.Get("target")
		if !el.Truthy() || el.Get("getAttribute").Type() != js.TypeFunction {
			return nil
		}
		toolname := el.Call("getAttribute", "toolname")
		if toolname.Type() != js.TypeString {
			return nil
		}
		form := byName[toolname.String()]
		if form == nil {
			return nil
		}
		ev.Call("preventDefault")
		ev.Call("stopImmediatePropagation")
		data := js.Global().Get("FormData").New(el)
		fields := make(map[string]string, len(form.fields))
		for _, key := range form.Fields() {
			if v := data.Call("get", key); v.Type() == js.TypeString {
				fields[key] = v.String()
			}
		}
		promise := newPromise(func(resolve func(js.Value)) {
			go func() { resolve(resultToJS(answer(context.Background(), form, fields))) }()
		})
		if ev.Get("respondWith").Type() == js.TypeFunction {
			ev.Call("respondWith", promise)
		}
		return nil
	})
	doc.Call("addEventListener", "submit", listener, true)
	return func() {
		doc.Call("removeEventListener", "submit", listener, true)
		listener.Release()
	}
}

// executeFromJS is a tool's execute(input, {signal}): it returns a
// promise at once and answers on its own goroutine, since a JavaScript
// callback must not block. The promise always resolves.
func executeFromJS(tool Tool, args []js.Value) any {
	var input []byte
	if len(args) > 0 && !args[0].IsUndefined() {
		input = []byte(js.Global().Get("JSON").Call("stringify", args[0]).String())
	}
	var signal js.Value
	if len(args) > 1 && args[1].Type() == js.TypeObject {
		signal = args[1].Get("signal")
	}
	return newPromise(func(resolve func(js.Value)) {
		ctx, cancel := context.WithCancel(context.Background())
		var onAbort js.Func
		listening := false
		if signal.Truthy() {
			if signal.Get("aborted").Bool() {
				cancel()
			} else {
				onAbort = js.FuncOf(func(js.Value, []js.Value) any { cancel(); return nil })
				signal.Call("addEventListener", "abort", onAbort)
				listening = true
			}
		}
		go func() {
			res := tool.Execute(ctx, input)
			if listening {
				signal.Call("removeEventListener", "abort", onAbort)
				onAbort.Release()
			}
			cancel()
			resolve(resultToJS(res))
		}()
	})
}

func resultToJS(r ToolResult) js.Value {
	content := make([]any, len(r.Content))
	for i, c := range r.Content {
		content[i] = map[string]any{"type": c.Type, "text": c.Text}
	}
	out := js.ValueOf(map[string]any{"content": content, "isError": r.IsError})
	if v, ok := r.Meta[MetaVersion].(uint64); ok {
		out.Set("_meta", map[string]any{MetaVersion: float64(v)})
	}
	if len(r.StructuredContent) > 0 {
		// Parsed, not a string: the browser serializes the whole result
		// for the agent, which then reads it as the JSON it is.
		if v, err := catch(func() js.Value { return js.Global().Get("JSON").Call("parse", string(r.StructuredContent)) }); err == nil {
			out.Set("structuredContent", v)
		}
	}
	return out
}

// newPromise returns a JavaScript promise whose executor calls run with
// its resolve function. The executor runs synchronously, inside the
// Promise constructor, so it can be released at once.
func newPromise(run func(resolve func(js.Value))) js.Value {
	executor := js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve := args[0]
		run(func(v js.Value) { resolve.Invoke(v) })
		return nil
	})
	defer executor.Release()
	return js.Global().Get("Promise").New(executor)
}

// await waits for a promise (or a plain value) to settle.
func await(p js.Value) (js.Value, error) {
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		return p, nil
	}
	type settled struct {
		v   js.Value
		err error
	}
	ch := make(chan settled, 1)
	onResolve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := js.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ch <- settled{v: v}
		return nil
	})
	onReject := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "rejected"
		if len(args) > 0 {
			msg = js.Global().Get("String").Invoke(args[0]).String()
		}
		ch <- settled{err: errors.New(msg)}
		return nil
	})
	defer onResolve.Release()
	defer onReject.Release()
	p.Call("then", onResolve, onReject)
	s := <-ch
	return s.v, s.err
}

// catch runs f, turning a JavaScript exception thrown synchronously (which
// syscall/js raises as a panic) into an error.
func catch(f func() js.Value) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("threw: %v", r)
		}
	}()
	return f(), nil
}
