package agentotel

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/foldagent/foldagent/agent"
)

// Tracer adapts tp to agent.Tracer. Spans come from tp's tracer for the
// instrumentation scope agent.TracerName, are children of the span the
// dispatch context carries, and carry the runtime's attributes as string
// attributes; a refusal or defect sets the status to Error with the
// error's agent-facing message. A nil tp returns nil, which traces
// nothing. The global provider is used only when passed here
// (otel.GetTracerProvider()).
func Tracer(tp trace.TracerProvider) agent.Tracer {
	if tp == nil {
		return nil
	}
	return tracer{tp.Tracer(agent.TracerName)}
}

// TraceIDs returns the hex trace and span ids of the OpenTelemetry span
// ctx carries, or empty strings when it carries no valid one. It fits
// agent.BindOptions.TraceIDs.
func TraceIDs(ctx context.Context) (traceID, spanID string) {
	return ids(trace.SpanContextFromContext(ctx))
}

func ids(sc trace.SpanContext) (traceID, spanID string) {
	if !sc.IsValid() {
		return "", ""
	}
	return sc.TraceID().String(), sc.SpanID().String()
}

type tracer struct{ t trace.Tracer }

func (t tracer) Start(ctx context.Context, name string, attrs ...agent.Attr) (context.Context, agent.Span) {
	ctx, s := t.t.Start(ctx, name, trace.WithAttributes(convert(attrs)...))
	return ctx, span{s}
}

type span struct{ s trace.Span }

func (s span) SetAttributes(attrs ...agent.Attr) { s.s.SetAttributes(convert(attrs)...) }

func (s span) SetError(description string) { s.s.SetStatus(codes.Error, description) }

func (s span) End() { s.s.End() }

func (s span) IDs() (traceID, spanID string) { return ids(s.s.SpanContext()) }

func convert(attrs []agent.Attr) []attribute.KeyValue {
	kvs := make([]attribute.KeyValue, len(attrs))
	for i, a := range attrs {
		kvs[i] = attribute.String(a.Key, a.Value)
	}
	return kvs
}
