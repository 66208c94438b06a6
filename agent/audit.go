package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/foldagent/foldagent/agent/internal/wire"
)

// AuditDecision says what the runtime did with an invocation's Message.
type AuditDecision string

// Audit decisions. They are protocol words: other implementations of the
// contract record the same ones.
const (
	// DecisionRefused: the Message never reached update. Every refusal, a
	// cancellation before dispatch and a defect before dispatch end here,
	// and so does a Message the host refused or dropped and said so
	// (*NotDeliveredError, or a *CancelledError the host refused for its
	// ended context).
	DecisionRefused AuditDecision = "refused"
	// DecisionDispatched: the Message was delivered: the host's Dispatch
	// returned nil, or a host that tracks delivery reported that update
	// took it (see Host and DeliveryTracker).
	DecisionDispatched AuditDecision = "dispatched"
	// DecisionUnknown: the host was called and failed without saying the
	// Message was not delivered, or had not delivered it when the call
	// settled; whether update received the Message cannot be known.
	DecisionUnknown AuditDecision = "unknown"
	// DecisionHeld: the call was held for the person's approval
	// (Variant.Approval); a second entry for the same invocation records
	// how it ended.
	DecisionHeld AuditDecision = "held"
)

// Audit outcomes that are not error tags. Any other outcome is the Tag of
// the error the invocation ended with, such as "AgentAuthorizationError",
// "AgentCancelledError" or "AgentDefect".
const (
	// OutcomeDispatched: delivered, and the capability declares no
	// completion contract.
	OutcomeDispatched = "dispatched"
	// OutcomeCompleted: the completion contract was met by a success
	// Message or its condition on state.
	OutcomeCompleted = "completed"
	// OutcomeFailed: the completion contract was met by a failure Message.
	OutcomeFailed = "failed"
	// OutcomeTimeout: the completion contract was not met in time
	// (*CompletionTimeoutError).
	OutcomeTimeout = "timeout"
	// OutcomeInterrupted: the dispatching goroutine was torn down (by
	// runtime.Goexit in application code, for instance) before the call
	// settled.
	OutcomeInterrupted = "interrupted"
	// OutcomeAwaitingApproval: held for the person's approval
	// (DecisionHeld).
	OutcomeAwaitingApproval = "awaiting-approval"
	// OutcomeAnswerRefused: the person's answer to a held call was
	// refused (AnswerNotShown: it approves a card that is not the
	// request) and the call is still held (DecisionHeld). The entry's
	// Approval names what the refused answer named (Refused).
	OutcomeAnswerRefused = "answer-refused"
)

// AuditEntry is one decision of the runtime: one invocation, refused or
// not. It holds no Model, and holds the principal and the input only as
// the AuditLog's options allow.
type AuditEntry struct {
	// At is when the invocation settled. In JSON it is milliseconds since
	// the Unix epoch, as other implementations of the contract record it.
	At time.Time `json:"at"`
	// Invocation is the invocation id.
	Invocation string `json:"invocation"`
	// Transport is the route the invocation arrived by.
	Transport Transport `json:"transport"`
	// Capability is the capability's protocol name, or what the caller
	// asked for when no capability has that name.
	Capability string `json:"capability"`
	// Tag is the Go type name of the capability's Message, when the
	// capability was resolved.
	Tag string `json:"tag,omitempty"`
	// Principal is the application's projection of the principal (an id),
	// present only when AuditOptions.Principal is set and the principal
	// was resolved before the invocation ended.
	Principal string `json:"principal,omitempty"`
	// Decision is what was done with the Message.
	Decision AuditDecision `json:"decision"`
	// Outcome is how the invocation ended: OutcomeDispatched,
	// OutcomeCompleted, OutcomeFailed, OutcomeTimeout, OutcomeInterrupted,
	// or an error's Tag.
	Outcome string `json:"outcome"`
	// Input is what the caller sent, as compact JSON, present only with
	// AuditOptions.IncludeInput and only when it was a JSON object (a
	// refused invocation's input included). With AuditOptions.Redact the
	// top-level fields it names read "[redacted]". It is what was sent,
	// in the caller's field order, not what was decoded.
	Input json.RawMessage `json:"input,omitempty"`
	// TraceID and SpanID identify the span the invocation ran in (hex,
	// as OpenTelemetry writes them), so an entry and its trace can be
	// found from each other: the runtime's own "Agent.dispatch" span when
	// BindOptions.Tracer is set, otherwise the caller's span carried by
	// the dispatch context (an adapter's HTTP request span, say) as
	// BindOptions.TraceIDs reads it. Empty when there is neither.
	TraceID string `json:"traceId,omitempty"`
	SpanID  string `json:"spanId,omitempty"`
	// Approval is the person's approval of a held call: the request, a
	// digest of what they were shown, and, once it ended, the answer,
	// who gave it and when. Nil for a call that was not held.
	Approval *ApprovalRecord `json:"approval,omitempty"`
}

