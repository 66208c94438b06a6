package mcpagent

// Calls that outlive their request: tasks where the client speaks them,
// and a held answer before the client's patience runs out for every
// other client.
//
// The official Go SDK (go-sdk v1.8.0) implements neither task revision
// (go-sdk#942 was closed as not yet: the SDK had never had tasks), so
// both are written here by hand on the SDK's two open seams: the
// receiving middleware (route), which answers tools/call, and custom
// methods (AddReceivingCustomMethod), which answer tasks/*. The SDK drops
// the params.task of a 2025-11-25 tools/call when it decodes the
// request, so the transports this package owns (Handler, ServeStdio,
// StdioTransport, TaskTransport) carry it into the request's _meta under
// metaTaskRequest before the SDK sees it.

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/foldagent/foldagent/internal/bound"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
)

// TasksExtension is the identifier of the MCP tasks extension of the
// 2026-07-28 revision (SEP-2663). A Server advertises it in its
// capabilities; a sessionless client that names it in a tools/call's
// per-request capabilities gets a task for a call that waits.
const TasksExtension = "io.modelcontextprotocol/tasks"

// metaTaskRequest is the _meta key under which a 2025-11-25 tools/call's
// params.task reaches route (see liftTaskParam).
const metaTaskRequest = "foldagent/task"

// metaRelatedTask is the _meta key of a 2025-11-25 task's result naming
// its task.
const metaRelatedTask = "io.modelcontextprotocol/related-task"

// taskPollInterval is the polling interval a task suggests.
const taskPollInterval = time.Second

// taskKind is the task shape a tools/call asked for.
type taskKind int

const (
	noTask     taskKind = iota
	extTask             // 2026-07-28, the io.modelcontextprotocol/tasks extension
	legacyTask          // 2025-11-25, a task-augmented tools/call (SEP-1686)
)

// revisionOf is the revision a request's session speaks: the sessionless
// revision's requests say theirs in _meta, which the SDK keeps as the
// session's initialize parameters.
func revisionOf(ss *mcp.ServerSession) string {
	if ss == nil {
		return ""
	}
	if ip := ss.InitializeParams(); ip != nil {
		return ip.ProtocolVersion
	}
	return ""
}

// requestedTask reports which task shape req asked for: on the
// sessionless revision, the extension named in its per-request
// capabilities; on a session revision, a params.task (carried into _meta).
func requestedTask(req *mcp.CallToolRequest) taskKind {
	meta := req.Params.Meta
	if revisionOf(req.Session) >= SessionlessRevision {
		caps, _ := meta[mcp.MetaKeyClientCapabilities].(map[string]any)
		ext, _ := caps["extensions"].(map[string]any)
		if _, ok := ext[TasksExtension]; ok {
			return extTask
		}
		return noTask
	}
	if t, ok := meta[metaTaskRequest]; ok && t != nil {
		return legacyTask
	}
	return noTask
}

// heldOwner names the identity a request acts for, which owns the tasks
// and held calls it starts: on the sessionless path the Server is the
// identity's own; through Handler's sessions, the session's identity key;
// otherwise (stdio, a Server connected by hand) the Server's one caller.
func heldOwner(ctx context.Context) string {
	if st, ok := ctx.Value(sessionCtxKey{}).(*httpSession); ok {
		return st.key
	}
	return ""
}

// toolCall is one tools/call, read and ready to dispatch.
type toolCall struct {
	rt   Runtime
	name string
	args json.RawMessage
	seen uint64
	key  string // the arguments as canonical JSON: names a held call
	ctx  context.Context
}

// prepareCall reads req: the runtime it is served by, its arguments and
// the version it cites, and its caller named in the returned call's ctx.
func (s *Server) prepareCall(ctx context.Context, req *mcp.CallToolRequest) (*toolCall, error) {
	rt, err := s.runtime(ctx)
	if err != nil {
		return nil, err
	}
	args := req.Params.Arguments
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		args = emptyObject
	}
	seen, err := seenVersion(req.Params.Meta)
	if err != nil {
		return nil, err
	}
	return &toolCall{rt: rt, name: req.Params.Name, args: args, seen: seen, key: canonicalJSON(args), ctx: s.withCaller(ctx, req.Session)}, nil
}

