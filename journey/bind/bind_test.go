package bind_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
	"github.com/foldagent/foldagent/journey/fixed"
)

// A counter with two pages: the counter, and a page that can only be
// reached when the count is positive.
type counter struct {
	Page  string
	Count int
}

type (
	Increment struct{}
	Open      struct{}
	Home      struct{}
)

type np = agent.NoPrincipal

func counterApp() loop.App[counter, any] {
	return loop.Funcs(func() (counter, loop.Cmd[any]) { return counter{Page: "home"}, nil },
		func(m counter, msg any) (counter, loop.Cmd[any]) {
			switch msg.(type) {
			case Increment:
				m.Count++
			case Open:
				m.Page = "detail"
			case Home:
				m.Page = "home"
			}
			return m, nil
		})
}

// capabilities are declared per test so one can be renamed.
type capabilities struct {
	inc  *agent.Exposed[Increment, counter, np]
	open *agent.Exposed[Open, counter, np]
	home *agent.Exposed[Home, counter, np]
}

func declare(incName string) capabilities {
	return capabilities{
		inc: agent.Expose(agent.Variant[Increment, counter, np]{Name: incName, Description: "Add one."}),
		open: agent.Expose(agent.Variant[Open, counter, np]{Name: "open_detail", Description: "Open the detail page.",
			Available: func(m counter) bool { return m.Count > 0 }}),
		home: agent.Expose(agent.Variant[Home, counter, np]{Name: "go_home", Description: "Go home."}),
	}
}

func (c capabilities) contract() *agent.Contract[counter, np] {
	return agent.Make(agent.Definition[counter, np]{Capabilities: []agent.Capability[counter, np]{c.inc, c.open, c.home}})
}

// graph is the one journey declaration: it names capabilities only by
// their handles.
func graph(c capabilities) bind.Def[counter, np] {
	return bind.Def[counter, np]{
		Page:  func(m counter) string { return m.Page },
		State: func(m counter) map[string]any { return map[string]any{"count": m.Count} },
		Pages: []bind.Page[counter, np]{
			{ID: "home", Actions: []bind.Action[counter, np]{
				{Name: "increment", Does: "Add one.", Capability: c.inc, Writes: []string{"count"}},
				{Name: "open", Does: "Open the detail page.", Capability: c.open, GoTo: "detail"},
			}},
			{ID: "detail", Actions: []bind.Action[counter, np]{
				{Name: "home", Does: "Go home.", Capability: c.home, GoTo: "home"},
			}},
		},
		Journeys: []journey.Journey{{ID: "visit", Does: "Count and open the detail page.", Steps: []string{"increment", "open"}}},
	}
}

type running struct {
	p       *loop.Program[counter, any]
	rt      *agent.Runtime[counter, any, np]
	audit   *agent.AuditLog[np]
	entries chan agent.AuditEntry
}

type sink chan agent.AuditEntry

func (s sink) Record(e agent.AuditEntry) error { s <- e; return nil }

// next waits for the contract's next audit entry: a fire can come to rest
// on the Model change its Message caused just before the runtime records
// the dispatch.
func (r running) next(t *testing.T) agent.AuditEntry {
	t.Helper()
	select {
	case e := <-r.entries:
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no audit entry")
	}
	return agent.AuditEntry{}
}

func run(t *testing.T, c *agent.Contract[counter, np]) running {
	t.Helper()
	p := loop.New(counterApp(), nil)
	entries := make(sink, 64)
	audit := agent.NewAuditLog(agent.AuditOptions[np]{Sinks: []agent.AuditSink{entries}})
	rt := started(t, c, p, &agent.BindOptions[np]{Audit: audit})
	return running{p, rt, audit, entries}
}

