package journeytest

import (
	"context"
	"fmt"
	"strconv"

	"github.com/foldagent/foldagent/journey"
)

// BigAppID is the graph id of BigApp.
const BigAppID = "bigapp"

// BigAppJourneys is how many journeys BigApp declares.
const BigAppJourneys = 57

// BigApp declares the synthetic app with the given number of pages (60 in
// the published fixture). pages must be at least 56, so every journey's
// first page exists.
func BigApp(pages int) journey.GraphDef {
	if pages < 56 {
		panic("journeytest: BigApp needs at least 56 pages")
	}
	def := journey.GraphDef{Pages: make([]journey.Page, pages)}
	for n := range pages {
		next := (n + 1) % pages
		def.Pages[n] = journey.Page{ID: "page-" + strconv.Itoa(n), Actions: []journey.Action{
			{Name: "step-a-" + strconv.Itoa(n), Does: "Record the first entry on page " + strconv.Itoa(n) + ".", Writes: []string{"k" + strconv.Itoa(n)}},
			{Name: "go-next-" + strconv.Itoa(n), Does: "Move on to page " + strconv.Itoa(next) + ".", GoTo: "page-" + strconv.Itoa(next)},
		}}
	}
	for j := range BigAppJourneys {
		p := j % 56
		jd := journey.JourneyDef{
			ID:    "journey-number-" + strconv.Itoa(j),
			Does:  fmt.Sprintf("Work through page %d of the synthetic app: record its entry, then move on (%02d).", p, j),
			Steps: []string{"page-" + strconv.Itoa(p) + ".step-a-" + strconv.Itoa(p), "page-" + strconv.Itoa(p) + ".go-next-" + strconv.Itoa(p)},
		}
		if j == 56 {
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
