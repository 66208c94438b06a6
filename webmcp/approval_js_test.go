//go:build js && wasm

package webmcp

import (
	"encoding/json"
	"fmt"
	"syscall/js"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
)

// In the page, a held call's execute promise stays pending while the
// person is asked, and resolves with the person's answer: here a
// decline, a tool error carrying the reason as structured content.
func TestPageHeldCallResolvesWithTheAnswer(t *testing.T) {
	mc := installFakePage(t)
	p := openRegisterIn(t, nil, time.Minute)
	tool := mc.Get("tools").Call("get", "refund")
	if tool.IsUndefined() {
		t.Fatalf("no refund tool in the page (have %s)", jsNames(mc))
	}
	if got := js.Global().Get("JSON").Call("stringify", tool.Get("annotations")).String(); got != `{"consequentialHint":true}` {
		t.Fatalf("refund annotations %s", got)
	}
	type outcome struct {
		res ToolResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		v, err := await(tool.Call("execute", js.Global().Get("JSON").Call("parse", `{"order":"order-8"}`)))
		if err != nil {
			done <- outcome{err: err}
			return
		}
		var res ToolResult
		err = json.Unmarshal([]byte(js.Global().Get("JSON").Call("stringify", v).String()), &res)
		done <- outcome{res: res, err: err}
	}()
	req := p.asked()
	select {
	case o := <-done:
		t.Fatalf("the call answered before the person did: %+v %v", o.res, o.err)
	default:
	}
	p.answer(agent.ApprovalAnswer{ID: req.ID, Reason: "already refunded by phone"})
	var o outcome
	select {
	case o = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the execute promise never resolved")
	}
	if o.err != nil || !o.res.IsError {
		t.Fatalf("declined call %+v (%v), want a tool error", o.res, o.err)
	}
	if d := structured(t, o.res); d["_tag"] != agent.TagDeclined || d["reason"] != "already refunded by phone" {
		t.Fatalf("declined data %s", fmt.Sprint(d))
	}
	p.nothingRefunded()
}
