package agent

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// This file is how the person decides. A capability may require the
// person's approval (Variant.Approval). A call that needs it is checked
// like any other (available, fresh, exists, authorized) and then held,
// not run: the runtime tells the application through its own update
// (ApprovalAsked, a Message the host's Message type holds), the
// application's view shows the request, and the person's answer is a
// Message the application dispatches in-app (ApprovalAnswer). Only the
// application can dispatch it: it can never be exposed, so no agent can
// approve, its own request included. An approval covers what the person
// was shown (the input and the watched values); if the watched values
// move before the answer, the request is void and the call is refused
// stale. Approved, the call runs the checked path again on the Model it
// then runs on.

// Approval declares that a call needs the person's approval before it
// runs. The zero value is not meaningful: Summary is required.
type Approval[In, Model, P any] struct {
	// Summary is the authored sentence the person is shown ("Pay for the
	// order under review."). It is the contract's own words: what the
	// call would do rides beside it as data (ApprovalRequest.Input and
	// Watched), never in it.
	Summary string
	// When says whether this call needs approval, judged on the snapshot
	// the call is checked on: only over an amount, only for agents
	// (call.Invocation.Transport). Nil: every call does.
	When func(in In, call Call[Model, P]) bool
}

// ApprovalRequest is one held call, as the person is shown it and as
// the audit log digests it. It is data: every value in it came from the
// call or the Model.
type ApprovalRequest struct {
	// ID names the request; the person's ApprovalAnswer names it.
	ID string `json:"id"`
	// Capability is the capability's protocol name.
	Capability string `json:"capability"`
	// Summary is the capability's authored sentence (Approval.Summary).
	Summary string `json:"summary"`
	// Input is the decoded input, encoded again as JSON.
	Input json.RawMessage `json:"input"`
	// Watched are the capability's watched values on the snapshot the
	// call was held on, by watch name: what the approval covers.
	Watched map[string]json.RawMessage `json:"watched,omitempty"`
	// Version is the version of that snapshot (0 on an unversioned host).
	Version uint64 `json:"version"`
	// Invocation is the held invocation's id.
	Invocation string `json:"invocation"`
	// Transport is the route the call arrived by; Caller the adapter's
	// key for the agent that made it (WithCaller), "" when none.
	Transport Transport `json:"transport"`
	Caller    string    `json:"caller,omitempty"`
	// Deadline is when the request is withdrawn unanswered.
	Deadline time.Time `json:"deadline"`
}

