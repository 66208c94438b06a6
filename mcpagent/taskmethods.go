package mcpagent

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// taskParams are the params of every tasks/* request.
type taskParams struct {
	mcp.ParamsBase
	TaskID         string          `json:"taskId"`
	RequestState   string          `json:"requestState,omitempty"`
	InputResponses json.RawMessage `json:"inputResponses,omitempty"`
	Cursor         string          `json:"cursor,omitempty"`
}

// errTaskNotFound answers tasks/get (and, on 2025-11-25, tasks/result and
// tasks/cancel) for an id this identity has no task by: one that never
// was, another identity's, or one whose outcome was forgotten.
var errTaskNotFound = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
	Message: "No task of yours has that id: it never was, or it ended longer ago than its result is kept."}

// addTaskMethods registers with srv tasks/get, tasks/update, tasks/cancel,
// tasks/result and tasks/list, answered from the book. Each answers in the
// shape of the revision its request speaks: the 2026-07-28 extension's
// (tasks/result and tasks/list do not exist there: -32601), or
// 2025-11-25's.
func (b heldBook) addTaskMethods(srv *mcp.Server) {
	add := func(method string, h func(context.Context, *mcp.ServerSession, *taskParams, bool) (mcp.Result, error)) {
		err := mcp.AddReceivingCustomMethod(srv, method, func(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (mcp.Result, error) {
			if p == nil {
				p = &taskParams{}
			}
			return h(ctx, ss, p, revisionOf(ss) >= SessionlessRevision)
		})
		if err != nil {
			panic("mcpagent: " + err.Error()) // only a standard method's name can fail
		}
	}
	add("tasks/get", b.taskGet)
	add("tasks/update", b.taskUpdate)
	add("tasks/cancel", b.taskCancel)
	add("tasks/result", b.taskResult)
	add("tasks/list", b.taskList)
}

func (b heldBook) findTask(ctx context.Context, id string, ext bool) *heldCall {
	kind := legacyTask
	if ext {
		kind = extTask
	}
	h := b.Find(heldOwner(ctx), id)
	if h == nil || h.task != kind {
		return nil
	}
	return h
}

func complete(f map[string]any, ext bool) *taskAnswer {
	if ext {
		f["resultType"] = "complete"
	}
	return &taskAnswer{fields: f}
}

// taskGet answers tasks/get: the task now; on 2026-07-28 with its final
// result (or JSON-RPC error) once it has ended.
func (b heldBook) taskGet(ctx context.Context, ss *mcp.ServerSession, p *taskParams, ext bool) (mcp.Result, error) {
	h := b.findTask(ctx, p.TaskID, ext)
	if h == nil {
		return nil, errTaskNotFound
	}
	v := b.view(h)
	if !ext {
		return complete(legacyTaskFields(v), false), nil
	}
	f := extTaskFields(v)
	switch {
	case v.rpcErr != nil:
		f["error"] = v.rpcErr
	case v.result != nil && v.status != taskWorking:
		f["result"] = markComplete(ss, v.result)
	}
	return complete(f, true), nil
}

// taskUpdate answers tasks/update (2026-07-28) with the empty
// acknowledgement the extension asks for, whatever the id: no task of
// this server asks its client for input, so there is nothing to update.
func (b heldBook) taskUpdate(ctx context.Context, _ *mcp.ServerSession, _ *taskParams, ext bool) (mcp.Result, error) {
	if !ext {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "tasks/update belongs to the 2026-07-28 tasks extension."}
	}
	return complete(map[string]any{}, true), nil
}

// taskCancel withdraws a task: a call still held for the person's
// approval is withdrawn (its card goes, nothing runs, ever); a call
// already carried out keeps its outcome. 2026-07-28 acknowledges any id
// at once, as the extension asks; 2025-11-25 answers with the task once
// the cancellation has taken effect, or -32602 for an id not found or a
// task already ended.
func (b heldBook) taskCancel(ctx context.Context, _ *mcp.ServerSession, p *taskParams, ext bool) (mcp.Result, error) {
	h := b.findTask(ctx, p.TaskID, ext)
	if h != nil {
		b.askCancel(h)
	}
	if ext {
		return complete(map[string]any{}, true), nil
	}
	if h == nil {
		return nil, errTaskNotFound
	}
	select {
	case <-h.Done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	v := b.view(h)
	if v.status != taskCancelled {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "That task had already ended; its result stands."}
	}
	return complete(legacyTaskFields(v), false), nil
}

