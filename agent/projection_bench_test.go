package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// benchContextRuntime binds a contract whose context projects n todos and
// the selection, on the benchHost (which answers Model without locking).
func benchContextRuntime(n int) (*agent.Runtime[Model, Msg, User], Model) {
	m := Model{Selected: "t0"}
	for i := range n {
		m.Todos = append(m.Todos, Todo{ID: fmt.Sprintf("t%d", i), Title: fmt.Sprintf("Todo number %d, with a title of ordinary length", i), Done: i%3 == 0})
	}
	c := agent.Make(agent.Definition[Model, User]{
		Context: agent.Project(func(m Model) contextView { return contextView{Todos: m.Todos, Selected: m.Selected} }),
	})
	return agent.MustBind(c, &benchHost{model: m}, nil), m
}

// BenchmarkContext measures Runtime.Context: read the Model, project it,
// encode it, and check the JSON against the advertised schema. Compare
// with BenchmarkContextBaseline, which only encodes the same value.
func BenchmarkContext(b *testing.B) {
	for _, n := range []int{1, 20, 200} {
		b.Run(fmt.Sprintf("todos=%d", n), func(b *testing.B) {
			rt, _ := benchContextRuntime(n)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := rt.Context(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkContextBaseline is what a hand-written handler does: encode the
// projected value with encoding/json and nothing else.
func BenchmarkContextBaseline(b *testing.B) {
	for _, n := range []int{1, 20, 200} {
		b.Run(fmt.Sprintf("todos=%d", n), func(b *testing.B) {
			_, m := benchContextRuntime(n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(contextView{Todos: m.Todos, Selected: m.Selected}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
