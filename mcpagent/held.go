package mcpagent

import (
	"errors"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/held"
)

// Defaults for the held calls and tasks of a Server (see Options).
const (
	// DefaultPatience is when a tools/call that is still waiting (for the
	// person's approval, for a completion) answers a client that asked
	// for no task: safely before the 60 seconds the official TypeScript
	// client waits by default before it gives up on a request.
	DefaultPatience = held.DefaultPatience
	// DefaultKeepOutcome is how long the outcome of a held call or a task
	// is kept, from the moment it ended, for its caller to read. After it,
	// the outcome is forgotten: tasks/get answers that the task is not
	// found, and asking again starts a new call.
	DefaultKeepOutcome = held.DefaultKeepOutcome
	// DefaultMaxHeldPerIdentity bounds the held calls and tasks one
	// identity has at once, running or with an outcome kept.
	DefaultMaxHeldPerIdentity = held.DefaultMaxHeldPerIdentity
	// DefaultMaxHeld bounds the held calls and tasks of one Server.
	DefaultMaxHeld = held.DefaultMaxHeld
)

// Task statuses, as both task revisions name them.
const (
	taskWorking   = "working"
	taskCompleted = "completed"
	taskFailed    = "failed"
	taskCancelled = "cancelled"
)

// What a held call waits for, as its held answer and its task's status
// message say.
const (
	waitingApplication = "application" // not held for the person, not ended
	waitingApproval    = "approval"    // the person has not answered
	waitingApproved    = "approved"    // the person approved; it runs
)

// heldCall is one tools/call whose answer outlives its request: a task
// (the client asked for one) or a call held past the client's patience
// (its caller learns the outcome by asking again). Its work runs on a
// context of its own, cancelled only by tasks/cancel or the Server's
// Close. The book's mechanism (ids, bounds, keeping, rejoining) is
// internal/held's; what follows is this adapter's.
type heldCall struct {
	held.Call
	task   taskKind // noTask: held for a re-ask
	cancel func()

	// Guarded by the book's lock (heldBook.Do).
	updated     time.Time
	waiting     string
	status      string
	result      *mcp.CallToolResult
	rpcErr      *jsonrpc.Error
	dispatched  bool // cancelled after its Message reached update
	cancelAsked bool
}

// heldBook keeps one Server's held calls and tasks (internal/held's
// book): bounded per identity and overall, each outcome kept for
// KeepOutcome after its call ended, then forgotten.
type heldBook struct {
	*held.Book[*heldCall]
}

func newHeldBook(o Options) heldBook {
	return heldBook{held.NewBook[*heldCall](held.Options{KeepOutcome: o.KeepOutcome, MaxHeldPerIdentity: o.MaxHeldPerIdentity, MaxHeld: o.MaxHeld})}
}

// newHeld makes an entry for a call that is about to start; it is not in
// the book until Admit. Only a call held for a re-ask is rejoined.
func (b heldBook) newHeld(owner, capability, args string, task taskKind, cancel func()) *heldCall {
	h := &heldCall{Call: b.NewCall(owner, capability, args, task == noTask), task: task, cancel: cancel,
		waiting: waitingApplication, status: taskWorking}
	h.updated = h.Created
	return h
}

// deliver forgets a held call whose outcome its caller has now read.
func (b heldBook) deliver(h *heldCall) { b.Forget(h) }

// setWaiting records what the call now waits for.
func (b heldBook) setWaiting(h *heldCall, waiting string) {
	b.Do(func() {
		if h.Ended().IsZero() {
			h.waiting, h.updated = waiting, b.Now()
		}
	})
}

// finish records the outcome of h's work and wakes its waiters.
func (b heldBook) finish(h *heldCall, res *mcp.CallToolResult, rpcErr error, cancelled, dispatched bool) {
	b.Finish(h, func() {
		h.updated = h.Ended()
		switch {
		case rpcErr != nil:
			h.status = taskFailed
			var je *jsonrpc.Error
			if !errors.As(rpcErr, &je) {
				je = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "The call failed inside the server."}
			}
			h.rpcErr = je
		case cancelled:
			h.status, h.result, h.dispatched = taskCancelled, res, dispatched
		default:
			h.status, h.result = taskCompleted, res
		}
	})
}

// askCancel marks h's cancellation as asked for and cancels its work.
func (b heldBook) askCancel(h *heldCall) {
	b.Do(func() { h.cancelAsked = true })
	h.cancel()
}

// heldView is h as a task reads now.
type heldView struct {
	id, status, waiting, capability string
	dispatched                      bool
	created, updated, ended         time.Time
	result                          *mcp.CallToolResult
	rpcErr                          *jsonrpc.Error
	keep                            time.Duration
}

func (b heldBook) view(h *heldCall) (v heldView) {
	b.Do(func() {
		v = heldView{id: h.ID, status: h.status, waiting: h.waiting, capability: h.Name, dispatched: h.dispatched,
			created: h.Created, updated: h.updated, ended: h.Ended(), result: h.result, rpcErr: h.rpcErr, keep: b.Keep()}
	})
	return v
}

// list returns owner's tasks of kind, oldest first.
func (b heldBook) list(owner string, kind taskKind) []*heldCall {
	return b.List(owner, func(h *heldCall) bool { return h.task == kind })
}

// close cancels the work of every entry still running (not yet admitted
// ones excepted: their requests end them), waits for it, and refuses new
// ones.
func (b heldBook) close() {
	for _, h := range b.Close() {
		h.cancel()
		<-h.Done
	}
}
