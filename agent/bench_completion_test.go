package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/agent/agentotel"
)

// fanHost accepts every Message and keeps Observe listeners in a
// copy-on-write list, the way host/loop does, so that emitting a Message
// costs exactly what the listeners cost.
type fanHost struct {
	mu         sync.Mutex
	listeners  atomic.Pointer[[]*fanListener]
	dispatched atomic.Int64
	// all, when set, is closed by the want-th Dispatch.
	want int64
	all  chan struct{}
}

type fanListener struct{ fn func(cmpMsg) }

func (h *fanHost) Model() cmpModel { return cmpModel{} }
func (h *fanHost) Dispatch(context.Context, cmpMsg) error {
	if n := h.dispatched.Add(1); h.all != nil && n == h.want {
		close(h.all)
	}
	return nil
}

func (h *fanHost) snapshot() []*fanListener {
	if p := h.listeners.Load(); p != nil {
		return *p
	}
	return nil
}

func (h *fanHost) Observe(fn func(cmpMsg)) func() {
	e := &fanListener{fn: fn}
	h.mu.Lock()
	next := append(append([]*fanListener(nil), h.snapshot()...), e)
	h.listeners.Store(&next)
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		var kept []*fanListener
		for _, x := range h.snapshot() {
			if x != e {
				kept = append(kept, x)
			}
		}
		h.listeners.Store(&kept)
	}
}

func (h *fanHost) emit(msg cmpMsg) {
	for _, l := range h.snapshot() {
		l.fn(msg)
	}
}

// Four request/fact pairs: invocations wait on facts A-D while facts of
// type U, which another capability completes on but nobody waits for,
// flow past.
type (
	fanReqA struct{ N int }
	fanReqB struct{ N int }
	fanReqC struct{ N int }
	fanReqD struct{ N int }
	fanReqU struct{}
	fanA    struct{ Req string }
	fanB    struct{ Req string }
	fanC    struct{ Req string }
	fanD    struct{ Req string }
	fanU    struct{ Req string }
)

func (fanReqA) cmpMsg() {}
func (fanReqB) cmpMsg() {}
func (fanReqC) cmpMsg() {}
func (fanReqD) cmpMsg() {}
func (fanReqU) cmpMsg() {}
func (fanA) cmpMsg()    {}
func (fanB) cmpMsg()    {}
func (fanC) cmpMsg()    {}
func (fanD) cmpMsg()    {}
func (fanU) cmpMsg()    {}

func fanCap[Req, Fact any](name string, req func(Fact) string) agent.Capability[cmpModel, cmpUser] {
	return agent.Expose(agent.Variant[Req, cmpModel, cmpUser]{
		Name:        name,
		Description: "Wait for a fact.",
		Completion: agent.CompleteOn(
			agent.On(func(_ Req, got Fact, inv agent.Invocation) bool { return req(got) == inv.ID }),
		).Within(time.Hour),
	})
}

func fanRuntime() (*agent.Runtime[cmpModel, cmpMsg, cmpUser], *fanHost) {
	h := &fanHost{}
	c := agent.Make(agent.Definition[cmpModel, cmpUser]{Capabilities: []agent.Capability[cmpModel, cmpUser]{
		fanCap[fanReqA]("a", func(f fanA) string { return f.Req }),
		fanCap[fanReqB]("b", func(f fanB) string { return f.Req }),
		fanCap[fanReqC]("c", func(f fanC) string { return f.Req }),
		fanCap[fanReqD]("d", func(f fanD) string { return f.Req }),
		fanCap[fanReqU]("u", func(f fanU) string { return f.Req }),
	}})
	return agent.MustBind(c, h, nil), h
}

func memNow() (heap, stack uint64) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, ms.StackInuse
}

// BenchmarkCompletionFanout measures the cost of observing one Message
// while N invocations wait for facts of other types. ns/op is the cost of
// one observed Message; it must not grow with N. heapB/waiter is the heap
// held per pending invocation (waiter, timer, channels, the invocation's
// own frames that escaped), stackB/waiter the goroutine stack of the
// caller that waits, which is the caller's, not the runtime's.
func BenchmarkCompletionFanout(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			rt, h := fanRuntime()
			ctx, cancel := context.WithCancel(context.Background())
			h.want, h.all = int64(n), make(chan struct{})
			heap0, stack0 := memNow()
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					inv := agent.Invocation{ID: fmt.Sprintf("w%d", i)}
					switch i % 4 {
					case 0:
						_, _ = agent.DispatchMessage(ctx, rt, fanReqA{N: i}, inv)
					case 1:
						_, _ = agent.DispatchMessage(ctx, rt, fanReqB{N: i}, inv)
					case 2:
						_, _ = agent.DispatchMessage(ctx, rt, fanReqC{N: i}, inv)
					default:
						_, _ = agent.DispatchMessage(ctx, rt, fanReqD{N: i}, inv)
					}
				})
			}
			<-h.all // every waiter's Message dispatched
			// Not a wait for an outcome: a memory reading settles. A waiter
			// between its Message and its select is counted a moment
			// early; no event marks a goroutine parked in a select.
			time.Sleep(10 * time.Millisecond)
			heap1, stack1 := memNow()

			unrelated := cmpMsg(fanU{Req: "nobody"})
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				h.emit(unrelated)
			}
			b.StopTimer()
			b.ReportMetric(float64(int64(heap1)-int64(heap0))/float64(n), "heapB/waiter")
			b.ReportMetric(float64(int64(stack1)-int64(stack0))/float64(n), "stackB/waiter")
			cancel()
			wg.Wait()
		})
	}
}

