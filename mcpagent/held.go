package mcpagent

import (
	"github.com/foldagent/foldagent/internal/bound"

	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults for the held calls and tasks of a Server (see Options).
const (
	// DefaultPatience is when a tools/call that is still waiting (for the
	// person's approval, for a completion) answers a client that asked
	// for no task: safely before the 60 seconds the official TypeScript
	// client waits by default before it gives up on a request.
	DefaultPatience = 50 * time.Second
	// DefaultKeepOutcome is how long the outcome of a held call or a task
	// is kept, from the moment it ended, for its caller to read. After it,
	// the outcome is forgotten: tasks/get answers that the task is not
	// found, and asking again starts a new call.
	DefaultKeepOutcome = 15 * time.Minute
	// DefaultMaxHeldPerIdentity bounds the held calls and tasks one
	// identity has at once, running or with an outcome kept.
	DefaultMaxHeldPerIdentity = 16
	// DefaultMaxHeld bounds the held calls and tasks of one Server.
	DefaultMaxHeld = 1024
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
// Close.
type heldCall struct {
	id, owner string
	// capability and args (canonical JSON) name the call, so that the
	// same caller asking the same again rejoins it (held calls only).
	capability, args string
	task             taskKind // noTask: held for a re-ask
	cancel           func()
	done             chan struct{} // closed once the outcome is set

	// Guarded by heldBook.mu.
	created, updated time.Time
	waiting          string
	status           string
	result           *mcp.CallToolResult
	rpcErr           *jsonrpc.Error
	ended            time.Time
	dispatched       bool // cancelled after its Message reached update
	registered       bool // in the book
	answered         bool // a held answer or a task handle went out
	cancelAsked      bool
}

// heldBook keeps one Server's held calls and tasks, by id, bounded per
// identity and overall. An entry ends when its work ends; its outcome is
// kept for keep after that, then forgotten (lazily, on the next use of
// the book: no timer runs for it).
type heldBook struct {
	keep time.Duration
	now  func() time.Time
	// places bounds the entries per identity and in all (the rule of
	// internal/bound): a kept outcome holds its place until forgotten.
	places *bound.Counter

	mu     sync.Mutex
	byID   map[string]*heldCall
	closed bool
}

func newHeldBook(o Options) *heldBook {
	b := &heldBook{keep: o.KeepOutcome, now: time.Now, byID: make(map[string]*heldCall),
		places: bound.NewCounter(
			bound.Limit{Name: "MaxHeldPerIdentity", Max: bound.Resolve(o.MaxHeldPerIdentity, DefaultMaxHeldPerIdentity)},
			bound.Limit{Name: "MaxHeld", Max: bound.Resolve(o.MaxHeld, DefaultMaxHeld)},
			bound.DefaultRetryAfter)}
	if b.keep <= 0 {
		b.keep = DefaultKeepOutcome
	}
	return b
}

// errHeldFull is why a call could not be held: the Server is closed.
// (At a bound, admit returns the bound's *bound.Refusal.)
var errHeldFull = errors.New("mcpagent: too many held calls")

// newHeld makes an entry for a call that is about to start; it is not in
// the book until admit.
func (b *heldBook) newHeld(owner, capability, args string, task taskKind, cancel func()) *heldCall {
	now := b.now()
	return &heldCall{id: newTaskID(), owner: owner, capability: capability, args: args, task: task, cancel: cancel,
		done: make(chan struct{}), created: now, updated: now, waiting: waitingApplication, status: taskWorking}
}

// admit puts h in the book, unless its owner or the Server is at its
// bound (expired outcomes are forgotten first).
func (b *heldBook) admit(h *heldCall) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return errHeldFull
	}
	b.sweepLocked()
	if err := b.places.Take(h.owner); err != nil {
		return err
	}
	b.byID[h.id] = h
	h.registered = true
	h.answered = true
	return nil
}

