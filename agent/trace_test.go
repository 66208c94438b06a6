package agent_test

import (
	"context"
	"encoding/json"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/agentotel"
)

func cmpTraced(t *testing.T, h *cmpHost, caps ...agent.Capability[cmpModel, cmpUser]) (*agent.Runtime[cmpModel, cmpMsg, cmpUser], *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return cmpBind(cmpContract(caps...), h, &agent.BindOptions[cmpUser]{Tracer: agentotel.Tracer(tp), Principal: cmpPrincipal}), rec
}

func spanAttrs(s sdktrace.ReadOnlySpan) map[attribute.Key]string {
	out := map[attribute.Key]string{}
	for _, kv := range s.Attributes() {
		out[kv.Key] = kv.Value.String()
	}
	return out
}

func TestDispatchSpanAttributes(t *testing.T) {
	h := newCmpHost()
	var hookSpan trace.SpanContext
	login := agent.Expose(agent.Variant[cmpLogin, cmpModel, cmpUser]{
		Description: "Log in.",
		Authorize: func(ctx context.Context, in cmpLogin, _ agent.Call[cmpModel, cmpUser]) (agent.Decision, error) {
			hookSpan = trace.SpanContextFromContext(ctx)
			if in.User == "eve" {
				return agent.Refuse, nil
			}
			return agent.Allow, nil
		},
	})
	rt, rec := cmpTraced(t, h, cmpCreateCap(nil), login)
	bg := context.Background()
	if _, err := cmpDispatch(t, rt, bg, "create_todo", `{"title":"Milk"}`, agent.Invocation{ID: "inv-1", Transport: agent.MCP}); err != nil {
		t.Fatal(err)
	}
	_, _ = cmpDispatch(t, rt, bg, "no_such_capability", `{}`, agent.Invocation{ID: "inv-2", Transport: agent.WebMCP})
	_, _ = cmpDispatch(t, rt, bg, "cmp_login", `{"user":"eve","token":"t"}`, agent.Invocation{ID: "inv-3"})

	spans := rec.Ended()
	if len(spans) != 3 {
		t.Fatalf("%d spans, want 3", len(spans))
	}
	want := []struct {
		capability, transport, invocation, outcome, decision string
		status                                               codes.Code
	}{
		{"create_todo", "mcp", "inv-1", "completed", "dispatched", codes.Unset},
		{"no_such_capability", "webmcp", "inv-2", agent.TagUnknownCapability, "refused", codes.Error},
		{"cmp_login", "in-app", "inv-3", agent.TagAuthorization, "refused", codes.Error},
	}
	for i, s := range spans {
		w := want[i]
		if s.Name() != agent.SpanName || agent.SpanName != "Agent.dispatch" {
			t.Fatalf("span %d name = %q", i, s.Name())
		}
		a := spanAttrs(s)
		if a["agent.capability"] != w.capability || a["agent.transport"] != w.transport || a["agent.invocation"] != w.invocation ||
			a["agent.outcome"] != w.outcome || a["agent.decision"] != w.decision {
			t.Errorf("span %d attributes = %v", i, a)
		}
		if s.Status().Code != w.status {
			t.Errorf("span %d status = %v, want %v", i, s.Status(), w.status)
		}
		if s.InstrumentationScope().Name != "github.com/foldagent/foldagent/agent" {
			t.Errorf("scope = %q", s.InstrumentationScope().Name)
		}
	}
	// A refusal is annotated from the start: the attributes were given
	// when the span began, before the capability was resolved.
	if spans[1].Status().Description != `There is no capability named "no_such_capability".` {
		t.Errorf("refusal status = %q", spans[1].Status().Description)
	}
	// Hooks run inside the span.
	if !hookSpan.IsValid() || hookSpan.SpanID() != spans[2].SpanContext().SpanID() {
		t.Errorf("authorize did not run inside the dispatch span")
	}
}

// A span is a child of the caller's span, so agent-originated
// transitions show up in the caller's trace.
func TestDispatchSpanJoinsTheCallersTrace(t *testing.T) {
	h := newCmpHost()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	rt := cmpBind(cmpContract(), h, &agent.BindOptions[cmpUser]{Tracer: agentotel.Tracer(tp)})
	ctx, parent := tp.Tracer("caller").Start(context.Background(), "handle request")
	_, _ = cmpDispatch(t, rt, ctx, "noise", `{}`, agent.Invocation{})
	parent.End()
	spans := rec.Ended()
	if len(spans) != 2 || spans[0].Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Fatalf("spans = %v", spans)
	}
}

