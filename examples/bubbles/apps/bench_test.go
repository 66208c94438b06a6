package apps_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/bubbles/apps"
	"github.com/foldagent/foldagent/host/teahost"
)

// BenchmarkSnapshot measures what publishing a copy of every model costs,
// on bubbles' list with 100 items: "share" is the path before (the Host
// publishes the model Update returned, which the list then changes in
// place), "copy" the path now (a deep copy taken on the event loop after
// each Update). apply is one key Message applied by the running program,
// from Dispatch until listeners are told; read is an agent's context read.
// Run interleaved and compare ratios:
//
//	go test -run '^$' -bench Snapshot -count 6 ./examples/bubbles/apps
func BenchmarkSnapshot(b *testing.B) {
	names := make([]string, 100)
	for i := range names {
		names[i] = fmt.Sprintf("grocery %03d", i)
	}
	for _, share := range []bool{true, false} {
		mode := map[bool]string{true: "share", false: "copy"}[share]
		h := teahost.New[apps.Pantry, tea.Msg](apps.NewPantry(names...), &teahost.Options{ShareModel: share, WithoutView: true})
		rt := agent.MustBind(apps.PantryContract, h, nil)
		applied := make(chan struct{}, 1)
		h.Observe(func(m tea.Msg) {
			if _, ok := m.(tea.KeyPressMsg); ok { // only the benchmark's own
				applied <- struct{}{}
			}
		})
		ctx, cancel := context.WithCancel(context.Background())
		go h.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard))
		keys := []tea.KeyPressMsg{teahost.Key("down"), teahost.Key("up")}
		b.Run("apply/"+mode, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if err := h.Dispatch(ctx, keys[i%2]); err != nil {
					b.Fatal(err)
				}
				<-applied
			}
		})
		b.Run("read/"+mode, func(b *testing.B) {
			for b.Loop() {
				if _, err := rt.Context(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
		cancel()
		<-h.Done()
	}
}
