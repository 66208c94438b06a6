package host_test

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/host/teahost"
)

// These tests guard the seam: both hosts bind to a real contract with no
// adapter code, and both kinds of completion settle on them, including a
// result that a Cmd produces after the dispatch returned.

type model struct {
	Names []string
	Title string
}

type msg interface{}

type Add struct {
	Name      string `json:"name"`
	RequestID string `json:"-"`
}
type Added struct {
	Index     int
	RequestID string
}
type SetTitle struct {
	Title string `json:"title"`
}

type addInput struct {
	Name string `json:"name"`
}

func update(m model, in msg) (model, func() msg) {
	switch in := in.(type) {
	case Add:
		m.Names = append(m.Names[:len(m.Names):len(m.Names)], in.Name)
		idx, id := len(m.Names)-1, in.RequestID
		// A Cmd that takes a moment, as real work does: not a wait.
		return m, func() msg { time.Sleep(time.Millisecond); return Added{Index: idx, RequestID: id} }
	case SetTitle:
		m.Title = in.Title
	}
	return m, nil
}

func contract() *agent.Contract[model, agent.NoPrincipal] {
	return agent.Make(agent.Definition[model, agent.NoPrincipal]{Capabilities: []agent.Capability[model, agent.NoPrincipal]{
		agent.ExposeMapped(agent.Mapped[addInput, Add, model, agent.NoPrincipal]{
			Description: "Add a name.",
			ToMessage: func(in addInput, call agent.Call[model, agent.NoPrincipal]) Add {
				return Add{Name: in.Name, RequestID: call.Invocation.ID}
			},
			Completion: agent.CompleteOn(
				agent.On(func(_ addInput, got Added, inv agent.Invocation) bool {
					return got.RequestID == inv.ID
				}),
			),
		}),
		agent.Expose(agent.Variant[SetTitle, model, agent.NoPrincipal]{
			Description: "Set the title.",
			Completion:  agent.When(func(m model) string { return m.Title }, func(title string, in SetTitle) bool { return title == in.Title }),
		}),
	}})
}

// exercise runs concurrent correlated creations and a state completion.
func exercise(t *testing.T, rt interface {
	DispatchUnknown(context.Context, string, json.RawMessage, agent.Invocation) (agent.Result, error)
}, names func() []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := rt.DispatchUnknown(ctx, "add", json.RawMessage(`{"name":"same"}`), agent.Invocation{})
			if err != nil {
				t.Errorf("add %d: %v", i, err)
				return
			}
			if got := res.Completion.Message.(Added); got.RequestID != res.Invocation.ID {
				t.Errorf("add %d completed on another call's Message", i)
			}
		}()
	}
	wg.Wait()
	if got := len(names()); got != n {
		t.Fatalf("%d names, want %d", got, n)
	}
	res, err := rt.DispatchUnknown(ctx, "set_title", json.RawMessage(`{"title":"done"}`), agent.Invocation{})
	if err != nil || res.Completion == nil || res.Completion.Status != agent.Completed {
		t.Fatalf("set_title: %+v %v", res, err)
	}
}

func TestLoopProgramIsAHost(t *testing.T) {
	p := loop.New(loop.Funcs(
		func() (model, loop.Cmd[msg]) { return model{}, nil },
		func(m model, in msg) (model, loop.Cmd[msg]) {
			m, then := update(m, in)
			if then == nil {
				return m, nil
			}
			return m, func(_ context.Context, send func(msg)) { send(then()) }
		},
	), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx)
	rt, err := agent.Bind(contract(), p, nil) // no adapter code, no type arguments
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, rt, func() []string { return p.Model().Names })
}

type teaModel struct{ model }

func (m teaModel) Init() tea.Cmd { return nil }
func (m teaModel) Update(in tea.Msg) (tea.Model, tea.Cmd) {
	next, then := update(m.model, in)
	m.model = next
	if then == nil {
		return m, nil
	}
	return m, func() tea.Msg { return then() }
}
func (m teaModel) View() tea.View { return tea.NewView(m.Title) }

type teaMsg = tea.Msg

func TestTeaHostIsAHost(t *testing.T) {
	h := teahost.New[teaModel, teaMsg](teaModel{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = h.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignals())
	}()
	defer func() { cancel(); <-done }()
	c := agent.Make(agent.Definition[teaModel, agent.NoPrincipal]{Capabilities: []agent.Capability[teaModel, agent.NoPrincipal]{
		agent.ExposeMapped(agent.Mapped[addInput, Add, teaModel, agent.NoPrincipal]{
			Description: "Add a name.",
			ToMessage: func(in addInput, call agent.Call[teaModel, agent.NoPrincipal]) Add {
				return Add{Name: in.Name, RequestID: call.Invocation.ID}
			},
			Completion: agent.CompleteOn(
				agent.On(func(_ addInput, got Added, inv agent.Invocation) bool {
					return got.RequestID == inv.ID
				}),
			),
		}),
		agent.Expose(agent.Variant[SetTitle, teaModel, agent.NoPrincipal]{
			Description: "Set the title.",
			Completion:  agent.When(func(m teaModel) string { return m.Title }, func(title string, in SetTitle) bool { return title == in.Title }),
		}),
	}})
	rt, err := agent.Bind(c, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, rt, func() []string { return h.Model().Names })
	if h.Model().View().Content != "done" {
		t.Fatal("the screen does not show the agent's title")
	}
}
