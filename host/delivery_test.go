package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/host/teahost"
)

// Delivery truth across both hosts, through a bound runtime: a stopped
// host, a full queue and a queue abandoned with the agent's Message in it
// are each reported to the agent as not delivered (a typed refusal,
// audited refused), never as dispatched or as having reached update.

// Gate blocks update until the test releases it.
type Gate struct{}

type plainTitle struct {
	Title string `json:"title"`
}

// deliveryContract exposes set_title without a completion contract, so
// that "dispatched" rests on delivery alone.
func deliveryContract[M any](title func(M) string) *agent.Contract[M, agent.NoPrincipal] {
	return agent.Make(agent.Definition[M, agent.NoPrincipal]{Capabilities: []agent.Capability[M, agent.NoPrincipal]{
		agent.ExposeMapped(agent.Mapped[plainTitle, SetTitle, M, agent.NoPrincipal]{
			Name:        "set_title",
			Description: "Set the title.",
			ToMessage:   func(in plainTitle, _ agent.Call[M, agent.NoPrincipal]) SetTitle { return SetTitle(in) },
		}),
	}})
}

// deliveryHost is one host under test, with the knobs the faults need.
type deliveryHost struct {
	name string
	// build returns a runtime over a fresh host with the given MaxQueue,
	// whose update blocks on Gate until release is closed and signals
	// entered; title reads the final title.
	build func(t *testing.T, maxQueue int, entered, release chan struct{}, audit *agent.AuditLog[agent.NoPrincipal]) *hostUnderTest
}

type hostUnderTest struct {
	rt interface {
		DispatchUnknown(context.Context, string, json.RawMessage, agent.Invocation) (agent.Result, error)
	}
	dispatch func(m any) error               // the host's own Dispatch
	run      func(ctx context.Context) error // runs until ctx ends or the host stops
	stop     func()                          // stops the host (before or while it runs)
	title    func() string
}

func deliveryHosts() []deliveryHost {
	gatedUpdate := func(entered, release chan struct{}) func(model, msg) model {
		return func(m model, in msg) model {
			if _, ok := in.(Gate); ok {
				entered <- struct{}{}
				<-release
			}
			m, _ = update(m, in)
			return m
		}
	}
	return []deliveryHost{
		{name: "loop", build: func(t *testing.T, maxQueue int, entered, release chan struct{}, audit *agent.AuditLog[agent.NoPrincipal]) *hostUnderTest {
			up := gatedUpdate(entered, release)
			p := loop.New(loop.Funcs(
				func() (model, loop.Cmd[msg]) { return model{}, nil },
				func(m model, in msg) (model, loop.Cmd[msg]) { return up(m, in), nil },
			), &loop.Options[msg]{MaxQueue: maxQueue})
			rt := agent.MustBind(deliveryContract(func(m model) string { return m.Title }), p, &agent.BindOptions[agent.NoPrincipal]{Audit: audit})
			return &hostUnderTest{
				rt:       rt,
				dispatch: func(m any) error { return p.Dispatch(context.Background(), m) },
				run:      p.Run,
				stop:     func() { _ = p.Stop(context.Background()) },
				title:    func() string { return p.Model().Title },
			}
		}},
		{name: "teahost", build: func(t *testing.T, maxQueue int, entered, release chan struct{}, audit *agent.AuditLog[agent.NoPrincipal]) *hostUnderTest {
			h := teahost.New[gatedTea, tea.Msg](gatedTea{up: gatedUpdate(entered, release)}, &teahost.Options{MaxQueue: maxQueue})
			rt := agent.MustBind(deliveryContract(func(m gatedTea) string { return m.Title }), h, &agent.BindOptions[agent.NoPrincipal]{Audit: audit})
			return &hostUnderTest{
				rt:       rt,
				dispatch: func(m any) error { return h.Dispatch(context.Background(), m) },
				run: func(ctx context.Context) error {
					_, err := h.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignals())
					return err
				},
				stop:  func() { _ = h.Quit() },
				title: func() string { return h.Model().Title },
			}
		}},
	}
}

