package agentotel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/agentotel"
)

// A counter application: the Model, its one Message, and a host that
// applies it on Dispatch.
type model struct{ Count int }

type msg interface{ isMsg() }

type Increment struct {
	By int `json:"by"`
}

func (Increment) isMsg() {}

type host struct {
	mu sync.Mutex
	m  model
}

func (h *host) Model() model { h.mu.Lock(); defer h.mu.Unlock(); return h.m }

func (h *host) Dispatch(_ context.Context, m msg) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.m.Count += m.(Increment).By
	return nil
}

// Each dispatch runs in an "Agent.dispatch" span of the application's
// TracerProvider (here recording spans in memory, where an application
// would export them), and the audit entry of the same dispatch carries
// that span's trace id, so either leads to the other.
func ExampleTracer() {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	audit := agent.NewAuditLog(agent.AuditOptions[agent.NoPrincipal]{})

	contract := agent.Make(agent.Definition[model, agent.NoPrincipal]{
		Capabilities: []agent.Capability[model, agent.NoPrincipal]{
			agent.Expose(agent.Variant[Increment, model, agent.NoPrincipal]{Description: "Add to the counter."}),
		},
	})
	rt, err := agent.Bind(contract, &host{}, &agent.BindOptions[agent.NoPrincipal]{
		Tracer: agentotel.Tracer(tp),
		Audit:  audit,
	})
	if err != nil {
		panic(err)
	}
	_, _ = rt.DispatchUnknown(context.Background(), "increment", json.RawMessage(`{"by":2}`), agent.Invocation{})

	span := spans.Ended()[0]
	fmt.Println(span.Name(), span.InstrumentationScope().Name)
	var attrs []string
	for _, kv := range span.Attributes() {
		if kv.Key != agent.AttrInvocation { // a fresh id each run
			attrs = append(attrs, fmt.Sprintf("%s=%s", kv.Key, kv.Value.String()))
		}
	}
	slices.Sort(attrs)
	for _, a := range attrs {
		fmt.Println(a)
	}
	entry := audit.Entries()[0]
	fmt.Println("audit entry in the span's trace:", entry.TraceID == span.SpanContext().TraceID().String())
	// Output:
	// Agent.dispatch github.com/foldagent/foldagent/agent
	// agent.capability=increment
	// agent.decision=dispatched
	// agent.outcome=dispatched
	// agent.tag=Increment
	// agent.transport=in-app
	// audit entry in the span's trace: true
}