// Digest returns a fingerprint of what the person is shown (capability,
// summary, input, watched values, version and the asking caller):
// FNV-1a, 128 bits, hex encoded. The person's answer names it
// (ApprovalAnswer.Shown). The audit log records it, so an answer can be tied to exactly
// what it answered. It is a fingerprint, not a signature: the audit log
// is not a defence against whoever can write it. (FNV rather than SHA-256
// because crypto/sha256 links the whole FIPS module, about 57 KB gzip,
// into every browser build of the runtime.)
func (q ApprovalRequest) Digest() string {
	b, _ := json.Marshal(struct {
		_          incomparable
		Capability string                     `json:"capability"`
		Summary    string                     `json:"summary"`
		Input      json.RawMessage            `json:"input"`
		Watched    map[string]json.RawMessage `json:"watched,omitempty"`
		Version    uint64                     `json:"version"`
		Caller     string                     `json:"caller,omitempty"`
	}{incomparable{}, q.Capability, q.Summary, q.Input, q.Watched, q.Version, q.Caller})
	h := fnv.New128a()
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// ApprovalAsked is dispatched to the application, in-app, when a call is
// held for the person's approval: update records the request in the
// Model, so the view can show it.
type ApprovalAsked struct{ Request ApprovalRequest }

// ApprovalWithdrawn is dispatched to the application, in-app, when a
// request is no longer asked: answered, void, timed out or given up by
// its caller. Update removes it from the Model. It may follow the
// person's own answer: removing an absent request must change nothing.
type ApprovalWithdrawn struct {
	ID  string
	Why Withdrawal
}

// Withdrawal says why a request was withdrawn.
type Withdrawal string

// Why a request was withdrawn.
const (
	WithdrawnApproved  Withdrawal = "approved"
	WithdrawnDeclined  Withdrawal = "declined"
	WithdrawnStale     Withdrawal = "stale"     // what it covers moved
	WithdrawnTimeout   Withdrawal = "timeout"   // nobody answered in time
	WithdrawnCancelled Withdrawal = "cancelled" // the caller gave up, or its session ended
	// WithdrawnPersonLeft: the person left (the application stopped, the
	// headless app's q): nobody is there to answer (Runtime.PersonLeft).
	WithdrawnPersonLeft Withdrawal = "person-left"
)

// ApprovalAnswer is the person's answer, a Message the application
// dispatches in-app when the person approves or declines a request. By
// names who answered, for the audit log (the application's label for the
// person; "" when it has none). Reason is the person's optional reason
// for declining, passed to the agent as data.
type ApprovalAnswer struct {
	ID      string
	Approve bool
	Reason  string
	By      string
	// Shown is the Digest of the request as the person was shown it:
	// the card they answered. Build answers with ApprovalRequest.Approve
	// and Decline, which fill ID and Shown.
	Shown string
}

// Approve returns the person's approval of q as shown, by names who
// answered.
func (q ApprovalRequest) Approve(by string) ApprovalAnswer {
	return ApprovalAnswer{ID: q.ID, Approve: true, By: by, Shown: q.Digest()}
}

// Decline returns the person's refusal of q as shown, with their
// optional reason (passed to the agent as data).
func (q ApprovalRequest) Decline(by, reason string) ApprovalAnswer {
	return ApprovalAnswer{ID: q.ID, By: by, Reason: reason, Shown: q.Digest()}
}

// AnswerRefusal says why the runtime refused the person's answer.
type AnswerRefusal string

// Why an answer was refused. A refused answer changes nothing: no call
// runs, and a request it named stays pending, for the person to answer
// the card they see.
const (
	// AnswerNotShown: the answer approves, and its Shown is not the
	// pending request's Digest: the card the person answered is not the
	// request (an answer built without Shown, or from another copy of the
	// request). Declining never needs Shown: declining runs nothing.
	AnswerNotShown AnswerRefusal = "not-shown"
	// AnswerNotPending: the answer names a request of this runtime that
	// has ended (answered, void, timed out, given up by its caller). The
	// person answered a card that is gone; a request asked in its place
	// has an ID of its own. (An answer naming a request of another
	// runtime on the same host is that runtime's, and not reported.)
	AnswerNotPending AnswerRefusal = "not-pending"
)

// RefusedAnswer is an answer of the person the runtime refused, as
// BindOptions.OnAnswerRefused hears it.
type RefusedAnswer struct {
	Answer ApprovalAnswer
	Why    AnswerRefusal
	// Request is the pending request the answer named (AnswerNotShown);
	// the zero ApprovalRequest when it named none.
	Request ApprovalRequest
}

// ApprovalCarrier is the optional seam for an application whose Message
// type cannot hold ApprovalAsked, ApprovalWithdrawn and ApprovalAnswer
// themselves: a sealed interface, such as
//
//	type Msg interface{ isMsg() }
//
// which no type of this package can implement. The application declares
// Messages of its own that carry them (a struct embedding each is enough)
// and its host says how to wrap and unwrap them. Without it, the host's
// Message type must hold the three types, and Bind says so.
//
// ApprovalAnswerOf must recognize the application's answer Message by
// its type: Bind asks it about the zero value of every exposed Message,
// and refuses a contract in which an agent's Message would carry the
// person's answer (no agent may approve, its own request included); the
// runtime asks again before dispatching any agent's Message.
type ApprovalCarrier[Msg any] interface {
	CarryApprovalAsked(ApprovalAsked) Msg
	CarryApprovalWithdrawn(ApprovalWithdrawn) Msg
	ApprovalAnswerOf(Msg) (ApprovalAnswer, bool)
}

// ownApprovals carries the approval Messages on a host whose Message type
// holds them.
type ownApprovals[Msg any] struct{}

func (ownApprovals[Msg]) CarryApprovalAsked(m ApprovalAsked) Msg {
	msg, _ := any(m).(Msg) // Bind checked the host holds it
	return msg
}

func (ownApprovals[Msg]) CarryApprovalWithdrawn(m ApprovalWithdrawn) Msg {
	msg, _ := any(m).(Msg)
	return msg
}

func (ownApprovals[Msg]) ApprovalAnswerOf(msg Msg) (ApprovalAnswer, bool) {
	a, ok := any(msg).(ApprovalAnswer)
	return a, ok
}

// carrier is the host's ApprovalCarrier (or ownApprovals) with its panics
// kept on this side: a request it cannot carry is refused as the host's
// defect, and a Message it cannot read is no answer.
type carrier[Msg any] struct{ c ApprovalCarrier[Msg] }

func (g carrier[Msg]) asked(m ApprovalAsked) (msg Msg, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = panicError(v)
		}
	}()
	return g.c.CarryApprovalAsked(m), nil
}

