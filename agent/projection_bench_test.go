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
		Context: agent.Project(func(m Model) contextView { return contextView(m) }),
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
				if _, err := json.Marshal(contextView(m)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type pricedTodo struct {
	Title string    `json:"title"`
	Price WirePrice `json:"price"`
}

type pricedList struct {
	Items []pricedTodo `json:"items"`
}

func pricedListOf(n int) pricedList {
	var l pricedList
	for i := range n {
		l.Items = append(l.Items, pricedTodo{Title: fmt.Sprintf("Item number %d, with a title of ordinary length", i), Price: WirePrice{Cents: 100 + i}})
	}
	return l
}

// BenchmarkContextChecked measures Runtime.Context for a projection that
// holds a WireSchema type, whose encoded value is checked against the
// schema on every read. Compare with BenchmarkContextCheckedBaseline.
func BenchmarkContextChecked(b *testing.B) {
	for _, n := range []int{1, 20, 200} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			l := pricedListOf(n)
			c := agent.Make(agent.Definition[pricedModel, User]{
				Context: agent.Project(func(pricedModel) pricedList { return l }),
			})
			rt := agent.MustBind(c, &pricedHost{}, nil)
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

// BenchmarkContextCheckedBaseline only encodes the same value.
func BenchmarkContextCheckedBaseline(b *testing.B) {
	for _, n := range []int{1, 20, 200} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			l := pricedListOf(n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(l); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
