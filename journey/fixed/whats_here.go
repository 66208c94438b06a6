package fixed

import (
	"github.com/foldagent/foldagent/journey"
	"slices"
)

// servedLook is what one whats_here served, kept so a later call with
// sinceVersion can answer with the delta.
type servedLook struct {
	version int64
	// elsewhere is the journeysElsewhere count served with the look
	// (its sentence served with it when above zero).
	elsewhere int
	actions   map[string]string // action id -> row bytes
	journeys  map[string]string // journey id -> row bytes
}

const maxLooks = 16

// whatsHere answers <graph>.whats_here {sinceVersion?, routeTo?}.
//
// The judgment counts the clickable rows: needs-choice for two or more,
// one-ready-step for one, navigate-or-wait for none.
//
// The journey list is scoped to the position: the journeys whose first
// step is offered here with its guard holding, plus the open one whatever
// its entry says now (open: true). Each row is {journey, does, standing},
// plus feasible: false (presence-only) when its precondition fails and
// feasibilityUnknownFor when it cannot be judged. What the list leaves
// out it says: journeysElsewhere counts the rest, with one sentence
// naming routeTo. session.AvailableJourneys still answers for every
// journey; this scopes what the model is served, not what the app sees.
//
// With sinceVersion, the rows are compared with the last look this port
// served at or before that version: unchanged rows are left out, rows
// that went away are named in actionsGone/journeysGone, and the result
// echoes sinceVersion to say it is a delta; actionsUnchanged names the
// action rows left out, so that the judgment (which counts every
// clickable row here) never disagrees with the rows served, and when
// nothing served changed at all the judgment is unchanged. Without such a
// look the full rows are served; facts are narrowed to the attempts since
// then. A port several models share (Share) cannot tell whose look a
// kept one was, so it does not read sinceVersion: its answer is the full
// one. A delta is never more bytes than the full answer asked at the
// same moment: when it would be, it leaves out journeysElsewhereMeans
// (served with the earlier look), and failing that the full answer is
// served instead.
func (p *Port) whatsHere(a callArgs) CallResult {
	since, hasSince := a.num("sinceVersion")
	if hasSince && (since < 0 || p.looks.shared.Load()) {
		// A port several models share (Share) cannot tell whose look
		// a kept one was: it answers whole.
		hasSince = false
	}
	// Rows are flagged when what they read or write was changed by
	// someone else since the model's last look: the version it names,
	// else the last result this port gave it.
	seen := p.looks.last()
	if hasSince {
		seen = since
	}
	var prev *servedLook
	if hasSince {
		prev = p.looks.before(since)
	}
	to := a.str("routeTo")
	q := journey.LookQuery{WithChanged: seen >= 0, ChangedSince: seen, Self: p.source, WithBrief: true, RouteTo: to}
	switch {
	case prev != nil:
		q.FactsSince = []int64{0, since}
	case hasSince:
		q.FactsSince = []int64{since}
	default:
		q.FactsSince = []int64{0}
	}
	// Every read of the answer comes from one state of the session.
	lk := p.s.View().Look(q)
	look, actions, journeys, ready := p.lookAt(lk)
	p.looks.keep(look)
	in := whatsHereInput{h: lk.Here, look: look, actions: actions, journeys: journeys, ready: ready}
	if to != "" {
		r := p.route(to, lk)
		in.route = &r
	}
	in.brief = lk.Brief.Text
	in.stale = p.anyRowStale(lk.Here.Actions, lk.Changed)
	in.facts = lk.Facts[0]
	if prev == nil {
		// Without a look to compare with, the full rows; the facts
		// are still narrowed to the attempts since sinceVersion.
		return resultOf(whatsHereOf(in))
	}
	full := whatsHereOf(in)
	// A delta never costs more than the full answer it replaces: its own
	// words (the echo, the rows gone or unchanged named, the unchanged
	// sentence) can outweigh the rows it leaves out. Then the sentence
	// on journeysElsewhere, already served with the earlier look, is
	// left out; if the delta is still the larger, the full answer is
	// served (same rows, same stale flags).
	in.since, in.prev = &since, prev
	in.facts = lk.Facts[1]
	delta := whatsHereOf(in)
	fullLen := encodedLen(full)
	if encodedLen(delta) <= fullLen {
		return resultOf(delta)
	}
	if prev.elsewhere > 0 {
		delta.JourneysElsewhereMeans = ""
		if encodedLen(delta) <= fullLen {
			return resultOf(delta)
		}
	}
	return resultOf(full)
}