func (g carrier[Msg]) withdrawn(m ApprovalWithdrawn) (msg Msg, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return g.c.CarryApprovalWithdrawn(m), true
}

func (g carrier[Msg]) answerOf(msg Msg) (a ApprovalAnswer, ok bool) {
	defer func() {
		if recover() != nil {
			a, ok = ApprovalAnswer{}, false
		}
	}()
	return g.c.ApprovalAnswerOf(msg)
}

// ApprovalRecord is what the audit log keeps of an approval: which
// request, what the person was shown (Shown, ApprovalRequest.Digest), how
// it ended (Answer: a Withdrawal), who answered and when.
type ApprovalRecord struct {
	ID     string     `json:"id"`
	Shown  string     `json:"shown"`
	Answer Withdrawal `json:"answer,omitempty"`
	By     string     `json:"by,omitempty"`
	// At is when the request ended (answered, void, timed out), as
	// epoch milliseconds in JSON; zero while it is pending. On an entry
	// whose outcome is OutcomeAnswerRefused, By and At are the refused
	// answer's.
	At time.Time `json:"-"`
	// Refused is, on an entry whose outcome is OutcomeAnswerRefused, the
	// Shown the refused answer named ("" when it named none): the card
	// it answered, which is not Shown.
	Refused string `json:"refused,omitempty"`
}

// MarshalJSON encodes At as epoch milliseconds, as AuditEntry does.
func (a ApprovalRecord) MarshalJSON() ([]byte, error) {
	type plain ApprovalRecord
	var at int64
	if !a.At.IsZero() {
		at = a.At.UnixMilli()
	}
	return json.Marshal(struct {
		_ incomparable
		plain
		At int64 `json:"at,omitempty"`
	}{incomparable{}, plain(a), at})
}

