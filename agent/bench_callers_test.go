package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// BenchmarkDispatchCallers is BenchmarkDispatchAdapterPath with 1, 2 and
// 8 callers at once, each against the baseline run by the same number of
// callers: the hand-written handler of BenchmarkDispatchBaseline (decode
// the JSON, hand the Message to a host that stores it).
//
// One caller at a time finds host/loop idle, and its Message is applied
// on the caller's goroutine; concurrent callers do not (one is applying
// when the next arrives), so their Messages go through the queue and Run's
// goroutine, and each caller waits to learn that update took its
// Message. That is the path this benchmark adds.
//
// ratio-loop/baseline-on-loop compares the adapter path on host/loop with
// a hand-written handler on host/loop (decode, DispatchTracked, wait until
// update takes the Message): both pay the host's one update at a time, so
// this ratio is what the contract adds at that concurrency.
//
// On a shared machine a long run measures the load as much as the code,
// so each loop times a batch of calls on each side in turn, and the
// ratios reported (adapter path over baseline, same callers) are medians
// of the per-loop ratios: the target is at most 1.5.
//
//	go test -run '^$' -bench DispatchCallers ./agent/
func BenchmarkDispatchCallers(b *testing.B) {
	for _, callers := range []int{1, 2, 8} {
		b.Run(fmt.Sprintf("callers-%d", callers), func(b *testing.B) {
			benchCallers(b, callers)
		})
	}
}

func benchCallers(b *testing.B, callers int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	p := loop.New[Model, Msg](loopBenchApp{model: selectedModel()}, nil)
	var applied atomic.Int64
	p.Subscribe(func() { applied.Add(1) })
	go p.Run(ctx)
	onLoop := agent.MustBind(adapterPathContract(), p, owner())
	qh := &queueHost{model: selectedModel()}
	onQueue := agent.MustBind(adapterPathContract(), qh, owner())
	base := &benchHost{model: selectedModel()}
	// A hand-written handler on host/loop itself: it decodes the same
	// JSON and hands the Message over with DispatchTracked, waiting until
	// update takes it, as a handler that reports delivery truthfully must.
	hp := loop.New[Model, Msg](loopBenchApp{model: selectedModel()}, nil)
	go hp.Run(ctx)
	baseOnLoop := func() error {
		var in PlaceOrder
		if err := json.Unmarshal(orderPayload, &in); err != nil {
			return err
		}
		taken := make(chan error, 1)
		if err := hp.DispatchTracked(ctx, in, func(err error) { taken <- err }); err != nil {
			return err
		}
		return <-taken
	}

	adapter := func(rt *agent.Runtime[Model, Msg, User]) func() error {
		return func() error {
			_, err := rt.DispatchUnknown(ctx, "place_order", orderPayload, agent.Invocation{Transport: agent.MCP})
			return err
		}
	}
	baseline := func() error {
		var in PlaceOrder
		if err := json.Unmarshal(orderPayload, &in); err != nil {
			return err
		}
		return base.Dispatch(ctx, in)
	}

	// A batch is enough calls per caller that starting the callers is a
	// small part of it.
	const perCaller = 256
	var failed atomic.Value
	timed := func(call func() error) float64 {
		var start, wg sync.WaitGroup
		start.Add(1)
		for range callers {
			wg.Go(func() {
				start.Wait()
				for range perCaller {
					if err := call(); err != nil {
						failed.CompareAndSwap(nil, err)
						return
					}
				}
			})
		}
		t0 := time.Now()
		start.Done()
		wg.Wait()
		return float64(time.Since(t0).Nanoseconds()) / float64(callers*perCaller)
	}

	var baseNs, baseLoopNs, loopNs, queueNs []float64
	b.ReportAllocs()
	for b.Loop() {
		baseNs = append(baseNs, timed(baseline))
		baseLoopNs = append(baseLoopNs, timed(baseOnLoop))
		loopNs = append(loopNs, timed(adapter(onLoop)))
		queueNs = append(queueNs, timed(adapter(onQueue)))
	}
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
	// A call returns once update has taken its Message; Stop waits for
	// the last ones' listeners.
	stopCtx, stopCancel := context.WithTimeout(context.Background(), time.Minute)
	defer stopCancel()
	if err := p.Stop(stopCtx); err != nil {
		b.Fatal(err)
	}
	n := int64(len(baseNs)) * int64(callers*perCaller)
	if applied.Load() != n || base.n.Load() != n {
		b.Fatalf("applied %d on the loop and %d by the baseline, want %d each", applied.Load(), base.n.Load(), n)
	}
	median := func(xs []float64) float64 {
		xs = slices.Clone(xs)
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	ratio := func(num, den []float64) float64 {
		rs := make([]float64, len(num))
		for i := range num {
			rs[i] = num[i] / den[i]
		}
		return median(rs)
	}
	b.ReportMetric(median(baseNs), "ns/call-baseline")
	b.ReportMetric(median(loopNs), "ns/call-loop")
	b.ReportMetric(median(queueNs), "ns/call-queue")
	b.ReportMetric(ratio(loopNs, baseNs), "ratio-loop")
	b.ReportMetric(ratio(queueNs, baseNs), "ratio-queue")
	// The adapter path on host/loop against the hand-written handler on
	// host/loop: what the contract adds when both pay the host's one
	// update at a time.
	b.ReportMetric(median(baseLoopNs), "ns/call-baseline-on-loop")
	b.ReportMetric(ratio(loopNs, baseLoopNs), "ratio-loop/baseline-on-loop")
}