// auditEntryJSON is AuditEntry's wire form: the same fields, with At as
// epoch milliseconds.
type auditEntryJSON struct {
	At         int64           `json:"at"`
	Invocation string          `json:"invocation"`
	Transport  Transport       `json:"transport"`
	Capability string          `json:"capability"`
	Tag        string          `json:"tag,omitempty"`
	Principal  string          `json:"principal,omitempty"`
	Decision   AuditDecision   `json:"decision"`
	Outcome    string          `json:"outcome"`
	Input      json.RawMessage `json:"input,omitempty"`
	TraceID    string          `json:"traceId,omitempty"`
	SpanID     string          `json:"spanId,omitempty"`
	Approval   *ApprovalRecord `json:"approval,omitempty"`
}

// MarshalJSON encodes the entry with "at" in epoch milliseconds.
func (e AuditEntry) MarshalJSON() ([]byte, error) {
	return json.Marshal(auditEntryJSON{
		At: e.At.UnixMilli(), Invocation: e.Invocation, Transport: e.Transport, Capability: e.Capability,
		Tag: e.Tag, Principal: e.Principal, Decision: e.Decision, Outcome: e.Outcome, Input: e.Input,
		TraceID: e.TraceID, SpanID: e.SpanID, Approval: e.Approval,
	})
}

// UnmarshalJSON decodes an entry written by MarshalJSON, such as a line
// of a JSON Lines audit file.
func (e *AuditEntry) UnmarshalJSON(b []byte) error {
	var w auditEntryJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*e = AuditEntry{
		At: time.UnixMilli(w.At), Invocation: w.Invocation, Transport: w.Transport, Capability: w.Capability,
		Tag: w.Tag, Principal: w.Principal, Decision: w.Decision, Outcome: w.Outcome, Input: w.Input,
		TraceID: w.TraceID, SpanID: w.SpanID, Approval: w.Approval,
	}
	return nil
}

// AuditSink receives every entry an AuditLog records, to keep it
// somewhere durable. Record is called on the dispatching goroutine, after
// the invocation settled and before dispatch returns, possibly from many
// goroutines at once. An error or a panic from Record never changes the
// invocation's result (unless AuditOptions.RefuseUnaudited asks for later
// calls to be refused): it is counted (AuditLog.Health) and reported, to
// AuditOptions.OnError or, without one, to log/slog's default logger.
type AuditSink interface {
	Record(entry AuditEntry) error
}

// AuditOptions configure an AuditLog. The zero value keeps the last 500
// entries, with no principal and no input.
type AuditOptions[P any] struct {
	// Capacity is how many entries the log keeps; the oldest is dropped
	// first. Zero means 500; a negative capacity is refused.
	Capacity int
	// Principal projects the resolved principal to what the log keeps: an
	// id, never the identity, which may carry secrets. Nil keeps no
	// principal at all.
	Principal func(principal P) string
	// IncludeInput keeps what the caller sent. Input is caller-supplied
	// and may carry anything, so it is off by default.
	IncludeInput bool
	// Redact names top-level input fields whose values are replaced by
	// "[redacted]". Names match case-insensitively, as encoding/json
	// matches fields when it decodes the input. Nested fields are kept.
	Redact []string
	// Sinks receive every entry, in addition to the log's own buffer.
	Sinks []AuditSink
	// OnError is told about a sink that fails or panics (the entry is lost
	// to that sink), and about a Principal projection that panics (the
	// entry is then kept without a principal). Every such failure is also
	// counted (Health). Nil logs each one with slog.Default at Error
	// level (in a browser build, which links no log/slog, on the console
	// through the runtime's println): nothing is lost silently. It must
	// not block.
	OnError func(err error)
	// RefuseUnaudited makes the runtimes bound to the log refuse calls
	// while a sink is failing, rather than run them unaudited: from the
	// failed record on, every call is refused with an
	// *AuditUnavailableError (nothing decoded, authorized or dispatched),
	// until a record succeeds on every sink again (the refusals are
	// recorded too, so the first one a recovered sink keeps ends it). The
	// call whose record failed first has already run: a sink's failure
	// is known only once an entry is written. False, the default, keeps
	// the rule that a failing sink never fails a dispatch.
	RefuseUnaudited bool
	// Clock stamps entries. Nil means time.Now.
	Clock func() time.Time
}

