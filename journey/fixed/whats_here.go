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
// look the full rows are served. facts are narrowed to the attempts since
// then. A delta is never more bytes than the full answer asked at the
// same moment: when it would be, it leaves out journeysElsewhereMeans
// (served with the earlier look), and failing that the full answer is
// served instead.
func (p *Port) whatsHere(a callArgs) CallResult {
	h := p.s.Here()
	since, hasSince := a.num("sinceVersion")
	if hasSince && since < 0 {
		hasSince = false
	}
	// Rows are flagged when what they read or write was changed by
	// someone else since the model's last look: the version it names,
	// else the last result this port gave it.
	seen := p.lastLook()
	if hasSince {
		seen = since
	}
	var changed []string
	if seen >= 0 {
		changed = p.s.KeysChangedByOthersSince(seen, p.source)
	}
	look, actions, journeys, ready := p.lookAt(h, changed)

	var prev *servedLook
	p.mu.Lock()
	if hasSince {
		// What was served at or before that version: a later change is
		// shown, an earlier one was already seen.
		for i := len(p.looks) - 1; i >= 0; i-- {
			if p.looks[i].version <= since {
				// A copy: the slice is shifted under the lock once
				// it is full. The maps are never written after a
				// look is stored.
				l := p.looks[i]
				prev = &l
				break
			}
		}
	}
	p.keepLocked(look)
	p.mu.Unlock()
	if prev == nil {
		return p.whatsHereResult(a, h, since, hasSince, look, nil, actions, journeys, ready, changed)
	}
	// A delta never costs more than the full answer it replaces: its own
	// words (the echo, the rows gone or unchanged named, the unchanged
	// sentence) can outweigh the rows it leaves out. Then the sentence
	// on journeysElsewhere, already served with the earlier look, is
	// left out; if the delta is still the larger, the full answer is
	// served (same rows, same stale flags).
	delta := p.whatsHereResult(a, h, since, hasSince, look, prev, actions, journeys, ready, changed)
	full := p.whatsHereResult(a, h, 0, false, look, nil, actions, journeys, ready, changed)
	fullLen := len(full.JSON())
	if len(delta.JSON()) <= fullLen {
		return delta
	}
	if prev.elsewhere > 0 {
		delta.Delete("journeysElsewhereMeans")
		if len(delta.JSON()) <= fullLen {
			return delta
		}
	}
	return full
}

// remember keeps what whats_here would serve now, at the current version,
// so that a later whats_here {sinceVersion} naming this version answers
// with the delta from it.
func (p *Port) remember() {
	look, _, _, _ := p.lookAt(p.s.Here(), nil)
	p.mu.Lock()
	p.keepLocked(look)
	p.mu.Unlock()
}

func (p *Port) keepLocked(look servedLook) {
	if n := len(p.looks); n == 0 || p.looks[n-1].version != look.version {
		p.looks = append(p.looks, look)
		if len(p.looks) > maxLooks {
			p.looks = slices.Delete(p.looks, 0, len(p.looks)-maxLooks)
		}
	}
}

// lookAt renders the rows whats_here serves for a snapshot.
func (p *Port) lookAt(h journey.Here, changed []string) (look servedLook, actions, journeys []any, ready int) {
	look = servedLook{version: h.Version, elsewhere: h.JourneysElsewhere, actions: make(map[string]string, len(h.Actions)), journeys: make(map[string]string, len(h.Journeys))}
	actions = make([]any, 0, len(h.Actions))
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
	journeys = make([]any, 0, len(h.Journeys))
	for _, j := range h.Journeys {
		var row CallResult
		row.set("journey", j.ID).set("does", j.Description)
		if !j.PreconditionPassed {
			row.set("feasible", false)
		}
		if len(j.PreconditionUnevaluable) > 0 {
			row.set("feasibilityUnknownFor", j.PreconditionUnevaluable)
		}
		if st, err := p.s.Standing(j.ID); err == nil {
			row.set("standing", string(st.Standing))
		}
		if j.Open {
			row.set("open", true)
		}
		b, _ := marshal(row)
		look.journeys[j.ID] = string(b)
		journeys = append(journeys, rawJSON(b))
	}
	return look, actions, journeys, ready
}

