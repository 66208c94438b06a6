// Package journeytest holds what tests outside package journey share: the
// synthetic app the journey benchmarks and byte figures are measured on,
// and WaitFor, which waits on a session's own notifications.
package journeytest

import (
	"context"
	"strconv"

	"github.com/foldagent/foldagent/internal/journeytest/fixture"
	"github.com/foldagent/foldagent/journey"
)

// BigAppID is the graph id of BigApp.
const BigAppID = fixture.ID

// BigAppJourneys is how many journeys BigApp declares.
const BigAppJourneys = fixture.Journeys

// BigApp declares the published fixture with the given number of pages
// (60 in the published figures) and its 57 journeys. pages must be at
// least 56, so every journey's first page exists. It is the same text
// package journey's own byte tests measure.
func BigApp(pages int) journey.GraphDef { return BigAppWith(pages, fixture.Journeys) }

// BigAppWith is BigApp with a chosen number of journeys.
func BigAppWith(pages, journeys int) journey.GraphDef {
	ps, js := fixture.App(pages, journeys)
	def := journey.GraphDef{Pages: make([]journey.Page, len(ps))}
	for i, p := range ps {
		def.Pages[i] = journey.Page{ID: p.ID}
		for _, a := range p.Actions {
			act := journey.Action{Name: a.Name, Does: a.Does, GoTo: a.GoTo}
			if a.Writes != "" {
				act.Writes = []string{a.Writes}
			}
			def.Pages[i].Actions = append(def.Pages[i].Actions, act)
		}
	}
	for _, j := range js {
		jd := journey.Journey{ID: j.ID, Does: j.Does, Steps: j.Steps}
		if j.VIPOnly {
			jd.When = journey.Guard{journey.Eq("vip", true)}
		}
		def.Journeys = append(def.Journeys, jd)
	}
	return def
}

// BigAppSession opens a session on BigApp with the state {vip: false}, the
// cursor on page-0, and a no-op handler registered for every action.
func BigAppSession(pages int) (*journey.Session, error) {
	g, err := journey.NewGraph(BigAppID, BigApp(pages))
	if err != nil {
		return nil, err
	}
	s, err := g.NewSession(journey.Options{State: map[string]any{"vip": false}})
	if err != nil {
		return nil, err
	}
	noop := func(context.Context, any) (any, error) { return nil, nil }
	for n := range pages {
		id := strconv.Itoa(n)
		if _, err := s.RegisterActions("page-"+id, journey.Registration{Handlers: map[string]journey.Handler{"step-a-" + id: noop, "go-next-" + id: noop}}); err != nil {
			return nil, err
		}
	}
	return s, nil
}
