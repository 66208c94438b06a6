package fixed

import (
	"fmt"

	"github.com/foldagent/foldagent/journey"
)

// An answer is closed here, the last stage of a call: a firing call's
// head and parts merged in order (answer), where the session is now
// (position), and the defect guard every call defers (guard). The typed
// answers and the ordered result they become are in result.go.

// answer is a firing call's answer: the head, each part merged in order,
// and where the session is now (read first: the parts are already what
// the session answered, and building them reads nothing more).
func (p *Port) answer(head any, parts ...any) CallResult {
	here := p.here()
	r := resultOf(head)
	for _, part := range parts {
		r.merge(part)
	}
	return *r.at(here)
}

// position closes an answer with where the session is now: a key the
// answer holds keeps its place, and a lookingAt no longer true goes.
func (p *Port) position(r *CallResult) *CallResult { return r.at(p.here()) }

// position is where the session is: the fields that close every answer.
type position struct {
	YouAreOn  string `json:"youAreOn"`
	OffGraph  bool   `json:"offGraph,omitempty"`
	LookingAt string `json:"lookingAt,omitempty"`
	Version   int64  `json:"version"`
}

func (p *Port) here() position { return hereOf(p.s) }

func hereOf(s *journey.Session) position {
	pos := s.View().Position()
	return position{YouAreOn: pos.YouAreOn, OffGraph: pos.OffGraph, LookingAt: pos.LookingAt, Version: pos.Version}
}

// guard is deferred by every call: a defect in host code the call
// reached is recorded, and answered as a DEFECT refusal.
func (p *Port) guard(name string, res *CallResult) {
	if v := recover(); v != nil {
		p.s.RecordDefect("port call "+name, v)
		*res = resultOf(callRefusal{verdict: verdict{Judgment: "error", Reason: "DEFECT"}, Defect: fmt.Sprint(v)})
	}
}