// taskResult answers tasks/result (2025-11-25 only): it waits for the
// task to end and answers what the tools/call would have, naming the task
// in _meta.
func (b heldBook) taskResult(ctx context.Context, ss *mcp.ServerSession, p *taskParams, ext bool) (mcp.Result, error) {
	if ext {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "tasks/result is not part of the 2026-07-28 tasks extension: tasks/get carries the result."}
	}
	h := b.findTask(ctx, p.TaskID, false)
	if h == nil {
		return nil, errTaskNotFound
	}
	select {
	case <-h.Done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	v := b.view(h)
	if v.rpcErr != nil {
		return nil, v.rpcErr
	}
	res := *v.result
	res.Meta = mcp.Meta{}
	for k, val := range v.result.Meta {
		res.Meta[k] = val
	}
	res.Meta[metaRelatedTask] = map[string]any{"taskId": v.id}
	return markComplete(ss, &res), nil
}

// taskList answers tasks/list (2025-11-25 only): the identity's tasks,
// oldest first, in one page.
func (b heldBook) taskList(ctx context.Context, _ *mcp.ServerSession, _ *taskParams, ext bool) (mcp.Result, error) {
	if ext {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "tasks/list is not part of the 2026-07-28 tasks extension."}
	}
	tasks := []any{}
	for _, h := range b.list(heldOwner(ctx), legacyTask) {
		tasks = append(tasks, legacyTaskFields(b.view(h)))
	}
	return complete(map[string]any{"tasks": tasks}, false), nil
}

// legacyTasksCapability is the 2025-11-25 tasks capability a Server
// declares: tools/call may be task-augmented, and tasks listed and
// cancelled.
var legacyTasksCapability = map[string]any{
	"list": map[string]any{}, "cancel": map[string]any{},
	"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}},
}

// initializeWithTasks is an initialize result with the 2025-11-25 tasks
// capability added (the SDK's capabilities have no field for it).
type initializeWithTasks struct {
	*mcp.InitializeResult
}

func (r initializeWithTasks) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(r.InitializeResult)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	var caps map[string]any
	if err := json.Unmarshal(m["capabilities"], &caps); err != nil || caps == nil {
		caps = map[string]any{}
	}
	caps["tasks"] = legacyTasksCapability
	if m["capabilities"], err = json.Marshal(caps); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// withTasksCapability declares the 2025-11-25 tasks capability on an
// initialize result that negotiated that revision.
func withTasksCapability(res mcp.Result) mcp.Result {
	if ir, ok := res.(*mcp.InitializeResult); ok && ir.ProtocolVersion == "2025-11-25" {
		return &initializeWithTasks{ir}
	}
	return res
}

// liftTaskParam carries a 2025-11-25 tools/call's params.task into
// params._meta under metaTaskRequest, where route reads it (the SDK drops
// params.task when it decodes the request). Any other message, and one
// that is not JSON, is returned as it is.
func liftTaskParam(method string, params json.RawMessage) json.RawMessage {
	if method != "tools/call" || len(params) == 0 || !jsonHasKey(params, "task") {
		return params
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return params
	}
	task, ok := p["task"]
	if !ok {
		return params
	}
	meta := map[string]json.RawMessage{}
	if raw, ok := p["_meta"]; ok && json.Unmarshal(raw, &meta) != nil {
		return params
	}
	meta[metaTaskRequest] = task
	delete(p, "task")
	b, err := json.Marshal(meta)
	if err != nil {
		return params
	}
	p["_meta"] = b
	out, err := json.Marshal(p)
	if err != nil {
		return params
	}
	return out
}

// jsonHasKey is a cheap pre-check: whether raw mentions "key" at all.
func jsonHasKey(raw json.RawMessage, key string) bool {
	return bytes.Contains(raw, []byte(`"`+key+`"`))
}

// liftTaskBody is an HTTP POST body with its tools/call's params.task
// carried into _meta (liftTaskParam); any other body is returned as it is.
func liftTaskBody(body []byte, msg *envelope) []byte {
	if !msg.object || msg.Method == nil || *msg.Method != "tools/call" {
		return body
	}
	lifted := liftTaskParam(*msg.Method, msg.Params)
	if bytes.Equal(lifted, msg.Params) {
		return body
	}
	var whole map[string]json.RawMessage
	if json.Unmarshal(body, &whole) != nil {
		return body
	}
	whole["params"] = lifted
	out, err := json.Marshal(whole)
	if err != nil {
		return body
	}
	msg.Params = lifted
	return out
}

// TaskTransport wraps t so that a 2025-11-25 client's task-augmented
// tools/call (params.task) reaches a Server as one: the SDK drops
// params.task when it decodes a request. ServeStdio, StdioTransport and
// Handler apply it already; an application that runs a Server on a
// transport of its own wraps that transport with it.
func TaskTransport(t mcp.Transport) mcp.Transport { return taskTransport{t} }

type taskTransport struct{ mcp.Transport }

func (t taskTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return taskConn{c}, nil
}

type taskConn struct{ mcp.Connection }

func (c taskConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil {
		req.Params = liftTaskParam(req.Method, req.Params)
	}
	return msg, err
}
