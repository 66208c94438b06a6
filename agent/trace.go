package agent

import (
	"context"
	"errors"
)

// SpanName is the name of the span each invocation runs in when
// BindOptions.Tracer is set.
const SpanName = "Agent.dispatch"

// Span attribute keys. The first three are set when the span starts,
// before the capability is even resolved, so a refused invocation is
// annotated too; the others are set when it ends.
const (
	// AttrCapability is the capability's protocol name, or what the caller
	// asked for when no capability has that name.
	AttrCapability = "agent.capability"
	// AttrTransport is the invocation's transport.
	AttrTransport = "agent.transport"
	// AttrInvocation is the invocation id.
	AttrInvocation = "agent.invocation"
	// AttrTag is the Go type name of the capability's Message, when resolved.
	AttrTag = "agent.tag"
	// AttrDecision is the audit decision: refused, dispatched or unknown.
	AttrDecision = "agent.decision"
	// AttrOutcome is the audit outcome (see AuditEntry.Outcome).
	AttrOutcome = "agent.outcome"
)

// TracerName is the instrumentation scope a tracing adapter should give
// the runtime's spans (agentotel names its OpenTelemetry tracer so).
const TracerName = "github.com/foldagent/foldagent/agent"

// Attr is one span attribute. Every attribute the runtime sets is a
// string.
type Attr struct {
	Key   string
	Value string
}

// Tracer starts the span an invocation runs in. It is the seam between
// the runtime and a tracing system, defined here so that the core links
// none: package agentotel adapts an OpenTelemetry TracerProvider, and an
// application that does not trace pays nothing, in time or in binary
// size.
//
// Start is called once per invocation, before the capability is
// resolved, with the attributes known then (AttrCapability,
// AttrTransport, AttrInvocation). The returned context carries the span:
// every hook of the invocation (Available, Authorize, ToMessage, the
// host's Dispatch) runs under it. A Tracer must be safe for concurrent
// use.
type Tracer interface {
	Start(ctx context.Context, name string, attrs ...Attr) (context.Context, Span)
}

// Span is one invocation's span, as a Tracer started it. The runtime
// calls SetAttributes, then SetError at most once, then End exactly
// once, all from the invocation's goroutine.
type Span interface {
	// SetAttributes adds attributes (AttrDecision, AttrOutcome, AttrTag).
	SetAttributes(attrs ...Attr)
	// SetError marks the span failed; description is the error's
	// agent-facing message.
	SetError(description string)
	// End ends the span.
	End()
	// IDs returns the span's trace and span ids as the tracing system
	// writes them (hex for OpenTelemetry), or empty strings when the span
	// records no ids (a no-op span). Audit entries carry them.
	IDs() (traceID, spanID string)
}

// observed runs an invocation with its span and audit entry. A deferred
// check records an invocation whose goroutine is torn down before run
// returns (runtime.Goexit in application code, say) as "interrupted", so
// the log still holds exactly one entry for it.
func (r *Runtime[Model, Msg, P]) observed(ctx context.Context, capab *capability[Model, P], asked string, payload []byte, encodeErr error, inv Invocation) (res Result, err error) {
	name := asked
	if capab != nil {
		name = capab.name
	}
	var span Span
	if r.tracer != nil {
		ctx, span = r.tracer.Start(ctx, SpanName,
			Attr{AttrCapability, name},
			Attr{AttrTransport, string(inv.Transport)},
			Attr{AttrInvocation, inv.ID},
		)
	}
	// The span the audit entry points to: the runtime's own, or else the
	// caller's (when BindOptions.TraceIDs can read it), so that an entry
	// and its trace always correlate.
	var ids spanIDs
	if r.audit != nil {
		switch {
		case span != nil:
			ids.trace, ids.span = span.IDs()
		case r.traceIDs != nil:
			ids.trace, ids.span = r.traceIDs(ctx)
		}
	}
	var tr trail[P]
	returned := false
	defer func() {
		if !returned {
			r.settleObserved(span, ids, &tr, capab, name, payload, inv, Result{}, nil, OutcomeInterrupted)
		}
	}()
	if refused := r.auditRefusal(name); refused != nil {
		err = refused // the audit cannot be kept: nothing runs
	} else {
		res, err = r.run(ctx, &tr, capab, asked, payload, encodeErr, inv)
	}
	returned = true
	r.settleObserved(span, ids, &tr, capab, name, payload, inv, res, err, outcomeOf(res, err))
	return res, err
}

// auditRefusal is the refusal of every call while the audit log cannot
// keep entries and the application asked for calls to be refused then
// (AuditOptions.RefuseUnaudited); nil otherwise.
func (r *Runtime[Model, Msg, P]) auditRefusal(name string) error {
	if r.audit == nil {
		return nil
	}
	return r.audit.refusal(name)
}

// spanIDs are the trace and span ids an audit entry names.
type spanIDs struct{ trace, span string }

func (r *Runtime[Model, Msg, P]) settleObserved(span Span, ids spanIDs, tr *trail[P], capab *capability[Model, P], name string, payload []byte, inv Invocation, res Result, err error, outcome string) {
	decision := decisionOf(tr.delivery)
	if r.audit != nil {
		tag := ""
		if capab != nil {
			tag = capab.tag
		}
		r.audit.record(tr, inv, name, tag, payload, decision, outcome, ids.trace, ids.span)
	}
	if span != nil {
		attrs := []Attr{{AttrDecision, string(decision)}, {AttrOutcome, outcome}}
		if capab != nil {
			attrs = append(attrs, Attr{AttrTag, capab.tag})
		}
		span.SetAttributes(attrs...)
		switch {
		case err != nil:
			span.SetError(err.Error())
		case outcome == OutcomeInterrupted:
			span.SetError("the invocation was interrupted before it settled")
		}
		span.End()
	}
}

// decisionOf derives the audit decision from how far delivery got.
func decisionOf(d delivery) AuditDecision {
	switch d {
	case deliverySent:
		return DecisionDispatched
	case deliveryAttempted:
		return DecisionUnknown
	default:
		return DecisionRefused
	}
}

// outcomeOf names how an invocation ended, in the audit log's words.
func outcomeOf(res Result, err error) string {
	if err == nil {
		if res.Completion == nil {
			return OutcomeDispatched
		}
		return string(res.Completion.Status)
	}
	if _, ok := errors.AsType[*CompletionTimeoutError](err); ok {
		return OutcomeTimeout
	}
	if tagged, ok := errors.AsType[Error](err); ok {
		return tagged.Tag()
	}
	return TagDefect
}