func encodedLen(v any) int {
	b, _ := marshal(v)
	return len(b)
}

// lookAt renders the rows whats_here serves for one state's look.
func (p *Port) lookAt(lk journey.Look) (look servedLook, actions, journeys []rawJSON, ready int) {
	h, changed := lk.Here, lk.Changed
	look = servedLook{version: h.Version, elsewhere: h.JourneysElsewhere, actions: make(map[string]string, len(h.Actions)), journeys: make(map[string]string, len(h.Journeys))}
	actions = make([]rawJSON, 0, len(h.Actions))
	g := p.s.Graph()
	for _, row := range h.Actions {
		if len(changed) > 0 {
			if info, ok := g.Action(row.Action); ok {
				row.StaleReads, row.StaleWrites = staleFor(changed, info.Reads, info.Writes)
			}
		}
		b, _ := marshal(row)
		look.actions[row.Action] = string(b)
		actions = append(actions, rawJSON(b))
		if row.Clickable() {
			ready++
		}
	}
	journeys = make([]rawJSON, 0, len(h.Journeys))
	for i, j := range h.Journeys {
		b, _ := marshal(journeyRowOf(j, lk.Standings[i]))
		look.journeys[j.ID] = string(b)
		journeys = append(journeys, rawJSON(b))
	}
	return look, actions, journeys, ready
}

// journeyRow is one journey whats_here lists.
type journeyRow struct {
	Journey               string           `json:"journey"`
	Does                  string           `json:"does"`
	Feasible              *bool            `json:"feasible,omitempty"`
	FeasibilityUnknownFor []string         `json:"feasibilityUnknownFor,omitempty"`
	Standing              journey.Standing `json:"standing,omitempty"`
	Open                  bool             `json:"open,omitempty"`
}

func journeyRowOf(j journey.Availability, standing journey.Standing) journeyRow {
	r := journeyRow{Journey: j.ID, Does: j.Description, FeasibilityUnknownFor: j.PreconditionUnevaluable, Standing: standing, Open: j.Open}
	if !j.PreconditionPassed {
		r.Feasible = no()
	}
	return r
}

// whatsHereAnswer is whats_here's answer. Its rows are pre-encoded: they
// are what a later delta compares with.
type whatsHereAnswer struct {
	verdict
	position
	SinceVersion           *int64       `json:"sinceVersion,omitempty"`
	Actions                []rawJSON    `json:"actions"`
	ActionsGone            []string     `json:"actionsGone,omitempty"`
	ActionsUnchanged       []string     `json:"actionsUnchanged,omitempty"`
	Journeys               []rawJSON    `json:"journeys"`
	JourneysGone           []string     `json:"journeysGone,omitempty"`
	HowToAct               string       `json:"howToAct,omitempty"`
	JourneysElsewhere      int          `json:"journeysElsewhere,omitempty"`
	JourneysElsewhereMeans string       `json:"journeysElsewhereMeans,omitempty"`
	RouteTo                *routeAnswer `json:"routeTo,omitempty"`
	Facts                  string       `json:"facts"`
	Brief                  string       `json:"brief"`
	StaleMeans             string       `json:"staleMeans,omitempty"`
}

// whatsHereInput is the one snapshot a whats_here answer is read from:
// the session's Here, the rows rendered from it, the look a delta is
// taken against (nil for the full answer), and the texts read with it.
type whatsHereInput struct {
	h                 journey.Here
	look              servedLook
	prev              *servedLook
	since             *int64
	actions, journeys []rawJSON
	ready             int
	route             *routeAnswer
	facts, brief      string
	stale             bool
}