// BenchmarkCompletionSettle is one invocation that completes on a fact
// produced synchronously by the host, for scale against a plain dispatch.
func BenchmarkCompletionSettle(b *testing.B) {
	h := newCmpHost()
	rt := cmpBind(cmpContract(), h, nil)
	payload := json.RawMessage(`{"title":"Milk"}`)
	b.ReportAllocs()
	for b.Loop() {
		h.model = cmpModel{} // keep the Model small
		if _, err := rt.DispatchUnknown(context.Background(), "create_todo", payload, agent.Invocation{ID: "x"}); err != nil {
			b.Fatal(err)
		}
	}
}

type auditBenchHost struct{}

func (auditBenchHost) Model() cmpModel                        { return cmpModel{Project: "p"} }
func (auditBenchHost) Dispatch(context.Context, cmpMsg) error { return nil }

// BenchmarkAuditRecord is the cost of a validated dispatch with no audit
// log (the baseline), with a log, with a log that keeps the input, and
// with one that keeps and redacts it.
func BenchmarkAuditRecord(b *testing.B) {
	payload := json.RawMessage(`{"user":"ada@example.com","token":"abc123","options":{"remember":true,"device":"laptop"}}`)
	c := agent.Make(agent.Definition[cmpModel, cmpUser]{Capabilities: []agent.Capability[cmpModel, cmpUser]{cmpLoginCap()}})
	for _, tc := range []struct {
		name string
		log  *agent.AuditLog[cmpUser]
	}{
		{"none", nil},
		{"log", agent.NewAuditLog(agent.AuditOptions[cmpUser]{Principal: func(u cmpUser) string { return u.ID }})},
		{"log+input", agent.NewAuditLog(agent.AuditOptions[cmpUser]{Principal: func(u cmpUser) string { return u.ID }, IncludeInput: true})},
		{"log+input+redact", agent.NewAuditLog(agent.AuditOptions[cmpUser]{Principal: func(u cmpUser) string { return u.ID }, IncludeInput: true, Redact: []string{"token"}})},
	} {
		b.Run(tc.name, func(b *testing.B) {
			rt := agent.MustBind(c, auditBenchHost{}, &agent.BindOptions[cmpUser]{Audit: tc.log, Principal: cmpPrincipal})
			inv := agent.Invocation{ID: "inv", Transport: agent.MCP}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := rt.DispatchUnknown(context.Background(), "cmp_login", payload, inv); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDispatchTracing is the cost of a validated dispatch without a
// tracer (the baseline) and with the OpenTelemetry SDK recording spans.
func BenchmarkDispatchTracing(b *testing.B) {
	payload := json.RawMessage(`{"user":"ada","token":"abc"}`)
	c := agent.Make(agent.Definition[cmpModel, cmpUser]{Capabilities: []agent.Capability[cmpModel, cmpUser]{cmpLoginCap()}})
	for _, name := range []string{"none", "sdk"} {
		b.Run(name, func(b *testing.B) {
			opts := &agent.BindOptions[cmpUser]{Principal: cmpPrincipal}
			if name == "sdk" {
				tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(discardSpans{}))
				defer tp.Shutdown(context.Background())
				opts.Tracer = agentotel.Tracer(tp)
			}
			rt := agent.MustBind(c, auditBenchHost{}, opts)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := rt.DispatchUnknown(context.Background(), "cmp_login", payload, agent.Invocation{ID: "inv"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// discardSpans is a span processor that keeps nothing.
type discardSpans struct{}

func (discardSpans) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (discardSpans) OnEnd(sdktrace.ReadOnlySpan)                     {}
func (discardSpans) Shutdown(context.Context) error                  { return nil }
func (discardSpans) ForceFlush(context.Context) error                { return nil }
