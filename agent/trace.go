package agent

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// SpanName is the name of the OpenTelemetry span each invocation runs in
// when BindOptions.TracerProvider is set.
const SpanName = "Agent.dispatch"

// Span attributes. The first three are set when the span starts, before
// the capability is even resolved, so a refused invocation is annotated
// too; the others are set when it ends.
const (
	// AttrCapability is the capability's protocol name, or what the caller
	// asked for when no capability has that name.
	AttrCapability = attribute.Key("agent.capability")
	// AttrTransport is the invocation's transport.
	AttrTransport = attribute.Key("agent.transport")
	// AttrInvocation is the invocation id.
	AttrInvocation = attribute.Key("agent.invocation")
	// AttrTag is the Go type name of the capability's Message, when resolved.
	AttrTag = attribute.Key("agent.tag")
	// AttrDecision is the audit decision: refused, dispatched or unknown.
	AttrDecision = attribute.Key("agent.decision")
	// AttrOutcome is the audit outcome (see AuditEntry.Outcome).
	AttrOutcome = attribute.Key("agent.outcome")
)

// tracerName is the instrumentation scope of the runtime's spans.
const tracerName = "github.com/foldagent/foldagent/agent"

// observed runs an invocation with its span and audit entry. A deferred
// check records an invocation whose goroutine is torn down before run
// returns (runtime.Goexit in application code, say) as "interrupted", so
// the log still holds exactly one entry for it.
func (r *Runtime[Model, Msg, P]) observed(ctx context.Context, capab *capability[Model, P], asked string, payload []byte, encodeErr error, inv Invocation) (res Result, err error) {
	name := asked
	if capab != nil {
		name = capab.name
	}
	var span trace.Span
	if r.tracer != nil {
		ctx, span = r.tracer.Start(ctx, SpanName, trace.WithAttributes(
			AttrCapability.String(name),
			AttrTransport.String(string(inv.Transport)),
			AttrInvocation.String(inv.ID),
		))
	}
	// The span the audit entry points to: the runtime's own, or else the
	// caller's, so that an entry and its trace always correlate.
	sc := trace.SpanContextFromContext(ctx)
	var tr trail[P]
	returned := false
	defer func() {
		if !returned {
			r.settleObserved(span, sc, &tr, capab, name, payload, inv, Result{}, nil, OutcomeInterrupted)
		}
	}()
	res, err = r.run(ctx, &tr, capab, asked, payload, encodeErr, inv)
	returned = true
	r.settleObserved(span, sc, &tr, capab, name, payload, inv, res, err, outcomeOf(res, err))
	return res, err
}

func (r *Runtime[Model, Msg, P]) settleObserved(span trace.Span, sc trace.SpanContext, tr *trail[P], capab *capability[Model, P], name string, payload []byte, inv Invocation, res Result, err error, outcome string) {
	decision := decisionOf(tr.delivery)
	if r.audit != nil {
		tag := ""
		if capab != nil {
			tag = capab.tag
		}
		var traceID, spanID string
		if sc.IsValid() {
			traceID, spanID = sc.TraceID().String(), sc.SpanID().String()
		}
		r.audit.record(tr, inv, name, tag, payload, decision, outcome, traceID, spanID)
	}
	if span != nil {
		attrs := []attribute.KeyValue{AttrDecision.String(string(decision)), AttrOutcome.String(outcome)}
		if capab != nil {
			attrs = append(attrs, AttrTag.String(capab.tag))
		}
		span.SetAttributes(attrs...)
		switch {
		case err != nil:
			span.SetStatus(codes.Error, err.Error())
		case outcome == OutcomeInterrupted:
			span.SetStatus(codes.Error, "the invocation was interrupted before it settled")
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
	var timeout *CompletionTimeoutError
	if errors.As(err, &timeout) {
		return OutcomeTimeout
	}
	var tagged Error
	if errors.As(err, &tagged) {
		return tagged.Tag()
	}
	return TagDefect
}
