package teahost_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/teahosttest"
)

// keyed is an application that lets an agent press keys (its contract
// exposes tea.KeyPressMsg) and keeps the keys it is given.
type keyed struct {
	name, keys string
}

type retitle struct{ Name string }

func (k keyed) Init() tea.Cmd { return nil }
func (k keyed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case retitle:
		k.name = msg.Name
	case tea.KeyPressMsg:
		k.keys += msg.String()
	}
	return k, nil
}
func (k keyed) View() tea.View { return tea.NewView("name: " + k.name + "\nkeys: " + k.keys) }

type pressIn struct {
	Key string `json:"key"`
}

func keyedContract() *agent.Contract[keyed, agent.NoPrincipal] {
	return agent.Make(agent.Definition[keyed, agent.NoPrincipal]{
		Context: agent.Project(func(k keyed) string { return k.name }),
		Capabilities: []agent.Capability[keyed, agent.NoPrincipal]{
			agent.Expose(agent.Variant[retitle, keyed, agent.NoPrincipal]{
				Name: "retitle", Description: "Rename.",
				Approval: &agent.Approval[retitle, keyed, agent.NoPrincipal]{Summary: "Rename it."},
			}),
			agent.ExposeMapped(agent.Mapped[pressIn, tea.KeyPressMsg, keyed, agent.NoPrincipal]{
				Name: "press_key", Description: "Press a key in the application.",
				ToMessage: func(in pressIn, _ agent.Call[keyed, agent.NoPrincipal]) tea.KeyPressMsg {
					r := []rune(in.Key)
					return tea.KeyPressMsg{Code: r[0], Text: in.Key}
				},
			}),
		},
	})
}

// An agent that may press keys in the application asks for the person's
// approval, waits until the card has settled, and presses y itself. The y
// is the agent's Message, not the person's key: it reaches the
// application as any Message of the agent's does, and answers no card;
// the request still waits for the person.
func TestAnAgentsKeyNeverAnswersACard(t *testing.T) {
	var clock atomic.Int64 // ms since t0
	t0 := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	now := func() time.Time { return t0.Add(time.Duration(clock.Load()) * time.Millisecond) }
	screen := teahosttest.NewScreen(80, 20)
	h := teahost.New[keyed, tea.Msg](keyed{name: "mine"}, &teahost.Options{Approvals: &teahost.ApprovalOptions{Now: now}})
	rt, err := agent.Bind(keyedContract(), h, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan struct{})
	go func() { defer close(done); _, _ = h.Run(ctx, screen.ProgramOptions()...) }()
	defer func() { h.Quit(); <-done }()

	moved := make(chan struct{}, 1)
	defer h.Subscribe(func() {
		select {
		case moved <- struct{}{}:
		default:
		}
	})()

	agentCtx, giveUp := context.WithCancel(agent.WithCaller(ctx, "mcp:session:A"))
	var wg sync.WaitGroup
	var held error
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, held = rt.DispatchUnknown(agentCtx, "retitle", json.RawMessage(`{"Name":"pwned"}`), agent.Invocation{Transport: agent.MCP})
	}()
	if err := screen.WaitFor(ctx, "APPROVE? Rename it."); err != nil {
		t.Fatal(err)
	}
	clock.Store(5000) // the card has settled
	if _, err := rt.DispatchUnknown(agent.WithCaller(ctx, "mcp:session:A"), "press_key", json.RawMessage(`{"key":"y"}`), agent.Invocation{Transport: agent.MCP}); err != nil {
		t.Fatal(err)
	}
	for {
		m := h.Model()
		if m.name == "pwned" {
			t.Fatal("the agent's own y approved its request")
		}
		if strings.Contains(m.keys, "y") {
			break
		}
		select {
		case <-moved:
		case <-ctx.Done():
			t.Fatalf("the agent's y neither reached the application nor approved: %+v, pending %d", m, len(rt.PendingApprovals()))
		}
	}
	if n := len(rt.PendingApprovals()); n != 1 {
		t.Fatalf("%d requests pending after the agent's y, want its request still waiting", n)
	}
	giveUp()
	wg.Wait()
	if held == nil || h.Model().name != "mine" {
		t.Fatalf("the request given up: %v, name %q", held, h.Model().name)
	}
}
