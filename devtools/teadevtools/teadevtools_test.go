package teadevtools_test

import (
	"context"
	"encoding/json"
	"errors"
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

// The person's keys and window, an agent and the application's own
// dispatch are told apart: only real input is the person's.
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
	if err := h.Dispatch(context.Background(), note{Text: "from the app"}); err != nil {
		t.Fatal(err)
	}
	<-noted
	actx := devtools.WithAgent(context.Background(), devtools.AgentOrigin{Identity: "alice", Invocation: "inv-1"})
	if err := h.Dispatch(actx, note{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	<-noted
	var byKey, byWindow, byAgent, byApp int
	entries, _ := d.History(devtools.Filter{})
	for _, e := range entries {
		window := e.Type == "tea.WindowSizeMsg"
		switch {
		case e.Provenance.Door == "input" && e.By == "person" && window:
			byWindow++
		case e.Provenance.Door == "input" && e.By == "person":
			byKey++
		case e.By == "agent alice" && e.Provenance.Agent.Invocation == "inv-1":
			byAgent++
		case e.Type == "teadevtools_test.note" && e.By == "app" && e.Provenance.Door == "dispatch":
			byApp++
		case e.By == "person":
			t.Errorf("v%d %s recorded as the person's", e.Version, e.Type)
		}
	}
	if byKey != 1 || byWindow != 1 || byAgent != 1 || byApp != 1 {
		t.Fatalf("history %+v: %d keys, %d window sizes, %d agent Messages, %d of the app's own; want one of each", entries, byKey, byWindow, byAgent, byApp)
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

// Serve that cannot publish returns the error and leaves the host as it
// found it: no recorder attached, so devtools can be attached again.
func TestServeThatCannotPublishDetaches(t *testing.T) {
	h := teahost.New[pad, tea.Msg](pad{}, nil)
	refused := errors.New("registry refused")
	_, _, err := teadevtools.Serve(h, devtools.Options{App: "pad",
		Publish: func(devtools.Listing) (func() error, error) { return nil, refused }})
	if !errors.Is(err, refused) {
		t.Fatalf("Serve: %v, want the publish error", err)
	}
	d, l, err := teadevtools.Serve(h, devtools.Options{App: "pad"})
	if err != nil {
		t.Fatalf("the host kept the failed Serve's recorder: %v", err)
	}
	defer d.Close()
	if !strings.HasPrefix(l.URL, "http://127.0.0.1:") {
		t.Fatalf("listing %+v", l)
	}
}
