//go:build js && wasm

// Command app is the todo application of examples/todo-web, compiled to
// WebAssembly and run in the page: a host/loop Program owns the Model, a
// small DOM view renders it and turns the person's clicks into Messages,
// and webmcp publishes the agent contract as the page's WebMCP tools.
// The server in the parent directory builds and serves it.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"syscall/js"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo-web/page"
	_ "github.com/foldagent/foldagent/examples/todo-web/schemas" // the schema table, installed before todo declares (see its doc)
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/webmcp"
)

var (
	doc     = js.Global().Get("document")
	console = js.Global().Get("console")
)

func main() {
	ctx := context.Background()
	program := loop.New(loop.Funcs(page.Init, page.Update), &loop.Options[page.Msg]{
		OnPanic: func(err *loop.PanicError) { console.Call("error", "todo: "+err.Error()) },
	})
	go func() { _ = program.Run(ctx) }()

	runtime, err := page.Bind(program)
	if err != nil {
		panic(err)
	}

	createForm := webmcp.MustFormTool(runtime.Contract(), "create_todo", &webmcp.FormOptions{Autosubmit: true})
	v := newView(program, createForm)
	program.Subscribe(func() { v.render(program.Model()) })
	v.render(program.Model())

	status := doc.Get("body").Get("dataset")
	if webmcp.PageModelContext() == nil {
		// The application works without an agent; it just has no tools.
		status.Set("webmcp", "absent")
		doc.Call("getElementById", "agent").Set("textContent", "This browser offers no WebMCP model context: no tools are published.")
	} else {
		reg, err := webmcp.Register(ctx, webmcp.Options{
			Runtime: runtime,
			Forms:   []*webmcp.Form{createForm},
			OnError: func(err error) { console.Call("warn", "webmcp: "+err.Error()) },
		})
		if err != nil {
			panic(err)
		}
		js.Global().Call("addEventListener", "pagehide", js.FuncOf(func(js.Value, []js.Value) any {
			reg.Unregister()
			return nil
		}))
		go func() {
			if err := reg.Refresh(ctx); err != nil {
				console.Call("warn", "webmcp: "+err.Error())
			}
			status.Set("webmcp", "ready")
			doc.Call("getElementById", "agent").Set("textContent",
				fmt.Sprintf("Published as WebMCP tools (declarative forms: %v).", webmcp.DeclarativeTools()))
		}()
	}
	select {}
}

// view is the DOM: a form for new todos (also the create_todo
// declarative tool), the list, and a status line.
type view struct {
	program  *page.Program
	list     js.Value
	input    js.Value
	status   js.Value
	submits  js.Value
	approval js.Value // the card of the agent's request waiting for the person
	// asked is the request the card shows, which Approve and Decline
	// answer; "" when none waits.
	asked *agent.ApprovalRequest
	// draft is the Draft last written to the field: the field is only
	// overwritten when the Model's draft changes, never under typing, or
	// under an agent filling the form.
	draft string
}

func newView(p *page.Program, createForm *webmcp.Form) *view {
	v := &view{
		program:  p,
		list:     doc.Call("getElementById", "todos"),
		input:    doc.Call("getElementById", "title"),
		status:   doc.Call("getElementById", "selection"),
		submits:  doc.Call("getElementById", "submits"),
		approval: doc.Call("getElementById", "approval"),
	}
	// The person's answer to the request on the card: a Message of the
	// page's own, which no agent can send.
	answer := func(approve bool) js.Func {
		return js.FuncOf(func(js.Value, []js.Value) any {
			if q := v.asked; q != nil {
				answer := q.Decline("the person at the page", "")
				if approve {
					answer = q.Approve("the person at the page")
				}
				v.send(answer)
			}
			return nil
		})
	}
	doc.Call("getElementById", "approve").Call("addEventListener", "click", answer(true))
	doc.Call("getElementById", "decline").Call("addEventListener", "click", answer(false))
	form := doc.Call("getElementById", "create")
	// The form and its field are described by the contract itself.
	webmcp.SetAttrs(form, createForm.Attrs())
	webmcp.SetAttrs(v.input, createForm.MustField("title"))

	v.input.Call("addEventListener", "input", js.FuncOf(func(js.Value, []js.Value) any {
		v.send(page.DraftChanged{Text: v.input.Get("value").String()})
		return nil
	}))
	// The application's own submit handler: the person's way in.
	form.Call("addEventListener", "submit", js.FuncOf(func(_ js.Value, args []js.Value) any {
		args[0].Call("preventDefault")
		v.send(page.DraftChanged{Text: v.input.Get("value").String()})
		v.send(page.DraftSubmitted{})
		return nil
	}))
	// One listener for the list: a click on an item selects it, a click
	// on its checkbox toggles it.
	v.list.Call("addEventListener", "click", js.FuncOf(func(_ js.Value, args []js.Value) any {
		target := args[0].Get("target")
		item := target.Call("closest", "li")
		if item.IsNull() {
			return nil
		}
		id := item.Get("dataset").Get("id").String()
		if target.Get("type").String() == "checkbox" {
			v.send(todo.ToggleTodo{ID: id})
		} else {
			v.send(todo.SelectTodo{ID: id})
		}
		return nil
	}))
	return v
}

// send queues a Message; loop.Program.Dispatch never waits for update,
// so it is safe from an event handler.
func (v *view) send(msg page.Msg) {
	if err := v.program.Dispatch(context.Background(), msg); err != nil {
		console.Call("error", "todo: "+err.Error())
	}
}

func (v *view) render(m page.Model) {
	v.list.Set("textContent", "")
	for _, t := range m.List.Todos {
		li := doc.Call("createElement", "li")
		li.Get("dataset").Set("id", t.ID)
		box := doc.Call("createElement", "input")
		box.Set("type", "checkbox")
		box.Set("checked", t.Done)
		label := doc.Call("createElement", "span")
		label.Set("className", "title")
		label.Set("textContent", t.Title)
		li.Call("append", box, label)
		classes := li.Get("classList")
		classes.Call("toggle", "selected", t.ID == m.List.Selected)
		classes.Call("toggle", "done", t.Done)
		v.list.Call("append", li)
	}
	if sel, ok := m.List.Find(m.List.Selected); ok {
		v.status.Set("textContent", "Selected: "+sel.Title)
	} else {
		v.status.Set("textContent", "Nothing selected")
	}
	if m.Draft != v.draft {
		v.draft = m.Draft
		v.input.Set("value", m.Draft)
	}
	v.submits.Set("textContent", strconv.Itoa(m.FormSubmits))
	v.renderApproval(m.Asked)
}

// renderApproval shows the oldest request waiting for the person: the
// contract's sentence and, as data, the todos it removes.
func (v *view) renderApproval(asked []agent.ApprovalRequest) {
	if len(asked) == 0 {
		v.asked = nil
		v.approval.Set("hidden", true)
		return
	}
	q := asked[0]
	v.asked = &q
	doc.Call("getElementById", "approval-summary").Set("textContent", q.Summary)
	removes := doc.Call("getElementById", "approval-removes")
	removes.Set("textContent", "")
	var done []todo.Todo
	_ = json.Unmarshal(q.Watched["doneTodos"], &done)
	for _, t := range done {
		li := doc.Call("createElement", "li")
		li.Set("textContent", t.Title)
		removes.Call("append", li)
	}
	more := ""
	if n := len(asked) - 1; n > 0 {
		more = fmt.Sprintf("(%d more waiting)", n)
	}
	doc.Call("getElementById", "approval-more").Set("textContent", more)
	v.approval.Set("hidden", false)
}
