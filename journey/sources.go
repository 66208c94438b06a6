package journey

import (
	"maps"
	"slices"
)

// maxSourceRounds bounds how many times a session reads its Instances
// sources again because the state moved while they were being read.
const maxSourceRounds = 4

// sources is the part of a session that holds what each container's
// declared Instances source said for the call being applied, and for
// which state version. A source is host code, and it may read more than
// the state (the test fixtures' do): it is read afresh for every call
// that may need it, outside the session's lock (Session.lock), on a copy
// of the state, and the fold reads only what was read. Its zero value is
// ready.
type sources struct {
	read map[*containerNode]sourceRead
}

type sourceRead struct {
	stateVersion int64
	keys         []string
}

// needed lists the sources a call at the cursor may read: those of the
// page's actions, and those of once-only actions anywhere (a plan reads
// them whatever the page).
func needed(g *Graph, page int) []*containerNode {
	if page < 0 || len(g.sourcesOn[page]) == 0 {
		return g.onceSources
	}
	if len(g.onceSources) == 0 {
		return g.sourcesOn[page]
	}
	out := slices.Clone(g.sourcesOn[page])
	for _, c := range g.onceSources {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// fresh reports whether every source in cs was read for stateVersion.
func (r *sources) fresh(cs []*containerNode, stateVersion int64) bool {
	for _, c := range cs {
		if got, ok := r.read[c]; !ok || got.stateVersion != stateVersion {
			return false
		}
	}
	return true
}

// store keeps what the sources said for a state version.
func (r *sources) store(cs []*containerNode, keys [][]string, stateVersion int64) {
	if r.read == nil {
		r.read = make(map[*containerNode]sourceRead, len(cs))
	}
	for i, c := range cs {
		r.read[c] = sourceRead{stateVersion: stateVersion, keys: keys[i]}
	}
}

// keys is what a source said last (nil when it was never read).
func (r *sources) keys(c *containerNode) []string { return r.read[c].keys }

// lock takes the session's lock with every Instances source the call
// may read just read, for the state as it is. The sources are read with
// the lock released, on a copy of the state, and their answers kept for
// the state version they were read for; if the state moved meanwhile
// they are read again, at most maxSourceRounds times, after which the
// newest answers stand. So no application code runs under the lock, and
// a graph that declares no source pays one empty check.
func (s *Session) lock() {
	for round := 0; ; round++ {
		s.mu.Lock()
		f := &s.st
		need := needed(f.g, f.page)
		if len(need) == 0 || round > maxSourceRounds || (round > 0 && f.sources.fresh(need, f.stateVersion)) {
			return
		}
		view, version := StateView{maps.Clone(f.state)}, f.stateVersion
		s.mu.Unlock()
		keys := make([][]string, len(need))
		for i, c := range need {
			f.obs.safeCall("instances of "+c.path, func() { keys[i] = slices.Clone(c.instances(view)) })
		}
		s.mu.Lock()
		f.sources.store(need, keys, version)
		s.mu.Unlock()
	}
}