type gatedTea struct {
	model
	up func(model, msg) model
}

func (m gatedTea) Init() tea.Cmd { return nil }
func (m gatedTea) Update(in tea.Msg) (tea.Model, tea.Cmd) {
	m.model = m.up(m.model, in)
	return m, nil
}
func (m gatedTea) View() tea.View { return tea.NewView(m.Title) }

func setTitle(t *testing.T, h *hostUnderTest) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := h.rt.DispatchUnknown(ctx, "set_title", json.RawMessage(`{"title":"x"}`), agent.Invocation{})
	return err
}

func assertNotDelivered(t *testing.T, err error, audit *agent.AuditLog[agent.NoPrincipal]) {
	t.Helper()
	var nd *agent.NotDeliveredError
	if !errors.As(err, &nd) || !nd.RetrySafe {
		t.Fatalf("err = %v, want a *NotDeliveredError", err)
	}
	if strings.Contains(err.Error(), "reached update") {
		t.Fatalf("a Message update never saw is reported as having reached it: %q", err.Error())
	}
	e := audit.Entries()
	if len(e) != 1 || e[0].Decision != agent.DecisionRefused || e[0].Outcome != agent.TagNotDelivered {
		t.Fatalf("audit = %+v, want one refused entry with outcome %s", e, agent.TagNotDelivered)
	}
	if r := agent.ReplyTo("set_title", agent.Result{}, err); r.Defect || r.Tag != agent.TagNotDelivered {
		t.Fatalf("reply = %+v", r)
	}
}

func TestHostsReportNotDelivered(t *testing.T) {
	for _, dh := range deliveryHosts() {
		t.Run(dh.name+"/stopped", func(t *testing.T) {
			audit := agent.NewAuditLog(agent.AuditOptions[agent.NoPrincipal]{})
			h := dh.build(t, 0, make(chan struct{}, 1), make(chan struct{}), audit)
			h.stop() // loop: Stop before Run; teahost: Quit, so the program is stopping
			assertNotDelivered(t, setTitle(t, h), audit)
			if h.title() != "" {
				t.Fatal("the refused Message was applied")
			}
		})
		t.Run(dh.name+"/queue full", func(t *testing.T) {
			audit := agent.NewAuditLog(agent.AuditOptions[agent.NoPrincipal]{})
			h := dh.build(t, 1, make(chan struct{}, 1), make(chan struct{}), audit)
			if err := h.dispatch(SetTitle{Title: "first"}); err != nil { // fills the queue; not running yet
				t.Fatal(err)
			}
			assertNotDelivered(t, setTitle(t, h), audit)
		})
		t.Run(dh.name+"/abandoned with the Message queued", func(t *testing.T) {
			for round := 0; round < 10; round++ {
				audit := agent.NewAuditLog(agent.AuditOptions[agent.NoPrincipal]{})
				entered, release := make(chan struct{}, 1), make(chan struct{})
				h := dh.build(t, 0, entered, release, audit)
				ctx, cancel := context.WithCancel(context.Background())
				ran := make(chan struct{})
				go func() { defer close(ran); _ = h.run(ctx) }()
				if err := h.dispatch(Gate{}); err != nil {
					t.Fatal(err)
				}
				<-entered // update is held: the agent's Message waits in the queue
				got := make(chan error, 1)
				go func() { got <- setTitle(t, h) }()
				time.Sleep(time.Millisecond) // usually queued by now; refused at once otherwise, which is also not delivered
				cancel()
				close(release)
				<-ran
				err := <-got
				applied := h.title() == "x"
				switch {
				case applied && err != nil:
					t.Fatalf("update received the Message but the agent was told %v", err)
				case !applied:
					assertNotDelivered(t, err, audit)
				case audit.Entries()[0].Decision != agent.DecisionDispatched:
					t.Fatalf("delivered, but audited %s", audit.Entries()[0].Decision)
				}
			}
		})
	}
}