// DefaultAuditCapacity is the capacity of an AuditLog whose options set
// none.
const DefaultAuditCapacity = 500

// AuditLog records every decision of the runtimes it is bound to (see
// BindOptions.Audit), refusals included, in a bounded ring buffer, and
// forwards each entry to its sinks. It never records the Model, keeps the
// principal only through the application's projection and the input only
// when asked. Accountability must not become a new way for a capability
// to break: nothing the log or a sink does changes a dispatch's result.
//
// An AuditLog is safe for concurrent use. Its type parameter is the
// contract's principal type, so the projection is checked by the
// compiler against the principal it will receive.
//
// The log is not a replay journal: re-dispatching a recorded invocation
// stays an explicit human action.
type AuditLog[P any] struct {
	principal    func(P) string
	includeInput bool
	redact       [][]byte
	sinks        []AuditSink
	onError      func(error)
	clock        func() time.Time
	strict       bool // RefuseUnaudited

	failures atomic.Uint64 // every failure reported
	lost     atomic.Uint64 // entries a sink did not keep
	failing  atomic.Bool   // the last record failed on some sink
	lastMu   sync.Mutex
	last     error // the last failure reported
	lastAt   time.Time

	mu    sync.Mutex
	ring  []AuditEntry // grows up to capacity, then wraps
	start int          // index of the oldest entry once full
	cap   int
}

// NewAuditLog returns an empty audit log. It panics on a negative
// capacity or a nil sink.
func NewAuditLog[P any](opts AuditOptions[P]) *AuditLog[P] {
	if opts.Capacity < 0 {
		panic(fmt.Sprintf("agent: NewAuditLog: capacity %d is negative", opts.Capacity))
	}
	for i, s := range opts.Sinks {
		if s == nil {
			panic(fmt.Sprintf("agent: NewAuditLog: sink %d is nil", i))
		}
	}
	l := &AuditLog[P]{
		principal:    opts.Principal,
		includeInput: opts.IncludeInput,
		redact:       redactKeys(opts.Redact),
		sinks:        append([]AuditSink(nil), opts.Sinks...),
		onError:      opts.OnError,
		clock:        opts.Clock,
		strict:       opts.RefuseUnaudited,
		cap:          opts.Capacity,
	}
	if l.cap == 0 {
		l.cap = DefaultAuditCapacity
	}
	if l.clock == nil {
		l.clock = time.Now
	}
	return l
}

func redactKeys(names []string) [][]byte {
	out := make([][]byte, len(names))
	for i, n := range names {
		out[i] = []byte(n)
	}
	return out
}

// Entries returns a copy of the recorded entries, oldest first.
func (l *AuditLog[P]) Entries() []AuditEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]AuditEntry, 0, len(l.ring))
	out = append(out, l.ring[l.start:]...)
	out = append(out, l.ring[:l.start]...)
	for i := range out {
		if out[i].Input != nil {
			out[i].Input = bytes.Clone(out[i].Input)
		}
	}
	return out
}

// Len returns how many entries the log holds.
func (l *AuditLog[P]) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.ring)
}

// Capacity returns how many entries the log keeps.
func (l *AuditLog[P]) Capacity() int { return l.cap }

// Clear drops every entry. Sinks are not told.
func (l *AuditLog[P]) Clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ring, l.start = nil, 0
}

// record builds the entry for one settled invocation, keeps it and hands
// it to the sinks.
func (l *AuditLog[P]) record(tr *trail[P], inv Invocation, capability, tag string, payload []byte, decision AuditDecision, outcome string, traceID, spanID string) {
	e := AuditEntry{
		At:         l.clock(),
		Invocation: inv.ID,
		Transport:  inv.Transport,
		Capability: capability,
		Tag:        tag,
		Decision:   decision,
		Outcome:    outcome,
		TraceID:    traceID,
		SpanID:     spanID,
	}
	switch {
	case l.principal != nil && tr.projected:
		e.Principal = tr.principalID
	case l.principal != nil && tr.hasPrincipal:
		e.Principal = l.projectPrincipal(tr.principal)
	}
	if tr.approval != nil {
		a := *tr.approval
		e.Approval = &a
	}
	if l.includeInput {
		e.Input = l.input(payload)
	}
	l.mu.Lock()
	if len(l.ring) < l.cap {
		l.ring = append(l.ring, e)
	} else {
		l.ring[l.start] = e
		l.start = (l.start + 1) % l.cap
	}
	l.mu.Unlock()
	if len(l.sinks) == 0 {
		return
	}
	kept := true
	for _, s := range l.sinks {
		kept = l.forward(s, e) && kept
	}
	l.failing.Store(!kept)
}