// canonicalJSON is raw with its object keys sorted and no spaces; raw
// itself when it is not JSON (the runtime refuses it).
func canonicalJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// serveCall answers a tools/call: with a task when the client asked for
// one (on the sessionless revision, for a call that may wait: one held
// for the person's approval or waiting for a completion), by rejoining
// the caller's held call of the same capability and arguments, or by
// running the call, answering a held answer if it outlasts Patience (a
// call of a capability that may wait; any other answers when update takes
// its Message, on the request, as it always did).
func (s *Server) serveCall(ctx context.Context, req *mcp.CallToolRequest) (mcp.Result, error) {
	c, err := s.prepareCall(ctx, req)
	if err != nil {
		return nil, err
	}
	owner := heldOwner(ctx)
	kind := requestedTask(req)
	if !s.tools.known(c.name) || (kind == extTask && !s.waits[c.name]) {
		kind = noTask // an unknown name is a protocol error at once
	}
	if kind != noTask {
		return s.startTask(req, c, owner, kind)
	}
	if h := s.held.Rejoin(owner, c.name, c.key); h != nil {
		return s.awaitHeld(ctx, req, h)
	}
	if s.patience <= 0 || !s.waits[c.name] {
		// Nothing to hold: a capability that declares neither an approval
		// nor a completion answers when update takes its Message.
		res, _, err := s.runCall(c.ctx, req, c, nil, s.notices(ctx, req))
		if err != nil {
			return nil, err
		}
		return markComplete(req.Session, res), nil
	}
	return s.holdCall(ctx, req, c, owner)
}

// callTool runs a call to its end on the request's context, as a client
// that asked for no task and has all the patience in the world sees it.
func (s *Server) callTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	c, err := s.prepareCall(ctx, req)
	if err != nil {
		return nil, err
	}
	res, _, err := s.runCall(c.ctx, req, c, nil, s.notices(ctx, req))
	return res, err
}

// runCall dispatches c on ctx and renders its reply. While it waits for
// the person, h (if any) and the client's progress (if it asked) say so.
// It also returns the reply's tag.
func (s *Server) runCall(ctx context.Context, req *mcp.CallToolRequest, c *toolCall, h *heldCall, n *notices) (*mcp.CallToolResult, string, error) {
	if h != nil || n != nil {
		ctx = agent.WhileAwaitingApproval(ctx, func(agent.ApprovalRequest) {
			if h != nil {
				s.held.setWaiting(h, waitingApproval)
			}
			n.send(awaitingApproval)
		})
	}
	if h != nil {
		ctx = agent.WhenApprovalEnds(ctx, func(_ agent.ApprovalRequest, w agent.Withdrawal) {
			if w == agent.WithdrawnApproved {
				s.held.setWaiting(h, waitingApproved)
			}
		})
	}
	res, err := c.rt.DispatchUnknown(ctx, c.name, c.args, agent.Invocation{Transport: agent.MCP, SeenVersion: c.seen})
	n.stop()
	if !c.rt.CanSubscribe() {
		// The call may have changed what is available.
		if s.feed != nil {
			s.feed.changed()
		} else {
			s.changed()
		}
	}
	reply := agent.ReplyTo(c.name, res, err)
	out, rerr := s.reply(c.name, reply)
	if out != nil {
		out.Meta = versionMeta(reply.Version)
	}
	return out, reply.Tag, rerr
}

// notices sends one call's progress notifications while its request
// waits, when the client asked for progress; nil otherwise. stop ends
// them for good, so none follows the answer.
type notices struct {
	ctx  context.Context
	pr   *progress
	quit func()
	mu   sync.Mutex
	off  bool
}

func (s *Server) notices(ctx context.Context, req *mcp.CallToolRequest) *notices {
	tok := req.Params.GetProgressToken()
	if tok == nil || req.Session == nil {
		return nil
	}
	n := &notices{ctx: ctx, pr: &progress{ss: req.Session, token: tok, lost: &s.lost}}
	if s.interval > 0 {
		n.quit = s.startProgress(ctx, n.pr)
	}
	return n
}

func (n *notices) send(message string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.off {
		n.pr.send(n.ctx, message)
	}
}

func (n *notices) stop() {
	if n == nil {
		return
	}
	n.mu.Lock()
	already := n.off
	n.off = true
	n.mu.Unlock()
	if !already && n.quit != nil {
		n.quit()
	}
}

// work runs h's call on its own context and records its outcome.
func (s *Server) work(ctx context.Context, req *mcp.CallToolRequest, c *toolCall, h *heldCall, n *notices) {
	res, tag, err := s.runCall(ctx, req, c, h, n)
	var cancelled bool
	s.held.Do(func() { cancelled = h.cancelAsked && tag == agent.TagCancelled })
	var said struct {
		Dispatched bool `json:"dispatched"`
	}
	if cancelled && res != nil {
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &said)
	}
	s.held.finish(h, res, err, cancelled, said.Dispatched)
}

