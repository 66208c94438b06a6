package teadevtools_test

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/devtools"
	"github.com/foldagent/foldagent/devtools/teadevtools"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/teahosttest"
)

type note struct{ Text string }

type pad struct {
	Keys string `json:"keys"`
	Note string `json:"note"`
}

func (p pad) Init() tea.Cmd { return nil }
func (p pad) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		p.Keys += msg.String()
	case note:
		p.Note = msg.Text
	}
	return p, nil
}
func (p pad) View() tea.View { return tea.NewView(p.Keys + "|" + p.Note) }

func TestTheKeysAndAnAgentAreToldApart(t *testing.T) {
	h := teahost.New[pad, tea.Msg](pad{}, nil)
	d, err := teadevtools.Attach(h, devtools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	noted := make(chan struct{}, 1)
	h.Observe(func(m tea.Msg) {
		if _, ok := m.(note); ok {
			noted <- struct{}{}
		}
	})
	keyed := make(chan struct{}, 1)
	h.Subscribe(func() {
		if h.Model().Keys == "k" {
			select {
			case keyed <- struct{}{}:
			default:
			}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	screen := teahosttest.NewScreen(40, 5)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = h.Run(ctx, append(screen.ProgramOptions(), tea.WithInput(strings.NewReader("k")))...)
	}()
	defer func() { cancel(); <-done }()
	<-keyed
	actx := devtools.WithAgent(context.Background(), devtools.AgentOrigin{Identity: "alice", Invocation: "inv-1"})
	if err := h.Dispatch(actx, note{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	<-noted
	var byKey, byAgent int
	entries, _ := d.History(devtools.Filter{})
	for _, e := range entries {
		switch {
		case e.Provenance.Door == "input" && e.By == "person":
			byKey++
		case e.By == "agent alice" && e.Provenance.Agent.Invocation == "inv-1":
			byAgent++
		}
	}
	if byKey != 1 || byAgent != 1 {
		t.Fatalf("history %+v: %d keys, %d agent Messages; want one of each", entries, byKey, byAgent)
	}
	last := entries[len(entries)-1]
	if _, m, err := d.Replay(ctx, last.Version); err != nil || m.Note != "hi" {
		t.Errorf("replay to %d: %v", last.Version, err)
	}
}
