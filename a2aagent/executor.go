package a2aagent

import (
	"context"
	"encoding/json"
	"iter"
	"log/slog"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/internal/bound"
)

// Runtime is what the adapter needs from a bound contract: agent.Served,
// the one non-generic face of *agent.Runtime every adapter takes. The
// adapter holds no authority of its own: every task is one call of
// DispatchUnknown, the contract's checked path.
type Runtime = agent.Served

// call is what the interceptor resolved for one SendMessage, carried to
// the executor in the request's context: whose runtime, which skill, what
// input, and the room reserved for the task.
type call struct {
	rt       Runtime
	identity string   // the principal's identity key
	hold     taskHold // its place among the principal's running tasks (bounds.go)
	caller   string   // the caller key of the principal (see looks.go)
	skill    string
	input    json.RawMessage
	seen     uint64    // the version the message cites, or 0
	read     *readCall // a read, instead of a skill call
	slot     *slot
}

type callKey struct{}

func withCall(ctx context.Context, c *call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

func callFrom(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

// executor runs each task as one invocation of the runtime's checked path.
type executor struct {
	log      *slog.Logger
	takeTask func(identity string) (*bound.Hold, error)

	mu      sync.Mutex
	running map[a2a.TaskID]context.CancelFunc
	closed  bool
}

var (
	_ a2asrv.AgentExecutor         = (*executor)(nil)
	_ a2asrv.AgentExecutionCleaner = (*executor)(nil)
)

func newExecutor(log *slog.Logger, takeTask func(identity string) (*bound.Hold, error)) *executor {
	return &executor{log: log, takeTask: takeTask, running: make(map[a2a.TaskID]context.CancelFunc)}
}

// Execute yields the task, WORKING, then dispatches and yields the one
// status that ends it. The cancel function of the dispatch is registered
// before the task is yielded, so a task anyone can see can be cancelled.
func (e *executor) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		c := callFrom(ctx)
		if c == nil {
			yield(nil, a2a.NewError(a2a.ErrInternalError, "This agent received a message it did not admit."))
			return
		}
		if !c.slot.claim() {
			// The request gave its room back before the task began (its
			// caller went away): take room again, or dispatch nothing.
			hold, err := e.takeTask(c.identity)
			if err != nil {
				yield(nil, err)
				return
			}
			c.hold.set(hold)
			sl, err := c.slot.s.reserve()
			if err != nil {
				hold.Release()
				yield(nil, err)
				return
			}
			sl.claim()
			c.slot = sl
		}
		defer c.hold.release()
		if c.read != nil {
			// A read is answered by one message; no task is made.
			e.read(ctx, ec, c, yield)
			return
		}
		dctx, cancel := context.WithCancel(ctx)
		defer cancel()
		e.mu.Lock()
		if e.closed {
			e.mu.Unlock()
			yield(nil, a2a.NewError(a2a.ErrServerError, "This agent is shutting down."))
			return
		}
		e.running[ec.TaskID] = cancel
		e.mu.Unlock()
		defer func() {
			e.mu.Lock()
			delete(e.running, ec.TaskID)
			e.mu.Unlock()
		}()

		now := time.Now()
		task := &a2a.Task{
			ID:        ec.TaskID,
			ContextID: ec.ContextID,
			Status:    a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: &now},
		}
		if ec.Message != nil {
			task.History = []*a2a.Message{ec.Message}
		}
		if !yield(task, nil) {
			return
		}
		// A call held for the person's approval says so while it waits:
		// the task stays WORKING, its status message now saying whom it
		// waits for. The hook runs on this goroutine, inside
		// DispatchUnknown, so yielding from it keeps the iterator's
		// events in order. A consumer that stopped listening cannot be
		// told how the call ends: the wait is given up, which withdraws
		// the request from the person's screen.
		stopped := false
		dctx = agent.WhileAwaitingApproval(dctx, func(q agent.ApprovalRequest) {
			if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, awaitingMessage(ec, q)), nil) {
				stopped = true
				cancel()
			}
		})
		res, err := c.rt.DispatchUnknown(agent.WithCaller(dctx, c.caller), c.skill, c.input, agent.Invocation{ID: string(ec.TaskID), Transport: agent.A2A, SeenVersion: c.seen})
		reply := agent.ReplyTo(c.skill, res, err)
		if reply.Defect {
			e.log.Error("a2aagent: capability failed", "capability", c.skill, "task", ec.TaskID, "error", reply.Err)
		}
		if stopped {
			return
		}
		yield(a2a.NewStatusUpdateEvent(ec, stateOf(reply), replyMessage(ec, reply)), nil)
	}
}

