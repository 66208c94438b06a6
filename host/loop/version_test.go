package loop_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/foldagent/foldagent/host/loop"
)

// Every applied Message is one version; a listener reads the version of
// the Model it is told about; ModelAt keeps the last 128.
func TestVersionsCountAppliedMessages(t *testing.T) {
	p := start(t, counter{}, nil)
	if m, v := p.VersionedModel(); v != 1 || m.Last != "init" {
		t.Fatalf("before any Message: %+v at %d, want init at 1", m, v)
	}
	type seen struct {
		n int
		v uint64
	}
	got := make(chan seen, 300)
	p.Subscribe(func() {
		m, v := p.VersionedModel()
		got <- seen{m.N, v}
	})
	const n = 200
	for i := 1; i <= n; i++ {
		dispatch(t, p, add{N: 1})
	}
	for i := 1; i <= n; i++ {
		s := <-got
		if s.n != i || s.v != uint64(i+1) {
			t.Fatalf("listener %d read N=%d at version %d, want N=%d at %d", i, s.n, s.v, i, i+1)
		}
	}
	for v := uint64(n + 1); v > n+1-128; v-- {
		m, ok := p.ModelAt(v)
		if !ok || m.N != int(v-1) {
			t.Fatalf("ModelAt(%d) = %+v, %v", v, m, ok)
		}
	}
	if _, ok := p.ModelAt(n + 1 - 128); ok {
		t.Error("ModelAt kept more than 128 versions")
	}
	if _, ok := p.ModelAt(n + 2); ok {
		t.Error("ModelAt answered for a version not yet published")
	}
}

// A large Model is kept in smaller blocks than a small one; the window
// ModelAt answers is the same 128 versions, across the blocks' edges.
func TestModelAtLargeModels(t *testing.T) {
	type big struct {
		N   int
		Pad [600]byte
	}
	p := loop.New(loop.Funcs(
		func() (big, loop.Cmd[int]) { return big{}, nil },
		func(m big, n int) (big, loop.Cmd[int]) { m.N += n; return m, nil },
	), nil)
	const n = 300
	applied := make(chan struct{})
	seen := 0
	p.Observe(func(int) {
		if seen++; seen == n {
			close(applied)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx)
	for range n {
		if err := p.Dispatch(ctx, 1); err != nil {
			t.Fatal(err)
		}
	}
	<-applied
	if _, v := p.VersionedModel(); v != n+1 {
		t.Fatalf("version %d, want %d", v, n+1)
	}
	for v := uint64(n + 1); v > n+1-128; v-- {
		if m, ok := p.ModelAt(v); !ok || m.N != int(v-1) {
			t.Fatalf("ModelAt(%d) = %d, %v", v, m.N, ok)
		}
	}
	for _, v := range []uint64{0, n + 1 - 128, 1, n + 2} {
		if _, ok := p.ModelAt(v); ok {
			t.Errorf("ModelAt(%d) answered; only versions %d to %d are kept", v, n+2-128, n+1)
		}
	}
}

// Readers on other goroutines, while Messages are applied, always read a
// consistent pair (the Model of the version they are told), never an
// older version than they read before, and ModelAt answers every version
// it keeps with that version's Model, while the slabs those Models are
// kept in are refilled.
func TestVersionsWhileReadersRead(t *testing.T) {
	p := loop.New(loop.Funcs(
		func() (int, loop.Cmd[int]) { return 0, nil },
		func(m int, n int) (int, loop.Cmd[int]) { return m + n, nil },
	), nil)
	const n = 20000
	applied := make(chan struct{})
	seen := 0
	p.Observe(func(int) {
		if seen++; seen == n {
			close(applied)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx)
	errs := make(chan string, 4)
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 3 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			var last uint64
			for {
				select {
				case <-stop:
					return
				default:
				}
				m, v := p.VersionedModel()
				if uint64(m) != v-1 || v < last {
					errs <- fmt.Sprintf("VersionedModel = %d at %d after %d", m, v, last)
					return
				}
				last = v
				for _, back := range []uint64{0, 1, 63, 64, 127} {
					if back < v {
						if old, ok := p.ModelAt(v - back); ok && uint64(old) != v-back-1 {
							errs <- fmt.Sprintf("ModelAt(%d) = %d", v-back, old)
							return
						}
					}
				}
			}
		}()
	}
	for range n {
		if err := p.Dispatch(ctx, 1); err != nil {
			t.Fatal(err)
		}
	}
	<-applied
	close(stop)
	readers.Wait()
	select {
	case e := <-errs:
		t.Fatal(e)
	default:
	}
	if m, v := p.VersionedModel(); m != n || v != n+1 {
		t.Fatalf("after %d Messages: %d at version %d", n, m, v)
	}
}
