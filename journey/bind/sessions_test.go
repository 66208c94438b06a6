package bind_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/journeytest"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
)

// padSessions binds the pad (a note the person edits, a count only the
// agent's bump moves) once per conversation. The bump is single-flight
// and waits at gate after its Message is checked; callers records whose
// conversation each bump was dispatched for.
func padSessions(t *testing.T) (*bind.Sessions[pad, np], *loop.Program[pad, any], chan struct{}, chan struct{}, *[]string) {
	t.Helper()
	entered, gate := make(chan struct{}, 8), make(chan struct{})
	var mu sync.Mutex
	callers := &[]string{}
	bump := agent.Expose(agent.Variant[Bump, pad, np]{Name: "bump", Description: "Bump the count.",
		Authorize: func(ctx context.Context, _ Bump, _ agent.Call[pad, np]) (agent.Decision, error) {
			mu.Lock()
			*callers = append(*callers, agent.CallerFrom(ctx))
			mu.Unlock()
			entered <- struct{}{}
			<-gate
			return agent.Allow, nil
		}})
	app := padApp()
	c := agent.Make(agent.Definition[pad, np]{Capabilities: []agent.Capability[pad, np]{bump}})
	p := loop.New(app, nil)
	rt := started(t, c, p, nil)
	ss, err := bind.NewSessions("pad", rt, p.Model, bind.Def[pad, np]{
		Page:  func(pad) string { return "pad" },
		State: func(m pad) map[string]any { return map[string]any{"note": m.Note, "count": m.Count} },
		Pages: []bind.Page[pad, np]{{ID: "pad", Actions: []bind.Action[pad, np]{
			{Name: "bump", Does: "Bump the count.", Capability: bump, Writes: []string{"count"},
				Concurrency: journey.Concurrency{SingleFlight: true}},
			{Name: "edit", Does: "Edit the note.", Writes: []string{"note"},
				Policy: journey.PrincipalPolicy{MayInvoke: []journey.Actor{journey.ActorUser}}},
		}}},
	}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ss.Close)
	return ss, p, entered, gate, callers
}