// Without a Tracer nothing is traced, and the global provider is never
// consulted.
func TestNoTracerConfiguredUsesNoGlobal(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	defer otel.SetTracerProvider(prev)
	h := newCmpHost()
	rt := cmpBind(cmpContract(), h, nil)
	_, _ = cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{})
	if n := len(rec.Ended()) + len(rec.Started()); n != 0 {
		t.Fatalf("%d spans recorded without a configured tracer", n)
	}
	// Passing the global provider explicitly opts in.
	rt = cmpBind(cmpContract(), h, &agent.BindOptions[cmpUser]{Tracer: agentotel.Tracer(otel.GetTracerProvider())})
	_, _ = cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{})
	if len(rec.Ended()) != 1 {
		t.Fatalf("%d spans", len(rec.Ended()))
	}
}

// An audit entry names the span its invocation ran in: the runtime's own
// Agent.dispatch span when tracing is bound, the caller's span otherwise
// (read through BindOptions.TraceIDs), and none when there is neither.
func TestAuditEntriesCarryTheTraceID(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer func() { _ = tp.Shutdown(context.Background()) }()

	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{})
	traced := cmpBind(cmpContract(cmpCreateCap(nil)), newCmpHost(), &agent.BindOptions[cmpUser]{Tracer: agentotel.Tracer(tp), Audit: audit})
	if _, err := cmpDispatch(t, traced, context.Background(), "create_todo", `{"title":"Milk"}`, agent.Invocation{ID: "own"}); err != nil {
		t.Fatal(err)
	}
	spans := rec.Ended()
	if len(spans) != 1 {
		t.Fatalf("%d spans, want 1", len(spans))
	}
	e := audit.Entries()[0]
	if sc := spans[0].SpanContext(); e.TraceID != sc.TraceID().String() || e.SpanID != sc.SpanID().String() {
		t.Fatalf("entry trace %s/%s, span %s/%s", e.TraceID, e.SpanID, sc.TraceID(), sc.SpanID())
	}

	// No tracer bound: the caller's span is the one named.
	audit2 := agent.NewAuditLog(agent.AuditOptions[cmpUser]{})
	untraced := cmpBind(cmpContract(cmpCreateCap(nil)), newCmpHost(), &agent.BindOptions[cmpUser]{TraceIDs: agentotel.TraceIDs, Audit: audit2})
	ctx, caller := tp.Tracer("caller").Start(context.Background(), "request")
	if _, err := cmpDispatch(t, untraced, ctx, "create_todo", `{"title":"Milk"}`, agent.Invocation{ID: "caller"}); err != nil {
		t.Fatal(err)
	}
	caller.End()
	if _, err := cmpDispatch(t, untraced, context.Background(), "create_todo", `{"title":"Tea"}`, agent.Invocation{ID: "none"}); err != nil {
		t.Fatal(err)
	}
	got := audit2.Entries()
	if sc := caller.SpanContext(); got[0].TraceID != sc.TraceID().String() || got[0].SpanID != sc.SpanID().String() {
		t.Fatalf("entry trace %s/%s, caller's span %s/%s", got[0].TraceID, got[0].SpanID, sc.TraceID(), sc.SpanID())
	}
	if got[1].TraceID != "" || got[1].SpanID != "" {
		t.Fatalf("an untraced call recorded trace %q span %q", got[1].TraceID, got[1].SpanID)
	}
	// Without TraceIDs the runtime cannot read the caller's span: the
	// core links no tracing library.
	audit3 := agent.NewAuditLog(agent.AuditOptions[cmpUser]{})
	blind := cmpBind(cmpContract(cmpCreateCap(nil)), newCmpHost(), &agent.BindOptions[cmpUser]{Audit: audit3})
	ctx, caller = tp.Tracer("caller").Start(context.Background(), "request")
	if _, err := cmpDispatch(t, blind, ctx, "create_todo", `{"title":"Milk"}`, agent.Invocation{ID: "blind"}); err != nil {
		t.Fatal(err)
	}
	caller.End()
	if e := audit3.Entries()[0]; e.TraceID != "" || e.SpanID != "" {
		t.Fatalf("without TraceIDs an entry recorded trace %q span %q", e.TraceID, e.SpanID)
	}
	// The ids survive the JSON encoding sinks write.
	b, err := json.Marshal(got[0])
	if err != nil {
		t.Fatal(err)
	}
	var back agent.AuditEntry
	if err := json.Unmarshal(b, &back); err != nil || back.TraceID != got[0].TraceID || back.SpanID != got[0].SpanID {
		t.Fatalf("round trip: %+v, %v (%s)", back, err, b)
	}
}
