package loop_test

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestParallelUnderLoad measures the parallel pair of benchmarks
// (BenchmarkLoopDispatchParallel and its baseline) on a machine made busy
// on purpose: it starts two busy loops of its own (child processes that
// spin until it ends), then runs the Program and the bare channel loop in
// alternated rounds (each of eight short alternated pairs), each side
// pushing the same Messages from GOMAXPROCS goroutines, and logs each
// round's figure and the median of the ratio baseline time / Program
// time (the Program's throughput against the baseline's: 1 is par,
// higher is faster). Each side's loop ends once its pair is timed (the
// Program is stopped, the channel closed), so that no round carries the
// Programs of the rounds before. It measures and never judges: what it
// asserts is that every Message of every round was applied. It runs only
// when asked, with the number of rounds:
//
//	FOLDAGENT_LOOP_LOAD=40 go test -run '^TestParallelUnderLoad$' -v ./host/loop/
func TestParallelUnderLoad(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("FOLDAGENT_LOOP_LOAD"))
	if rounds <= 0 {
		t.Skip("set FOLDAGENT_LOOP_LOAD to a number of rounds to measure the parallel pair under two busy loops")
	}
	startBusyLoops(t, 2)
	// A round is pairs short enough that the machine's load barely moves
	// within one (tens of milliseconds each), alternated, and summed: on
	// a machine shared with other work, one long pair is at the mercy of
	// whatever else ran during it.
	const pairs, perPair = 8, 40_000
	ratios := make([]float64, 0, rounds)
	for r := range rounds {
		var prog, base time.Duration
		for k := range pairs {
			if (r+k)%2 == 0 {
				prog += parallelProgram(t, perPair)
				base += parallelBaseline(t, perPair)
			} else {
				base += parallelBaseline(t, perPair)
				prog += parallelProgram(t, perPair)
			}
		}
		ratios = append(ratios, float64(base)/float64(prog))
		t.Logf("round %2d: program %6.1f ns/msg, baseline %6.1f ns/msg, ratio %.3f", r+1,
			float64(prog)/(pairs*perPair), float64(base)/(pairs*perPair), ratios[r])
	}
	slices.Sort(ratios)
	t.Logf("median over %d rounds: program throughput %.3f× the bare channel loop's (min %.3f, max %.3f)",
		rounds, median(ratios), ratios[0], ratios[len(ratios)-1])
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// parallelProgram times n Messages dispatched to a Program from
// GOMAXPROCS goroutines until the last is applied.
func parallelProgram(t *testing.T, n int) time.Duration {
	ctx := context.Background()
	p, done := benchProgram(t, n)
	start := time.Now()
	fanOut(n, func() {
		if err := p.Dispatch(ctx, 1); err != nil {
			t.Error(err)
		}
	})
	<-done
	took := time.Since(start)
	if p.Model() != n {
		t.Fatalf("Model = %d, want %d", p.Model(), n)
	}
	// Stopped once timed, as the baseline's goroutine ends once timed:
	// otherwise every Program of the run, its goroutine and its memory,
	// would stay until the test ends, and the later rounds' garbage
	// collections would mark them all.
	if err := p.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	return took
}

// parallelBaseline is parallelProgram for the bare channel loop.
func parallelBaseline(t *testing.T, n int) time.Duration {
	msgs, done, model := benchBaseline(n)
	start := time.Now()
	fanOut(n, func() { msgs <- 1 })
	<-done
	took := time.Since(start)
	close(msgs)
	if model.Load() != int64(n) {
		t.Fatalf("Model = %d, want %d", model.Load(), n)
	}
	return took
}

// fanOut calls send n times in all from GOMAXPROCS goroutines.
func fanOut(n int, send func()) {
	g := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for i := range g {
		share := n / g
		if i == 0 {
			share += n % g
		}
		wg.Go(func() {
			for range share {
				send()
			}
		})
	}
	wg.Wait()
}

// startBusyLoops starts k child processes that each keep a processor
// busy until the test ends.
func startBusyLoops(t *testing.T, k int) {
	for range k {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestBusyLoop$")
		cmd.Env = append(os.Environ(), "FOLDAGENT_LOOP_BUSY=1")
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting a busy loop: %v", err)
		}
		t.Cleanup(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
	}
}

// TestBusyLoop is the busy loop startBusyLoops runs: it spins until
// killed, or until its parent is gone.
func TestBusyLoop(t *testing.T) {
	if os.Getenv("FOLDAGENT_LOOP_BUSY") == "" {
		t.Skip("a busy loop for TestParallelUnderLoad")
	}
	parent := os.Getppid()
	for x := 0; ; x++ {
		if x%(1<<24) == 0 && os.Getppid() != parent {
			return
		}
	}
}