// Three conversations on one pad: A bumps, B tries to bump while A's bump
// is in progress, C only reads; then the person edits the note. Each
// session's facts hold only its own fires as its attempts; A's bump is
// another agent's change in B and C, never "agent fired"; B is refused
// PENDING_ELSEWHERE, not PRIOR_FIRE_PENDING; the person's edit is the
// person's in all three; every dispatch names its conversation as the
// contract's caller.
func TestSessionsEachSessionsFactsAreItsOwn(t *testing.T) {
	ss, p, entered, gate, callers := padSessions(t)
	open := func(caller string) *journey.Session {
		j, err := ss.Open(caller)
		if err != nil {
			t.Fatal(err)
		}
		return j.Session()
	}
	a, b, c := open("conv-a"), open("conv-b"), open("conv-c")
	if ss.Live() != 3 {
		t.Fatalf("live journeys: %d", ss.Live())
	}

	ra := a.Fire(context.Background(), "pad.bump", journey.FireOptions{})
	if !ra.OK {
		t.Fatalf("A's bump: %+v", ra)
	}
	<-entered
	rb := b.Fire(context.Background(), "pad.bump", journey.FireOptions{})
	if rb.Reason == journey.ReasonPriorFirePending {
		t.Fatalf("B made no earlier fire, yet was told PRIOR_FIRE_PENDING: %+v", rb)
	}
	stb := settle(t, b, rb.TransitionID)
	if stb.Error == nil || stb.Error.Reason != bind.ReasonPendingElsewhere || stb.EffectStatus == journey.EffectPerformed {
		t.Fatalf("B's bump while A's is in progress: %+v", stb)
	}
	if !strings.Contains(stb.Error.Message, "Another conversation") {
		t.Fatalf("B's refusal must say someone else is doing it: %q", stb.Error.Message)
	}
	close(gate)
	sta := settle(t, a, ra.TransitionID)
	if sta.EffectStatus != journey.EffectPerformed || sta.EffectVerified != journey.ObservedYes {
		t.Fatalf("A's bump: %+v", sta)
	}
	for _, s := range []*journey.Session{b, c} {
		journeytest.WaitFor(t, s, "A's bump", func() bool { return s.View().State()["count"] == float64(1) })
	}
	if err := p.Dispatch(context.Background(), EditNote{Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*journey.Session{a, b, c} {
		journeytest.WaitFor(t, s, "the person's edit", func() bool { return s.View().State()["note"] == "hello" })
	}

	ta, tb, tc := a.View().GroundTruth(0, 0), b.View().GroundTruth(0, 0), c.View().GroundTruth(0, 0)
	if len(ta.Attempts) != 1 || ta.Attempts[0].TransitionID != ra.TransitionID || ta.Attempts[0].Grade != journey.GradeDid {
		t.Fatalf("A's own bump is its one attempt: %s", ta.Text)
	}
	if len(tb.Attempts) != 1 || tb.Attempts[0].TransitionID != rb.TransitionID || tb.Attempts[0].Grade != journey.GradeDidNot ||
		!strings.Contains(tb.Text, string(bind.ReasonPendingElsewhere)) {
		t.Fatalf("B's one attempt is its refused bump: %s", tb.Text)
	}
	if len(tc.Attempts) != 0 {
		t.Fatalf("C fired nothing: %s", tc.Text)
	}
	for name, tr := range map[string]journey.Truth{"B": tb, "C": tc} {
		if strings.Contains(tr.Text, "DID happen") {
			t.Errorf("%s's facts credit another's bump as an attempt: %s", name, tr.Text)
		}
		if !strings.Contains(tr.Text, "another agent (not you") || !strings.Contains(tr.Text, "the person changed") {
			t.Errorf("%s's facts must name A's bump as another agent's and the edit as the person's: %s", name, tr.Text)
		}
		var actors []journey.Actor
		for _, ch := range tr.Changes {
			actors = append(actors, ch.Actor)
		}
		if !slices.Equal(actors, []journey.Actor{journey.ActorAgent, journey.ActorUser}) {
			t.Errorf("%s's changes: %+v", name, tr.Changes)
		}
	}
	if strings.Contains(ta.Text, "another agent") || !strings.Contains(ta.Text, "the person changed") {
		t.Errorf("A's facts: %s", ta.Text)
	}
	if !slices.Equal(*callers, []string{"conv-a"}) {
		t.Errorf("the contract's callers: %v (B's fire must not reach it)", *callers)
	}
}

// Conversations come and go: each Open is a live journey until it is
// closed, and closing them all leaves none, however many there were. A
// closed journey no longer follows the Model.
func TestSessionsOpenAndCloseLeaveNone(t *testing.T) {
	ss, p, _, _, _ := padSessions(t)
	var js []*bind.Journey
	for i := range 50 {
		j, err := ss.Open("conv-" + string(rune('a'+i%26)))
		if err != nil {
			t.Fatal(err)
		}
		js = append(js, j)
	}
	if ss.Live() != 50 {
		t.Fatalf("live: %d", ss.Live())
	}
	for _, j := range js {
		j.Close()
		j.Close() // idempotent
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if n := ss.WaitLive(ctx, 0); n != 0 {
		t.Fatalf("live after closing all: %d", n)
	}
	if err := p.Dispatch(context.Background(), EditNote{Text: "after"}); err != nil {
		t.Fatal(err)
	}
	j, err := ss.Open("late")
	if err != nil {
		t.Fatal(err)
	}
	journeytest.WaitFor(t, j.Session(), "the Model as it is", func() bool { return j.Session().View().State()["note"] == "after" })
	if ss.Live() != 1 {
		t.Fatalf("live: %d", ss.Live())
	}
	ss.Close()
	if ss.Live() != 0 {
		t.Fatalf("Close leaves %d live", ss.Live())
	}
	if _, err := ss.Open("after-close"); err == nil {
		t.Fatal("Open after Close must fail")
	}
}

type Ping struct{}

// Across conversations a change goes to the fire that declares writing
// it, not to an older fire that declares no writes: A's ping (no writes)
// waits, B's bump moves the count, and the count is B's bump's effect in
// B and another agent's change in A, never A's ping's.
func TestSessionsChangeGoesToTheFireThatWritesIt(t *testing.T) {
	entered, gate := make(chan struct{}), make(chan struct{})
	ping := agent.Expose(agent.Variant[Ping, pad, np]{Name: "ping", Description: "Ping.",
		Authorize: func(context.Context, Ping, agent.Call[pad, np]) (agent.Decision, error) {
			close(entered)
			<-gate
			return agent.Allow, nil
		}})
	bump := agent.Expose(agent.Variant[Bump, pad, np]{Name: "bump", Description: "Bump the count."})
	app := loop.Funcs(func() (pad, loop.Cmd[any]) { return pad{}, nil },
		func(m pad, msg any) (pad, loop.Cmd[any]) {
			if _, ok := msg.(Bump); ok {
				m.Count++
			}
			return m, nil
		})
	c := agent.Make(agent.Definition[pad, np]{Capabilities: []agent.Capability[pad, np]{ping, bump}})
	p := loop.New(app, nil)
	rt := started(t, c, p, nil)
	ss, err := bind.NewSessions("pad", rt, p.Model, bind.Def[pad, np]{
		Page:  func(pad) string { return "pad" },
		State: func(m pad) map[string]any { return map[string]any{"count": m.Count} },
		Pages: []bind.Page[pad, np]{{ID: "pad", Actions: []bind.Action[pad, np]{
			{Name: "ping", Does: "Ping.", Capability: ping},
			{Name: "bump", Does: "Bump the count.", Capability: bump, Writes: []string{"count"}},
		}}},
	}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ss.Close)
	ja, _ := ss.Open("a")
	jb, _ := ss.Open("b")
	a, b := ja.Session(), jb.Session()

	rp := a.Fire(context.Background(), "pad.ping", journey.FireOptions{})
	<-entered // A's ping waits for its Model change
	rb := b.Fire(context.Background(), "pad.bump", journey.FireOptions{})
	st := settle(t, b, rb.TransitionID)
	if st.EffectVerified != journey.ObservedYes {
		t.Fatalf("B's bump: %+v", st)
	}
	if tr, _ := b.View().Transition(rb.TransitionID); tr.Attribution == nil || tr.Attribution.Basis != journey.BasisNamed {
		t.Fatalf("B's bump is credited with its own change by name: %+v", tr.Attribution)
	}
	journeytest.WaitFor(t, a, "B's bump", func() bool { return a.View().State()["count"] == float64(1) })
	if _, known, _ := a.View().SettlementIfKnown(rp.TransitionID); known {
		t.Fatal("A's ping came to rest on B's bump")
	}
	if tr := a.View().GroundTruth(0, 0); len(tr.Changes) != 1 || tr.Changes[0].Actor != journey.ActorAgent {
		t.Fatalf("A's facts: %s", tr.Text)
	}
	close(gate)
	if st := settle(t, a, rp.TransitionID); st.EffectStatus != journey.EffectPerformed {
		t.Fatalf("A's ping: %+v", st)
	}
}