// holdCall runs a call for a client that asked for no task. An answer
// before Patience is the call's own; a client that gives up before then
// withdraws it, as before. At Patience the call is held: it goes on, on
// a context of its own, and the client is told so, with what it waits
// for; the same caller asking the same again rejoins it (awaitHeld). When
// the identity or the Server holds as many calls as it may, the request
// keeps waiting instead, as it would without a Patience.
func (s *Server) holdCall(ctx context.Context, req *mcp.CallToolRequest, c *toolCall, owner string) (mcp.Result, error) {
	work, cancel := context.WithCancel(context.WithoutCancel(c.ctx))
	h := s.held.newHeld(owner, c.name, c.key, noTask, cancel)
	n := s.notices(ctx, req)
	go s.work(work, req, c, h, n)
	patience, stop := s.patienceTimer()
	defer stop()
	for {
		select {
		case <-h.Done:
			cancel()
			return s.outcome(req, h, false)
		case <-ctx.Done():
			n.stop()
			cancel() // withdrawn: nothing was answered as held
			<-h.Done
			return s.outcome(req, h, false)
		case <-patience:
			select {
			case <-h.Done:
				cancel()
				return s.outcome(req, h, false)
			default:
			}
			if s.held.Admit(h) != nil {
				patience = nil // no room to hold it: wait on
				continue
			}
			n.stop()
			return s.heldAnswer(req, h), nil
		}
	}
}

// patienceTimer is the channel a wait's patience ends on.
func (s *Server) patienceTimer() (<-chan time.Time, func()) {
	if s.tick != nil {
		return s.tick, func() {}
	}
	t := time.NewTimer(s.patience)
	return t.C, func() { t.Stop() }
}

// awaitHeld answers a caller who asked again for a held call: its
// outcome once it has one (then forgotten: it has been read), or the held
// answer again at Patience. A request that gives up leaves the call
// held.
func (s *Server) awaitHeld(ctx context.Context, req *mcp.CallToolRequest, h *heldCall) (mcp.Result, error) {
	var patience <-chan time.Time
	if s.patience > 0 {
		var stop func()
		patience, stop = s.patienceTimer()
		defer stop()
	}
	// The outcome is forgotten only when answered to a request still
	// alive: a caller that left while asking again can ask once more.
	select {
	case <-h.Done:
		return s.outcome(req, h, ctx.Err() == nil)
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-patience:
		select {
		case <-h.Done:
			return s.outcome(req, h, ctx.Err() == nil)
		default:
		}
		return s.heldAnswer(req, h), nil
	}
}

// outcome is what h ended with, as the tools/call answer; deliver forgets
// h (its caller is reading it).
func (s *Server) outcome(req *mcp.CallToolRequest, h *heldCall, deliver bool) (mcp.Result, error) {
	v := s.held.view(h)
	if deliver {
		s.held.deliver(h)
	}
	if v.rpcErr != nil {
		return nil, v.rpcErr
	}
	return markComplete(req.Session, v.result), nil
}

// The held answer's sentences, one per thing the call waits for.
const (
	heldForPerson = "Held: nothing has been done yet; the person has not answered in the app. " +
		"Call this tool again with the same input to learn the outcome: the person's answer runs this call once, " +
		"and calling again joins it instead of starting another."
	heldApproved = "Held: the person approved this call and the application has not finished it yet. " +
		"Call this tool again with the same input to learn the outcome; calling again joins this call instead of starting another."
	heldForApplication = "Held: the application has not finished this call yet. " +
		"Call this tool again with the same input to learn the outcome; calling again joins this call instead of starting another."
)

// heldAnswer tells a client that asked for no task that its call is held:
// a tool result with isError (nothing is reported done), tagged
// agent.TagHeld, naming the held request, what it waits for, whether
// anything was done yet, and how long its outcome is kept once it ends.
func (s *Server) heldAnswer(req *mcp.CallToolRequest, h *heldCall) mcp.Result {
	v := s.held.view(h)
	text := heldForApplication
	switch v.waiting {
	case waitingApproval:
		text = heldForPerson
	case waitingApproved:
		text = heldApproved
	}
	data, _ := json.Marshal(map[string]any{
		"_tag": agent.TagHeld, "capability": v.capability, "message": text,
		"request": v.id, "waitingFor": waitingFor(v.waiting), "nothingDone": v.waiting == waitingApproval,
		"keepSeconds": int64(v.keep / time.Second),
	})
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}, &mcp.TextContent{Text: textCopy(text, data)}},
		StructuredContent: json.RawMessage(data), IsError: true,
	}
	return markComplete(req.Session, res)
}