// sweepLocked forgets the outcomes kept longer than keep. b.mu is held.
func (b *heldBook) sweepLocked() {
	now := b.now()
	for id, h := range b.byID {
		if !h.ended.IsZero() && now.Sub(h.ended) >= b.keep {
			b.forgetLocked(id, h)
		}
	}
}

func (b *heldBook) forgetLocked(id string, h *heldCall) {
	delete(b.byID, id)
	h.registered = false
	b.places.Give(h.owner)
}

// find returns owner's entry id, or nil: another identity's id is not
// found, exactly as an id that never was.
func (b *heldBook) find(owner, id string) *heldCall {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	if h := b.byID[id]; h != nil && h.owner == owner {
		return h
	}
	return nil
}

// rejoin returns owner's held (not task) call of capability with the same
// arguments, if one was answered as held and its outcome not yet read.
func (b *heldBook) rejoin(owner, capability, args string) *heldCall {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	var found *heldCall
	for _, h := range b.byID {
		if h.task == noTask && h.owner == owner && h.capability == capability && h.args == args &&
			(found == nil || h.created.Before(found.created)) {
			found = h
		}
	}
	return found
}

// deliver forgets a held call whose outcome its caller has now read.
func (b *heldBook) deliver(h *heldCall) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if h.registered {
		b.forgetLocked(h.id, h)
	}
}

// setWaiting records what the call now waits for.
func (b *heldBook) setWaiting(h *heldCall, waiting string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if h.ended.IsZero() {
		h.waiting, h.updated = waiting, b.now()
	}
}

// finish records the outcome of h's work and wakes its waiters.
func (b *heldBook) finish(h *heldCall, res *mcp.CallToolResult, rpcErr error, cancelled, dispatched bool) {
	b.mu.Lock()
	now := b.now()
	h.ended, h.updated = now, now
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
	b.mu.Unlock()
	close(h.done)
}

// askCancel marks h's cancellation as asked for and cancels its work.
func (b *heldBook) askCancel(h *heldCall) {
	b.mu.Lock()
	h.cancelAsked = true
	b.mu.Unlock()
	h.cancel()
}

// snapshot is h as a task reads now.
type heldView struct {
	id, status, waiting, capability string
	dispatched                      bool
	created, updated, ended         time.Time
	result                          *mcp.CallToolResult
	rpcErr                          *jsonrpc.Error
	keep                            time.Duration
}

func (b *heldBook) view(h *heldCall) heldView {
	b.mu.Lock()
	defer b.mu.Unlock()
	return heldView{id: h.id, status: h.status, waiting: h.waiting, capability: h.capability, dispatched: h.dispatched,
		created: h.created, updated: h.updated, ended: h.ended, result: h.result, rpcErr: h.rpcErr, keep: b.keep}
}

// list returns owner's tasks of kind, oldest first.
func (b *heldBook) list(owner string, kind taskKind) []*heldCall {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	var out []*heldCall
	for _, h := range b.byID {
		if h.owner == owner && h.task == kind {
			out = append(out, h)
		}
	}
	sortHeld(out)
	return out
}

// close cancels the work of every entry, running or not yet admitted
// ones excepted (their requests end them), and refuses new ones.
func (b *heldBook) close() {
	b.mu.Lock()
	b.closed = true
	var running []*heldCall
	for _, h := range b.byID {
		if h.ended.IsZero() {
			running = append(running, h)
		}
	}
	b.mu.Unlock()
	for _, h := range running {
		h.cancel()
		<-h.done
	}
}

// count reports how many entries the book holds (for tests).
func (b *heldBook) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.byID)
}

func sortHeld(hs []*heldCall) {
	for i := 1; i < len(hs); i++ {
		for j := i; j > 0 && (hs[j].created.Before(hs[j-1].created) || (hs[j].created.Equal(hs[j-1].created) && hs[j].id < hs[j-1].id)); j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
		}
	}
}

// newTaskID returns an unguessable id: 128 random bits, in hex.
func newTaskID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