// Cancel ends the wait of a running task. It yields nothing itself: the
// task's own Execute yields its terminal state, with the message ReplyTo
// gives the cancellation, so one goroutine settles each task once. A task
// with nothing running (it can only be one left WORKING by a failed
// execution) is marked cancelled here.
func (e *executor) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		e.mu.Lock()
		cancel, ok := e.running[ec.TaskID]
		e.mu.Unlock()
		if ok {
			cancel()
			return
		}
		msg := a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart("The task was cancelled; nothing was running for it, and nothing was undone."))
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, msg), nil)
	}
}

// Cleanup gives back the room reserved for a task the SDK never created.
func (e *executor) Cleanup(ctx context.Context, _ *a2asrv.ExecutorContext, _ a2a.SendMessageResult, _ error) {
	if c := callFrom(ctx); c != nil {
		c.slot.release()
		c.hold.release()
	}
}

// close cancels every running dispatch and refuses new ones.
func (e *executor) close() {
	e.mu.Lock()
	e.closed = true
	cancels := make([]context.CancelFunc, 0, len(e.running))
	for _, c := range e.running {
		cancels = append(cancels, c)
	}
	e.mu.Unlock()
	for _, c := range cancels {
		c()
	}
}

// stateOf maps a Reply to the state its task ends in. The Reply already
// classified the outcome (agent.ReplyTo is the one mapping); this only
// names the A2A state for each class.
func stateOf(r agent.Reply) a2a.TaskState {
	switch {
	case r.Err == nil && r.OK:
		return a2a.TaskStateCompleted
	case r.Err == nil: // the completion contract reported failure
		return a2a.TaskStateFailed
	case r.Defect:
		return a2a.TaskStateFailed
	case r.Tag == agent.TagCancelled:
		return a2a.TaskStateCanceled
	case r.Tag == agent.TagCompletionTimeout:
		return a2a.TaskStateFailed
	case r.Tag == agent.TagApprovalTimeout, r.Tag == agent.TagPersonLeft:
		// Nobody refused it: the person did not answer in time, or left
		// the application before answering.
		return a2a.TaskStateFailed
	default: // unknown, unavailable, invalid input, not authorized,
		// not found, stale view, declined by the person
		return a2a.TaskStateRejected
	}
}

// replyMessage is the agent's status message: the Reply's text, and its
// data in a data part (runtime values ride there, never in the text).
func replyMessage(ec *a2asrv.ExecutorContext, r agent.Reply) *a2a.Message {
	parts := []*a2a.Part{a2a.NewTextPart(r.Text)}
	var data map[string]any
	if len(r.Data) > 0 && json.Unmarshal(r.Data, &data) == nil {
		parts = append(parts, a2a.NewDataPart(data))
	}
	m := a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, parts...)
	setVersion(m, r.Version)
	return m
}

// awaitingApproval is the status message of a task held for the
// person's approval.
const awaitingApproval = "Waiting for the person to approve this in the app."

// awaitingMessage is the WORKING status message of a held call: the
// authored sentence, and the request as data (its id, the capability's
// own summary of what the person is asked, and when it is withdrawn
// unanswered). The call's input is the caller's own; the watched values
// are what the person is shown, and stay in the app.
func awaitingMessage(ec *a2asrv.ExecutorContext, q agent.ApprovalRequest) *a2a.Message {
	m := a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart(awaitingApproval), a2a.NewDataPart(map[string]any{
		"approval":   q.ID,
		"capability": q.Capability,
		"summary":    q.Summary,
		"deadline":   q.Deadline.UTC().Format(time.RFC3339Nano),
	}))
	setVersion(m, q.Version)
	return m
}
