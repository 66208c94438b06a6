package journey

import "slices"

// maxStimuli bounds the state changes no fire was credited with that the
// session keeps for the facts block.
const maxStimuli = 256

// Where the person is looking: which tabs and modals are shown, which
// modal masks the page, and the container the app last reported the
// person looking at. A control on a hidden tab or in a closed modal, or
// under a shown blocking modal, is served but not as clickable, and an
// agent fire of it is refused (NODE_NOT_VISIBLE, BLOCKED_BY_OVERLAY).

// Activation values of a served row.
const (
	ActivationShown  = "shown"
	ActivationHidden = "hidden"
)

// shownLocked reports whether a tab or modal is shown: what the app said,
// else the default (the first tab among its siblings is shown, any other
// tab hidden, every modal closed). Other containers are always shown.
func (s *Session) shownLocked(c *containerNode) bool {
	if !c.tab && !c.modal {
		return true
	}
	if v, ok := s.vis[c]; ok {
		return v
	}
	if c.modal {
		return false
	}
	// A tab: shown by default only when it is the first tab among its
	// siblings and the app has shown none of them.
	first := true
	for _, o := range s.g.containers {
		if o == c {
			break
		}
		if o.tab && o.parent == c.parent && o.page == c.page {
			first = false
		}
	}
	for _, o := range s.g.containers {
		if o != c && o.tab && o.parent == c.parent && o.page == c.page && s.vis[o] {
			return false
		}
	}
	return first
}

// hiddenByLocked is the innermost tab or modal hiding the action, or nil.
func (s *Session) hiddenByLocked(an *actionNode) *containerNode {
	for i := len(an.chain) - 1; i >= 0; i-- {
		if c := an.chain[i]; !s.shownLocked(c) {
			return c
		}
	}
	return nil
}

// overlayLocked is the shown blocking modal on the current page that
// masks the action (one it does not sit in), or nil.
func (s *Session) overlayLocked(an *actionNode) *containerNode {
	if s.page < 0 {
		return nil
	}
	for _, c := range s.g.containers {
		if c.page != s.page || !c.blocks || !s.shownLocked(c) || slices.Contains(an.chain, c) {
			continue
		}
		if s.hiddenByLocked(&actionNode{chain: chainOf(c)}) != nil {
			continue // a modal inside a hidden tab masks nothing
		}
		return c
	}
	return nil
}

func chainOf(c *containerNode) []*containerNode {
	var out []*containerNode
	for ; c != nil; c = c.parent {
		out = append(out, c)
	}
	slices.Reverse(out)
	return out
}

// mountingLocked is the tab or modal the app has shown whose controls
// have not registered yet: the action sits in it, nothing is bound to
// run it, and other registrations on the page are live. Nil otherwise.
func (s *Session) mountingLocked(an *actionNode, instance string) *containerNode {
	var shown *containerNode
	for i := len(an.chain) - 1; i >= 0; i-- {
		if c := an.chain[i]; (c.tab || c.modal) && s.vis[c] {
			shown = c
			break
		}
	}
	if shown == nil {
		return nil
	}
	if h, _, _, _ := s.bindingState(an, instance); h != nil {
		return nil
	}
	for _, other := range s.g.served[s.page] {
		for _, b := range s.bindings[other.idx] {
			if b.handler != nil {
				return shown
			}
		}
	}
	return nil
}

// activationLocked is a served row's activation: absent for a control
// on the page itself, else shown or hidden.
func (s *Session) activationLocked(an *actionNode) string {
	in := false
	for _, c := range an.chain {
		if c.tab || c.modal {
			in = true
		}
	}
	switch {
	case !in:
		return ""
	case s.hiddenByLocked(an) != nil:
		return ActivationHidden
	}
	return ActivationShown
}

// leavePageLocked forgets what the app said about the page the cursor
// leaves: its tabs and modals take their defaults again, and the focus
// is cleared.
func (s *Session) leavePageLocked() {
	for c := range s.vis {
		if c.page == s.page {
			delete(s.vis, c)
		}
	}
	s.focus = nil
}

func (s *Session) containerLocked(path string) (*containerNode, error) {
	c, ok := s.g.containerIndex[path]
	if !ok {
		return nil, &Error{Reason: ReasonUnknownContainer, Msg: "the graph declares no container with that path", Value: path}
	}
	return c, nil
}

// ReasonUnknownContainer refuses Show, SetVisible or ObserveFocus naming a
// path the graph does not declare (or, for ObserveFocus, one not on the
// current page).
const ReasonUnknownContainer Reason = "UNKNOWN_CONTAINER"

// Show reports that a tab or modal is shown: a tab hides its sibling
// tabs. It is SetVisible(path, true).
func (s *Session) Show(path string) error { return s.SetVisible(path, true) }

// SetVisible reports that a tab or modal (by its qualified path, such as
// "checkout.review") is shown or hidden. Anything the served surface shows
// differently moves the version (a structure-swap row). Showing a tab
// hides its sibling tabs. It fails, changing nothing, for a path the graph
// does not declare; on a container that is neither a tab nor a modal it
// is a no-op.
func (s *Session) SetVisible(path string, shown bool) error {
	s.mu.Lock()
	defer s.unlock()
	c, err := s.containerLocked(path)
	if err != nil {
		return err
	}
	if !c.tab && !c.modal {
		return nil
	}
	was := s.shownLocked(c)
	changed := false
	if shown && c.tab {
		for _, o := range s.g.containers {
			if o != c && o.tab && o.parent == c.parent && o.page == c.page {
				if s.shownLocked(o) {
					changed = true
				}
				s.vis[o] = false
			}
		}
	}
	s.vis[c] = shown
	if !shown && s.focus == c {
		s.focus = nil
	}
	if changed || was != shown {
		s.structureSwapLocked()
	}
	return nil
}

// ObserveFocus reports where the person is looking below page level: a
// container of the current page ("checkout.review"), or "" for the page
// itself. It is served as lookingAt beside youAreOn and does not move the
// version. A path the graph does not declare on the current page is
// refused and changes nothing.
func (s *Session) ObserveFocus(path string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if path == "" {
		s.focus = nil
		return nil
	}
	c, err := s.containerLocked(path)
	if err != nil {
		return err
	}
	if c.page != s.page {
		return &Error{Reason: ReasonUnknownContainer, Msg: "that container is not on the current page", Value: path}
	}
	s.focus = c
	return nil
}
