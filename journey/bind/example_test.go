package bind_test

import (
	"context"
	"fmt"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
)

// A journey declared over a contract: its actions name the capabilities
// that perform them by their handles, where the person is and what the
// app holds are projections of the Model, and each fire runs the
// capability through the contract's checked path.
func ExampleNew() {
	// The application: a counter on a home page, and a detail page that
	// opens once the count is positive.
	p := loop.New(counterApp(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx)

	inc := agent.Expose(agent.Variant[Increment, counter, np]{Name: "increment", Description: "Add one."})
	open := agent.Expose(agent.Variant[Open, counter, np]{Name: "open_detail", Description: "Open the detail page.",
		Available: func(m counter) bool { return m.Count > 0 }})
	home := agent.Expose(agent.Variant[Home, counter, np]{Name: "go_home", Description: "Go home."})
	contract := agent.Make(agent.Definition[counter, np]{Capabilities: []agent.Capability[counter, np]{inc, open, home}})
	rt, err := agent.Bind(contract, p, nil)
	if err != nil {
		panic(err)
	}

	j, err := bind.New("counter", rt, p.Model, bind.Def[counter, np]{
		Page:  func(m counter) string { return m.Page },
		State: func(m counter) map[string]any { return map[string]any{"count": m.Count} },
		Pages: []bind.Page[counter, np]{
			{ID: "home", Actions: []bind.Action[counter, np]{
				{Name: "increment", Does: "Add one.", Capability: inc, Writes: []string{"count"}},
				{Name: "open", Does: "Open the detail page.", Capability: open, GoTo: "detail"},
			}},
			{ID: "detail", Actions: []bind.Action[counter, np]{
				{Name: "home", Does: "Go home.", Capability: home, GoTo: "home"},
			}},
		},
	}, bind.Options{})
	if err != nil {
		panic(err)
	}
	defer j.Close()
	s := j.Session()

	// open_detail is not available at count 0: a switched-off control.
	fmt.Println(s.Fire(ctx, "home.open", journey.FireOptions{}).Reason)

	for _, action := range []string{"home.increment", "home.open"} {
		r := s.Fire(ctx, action, journey.FireOptions{})
		wait, stop := context.WithTimeout(ctx, 10*time.Second)
		st, err := s.SettlementOf(wait, r.TransitionID)
		stop()
		if err != nil {
			panic(err)
		}
		fmt.Println(action, st.EffectStatus, st.Outcome)
	}
	fmt.Println("on", s.View().Here().YouAreOn, "count", p.Model().Count)
	// Output:
	// TOOL_DISABLED
	// home.increment performed committed
	// home.open performed committed
	// on detail count 1
}

// Two conversations on one counter, each with a journey of its own: one
// increments, and the other's facts record that as another agent's
// change, not as an attempt of its own.
func ExampleSessions() {
	p := loop.New(counterApp(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx)
	inc := agent.Expose(agent.Variant[Increment, counter, np]{Name: "increment", Description: "Add one."})
	rt, err := agent.Bind(agent.Make(agent.Definition[counter, np]{Capabilities: []agent.Capability[counter, np]{inc}}), p, nil)
	if err != nil {
		panic(err)
	}
	ss, err := bind.NewSessions("counter", rt, p.Model, bind.Def[counter, np]{
		Page:  func(m counter) string { return m.Page },
		State: func(m counter) map[string]any { return map[string]any{"count": m.Count} },
		Pages: []bind.Page[counter, np]{{ID: "home", Actions: []bind.Action[counter, np]{
			{Name: "increment", Does: "Add one.", Capability: inc, Writes: []string{"count"}},
		}}},
	}, bind.Options{})
	if err != nil {
		panic(err)
	}
	defer ss.Close()
	a, _ := ss.Open("conversation-a")
	b, _ := ss.Open("conversation-b")

	moved := make(chan struct{}, 1)
	defer b.Session().OnState(func(journey.StateChange) {
		select {
		case moved <- struct{}{}:
		default:
		}
	})()

	r := a.Session().Fire(ctx, "home.increment", journey.FireOptions{})
	wait, stop := context.WithTimeout(ctx, 10*time.Second)
	defer stop()
	if _, err := a.Session().SettlementOf(wait, r.TransitionID); err != nil {
		panic(err)
	}
	for b.Session().View().State()["count"] != float64(1) {
		select {
		case <-moved:
		case <-wait.Done():
			panic("b never saw the increment")
		}
	}
	ta, tb := a.Session().View().GroundTruth(0, 0), b.Session().View().GroundTruth(0, 0)
	fmt.Println("a's attempts:", len(ta.Attempts), ta.Attempts[0].Grade)
	fmt.Println("b's attempts:", len(tb.Attempts), "b's changes by:", tb.Changes[0].Actor)
	fmt.Println("journeys open:", ss.Live())
	// Output:
	// a's attempts: 1 DID happen
	// b's attempts: 0 b's changes by: agent
	// journeys open: 2
}