// UnmarshalJSON decodes what MarshalJSON wrote.
func (a *ApprovalRecord) UnmarshalJSON(b []byte) error {
	type plain ApprovalRecord
	var w struct {
		plain
		At int64 `json:"at,omitempty"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*a = ApprovalRecord(w.plain)
	if w.At != 0 {
		a.At = time.UnixMilli(w.At)
	}
	return nil
}

// DefaultApprovalTimeout is how long a request waits for the person when
// BindOptions.ApprovalTimeout is zero.
const DefaultApprovalTimeout = 2 * time.Minute

type awaitingKey struct{}

// WhileAwaitingApproval returns a context whose calls report, through
// notify, that they are held for the person's approval: an adapter tells
// its client the call is waiting (MCP progress, an A2A status message).
// notify runs on the calling goroutine, once per held call, before the
// request is dispatched to the host (so before the card can be seen); it
// should return promptly (send one notification, say). If the request
// then cannot be delivered, a WhenApprovalEnds notify is told it ended
// as WithdrawnCancelled.
func WhileAwaitingApproval(ctx context.Context, notify func(ApprovalRequest)) context.Context {
	if notify == nil {
		return ctx
	}
	return context.WithValue(ctx, awaitingKey{}, notify)
}

type endedKey struct{}

// WhenApprovalEnds returns a context whose held calls report, through
// notify, how their request ended (the person's answer, a void, the
// deadline, the caller giving up), as soon as it ended and before an
// approved call runs. notify runs on the calling goroutine and should
// return promptly. A journey binding uses it to close the card it opened
// in its ask book (WhileAwaitingApproval).
func WhenApprovalEnds(ctx context.Context, notify func(ApprovalRequest, Withdrawal)) context.Context {
	if notify == nil {
		return ctx
	}
	return context.WithValue(ctx, endedKey{}, notify)
}

// approvalMessages are the Message types of this file, which no
// capability may expose and a host with approvals must hold.
var approvalMessages = []reflect.Type{
	reflect.TypeOf((*ApprovalAsked)(nil)).Elem(), reflect.TypeOf((*ApprovalWithdrawn)(nil)).Elem(), reflect.TypeOf((*ApprovalAnswer)(nil)).Elem(),
}

// approvalPlan is a capability's compiled Approval.
type approvalPlan[Model, P any] struct {
	summary string
	when    func(in any, call Call[Model, P]) bool
}

func compileApproval[In, Model, P any](c *capability[Model, P], a *Approval[In, Model, P]) {
	if a == nil {
		return
	}
	if a.Summary == "" {
		panic(fmt.Sprintf("agent: cannot expose %s: Approval needs a Summary, the sentence the person is shown", typeLabel(c.msgType)))
	}
	if c.readOnly {
		panic(fmt.Sprintf("agent: cannot expose %s: a ReadOnly capability changes nothing, so there is nothing to approve", typeLabel(c.msgType)))
	}
	p := &approvalPlan[Model, P]{summary: a.Summary}
	if when := a.When; when != nil {
		p.when = func(in any, call Call[Model, P]) bool { return when(in.(In), call) }
	}
	c.approval = p
}

// needsApproval runs When; a panic in it is a defect of the capability.
func (c *capability[Model, P]) needsApproval(in any, call Call[Model, P]) (need bool, err error) {
	if c.approval == nil {
		return false, nil
	}
	if c.approval.when == nil {
		return true, nil
	}
	defer func() {
		if v := recover(); v != nil {
			need, err = false, &DefectError{Capability: c.name, Stage: "approval", Cause: panicError(v)}
		}
	}()
	return c.approval.when(in, call), nil
}

// pendingApproval is one held call while it waits.
type pendingApproval[Model any] struct {
	req     ApprovalRequest
	shown   string // req.Digest(): what an approving answer must name
	watches []*watch[Model]
	subject string
	model   Model // the snapshot the call was held on
	done    chan approvalEnd
	// refused carries the answers refused while it waits to the held
	// call's goroutine, which audits them (never the host's goroutine:
	// an audit sink may block).
	refused chan ApprovalAnswer
}

// maxRefusedUnaudited bounds the refused answers of one request waiting
// for its held call's goroutine to audit them; beyond it, the hook
// (BindOptions.OnAnswerRefused) still hears each one.
const maxRefusedUnaudited = 8

// approvalEnd is how a held call's wait ended.
type approvalEnd struct {
	why    Withdrawal
	by     string
	reason string // the person's reason for declining
	moved  []string
	at     time.Time
}

// approvalBook holds the pending requests of one runtime. Each ends once:
// the first of the person's answer, a void, the deadline or the caller's
// cancellation removes it, and later ones find nothing.
type approvalBook[Model any] struct {
	mu      sync.Mutex
	pending map[string]*pendingApproval[Model]
	order   []string // ids, oldest first
	watched int      // pending requests that cover watched values
	// ended are the ids of this book's requests that ended most
	// recently, oldest first (at most maxEndedKept): an answer naming
	// one is a late answer to a card of this runtime, reported refused;
	// an answer naming an id it never held is another runtime's.
	ended []string
	clock func() time.Time

	// listen starts the runtime's listeners and returns what stops them;
	// they run while holds is above zero. Only callers' goroutines
	// (hold) start and stop them, never a listener.
	listen     func() (stop func())
	lmu        sync.Mutex
	holds      int
	stopListen func()
}

// acquire starts listening for the first held call.
func (b *approvalBook[Model]) acquire() {
	b.lmu.Lock()
	defer b.lmu.Unlock()
	if b.holds == 0 {
		b.stopListen = b.listen()
	}
	b.holds++
}

// release stops listening after the last held call ended.
func (b *approvalBook[Model]) release() {
	b.lmu.Lock()
	defer b.lmu.Unlock()
	b.holds--
	if b.holds == 0 && b.stopListen != nil {
		b.stopListen()
		b.stopListen = nil
	}
}

func newApprovalBook[Model any]() *approvalBook[Model] {
	return &approvalBook[Model]{pending: map[string]*pendingApproval[Model]{}, clock: time.Now}
}

// approvalIDs mints request ids for every runtime of the process: a
// random prefix, drawn once, and a count. They are unique in the process
// by construction, whatever ids the invocations carry (an application's
// BindOptions.NewInvocationID may repeat itself, or count from 1 in each
// runtime), and the prefix keeps two processes' apart in audit logs read
// together.
var approvalIDs struct {
	once   sync.Once
	prefix string
	n      atomic.Uint64
}

func newApprovalID() string {
	approvalIDs.once.Do(func() {
		// The first 16 hex digits of an invocation id (8-4-4-...).
		id := NewInvocationID()
		approvalIDs.prefix = "approval-" + id[0:8] + id[9:13] + id[14:18] + "-"
	})
	return approvalIDs.prefix + strconv.FormatUint(approvalIDs.n.Add(1), 10)
}

// add records p as pending. Its id is minted (newApprovalID), so it is
// never already in the book.
func (b *approvalBook[Model]) add(p *pendingApproval[Model]) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending[p.req.ID] = p
	b.order = append(b.order, p.req.ID)
	if len(p.watches) > 0 {
		b.watched++
	}
}

// end ends the request id with e, reporting whether it was still pending.
func (b *approvalBook[Model]) end(id string, e approvalEnd) bool {
	b.mu.Lock()
	p, ok := b.pending[id]
	if ok {
		b.removeLocked(id)
	}
	b.mu.Unlock()
	if !ok {
		return false
	}
	b.send(p, e)
	return true
}

func (b *approvalBook[Model]) removeLocked(id string) {
	if len(b.pending[id].watches) > 0 {
		b.watched--
	}
	if len(b.ended) == maxEndedKept {
		b.ended = append(b.ended[:0], b.ended[1:]...)
	}
	b.ended = append(b.ended, id)
	delete(b.pending, id)
	for i, x := range b.order {
		if x == id {
			b.order = append(b.order[:i], b.order[i+1:]...)
			break
		}
	}
}

func (b *approvalBook[Model]) send(p *pendingApproval[Model], e approvalEnd) {
	if e.at.IsZero() {
		e.at = b.clock()
	}
	p.done <- e // buffered, and sent once: the request left the book here
}

// maxEndedKept bounds the ended ids a book remembers to tell a late
// answer to its own card from another runtime's answer.
const maxEndedKept = 128

// answer ends the request a, the person's answer, names, unless the
// answer is refused: it names a request of this book that has ended, or
// it approves and its Shown is not the pending request's Digest (the
// card the person answered is not the request). A refused answer ends
// nothing; the request it named, if pending, is returned with the
// refusal. An answer naming a request this book never held (another
// runtime's, on the same host) is none of its business: "" and nil.
func (b *approvalBook[Model]) answer(a ApprovalAnswer) (refused AnswerRefusal, req *pendingApproval[Model]) {
	b.mu.Lock()
	p, ok := b.pending[a.ID]
	switch {
	case !ok:
		late := slices.Contains(b.ended, a.ID)
		b.mu.Unlock()
		if late {
			return AnswerNotPending, nil
		}
		return "", nil
	case a.Approve && a.Shown != p.shown:
		b.mu.Unlock()
		return AnswerNotShown, p
	}
	b.removeLocked(a.ID)
	b.mu.Unlock()
	why := WithdrawnDeclined
	if a.Approve {
		why = WithdrawnApproved
	}
	b.send(p, approvalEnd{why: why, by: a.By, reason: a.Reason})
	return "", p
}

// list returns the pending requests, oldest first.
func (b *approvalBook[Model]) list() []ApprovalRequest {
	entries := b.entries()
	out := make([]ApprovalRequest, len(entries))
	for i, p := range entries {
		out[i] = p.req
	}
	return out
}

// entries returns the pending entries, oldest first.
func (b *approvalBook[Model]) entries() []*pendingApproval[Model] {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]*pendingApproval[Model], 0, len(b.order))
	for _, id := range b.order {
		out = append(out, b.pending[id])
	}
	return out
}

// watching returns the pending entries that cover watched values, oldest
// first: the ones a Model change can void.
func (b *approvalBook[Model]) watching() []*pendingApproval[Model] {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.watched == 0 {
		return nil
	}
	out := make([]*pendingApproval[Model], 0, b.watched)
	for _, id := range b.order {
		if p := b.pending[id]; len(p.watches) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// PendingApprovals returns the calls held for the person's approval,
// oldest first.
func (r *Runtime[Model, Msg, P]) PendingApprovals() []ApprovalRequest {
	if r.approvals == nil {
		return nil
	}
	return r.approvals.list()
}

// heard is the Observer listener: the person's answer ends its request,
// unless it is refused (approvalBook.answer), which is reported to
// OnAnswerRefused and, through the held call, to the audit log. It runs
// on the host's update goroutine and never blocks.
func (r *Runtime[Model, Msg, P]) heard(msg Msg) {
	a, ok := r.carrier.answerOf(msg)
	if !ok {
		return
	}
	why, p := r.approvals.answer(a)
	if why == "" {
		return
	}
	refused := RefusedAnswer{Answer: a, Why: why}
	if p != nil {
		refused.Request = p.req
		select {
		case p.refused <- a:
		default: // a burst: the hook below still hears it
		}
	}
	r.answerRefused(refused)
}

// answerRefused calls BindOptions.OnAnswerRefused, keeping its panics on
// this side: it runs on the host's update goroutine.
func (r *Runtime[Model, Msg, P]) answerRefused(refused RefusedAnswer) {
	if r.onAnswerRefused == nil {
		return
	}
	defer func() { _ = recover() }()
	r.onAnswerRefused(refused)
}

// recheck is the Subscriber listener: a request whose watched values
// moved is void. It reads the Model once per change, and only while
// a request that covers watched values is pending.
func (r *Runtime[Model, Msg, P]) recheck() {
	entries := r.approvals.watching()
	if len(entries) == 0 {
		return
	}
	model, _, err := r.sight.readSnapshot("approval")
	if err != nil {
		return // a broken Model read is reported by the next call
	}
	for _, p := range entries {
		if moved := movedSince(p.watches, p.subject, p.model, model); len(moved) > 0 {
			r.approvals.end(p.req.ID, approvalEnd{why: WithdrawnStale, moved: moved})
		}
	}
}

// movedSince names the watches whose value differs between then and now;
// a watch that cannot be read counts as moved, so nothing runs on it.
func movedSince[Model any](watches []*watch[Model], subject string, then, now Model) []string {
	var moved []string
	for _, w := range watches {
		a, errA := w.value(then, subject)
		b, errB := w.value(now, subject)
		if errA != nil || errB != nil || a != b {
			moved = append(moved, w.name)
		}
	}
	return moved
}

type approvedKey struct{}

// approvedFrom returns the request a re-run carries out, or nil.
func approvedFrom[Model any](ctx context.Context) *pendingApproval[Model] {
	p, _ := ctx.Value(approvedKey{}).(*pendingApproval[Model])
	return p
}

// hold holds a call for the person's approval and waits for the end. It
// returns the context the approved call runs with (which carries the
// request, so the re-run judges against what the person was shown and is
// not held again), or the refusal the call ends with.
func (r *Runtime[Model, Msg, P]) hold(ctx context.Context, tr *trail[P], capab *capability[Model, P], input any, call Call[Model, P], model Model, version uint64, payload []byte) (context.Context, error) {
	release, err := r.held.take(ctx, call.Principal, capab.name, capab.tag) // held.go
	if err != nil {
		return nil, err
	}
	defer release()
	in, err := json.Marshal(input)
	if err != nil {
		return nil, &DefectError{Capability: capab.name, Stage: "approval", Cause: err}
	}
	req := ApprovalRequest{
		ID: newApprovalID(), Capability: capab.name, Summary: capab.approval.summary, Input: in, Version: version,
		Invocation: call.Invocation.ID, Transport: call.Invocation.Transport, Caller: CallerFrom(ctx),
		Deadline: r.approvals.clock().Add(r.approvalTimeout),
	}
	if len(capab.watches) > 0 {
		req.Watched = make(map[string]json.RawMessage, len(capab.watches))
		for _, w := range capab.watches {
			v, err := encodeProjection(w.proj.p, model, capab.name, "watch")
			if err != nil {
				return nil, err
			}
			req.Watched[w.name] = v
		}
	}
	shown := req.Digest()
	p := &pendingApproval[Model]{req: req, shown: shown, watches: capab.watches, subject: capab.name, model: model,
		done: make(chan approvalEnd, 1), refused: make(chan ApprovalAnswer, maxRefusedUnaudited)}
	tr.approval = &ApprovalRecord{ID: req.ID, Shown: shown}
	// Listening before the request exists anywhere: its answer cannot
	// come before it is asked.
	r.approvals.acquire()
	defer r.approvals.release()
	r.approvals.add(p)
	if r.audit != nil {
		r.audit.record(tr, call.Invocation, capab.name, capab.tag, payload, DecisionHeld, OutcomeAwaitingApproval, "", "")
	}
	// The request reaches the person through update, whatever happens to
	// the caller's context meanwhile.
	asked, err := r.carrier.asked(ApprovalAsked{Request: req})
	if err != nil {
		r.abandonAsk(ctx, tr, p, false, WithdrawnCancelled)
		return nil, &DefectError{Capability: capab.name, Stage: "approval", Cause: err}
	}
	// The caller's adapter is told before the card can be on any screen:
	// whoever sees the card (a test, the person) then also finds the call
	// reported as waiting for the person, never as still working.
	if notify, _ := ctx.Value(awaitingKey{}).(func(ApprovalRequest)); notify != nil {
		notify(req)
	}
	if err := r.seam.host.Dispatch(context.WithoutCancel(ctx), asked); err != nil {
		if stopped(err) {
			// The person left before the card reached them: nobody is
			// there to answer, so a retry would find no one either.
			r.abandonAsk(ctx, tr, p, true, WithdrawnPersonLeft)
			return nil, &PersonLeftError{Capability: capab.name, Type: capab.tag, Approval: req.ID}
		}
		r.abandonAsk(ctx, tr, p, true, WithdrawnCancelled)
		return nil, &NotDeliveredError{Capability: capab.name, Type: capab.tag, RetrySafe: true, cause: err}
	}
	// A change may have moved what the request covers between the
	// snapshot and the listener seeing the request.
	if r.subscriber != nil {
		r.recheck()
	}
	end := r.awaitPerson(ctx, tr, capab, call.Invocation, payload, p)
	tr.approval.Answer, tr.approval.By, tr.approval.At = end.why, end.by, end.at
	tr.approval.Refused = ""
	if withdrawn, ok := r.carrier.withdrawn(ApprovalWithdrawn{ID: req.ID, Why: end.why}); ok {
		_ = r.seam.host.Dispatch(context.WithoutCancel(ctx), withdrawn)
	}
	if notify, _ := ctx.Value(endedKey{}).(func(ApprovalRequest, Withdrawal)); notify != nil {
		notify(req, end.why)
	}
	switch end.why {
	case WithdrawnApproved:
		return context.WithValue(ctx, approvedKey{}, p), nil
	case WithdrawnDeclined:
		return nil, &DeclinedError{Capability: capab.name, Type: capab.tag, Approval: req.ID, Reason: end.reason}
	case WithdrawnStale:
		return nil, &StaleViewError{Capability: capab.name, Type: capab.tag, Moved: end.moved, Version: r.Version(), Seen: req.Version, Policy: capab.freshness}
	case WithdrawnTimeout:
		return nil, &ApprovalTimeoutError{Capability: capab.name, Type: capab.tag, Approval: req.ID}
	case WithdrawnPersonLeft:
		return nil, &PersonLeftError{Capability: capab.name, Type: capab.tag, Approval: req.ID}
	default:
		return nil, &CancelledError{Capability: capab.name, cause: context.Cause(ctx)}
	}
}

// abandonAsk ends p, whose request could not be delivered to the person,
// as why (cancelled, or the person left); a caller told it was waiting
// (told) is told it ended.
func (r *Runtime[Model, Msg, P]) abandonAsk(ctx context.Context, tr *trail[P], p *pendingApproval[Model], told bool, why Withdrawal) {
	r.approvals.end(p.req.ID, approvalEnd{why: why})
	<-p.done
	tr.approval.Answer, tr.approval.At = why, r.approvals.clock()
	if notify, _ := ctx.Value(endedKey{}).(func(ApprovalRequest, Withdrawal)); told && notify != nil {
		notify(p.req, why)
	}
}

// stopped reports whether a host's Dispatch error says the application is
// stopping or stopped: the person is gone with it.
func stopped(err error) bool {
	s, ok := errors.AsType[hostStopped](err)
	return ok && s.Stopped()
}

// awaitPerson waits for p to end: the person's answer or a void (ended by a
// listener), the deadline, the caller giving up, or the host stopping
// (the person left). Answers refused meanwhile are audited as they come.
func (r *Runtime[Model, Msg, P]) awaitPerson(ctx context.Context, tr *trail[P], capab *capability[Model, P], inv Invocation, payload []byte, p *pendingApproval[Model]) approvalEnd {
	timer := time.NewTimer(time.Until(p.req.Deadline))
	defer timer.Stop()
	for {
		// Whatever ends it first stands: a later end finds nothing.
		select {
		case end := <-p.done:
			// Answers refused before the end are on the call's record
			// before its end, even when both were ready at once.
			for {
				select {
				case a := <-p.refused:
					r.auditRefused(tr, capab, inv, payload, a)
					continue
				default:
				}
				return end
			}
		case <-timer.C:
			r.approvals.end(p.req.ID, approvalEnd{why: WithdrawnTimeout})
		case <-ctx.Done():
			r.approvals.end(p.req.ID, approvalEnd{why: WithdrawnCancelled})
		case <-r.hostDone:
			r.approvals.end(p.req.ID, approvalEnd{why: WithdrawnPersonLeft})
		case a := <-p.refused:
			r.auditRefused(tr, capab, inv, payload, a)
		}
	}
}

// auditRefused records an answer the person gave that was refused (it
// named another card), on the held call's record.
func (r *Runtime[Model, Msg, P]) auditRefused(tr *trail[P], capab *capability[Model, P], inv Invocation, payload []byte, a ApprovalAnswer) {
	if r.audit == nil {
		return
	}
	tr.approval.By, tr.approval.At, tr.approval.Refused = a.By, r.approvals.clock(), a.Shown
	r.audit.record(tr, inv, capab.name, capab.tag, payload, DecisionHeld, OutcomeAnswerRefused, "", "")
	tr.approval.By, tr.approval.At, tr.approval.Refused = "", time.Time{}, ""
}

// bindApprovals checks what approvals need of the host and listens for
// the person's answers and for Model changes that void a request. It
// does nothing when no capability declares an Approval.
func (r *Runtime[Model, Msg, P]) bindApprovals(msgType reflect.Type) error {
	var approving []string
	for _, capab := range r.contract.caps {
		if capab.approval != nil {
			approving = append(approving, capab.name)
		}
	}
	if len(approving) == 0 {
		return nil
	}
	if own, ok := r.seam.host.(ApprovalCarrier[Msg]); ok {
		r.carrier = carrier[Msg]{own}
		// An agent's Message that carried the person's answer would let
		// an agent approve.
		var carrying []string
		for _, capab := range r.contract.caps {
			zero, _ := reflect.Zero(capab.msgType).Interface().(Msg)
			if _, is := r.carrier.answerOf(zero); is {
				carrying = append(carrying, capab.name)
			}
		}
		if len(carrying) > 0 {
			return fmt.Errorf("agent: Bind: the Message of %s carries the person's approval answer (the host's ApprovalAnswerOf says so): no agent may approve", quoteJoin(carrying))
		}
	} else {
		var cannot []string
		for _, t := range approvalMessages {
			if !t.AssignableTo(msgType) {
				cannot = append(cannot, typeLabel(t))
			}
		}
		if len(cannot) > 0 {
			return fmt.Errorf("agent: Bind: %s need the person's approval, and the host's Message type %s cannot hold %s, the Messages that ask the person and carry their answer; hold them, or implement ApprovalCarrier on the host to carry them in Messages of the application's own", quoteJoin(approving), msgType, strings.Join(cannot, ", "))
		}
		r.carrier = carrier[Msg]{ownApprovals[Msg]{}}
	}
	if r.observer == nil {
		return fmt.Errorf("agent: Bind: %s need the person's approval, which the runtime hears as a Message; the host must implement Observe", quoteJoin(approving))
	}
	r.approvals = newApprovalBook[Model]()
	// The runtime listens only while a call is held: a runtime bound per
	// session, or one whose calls are never held, costs the host nothing.
	r.approvals.listen = func() func() {
		stopHearing := r.observer.Observe(r.heard)
		stopChecking := func() {}
		if r.subscriber != nil {
			stopChecking = r.subscriber.Subscribe(r.recheck)
		}
		return func() { stopHearing(); stopChecking() }
	}
	return nil
}

var errAgentAnswers = errors.New("the Message this call built carries the person's approval answer (the host's ApprovalAnswerOf says so): no agent may approve")