// started binds c to p and runs p until the test ends.
func started[M, Msg any](t *testing.T, c *agent.Contract[M, np], p *loop.Program[M, Msg], opts *agent.BindOptions[np]) *agent.Runtime[M, Msg, np] {
	t.Helper()
	rt, err := agent.Bind(c, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = p.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return rt
}

func settle(t *testing.T, s *journey.Session, id string) journey.Settlement {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := s.SettlementOf(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func fire(t *testing.T, s *journey.Session, action string) journey.Settlement {
	t.Helper()
	r := s.Fire(context.Background(), action, journey.FireOptions{})
	if !r.OK {
		t.Fatalf("%s refused: %+v", action, r)
	}
	return settle(t, s, r.TransitionID)
}

// A capability renamed in the contract is followed by the journey: the
// declaration (graph) is the same code, and the fire reaches the
// capability under its new name.
func TestRenamedCapabilityIsFollowed(t *testing.T) {
	for _, name := range []string{"increment", "add_one"} {
		c := declare(name)
		r := run(t, c.contract())
		j, err := bind.New("counter", r.rt, r.p.Model, graph(c), bind.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer j.Close()
		st := fire(t, j.Session(), "home.increment")
		if st.EffectStatus != journey.EffectPerformed || st.Outcome != journey.OutcomeCommitted {
			t.Fatalf("%s: %+v", name, st)
		}
		if got := r.p.Model().Count; got != 1 {
			t.Fatalf("%s: count %d", name, got)
		}
		if e := r.next(t); e.Capability != name || e.Decision != agent.DecisionDispatched {
			t.Fatalf("%s: audit %+v", name, e)
		}
	}
}

// A journey naming a capability the contract does not expose fails when
// it is built, naming the action and the capability.
func TestUnexposedCapabilityFailsAtConstruction(t *testing.T) {
	c := declare("increment")
	// The contract leaves go_home out.
	partial := agent.Make(agent.Definition[counter, np]{Capabilities: []agent.Capability[counter, np]{c.inc, c.open}})
	r := run(t, partial)
	_, err := bind.New("counter", r.rt, r.p.Model, graph(c), bind.Options{})
	if err == nil || !strings.Contains(err.Error(), `"detail.home"`) || !strings.Contains(err.Error(), `"go_home"`) {
		t.Fatalf("want an error naming detail.home and go_home, got %v", err)
	}
	// A handle with the same name from another declaration is not the
	// contract's either.
	other := declare("increment")
	g := graph(c)
	g.Pages[0].Actions[0].Capability = other.inc
	if _, err := bind.New("counter", run(t, c.contract()).rt, r.p.Model, g, bind.Options{}); err == nil || !strings.Contains(err.Error(), `"home.increment"`) {
		t.Fatalf("a look-alike handle was accepted: %v", err)
	}
}

// A bound journey's approvals are the contract's: the journey's own
// cards would wait for an answer no screen asks for, so asking for them
// fails at construction, naming the option and the contract's way.
func TestJourneyApprovalCardsAreRefusedWhenBound(t *testing.T) {
	c := declare("increment")
	r := run(t, c.contract())
	_, err := bind.New("counter", r.rt, r.p.Model, graph(c), bind.Options{Session: journey.Options{RequireHumanApproval: true}})
	if err == nil || !strings.Contains(err.Error(), "RequireHumanApproval") || !strings.Contains(err.Error(), "Variant.Approval") {
		t.Fatalf("want an error naming RequireHumanApproval and Variant.Approval, got %v", err)
	}
}

// The cursor follows the Model, the contract's availability is the
// session's switched-off control, and writes are observed by diffing the
// state projection.
func TestCursorAvailabilityAndWrites(t *testing.T) {
	c := declare("increment")
	r := run(t, c.contract())
	j, err := bind.New("counter", r.rt, r.p.Model, graph(c), bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	s := j.Session()
	// open_detail is unavailable at count 0: refused by the session as a
	// switched-off control, and the contract is never asked.
	if r := s.Fire(context.Background(), "home.open", journey.FireOptions{}); r.OK || r.Reason != journey.ReasonToolDisabled {
		t.Fatalf("%+v", r)
	}
	if n := len(r.audit.Entries()); n != 0 {
		t.Fatalf("the contract saw %d calls", n)
	}
	st := fire(t, s, "home.increment")
	if st.EffectVerified != journey.ObservedYes {
		t.Fatalf("the write was not observed: %+v", st)
	}
	if v, _ := s.View().State()["count"].(float64); v != 1 {
		t.Fatalf("state %v", s.View().State())
	}
	fire(t, s, "home.open")
	tr := s.View().Transitions()
	last := tr[len(tr)-1]
	for _, x := range tr {
		if x.Action == "home.open" {
			last = x
		}
	}
	if last.Arrival != journey.ArrivalObserved || s.View().Position().YouAreOn != "detail" {
		t.Fatalf("arrival %q on %q", last.Arrival, s.View().Position().YouAreOn)
	}
	// A change nobody fired moves the cursor too.
	if err := r.p.Dispatch(context.Background(), Home{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(5 * time.Second)
	moved := make(chan struct{}, 1)
	defer s.OnTransition(func(journey.Transition) {
		select {
		case moved <- struct{}{}:
		default:
		}
	})()
	for s.View().Position().YouAreOn != "home" {
		select {
		case <-moved:
		case <-deadline:
			t.Fatal("the cursor did not follow the Model home")
		}
	}
}

// The port serves the bound session like any other: a journey step fires
// the capability through the contract.
func TestPortOverBoundJourney(t *testing.T) {
	c := declare("increment")
	r := run(t, c.contract())
	j := bind.MustNew("counter", r.rt, r.p.Model, graph(c), bind.Options{Transport: agent.MCP})
	defer j.Close()
	p := fixed.Serve(j.Session(), fixed.Options{})
	p.Call(context.Background(), "counter.journey.visit", nil)
	res := p.Call(context.Background(), "counter.journey.visit", map[string]any{"step": "increment"})
	if !res.OK() {
		t.Fatalf("%s", res.JSON())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.WhenSettled(ctx, res.TransitionID()); err != nil {
		t.Fatal(err)
	}
	if e := r.next(t); e.Transport != agent.MCP {
		t.Fatalf("audit %+v", e)
	}
	var m map[string]any
	_ = json.Unmarshal(p.Call(context.Background(), "counter.whats_here", nil).JSON(), &m)
	if m["youAreOn"] != "home" {
		t.Fatalf("%v", m)
	}
}

// An approval asked on every call is served as personApproves; one asked
// only when its When selects the call is not, since the person may never
// be asked for this one: a step is told in advance only what is sure.
func TestPersonApprovesOnlyAnApprovalAskedEveryTime(t *testing.T) {
	for _, conditional := range []bool{false, true} {
		approval := &agent.Approval[Increment, counter, np]{Summary: "Add one."}
		if conditional {
			approval.When = func(_ Increment, call agent.Call[counter, np]) bool { return call.Model.Count > 2 }
		}
		c := declare("increment")
		c.inc = agent.Expose(agent.Variant[Increment, counter, np]{Name: "increment", Description: "Add one.", Approval: approval})
		if d := c.inc.Descriptor(); !d.NeedsApproval || d.ApprovalWhen != conditional {
			t.Fatalf("conditional %v: descriptor %+v", conditional, d)
		}
		r := run(t, c.contract())
		j, err := bind.New("counter", r.rt, r.p.Model, graph(c), bind.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(j.Close)
		info, ok := j.Session().Graph().Action("home.increment")
		if !ok || info.PersonApproves == conditional {
			t.Fatalf("conditional %v: personApproves %v", conditional, info.PersonApproves)
		}
		p := fixed.Serve(j.Session(), fixed.Options{})
		for _, tool := range p.Tools() {
			if tool.Name == "counter.journey.visit" && strings.Contains(tool.Description, "personApproves") == conditional {
				t.Fatalf("conditional %v: the journey's description: %q", conditional, tool.Description)
			}
		}
	}
}
