package teahost_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
)

// inPlace changes itself in place on a bump, and copies itself on a
// setTitle, as it should.
type inPlace struct {
	Title string
	N     int
}

func (m *inPlace) Init() tea.Cmd { return nil }
func (m *inPlace) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case bump:
		m.N += msg.N
	case setTitle:
		c := *m
		c.Title = msg.Title
		return &c, nil
	}
	return m, nil
}
func (m *inPlace) View() tea.View { return tea.NewView(fmt.Sprintf("title: %s n: %d", m.Title, m.N)) }

const violationShown = "foldagent: agents' view of this program may be wrong"

// A model changed in place is shown to the person and, by default,
// agents' calls are refused with a typed error that reports non-delivery,
// for the rest of the run: a later sound Update does not undo the sharing.
// The application's own Dispatch goes on meanwhile.
func TestViolationShownAndCallsRefused(t *testing.T) {
	h := teahost.New[*inPlace, agentMsg](&inPlace{}, &teahost.Options{ShareModel: true, OnViolation: func(*teahost.Violation) {}})
	wait := waitObserved(t, h)
	r := runHeadless(t, h, nil)
	if err := h.Dispatch(context.Background(), bump{N: 1}); err != nil {
		t.Fatal(err)
	}
	wait(1)
	r.waitScreen(t, violationShown)

	refused := func() {
		t.Helper()
		err := h.DispatchTracked(context.Background(), setTitle{Title: "agent"}, func(error) { t.Error("a refused Message was reported") })
		var ve *teahost.ViolationError
		if !errors.As(err, &ve) || ve.Violation.Kind != teahost.MutatedInPlace || ve.Violation.Path != "(*inPlace).N" {
			t.Fatalf("DispatchTracked while a violation stands = %v, want a *ViolationError naming (*inPlace).N", err)
		}
		var nd interface{ NotDelivered() bool }
		if !errors.As(err, &nd) || !nd.NotDelivered() {
			t.Fatalf("%v does not report non-delivery", err)
		}
		if h.Violated() != ve.Violation {
			t.Fatalf("Violated = %v", h.Violated())
		}
	}
	refused()
	if err := h.Dispatch(context.Background(), setTitle{Title: "sound"}); err != nil {
		t.Fatalf("the application's own Dispatch: %v", err)
	}
	wait(2)
	r.waitScreen(t, "title: sound")
	if s := r.out.String(); !strings.Contains(s, violationShown) {
		t.Fatalf("the line went after a sound Update:\n%s", s)
	}
	refused()
}

// flip is a value model that an Update turns into another type, and
// another Update brings back.
type flip struct{ Away bool }

type away struct{}

func (flip) Init() tea.Cmd { return nil }
func (f flip) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(becomeOther); ok {
		return away{}, nil
	}
	return f, nil
}
func (flip) View() tea.View { return tea.NewView("flip") }

func (away) Init() tea.Cmd { return nil }
func (a away) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(setTitle); ok {
		return flip{}, nil
	}
	return a, nil
}
func (away) View() tea.View { return tea.NewView("away") }

// A model of another type stands until an Update returns the Host's type
// again: calls are refused, and the line shown, until then.
func TestTypeChangeStandsUntilTheTypeComesBack(t *testing.T) {
	h := teahost.New[flip, agentMsg](flip{}, &teahost.Options{OnViolation: func(*teahost.Violation) {}})
	r := runHeadless(t, h, nil)
	if err := h.Dispatch(context.Background(), becomeOther{}); err != nil {
		t.Fatal(err)
	}
	r.waitScreen(t, violationShown)
	var ve *teahost.ViolationError
	if err := h.DispatchTracked(context.Background(), bump{}, func(error) {}); !errors.As(err, &ve) || ve.Violation.Kind != teahost.TypeChanged {
		t.Fatalf("DispatchTracked = %v, want a *ViolationError", err)
	}
	if err := h.Dispatch(context.Background(), setTitle{}); err != nil {
		t.Fatal(err)
	}
	r.waitScreen(t, "flip")
	if s := r.out.String(); strings.Contains(s, "foldagent") || h.Violated() != nil {
		t.Fatalf("the violation stands (%v) once the type is back:\n%s", h.Violated(), s)
	}
	delivered := make(chan error, 1)
	if err := h.DispatchTracked(context.Background(), bump{}, func(err error) { delivered <- err }); err != nil {
		t.Fatalf("DispatchTracked once the type is back: %v", err)
	}
	if err := <-delivered; err != nil {
		t.Fatal(err)
	}
}

// With ServeDespiteViolation the person still sees the violation, told
// that calls go on, and they do.
func TestServeDespiteViolationShowsItAndServes(t *testing.T) {
	h := teahost.New[*inPlace, agentMsg](&inPlace{}, &teahost.Options{ShareModel: true, ServeDespiteViolation: true, OnViolation: func(*teahost.Violation) {}})
	wait := waitObserved(t, h)
	r := runHeadless(t, h, nil)
	if err := h.Dispatch(context.Background(), bump{N: 1}); err != nil {
		t.Fatal(err)
	}
	wait(1)
	r.waitScreen(t, violationShown)
	if h.Violated() == nil {
		t.Fatal("no violation standing")
	}
	delivered := make(chan error, 1)
	if err := h.DispatchTracked(context.Background(), setTitle{Title: "agent"}, func(err error) { delivered <- err }); err != nil {
		t.Fatalf("DispatchTracked with ServeDespiteViolation: %v", err)
	}
	if err := <-delivered; err != nil {
		t.Fatal(err)
	}
}

// An agent's call through agent.Runtime, while a violation stands, is
// refused as not delivered (nothing happened; retry-safe), and the
// application's log can reach the violation through the error.
func TestAgentCallRefusedWhileViolationStands(t *testing.T) {
	h := teahost.New[*inPlace, agentMsg](&inPlace{}, &teahost.Options{ShareModel: true, OnViolation: func(*teahost.Violation) {}})
	c := agent.Make(agent.Definition[*inPlace, agent.NoPrincipal]{
		Capabilities: []agent.Capability[*inPlace, agent.NoPrincipal]{
			agent.Expose(agent.Variant[bump, *inPlace, agent.NoPrincipal]{Name: "bump", Description: "Add to the count."}),
		},
	})
	rt, err := agent.Bind(c, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	wait := waitObserved(t, h)
	runHeadless(t, h, nil)
	if _, err := rt.DispatchUnknown(context.Background(), "bump", json.RawMessage(`{"N":1}`), agent.Invocation{}); err != nil {
		t.Fatalf("the first bump: %v", err)
	}
	wait(1)
	_, err = rt.DispatchUnknown(context.Background(), "bump", json.RawMessage(`{"N":1}`), agent.Invocation{})
	var nd *agent.NotDeliveredError
	var ve *teahost.ViolationError
	if !errors.As(err, &nd) || !nd.RetrySafe || !errors.As(err, &ve) {
		t.Fatalf("a call while the violation stands = %v, want a retry-safe NotDeliveredError wrapping a ViolationError", err)
	}
	if got := h.Model().N; got != 1 {
		t.Fatalf("N = %d after the refused call, want 1", got)
	}
}
