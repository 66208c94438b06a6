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

// Activation says whether a served row's control, in a tab or modal, is
// shown or hidden. The zero value, "", is a control on the page itself,
// which no tab or modal can hide (and the field is omitted on the wire).
type Activation string

// Activation values of a served row.
const (
	ActivationShown  Activation = "shown"
	ActivationHidden Activation = "hidden"
)

// visibility is the part of a session that knows where the person is
// looking: what the app said about tabs and modals (Show, SetVisible) and
// the container it last reported the person looking at (ObserveFocus).
// A container it said nothing about takes its default: the first tab of
// a parent shown, modals closed. Its zero value is not ready: use
// newVisibility. It holds no lock; the session's coordinator does.
type visibility struct {
	g     *Graph
	vis   map[*containerNode]bool
	focus *containerNode
}

func newVisibility(g *Graph) visibility {
	return visibility{g: g, vis: map[*containerNode]bool{}}
}

// shown reports whether a tab or modal is shown: what the app said, else
// the default (the first tab among its siblings is shown, any other tab
// hidden, every modal closed). Other containers are always shown.
func (v *visibility) shown(c *containerNode) bool {
	if !c.tab && !c.modal {
		return true
	}
	if on, ok := v.vis[c]; ok {
		return on
	}
	if c.modal {
		return false
	}
	// A tab: shown by default only when it is the first tab among its
	// siblings and the app has shown none of them.
	first := true
	for _, o := range v.g.containers {
		if o == c {
			break
		}
		if o.tab && o.parent == c.parent && o.page == c.page {
			first = false
		}
	}
	for _, o := range v.g.containers {
		if o != c && o.tab && o.parent == c.parent && o.page == c.page && v.vis[o] {
			return false
		}
	}
	return first
}

// hiddenBy is the innermost tab or modal hiding the action, or nil.
func (v *visibility) hiddenBy(an *actionNode) *containerNode {
	for i := len(an.chain) - 1; i >= 0; i-- {
		if c := an.chain[i]; !v.shown(c) {
			return c
		}
	}
	return nil
}

// overlay is the shown blocking modal on page that masks the action (one
// it does not sit in), or nil.
func (v *visibility) overlay(an *actionNode, page int) *containerNode {
	if page < 0 {
		return nil
	}
	for _, c := range v.g.containers {
		if c.page != page || !c.blocks || !v.shown(c) || slices.Contains(an.chain, c) {
			continue
		}
		if v.hiddenBy(&actionNode{chain: chainOf(c)}) != nil {
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

// shownAround is the innermost tab or modal around the action that the
// app has said is shown, or nil.
func (v *visibility) shownAround(an *actionNode) *containerNode {
	for i := len(an.chain) - 1; i >= 0; i-- {
		if c := an.chain[i]; (c.tab || c.modal) && v.vis[c] {
			return c
		}
	}
	return nil
}

// activation is a served row's activation: absent for a control on the
// page itself, else shown or hidden.
func (v *visibility) activation(an *actionNode) Activation {
	in := false
	for _, c := range an.chain {
		if c.tab || c.modal {
			in = true
		}
	}
	switch {
	case !in:
		return ""
	case v.hiddenBy(an) != nil:
		return ActivationHidden
	}
	return ActivationShown
}

// leave forgets what the app said about a page the cursor leaves: its
// tabs and modals take their defaults again, and the focus is cleared.
func (v *visibility) leave(page int) {
	for c := range v.vis {
		if c.page == page {
			delete(v.vis, c)
		}
	}
	v.focus = nil
}

func (v *visibility) container(path string) (*containerNode, error) {
	c, ok := v.g.containerIndex[path]
	if !ok {
		return nil, &Error{Reason: ReasonUnknownContainer, Msg: "the graph declares no container with that path", Value: path}
	}
	return c, nil
}

// set records that a tab or modal is shown or hidden (showing a tab hides
// its sibling tabs) and reports whether what is shown changed.
func (v *visibility) set(c *containerNode, shown bool) (changed bool) {
	was := v.shown(c)
	if shown && c.tab {
		for _, o := range v.g.containers {
			if o != c && o.tab && o.parent == c.parent && o.page == c.page {
				if v.shown(o) {
					changed = true
				}
				v.vis[o] = false
			}
		}
	}
	v.vis[c] = shown
	if !shown && v.focus == c {
		v.focus = nil
	}
	return changed || was != shown
}

// focusPath is the container the person was last reported looking at,
// or "".
func (v *visibility) focusPath() string {
	if v.focus == nil {
		return ""
	}
	return v.focus.path
}

// mounting is the tab or modal the app has shown whose controls have not
// registered yet: the action sits in it, nothing is bound to run it, and
// other registrations on the page are live. Nil otherwise.
func (s *fold) mounting(an *actionNode, instance string) *containerNode {
	shown := s.view.shownAround(an)
	if shown == nil {
		return nil
	}
	if h, _, _, _ := s.bindings.state(an, instance); h != nil {
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
	return s.st.setVisible(path, shown)
}

// setVisible applies SetVisible to the fold.
func (s *fold) setVisible(path string, shown bool) error {
	c, err := s.view.container(path)
	if err != nil {
		return err
	}
	if !c.tab && !c.modal {
		return nil
	}
	if s.view.set(c, shown) {
		s.swap()
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
	defer s.unlock()
	return s.st.observeFocus(path)
}

// observeFocus applies ObserveFocus to the fold.
func (s *fold) observeFocus(path string) error {
	if path == "" {
		s.view.focus = nil
		return nil
	}
	c, err := s.view.container(path)
	if err != nil {
		return err
	}
	if c.page != s.page {
		return &Error{Reason: ReasonUnknownContainer, Msg: "that container is not on the current page", Value: path}
	}
	s.view.focus = c
	return nil
}
