package agentotel_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/agentotel"
)

func TestTracerAdaptsSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	tr := agentotel.Tracer(tp)

	parentCtx, parent := tp.Tracer("caller").Start(context.Background(), "request")
	ctx, s := tr.Start(parentCtx, agent.SpanName, agent.Attr{Key: agent.AttrCapability, Value: "create_todo"})
	if got := trace.SpanContextFromContext(ctx); got.SpanID() == parent.SpanContext().SpanID() || !got.IsValid() {
		t.Fatalf("the returned context does not carry the new span")
	}
	traceID, spanID := s.IDs()
	s.SetAttributes(agent.Attr{Key: agent.AttrOutcome, Value: "refused"})
	s.SetError("no such capability")
	s.End()
	parent.End()

	spans := rec.Ended()
	if len(spans) != 2 {
		t.Fatalf("%d spans, want 2", len(spans))
	}
	got := spans[0]
	if got.Name() != agent.SpanName || got.InstrumentationScope().Name != agent.TracerName {
		t.Errorf("span %q in scope %q", got.Name(), got.InstrumentationScope().Name)
	}
	if got.Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("the span is not a child of the caller's")
	}
	want := map[attribute.Key]string{"agent.capability": "create_todo", "agent.outcome": "refused"}
	for _, kv := range got.Attributes() {
		if want[kv.Key] != kv.Value.AsString() || kv.Value.Type() != attribute.STRING {
			t.Errorf("attribute %s = %v", kv.Key, kv.Value)
		}
		delete(want, kv.Key)
	}
	if len(want) != 0 {
		t.Errorf("missing attributes %v", want)
	}
	if got.Status().Code != codes.Error || got.Status().Description != "no such capability" {
		t.Errorf("status = %+v", got.Status())
	}
	if sc := got.SpanContext(); traceID != sc.TraceID().String() || spanID != sc.SpanID().String() {
		t.Errorf("IDs = %s/%s, span %s/%s", traceID, spanID, sc.TraceID(), sc.SpanID())
	}
}

func TestTraceIDs(t *testing.T) {
	if tr, sp := agentotel.TraceIDs(context.Background()); tr != "" || sp != "" {
		t.Fatalf("no span: %q %q", tr, sp)
	}
	tp := sdktrace.NewTracerProvider()
	defer func() { _ = tp.Shutdown(context.Background()) }()
	ctx, s := tp.Tracer("caller").Start(context.Background(), "request")
	defer s.End()
	tr, sp := agentotel.TraceIDs(ctx)
	if sc := s.SpanContext(); tr != sc.TraceID().String() || sp != sc.SpanID().String() || len(tr) != 32 || len(sp) != 16 {
		t.Fatalf("TraceIDs = %q %q, span %s/%s", tr, sp, sc.TraceID(), sc.SpanID())
	}
}

func TestNilProviderTracesNothing(t *testing.T) {
	if tr := agentotel.Tracer(nil); tr != nil {
		t.Fatalf("Tracer(nil) = %#v, want nil", tr)
	}
}

// The core links no OpenTelemetry: it is the point of the seam, and what
// keeps it out of a browser build.
func TestAgentImportsNoOpenTelemetry(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command")
	}
	out, err := exec.Command(goBin, "list", "-deps", "github.com/foldagent/foldagent/agent").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "go.opentelemetry.io/") {
			t.Errorf("agent depends on %s", pkg)
		}
	}
}
