package bind_test

import (
	"context"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/internal/journeytest"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
)

// A note the person edits, and a count only the agent's Message bumps.
type pad struct {
	Note  string
	Count int
}

type (
	EditNote struct{ Text string } // the person's own Message
	Bump     struct{}
)

// padApp runs a pad: EditNote sets the note, Bump bumps the count.
func padApp() loop.App[pad, any] {
	return loop.Funcs(func() (pad, loop.Cmd[any]) { return pad{}, nil },
		func(m pad, msg any) (pad, loop.Cmd[any]) {
			switch msg := msg.(type) {
			case EditNote:
				m.Note = msg.Text
			case Bump:
				m.Count++
			}
			return m, nil
		})
}

// While an agent fire without a completion contract waits for the Model
// change its Message causes, the person changes a key it does not declare
// writing: that change is not the fire's. The fire keeps waiting and is
// credited with its own change.
func TestWaitingFireIsNotCreditedWithThePersonsOtherChange(t *testing.T) {
	entered, gate := make(chan struct{}), make(chan struct{})
	bump := agent.Expose(agent.Variant[Bump, pad, np]{Name: "bump", Description: "Bump the count.",
		Authorize: func(context.Context, Bump, agent.Call[pad, np]) (agent.Decision, error) {
			// Held here, after the fire started waiting and before its
			// Message reaches the application.
			close(entered)
			<-gate
			return agent.Allow, nil
		}})
	app := padApp()
	c := agent.Make(agent.Definition[pad, np]{Capabilities: []agent.Capability[pad, np]{bump}})
	p := loop.New(app, nil)
	rt := started(t, c, p, nil)
	j, err := bind.New("pad", rt, p.Model, bind.Def[pad, np]{
		Page:  func(pad) string { return "pad" },
		State: func(m pad) map[string]any { return map[string]any{"note": m.Note, "count": m.Count} },
		Pages: []bind.Page[pad, np]{{ID: "pad", Actions: []bind.Action[pad, np]{
			{Name: "bump", Does: "Bump the count.", Capability: bump, Writes: []string{"count"}},
		}}},
	}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(j.Close)
	s := j.Session()

	r := s.Fire(context.Background(), "pad.bump", journey.FireOptions{})
	if !r.OK {
		t.Fatalf("%+v", r)
	}
	<-entered
	if err := p.Dispatch(context.Background(), EditNote{Text: "the person's words"}); err != nil {
		t.Fatal(err)
	}
	journeytest.WaitFor(t, s, "the person's edit", func() bool { return s.View().State()["note"] == "the person's words" })
	if _, known, _ := s.View().SettlementIfKnown(r.TransitionID); known {
		t.Fatal("the person's edit of the note settled the agent's bump")
	}
	var edit *journey.Transition
	for _, tr := range s.View().Transitions() {
		if tr.Kind == journey.KindStimulus && len(tr.Keys) == 1 && tr.Keys[0] == "note" {
			edit = &tr
		}
	}
	if edit == nil || edit.Attribution == nil || edit.Attribution.Basis != journey.BasisStimulus {
		t.Fatalf("the note edit is a row of its own: %+v", s.View().Transitions())
	}
	close(gate)
	st := settle(t, s, r.TransitionID)
	if st.EffectStatus != journey.EffectPerformed || st.EffectVerified != journey.ObservedYes {
		t.Fatalf("the bump is credited with its own change: %+v", st)
	}
	tr, _ := s.View().Transition(r.TransitionID)
	if tr.Attribution == nil || tr.Attribution.Basis != journey.BasisNamed {
		t.Fatalf("%+v", tr.Attribution)
	}
}