// whatsHereOf is the whats_here answer for one snapshot: a pure function.
func whatsHereOf(in whatsHereInput) whatsHereAnswer {
	h := in.h
	r := whatsHereAnswer{verdict: verdict{OK: true, Judgment: countJudgment(in.ready)},
		position: position{YouAreOn: h.YouAreOn, OffGraph: h.OffGraph, LookingAt: h.LookingAt, Version: h.Version},
		Actions:  in.actions, Journeys: in.journeys, RouteTo: in.route, Facts: in.facts, Brief: in.brief}
	if prev := in.prev; prev != nil {
		r.SinceVersion = in.since
		all := len(in.actions)
		r.Actions, r.ActionsGone = rowDelta(h.Actions, func(x journey.ServedAction) string { return x.Action }, in.look.actions, prev.actions, in.actions)
		if len(r.Actions) < all {
			// The judgment counts every clickable row here, served or
			// not: the rows left out are named, so the count and the
			// rows never disagree.
			r.ActionsUnchanged = unchangedRows(h.Actions, in.look.actions, prev.actions)
		}
		r.Journeys, r.JourneysGone = rowDelta(h.Journeys, func(x journey.Availability) string { return x.ID }, in.look.journeys, prev.journeys, in.journeys)
		if len(r.Actions)+len(r.ActionsGone)+len(r.Journeys)+len(r.JourneysGone) == 0 {
			// Nothing served changed: the judgment says so rather than
			// counting rows this answer does not carry.
			r.Judgment, r.HowToAct = "unchanged", unchangedHow
		}
	}
	if h.JourneysElsewhere > 0 {
		r.JourneysElsewhere, r.JourneysElsewhereMeans = h.JourneysElsewhere, elsewhereMeans
	}
	if in.stale {
		r.StaleMeans = staleMeans
	}
	return r
}

// countJudgment routes by the clickable rows: needs-choice for two or
// more, one-ready-step for one, navigate-or-wait for none.
func countJudgment(ready int) string {
	switch {
	case ready >= 2:
		return "needs-choice"
	case ready == 1:
		return "one-ready-step"
	}
	return "navigate-or-wait"
}

func (p *Port) anyRowStale(rows []journey.ServedAction, changed []string) bool {
	if len(changed) == 0 {
		return false
	}
	for _, row := range rows {
		if p.rowStale(row.Action, changed) {
			return true
		}
	}
	return false
}

// rowDelta keeps the rows that are new or changed since prev and names the
// ids that went away.
func rowDelta[T any](rows []T, id func(T) string, now, prev map[string]string, all []rawJSON) ([]rawJSON, []string) {
	out := make([]rawJSON, 0, len(all))
	for i, row := range rows {
		k := id(row)
		if old, ok := prev[k]; !ok || old != now[k] {
			out = append(out, all[i])
		}
	}
	var gone []string
	for k := range prev {
		if _, ok := now[k]; !ok {
			gone = append(gone, k)
		}
	}
	slices.Sort(gone)
	return out, gone
}

// unchangedRows names the rows left out of a delta because they are the
// same as at the earlier look, in serving order.
func unchangedRows(rows []journey.ServedAction, now, prev map[string]string) []string {
	out := []string{}
	for _, row := range rows {
		if old, ok := prev[row.Action]; ok && old == now[row.Action] {
			out = append(out, row.Action)
		}
	}
	return out
}

// routeAnswer answers routeTo: the declared hops to a page.
type routeAnswer struct {
	To          string              `json:"to"`
	Reason      journey.Reason      `json:"reason,omitempty"`
	Pages       []string            `json:"pages,omitempty"`
	Why         string              `json:"why,omitempty"`
	AlreadyHere bool                `json:"alreadyHere,omitempty"`
	Hops        []journey.RouteStep `json:"hops,omitempty"`
	Means       string              `json:"means,omitempty"`
}

func (p *Port) route(to string, lk journey.Look) routeAnswer {
	r := routeAnswer{To: to}
	hops, reachable, err := lk.Route, lk.Reachable, lk.RouteErr
	switch {
	case err != nil:
		pages := p.s.Graph().Pages()
		ids := make([]string, len(pages))
		for i, pg := range pages {
			ids[i] = pg.ID
		}
		r.Reason, r.Pages, r.Why = journey.ReasonUnknownPage, ids, unknownPage
	case !reachable:
		r.Why = noRoute
	case len(hops) == 0:
		r.AlreadyHere = true
	default:
		r.Hops, r.Means = hops, routeMeans
	}
	return r
}

// rawJSON is pre-encoded JSON riding inside a result.
type rawJSON []byte

func (b rawJSON) MarshalJSON() ([]byte, error) { return b, nil }

func (p *Port) rowStale(action string, changed []string) bool {
	info, ok := p.s.Graph().Action(action)
	if !ok {
		return false
	}
	sr, sw := staleFor(changed, info.Reads, info.Writes)
	return len(sr)+len(sw) > 0
}