func (p *Port) whatsHereResult(a callArgs, h journey.Here, since int64, hasSince bool, look servedLook, prev *servedLook, actions, journeys []any, ready int, changed []string) CallResult {
	var r CallResult
	r.set("ok", true)
	switch {
	case ready >= 2:
		r.set("judgment", "needs-choice")
	case ready == 1:
		r.set("judgment", "one-ready-step")
	default:
		r.set("judgment", "navigate-or-wait")
	}
	r.set("youAreOn", h.YouAreOn)
	if h.OffGraph {
		r.set("offGraph", true)
	}
	if h.LookingAt != "" {
		r.set("lookingAt", h.LookingAt)
	}
	r.set("version", h.Version)
	if prev != nil {
		r.set("sinceVersion", since)
		var gone, jgone []string
		all := len(actions)
		actions, gone = rowDelta(h.Actions, func(x journey.ServedAction) string { return x.Action }, look.actions, prev.actions, actions)
		r.set("actions", actions)
		if len(gone) > 0 {
			r.set("actionsGone", gone)
		}
		if len(actions) < all {
			// The judgment counts every clickable row here, served or
			// not: the rows left out are named, so the count and the
			// rows never disagree.
			r.set("actionsUnchanged", unchangedRows(h.Actions, look.actions, prev.actions))
		}
		journeys, jgone = rowDelta(h.Journeys, func(x journey.Availability) string { return x.ID }, look.journeys, prev.journeys, journeys)
		r.set("journeys", journeys)
		if len(jgone) > 0 {
			r.set("journeysGone", jgone)
		}
		if len(actions)+len(gone)+len(journeys)+len(jgone) == 0 {
			// Nothing served changed: the judgment says so rather than
			// counting rows this answer does not carry.
			r.set("judgment", "unchanged").set("howToAct", unchangedHow)
		}
	} else {
		r.set("actions", actions)
		r.set("journeys", journeys)
	}
	if h.JourneysElsewhere > 0 {
		r.set("journeysElsewhere", h.JourneysElsewhere)
		r.set("journeysElsewhereMeans", elsewhereMeans)
	}
	if to := a.str("routeTo"); to != "" {
		r.set("routeTo", p.route(to))
	}
	truthSince := int64(0)
	if hasSince {
		truthSince = since
	}
	r.set("facts", p.s.Facts(truthSince, 0))
	r.set("brief", p.s.ContextBrief().Text)
	for _, row := range h.Actions {
		if len(changed) > 0 && p.rowStale(row.Action, changed) {
			r.set("staleMeans", staleMeans)
			break
		}
	}
	return r
}

// rowDelta keeps the rows that are new or changed since prev and names the
// ids that went away.
func rowDelta[T any](rows []T, id func(T) string, now, prev map[string]string, all []any) ([]any, []string) {
	out := make([]any, 0, len(all))
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

// route answers routeTo: the declared hops to a page.
func (p *Port) route(to string) CallResult {
	var r CallResult
	r.set("to", to)
	hops, reachable, err := p.s.HowToReach(to)
	switch {
	case err != nil:
		r.set("reason", string(journey.ReasonUnknownPage))
		pages := p.s.Graph().Pages()
		ids := make([]string, len(pages))
		for i, pg := range pages {
			ids[i] = pg.ID
		}
		r.set("pages", ids)
		r.set("why", unknownPage)
	case !reachable:
		r.set("why", noRoute)
	case len(hops) == 0:
		r.set("alreadyHere", true)
	default:
		r.set("hops", hops)
		r.set("means", routeMeans)
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
