package teadevtools_test

import (
	"context"
	"encoding/json"
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

// The environment the program starts with is recorded by its names:
// a value never reaches the history.
func TestTheEnvironmentIsRecordedWithoutItsValues(t *testing.T) {
	h := teahost.New[pad, tea.Msg](pad{}, nil)
	d, err := teadevtools.Attach(h, devtools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	envSeen := make(chan struct{}, 1)
	h.Observe(func(m tea.Msg) {
		if _, ok := m.(tea.EnvMsg); ok {
			envSeen <- struct{}{}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	screen := teahosttest.NewScreen(40, 5)
	go func() {
		defer close(done)
		_, _ = h.Run(ctx, append(screen.ProgramOptions(), tea.WithEnvironment([]string{"API_KEY=hunter2", "TERM=xterm"}))...)
	}()
	defer func() { cancel(); <-done }()
	<-envSeen
	// The recorder runs before the Observe listeners (teahost.Host.Record).
	entries, _ := d.History(devtools.Filter{Type: "teadevtools.Environment"})
	if len(entries) != 1 {
		t.Fatalf("%d environments recorded", len(entries))
	}
	b, _ := json.Marshal(entries[0].Message)
	found := string(b)
	if strings.Contains(found, "hunter2") || !strings.Contains(found, "API_KEY=[redacted]") {
		t.Fatalf("the environment as recorded: %s", found)
	}
}