func (l *AuditLog[P]) projectPrincipal(p P) (id string) {
	defer func() {
		if v := recover(); v != nil {
			id = ""
			l.report(fmt.Errorf("agent: audit principal projection panicked: %w", panicError(v)))
		}
	}()
	return l.principal(p)
}

// forward hands e to s and reports whether s kept it.
func (l *AuditLog[P]) forward(s AuditSink, e AuditEntry) (kept bool) {
	defer func() {
		if v := recover(); v != nil {
			kept = false
			l.lost.Add(1)
			l.report(fmt.Errorf("agent: audit sink %T panicked, entry %s lost to it: %w", s, e.Invocation, panicError(v)))
		}
	}()
	if e.Input != nil {
		e.Input = bytes.Clone(e.Input) // a sink cannot reach the log's copy
	}
	if err := s.Record(e); err != nil {
		l.lost.Add(1)
		l.report(fmt.Errorf("agent: audit sink %T failed, entry %s lost to it: %w", s, e.Invocation, err))
		return false
	}
	return true
}

// report counts err and tells the application: OnError, or the default
// logger.
func (l *AuditLog[P]) report(err error) {
	l.failures.Add(1)
	l.lastMu.Lock()
	l.last, l.lastAt = err, l.clock()
	l.lastMu.Unlock()
	if l.onError == nil {
		logLost(err)
		return
	}
	defer func() { _ = recover() }()
	l.onError(err)
}

// AuditHealth is what an AuditLog has failed to keep, for a health read or
// a status line. The zero value is a log that never failed.
type AuditHealth struct {
	// Failures counts every failure reported (OnError): sinks that
	// failed or panicked, principal projections that panicked.
	Failures uint64
	// Lost counts entries a sink did not keep: one per sink and entry.
	Lost uint64
	// Failing is true when the last entry recorded was not kept by every
	// sink; with RefuseUnaudited, calls are refused while it is.
	Failing bool
	// LastError is the last failure reported and LastAt when it was, for
	// the application's operator (it may name a file, never an agent's
	// concern); nil and zero when there was none.
	LastError error
	LastAt    time.Time
}

// Health returns what the log has failed to keep so far.
func (l *AuditLog[P]) Health() AuditHealth {
	l.lastMu.Lock()
	last, at := l.last, l.lastAt
	l.lastMu.Unlock()
	return AuditHealth{Failures: l.failures.Load(), Lost: l.lost.Load(), Failing: l.failing.Load(), LastError: last, LastAt: at}
}

// refusal returns the error a call is refused with while a sink is
// failing and the log refuses unaudited calls, and nil otherwise.
func (l *AuditLog[P]) refusal(capability string) error {
	if !l.strict || !l.failing.Load() {
		return nil
	}
	return &AuditUnavailableError{Capability: capability, RetrySafe: true}
}

// input returns the payload as compact JSON with the redacted fields
// replaced, or nil when it is not a JSON object.
func (l *AuditLog[P]) input(payload []byte) json.RawMessage {
	trimmed := payload // bytes.TrimLeft(payload, " \t\r\n"), without its cutset code
	for len(trimmed) > 0 && (trimmed[0] == ' ' || trimmed[0] == '\t' || trimmed[0] == '\r' || trimmed[0] == '\n') {
		trimmed = trimmed[1:]
	}
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil
	}
	if len(l.redact) == 0 {
		var b bytes.Buffer
		if err := json.Compact(&b, payload); err != nil {
			return nil
		}
		return b.Bytes()
	}
	out, ok := wire.RedactObject(payload, l.redacted)
	if !ok {
		return nil
	}
	return out
}

// redacted reports whether the raw JSON key names a redacted field.
func (l *AuditLog[P]) redacted(rawKey []byte) bool {
	key := rawKey[1 : len(rawKey)-1]
	if bytes.IndexByte(rawKey, '\\') >= 0 {
		var unquoted string
		if err := json.Unmarshal(rawKey, &unquoted); err != nil {
			return false
		}
		key = []byte(unquoted)
	}
	for _, r := range l.redact {
		if bytes.EqualFold(key, r) {
			return true
		}
	}
	return false
}
