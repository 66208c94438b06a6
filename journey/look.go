package journey

import "strings"

// LookQuery names the reads one whats_here answer makes besides Here.
type LookQuery struct {
	// WithChanged asks for the state keys committed after ChangedSince
	// by anyone but Self (KeysChangedByOthersSince).
	WithChanged  bool
	ChangedSince int64
	Self         Actor
	// FactsSince lists the sinceVersion of each facts block wanted
	// (Facts with no attempt limit), in the order Look.Facts answers them.
	FactsSince []int64
	// WithBrief asks for the brief (ContextBrief).
	WithBrief bool
	// RouteTo, when not empty, asks for the route to a page (HowToReach).
	RouteTo string
}

// Look is everything a whats_here answer reads, read from one state of
// the session: the lock is taken once for all of it, so its version
// stamp, rows, standings, brief and facts never mix two versions. Holds
// readers run once the lock is released, as for Here.
type Look struct {
	Here Here
	// Changed is KeysChangedByOthersSince, when asked for (else nil).
	Changed []string
	// Standings is each listed journey's standing, in Here.Journeys order.
	Standings []Standing
	// Brief is ContextBrief, when asked for.
	Brief Brief
	// Facts answers LookQuery.FactsSince, one text each.
	Facts []string
	// Route, Reachable and RouteErr answer LookQuery.RouteTo as
	// HowToReach does.
	Route     []RouteStep
	Reachable bool
	RouteErr  error
}

// Look reads what a whats_here answer needs under one acquisition of the
// session's lock, so the answer is built from one state.
func (v View) Look(q LookQuery) Look {
	s := &v.s.st
	target := -1
	var out Look
	if q.RouteTo != "" {
		// A clone: the error keeps the page it names, and the query
		// (its FactsSince) then stays the caller's, on its stack.
		target, out.RouteErr = s.g.pageTarget(strings.Clone(q.RouteTo))
	}
	v.s.lock()
	l := look{s}
	h, reads := l.here()
	out.Here = h
	if q.WithChanged {
		out.Changed = l.changedByOthers(q.ChangedSince, q.Self)
	}
	out.Standings = make([]Standing, len(h.Journeys))
	for i, j := range h.Journeys {
		if jn, ok := s.g.journeyIndex[j.ID]; ok {
			out.Standings[i] = l.standing(jn).Standing
		}
	}
	if q.WithBrief {
		out.Brief = l.brief()
	}
	out.Facts = make([]string, len(q.FactsSince))
	for i, since := range q.FactsSince {
		out.Facts[i] = l.truth(since, 0, false).Text
	}
	from := s.page
	v.s.mu.Unlock()
	if q.RouteTo != "" && out.RouteErr == nil {
		out.Route, out.Reachable = s.g.route(from, target)
	}
	s.obs.readHolds(out.Here.Actions, reads)
	return out
}

// FrameLook is what a journey tool's answer reads about one journey after
// its fire, read from one state of the session.
type FrameLook struct {
	Plan    Plan
	PlanErr error
	// Frame is the open frame, when Open.
	Frame FrameInfo
	Open  bool
	// Frames are the frames the session holds, oldest first.
	Frames []FrameInfo
	// Standing is the journey's standing (empty for an unknown journey).
	Standing Standing
	// Changed is KeysChangedByOthersSince, when asked for (else nil).
	Changed []string
}

// FrameLook reads a journey's plan, the frames, its standing and (when
// withChanged) the keys others changed since a version, under one
// acquisition of the session's lock.
func (v View) FrameLook(journeyID string, withChanged bool, since int64, self Actor) FrameLook {
	s := &v.s.st
	v.s.lock()
	defer v.s.mu.Unlock()
	l := look{s}
	var out FrameLook
	if jn, ok := s.g.journeyIndex[journeyID]; ok {
		out.Plan = l.plan(jn)
		out.Standing = l.standing(jn).Standing
	} else {
		out.PlanErr = s.g.unknownJourney(journeyID)
	}
	out.Frame, out.Open = l.frame()
	out.Frames = l.frames()
	if withChanged {
		out.Changed = l.changedByOthers(since, self)
	}
	return out
}