func waitingFor(w string) string {
	if w == waitingApproval {
		return "person"
	}
	return "application"
}

// startTask answers a task-augmented tools/call with the task's handle
// at once; the call runs on a context of its own until it ends or
// tasks/cancel withdraws it. An identity (or Server) at its bound is
// refused with JSON-RPC -32000, and nothing runs.
func (s *Server) startTask(req *mcp.CallToolRequest, c *toolCall, owner string, kind taskKind) (mcp.Result, error) {
	work, cancel := context.WithCancel(context.WithoutCancel(c.ctx))
	h := s.held.newHeld(owner, c.name, c.key, kind, cancel)
	if err := s.held.Admit(h); err != nil {
		cancel()
		return nil, heldFullError(err)
	}
	go s.work(work, req, c, h, nil)
	v := s.held.view(h)
	if kind == legacyTask {
		return &taskAnswer{fields: map[string]any{"task": legacyTaskFields(v)}}, nil
	}
	f := extTaskFields(v)
	f["resultType"] = "task"
	return &taskAnswer{fields: f}, nil
}

// taskAnswer is a task method's result, written as its fields say (the
// SDK has no task types).
type taskAnswer struct {
	mcp.ResultBase
	fields map[string]any
}

func (a *taskAnswer) MarshalJSON() ([]byte, error) {
	m := maps.Clone(a.fields)
	if m == nil {
		m = map[string]any{}
	}
	if len(a.Meta) > 0 {
		m["_meta"] = a.Meta
	}
	return json.Marshal(m)
}

// statusMessage is a task's status message: our own words, by status and
// what it waits for.
func statusMessage(v heldView) string {
	switch v.status {
	case taskCompleted:
		return "The call has ended; its result is the tool's answer."
	case taskFailed:
		return "The call could not be carried out; the error says why."
	case taskCancelled:
		if v.dispatched {
			return "Cancelled at the caller's request while the application was finishing it; the application had already taken the request, so it may still take effect."
		}
		return "Cancelled at the caller's request before the call was carried out; nothing was done."
	}
	switch v.waiting {
	case waitingApproval:
		return "Waiting for the person to approve this in the app. Nothing has been done yet."
	case waitingApproved:
		return "The person approved this call; the application is carrying it out."
	}
	return "The application is working on this call."
}

func isoTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// taskTTL is how long a task is kept from its creation: unlimited while
// it runs (its own deadlines bound it), and until KeepOutcome after its
// end once it has ended.
func taskTTL(v heldView) (time.Duration, bool) {
	if v.ended.IsZero() {
		return 0, false
	}
	return v.ended.Add(v.keep).Sub(v.created), true
}

// extTaskFields is v as a 2026-07-28 Task.
func extTaskFields(v heldView) map[string]any {
	f := map[string]any{
		"taskId": v.id, "status": v.status, "statusMessage": statusMessage(v),
		"createdAt": isoTime(v.created), "lastUpdatedAt": isoTime(v.updated),
		"ttlSeconds": nil, "pollIntervalMilliseconds": taskPollInterval.Milliseconds(),
	}
	if ttl, ok := taskTTL(v); ok {
		f["ttlSeconds"] = int64((ttl + time.Second - 1) / time.Second)
	}
	return f
}

// legacyTaskFields is v as a 2025-11-25 Task.
func legacyTaskFields(v heldView) map[string]any {
	f := map[string]any{
		"taskId": v.id, "status": v.status, "statusMessage": statusMessage(v),
		"createdAt": isoTime(v.created), "lastUpdatedAt": isoTime(v.updated),
		"ttl": nil, "pollInterval": taskPollInterval.Milliseconds(),
	}
	if ttl, ok := taskTTL(v); ok {
		f["ttl"] = ttl.Milliseconds()
	}
	return f
}

// heldFullError is the JSON-RPC answer to a call the held book would not
// take: at a bound, it names the bound and when to try again.
func heldFullError(err error) *jsonrpc.Error {
	e := &jsonrpc.Error{Code: codeTooManySessions,
		Message: "This identity already has as many tasks and held calls as the server allows. Wait for one to end, or cancel one, then call again."}
	if r, ok := bound.As(err); ok {
		if data, merr := json.Marshal(r.Data()); merr == nil {
			e.Data = data
		}
	}
	return e
}
