package devtools_test

import (
	"context"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/foldagent/foldagent/devtools"
	"github.com/foldagent/foldagent/devtools/internal/twinbench"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/loop"
)

// running starts the todo list with ten todos and returns it with a
// function that applies one Message and returns once it is applied (an
// idle Program applies a tracked Message on the caller's goroutine).
func running(b *testing.B, attach bool) (*loop.Program[todo.List, todo.Msg], func(context.Context, todo.Msg), func()) {
	p := loop.New(todo.Loop(), nil)
	var dev *devtools.Devtools[todo.List, todo.Msg]
	if attach {
		var err error
		if dev, err = devtools.AttachLoop(p, devtools.Options{Messages: todoTypes()}); err != nil {
			b.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = p.Run(ctx) }()
	applied := make(chan struct{}, 1)
	apply := func(ctx context.Context, m todo.Msg) {
		if err := p.DispatchTracked(ctx, m, func(error) { applied <- struct{}{} }); err != nil {
			b.Fatal(err)
		}
		<-applied
	}
	for i := range 10 {
		apply(ctx, todo.CreateTodo{Title: "t" + strconv.Itoa(i)})
	}
	return p, apply, func() {
		cancel()
		<-done
		if dev != nil {
			_ = dev.Close()
		}
	}
}

// BenchmarkAppliedMessage applies SelectTodo Messages to the todo list
// on host/loop with and without devtools attached, in alternating rounds
// of the same work, and reports the median ratio (target ≤ 1.1). The
// application dispatches with one long-lived context, as its own code
// usually does.
func BenchmarkAppliedMessage(b *testing.B) {
	benchApplied(b, func(ctx context.Context) context.Context { return ctx })
}

// BenchmarkAppliedMessageFreshContext is BenchmarkAppliedMessage with a
// context of its own for every Message, as an agent's call or a UI event
// has: the recorder reads each one's marks.
func BenchmarkAppliedMessageFreshContext(b *testing.B) {
	benchApplied(b, func(ctx context.Context) context.Context { return context.WithValue(ctx, freshKey{}, 1) })
}

type freshKey struct{}

func benchApplied(b *testing.B, ctxFor func(context.Context) context.Context) {
	pb, bare, stopBare := running(b, false)
	pd, dev, stopDev := running(b, true)
	defer stopBare()
	defer stopDev()
	ids := []string{pb.Model().Todos[0].ID, pb.Model().Todos[1].ID}
	if pd.Model().Todos[0].ID != ids[0] {
		b.Fatal("the two lists differ")
	}
	n := func(apply func(context.Context, todo.Msg)) func(int) {
		return func(n int) {
			for i := range n {
				apply(ctxFor(context.Background()), todo.SelectTodo{ID: ids[i%2]})
			}
		}
	}
	twinbench.Run(b, 1000, n(bare), n(dev))
}

// BenchmarkHistoryMemory reports the heap the default history (1,000
// Messages) of the todo list holds beyond the same program without it.
func BenchmarkHistoryMemory(b *testing.B) {
	heap := func(attach bool) uint64 {
		p, apply, stop := running(b, attach)
		defer stop()
		ids := []string{p.Model().Todos[0].ID, p.Model().Todos[1].ID}
		for i := range devtools.DefaultHistory {
			apply(context.Background(), todo.SelectTodo{ID: ids[i%2]})
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		runtime.KeepAlive(p)
		return ms.HeapAlloc
	}
	var extra []float64
	for range min(max(b.N, 1), 5) { // each round builds two programs
		x := heap(false)
		y := heap(true)
		extra = append(extra, float64(y)-float64(x))
	}
	slices.Sort(extra)
	b.ReportMetric(extra[len(extra)/2], "bytes/history")
}
