package keyact_test

import (
	"context"
	"encoding/json"
	"io"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/keyact"
)

// menu is a key-driven model: a cursor over rows, "x" marks the row under
// it, "?" opens help, in which keys do nothing but "?" again.
type menu struct {
	Cursor int
	Marked []int
	Help   bool
}

func (m menu) Init() tea.Cmd { return nil }
func (m menu) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok:
	case k.String() == "?":
		m.Help = !m.Help
	case m.Help:
	case k.String() == "down":
		m.Cursor++
	case k.String() == "x":
		m.Marked = append(append([]int(nil), m.Marked...), m.Cursor)
	}
	return m, nil
}
func (m menu) View() tea.View { return tea.NewView("menu") }

type row struct {
	Row int `json:"row"`
}

var contract = agent.Make(agent.Definition[menu, agent.NoPrincipal]{
	Capabilities: []agent.Capability[menu, agent.NoPrincipal]{
		keyact.Expose(keyact.Action[row, menu, agent.NoPrincipal]{
			Name: "mark_below", Description: "Move down by the given rows and mark the row there.",
			Available: func(m menu) bool { return !m.Help },
			Depends:   func(m menu) any { return m.Cursor },
			Keys: func(in row, _ menu) []tea.KeyPressMsg {
				keys := make([]tea.KeyPressMsg, 0, in.Row+1)
				for range in.Row {
					keys = append(keys, teahost.Key("down"))
				}
				return append(keys, teahost.Key("x"))
			},
		}),
		keyact.Expose(keyact.Action[struct{}, menu, agent.NoPrincipal]{
			Name: "toggle_help", Description: "Open or close the help.",
			Keys: func(struct{}, menu) []tea.KeyPressMsg { return []tea.KeyPressMsg{teahost.Key("?")} },
		}),
	},
})

// signalling tells the test when the runtime has handed a call's Message
// to the host.
type signalling struct {
	*teahost.Host[menu, tea.Msg]
	sent chan struct{}
}

func (s signalling) DispatchTracked(ctx context.Context, msg tea.Msg, delivered func(error)) error {
	err := s.Host.DispatchTracked(ctx, msg, delivered)
	s.sent <- struct{}{}
	return err
}

// rigged runs menu with a listener that can hold the event loop, so that a
// call reads its snapshot, the person's key is queued, and only then do
// both land: the person typing while the agent decides.
type rigged struct {
	h       signalling
	rt      *agent.Runtime[menu, tea.Msg, agent.NoPrincipal]
	holding chan struct{} // closed by the held listener once it waits
	release chan struct{}
	hold    atomic.Bool
}

func (r *rigged) callBehind(t *testing.T, person, name, in string) *agent.Completion {
	t.Helper()
	ctx := context.Background()
	r.holding, r.release = make(chan struct{}), make(chan struct{})
	r.hold.Store(true)
	_ = r.h.Dispatch(ctx, teahost.Key("left")) // an Update whose listener holds the loop
	<-r.holding
	_ = r.h.Dispatch(ctx, teahost.Key(person))
	done := make(chan *agent.Completion, 1)
	go func() {
		res, err := r.rt.DispatchUnknown(ctx, name, json.RawMessage(in), agent.Invocation{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		done <- res.Completion
	}()
	var c *agent.Completion
	select {
	case <-r.h.sent:
		close(r.release)
		c = <-done
	case c = <-done: // refused before it was sent
		close(r.release)
	}
	if c == nil {
		t.Fatalf("%s: no completion", name)
	}
	return c
}

func TestKeysLandOnlyWhereTheyWereComputed(t *testing.T) {
	host := teahost.New[menu, tea.Msg](menu{}, nil)
	r := &rigged{h: signalling{host, make(chan struct{}, 8)}}
	r.rt = agent.MustBind(contract, agent.Host[menu, tea.Msg](r.h), nil)
	host.Subscribe(func() {
		if r.hold.CompareAndSwap(true, false) {
			close(r.holding)
			<-r.release
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go host.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard))

	res, err := r.rt.DispatchUnknown(ctx, "mark_below", json.RawMessage(`{"row":2}`), agent.Invocation{})
	<-r.h.sent
	if err != nil {
		t.Fatal(err)
	}
	c := res.Completion
	d, ok := c.Message.(teahost.KeysDone)
	if c.Status != agent.Completed || !ok || !d.Applied || len(d.Keys) != 3 || host.Model().Cursor != 2 {
		t.Fatalf("mark_below: %+v %+v, cursor %d", c, c.Message, host.Model().Cursor)
	}
	// The person opens the help after the call read its snapshot and
	// before its keys land: none is pressed.
	c = r.callBehind(t, "?", "mark_below", `{"row":1}`)
	refused, ok := c.Message.(teahost.KeysRefused)
	if c.Status != agent.Failed || !ok || refused.Refused != keyact.NotOffered || len(refused.Keys) != 0 {
		t.Fatalf("keys in help: %+v %+v", c, c.Message)
	}
	// The person closes the help, then moves the cursor in between: the
	// same keys would mark another row, so none is pressed.
	_ = host.Dispatch(ctx, teahost.Key("?"))
	c = r.callBehind(t, "down", "mark_below", `{"row":1}`)
	refused, ok = c.Message.(teahost.KeysRefused)
	if c.Status != agent.Failed || !ok || refused.Refused != keyact.Moved {
		t.Fatalf("keys after the cursor moved: %+v %+v", c, c.Message)
	}
	if got := host.Model().Marked; len(got) != 1 || got[0] != 2 {
		t.Fatalf("marked = %v, want only the first call's row 2", got)
	}
}
