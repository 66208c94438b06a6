package loop_test

import (
	"context"
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
