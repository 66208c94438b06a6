package journey

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// GraphDef is the authored declaration of a navigation graph. Every list is
// a slice, never a map, because declaration order is part of the contract:
// it is the order actions are served in, the order journey tools are built
// in, and the tie-breaker for route finding.
type GraphDef struct {
	// Does is an optional authored description of the whole app.
	Does string
	// Pages are the places the cursor can be. At least one is required.
	Pages []Page
	// Actions are root actions offered on several pages. Their ids stay
	// unqualified (a root action named "login" has the id "login").
	Actions []RootAction
	// Journeys are named, ordered flows over the declared actions.
	Journeys []Journey
}

// Page is one place in the app. Its actions get ids qualified by the page
// id ("checkout.place-order"); a container inserts its own name
// ("checkout.lines.remove").
type Page struct {
	// ID is the page id: a segment of letters, digits, '-' and '_'.
	ID string
	// Route is an optional path pattern ("/products/:id") used by Sync and
	// MatchRoute to map the application's router location to this page.
	Route string
	// Does is an optional authored description of the page.
	Does string
	// Actions declared directly on the page.
	Actions []Action
	// Containers group actions below the page (areas, and repeats templates).
	Containers []Container
}

// Container is a named group of actions inside a page. A container with
// Repeats set is a template: its actions exist once per runtime instance
// (an order line, a message in a list), and every fire must name the
// instance it acts on.
type Container struct {
	// Name is the container's segment in qualified action ids.
	Name string
	// Does is an optional authored description.
	Does string
	// When is a container guard, AND-composed into the guard of every
	// action below it. Nil means no guard.
	When Guard
	// Repeats marks a template container with runtime instance keys.
	Repeats bool
	// Instances is the existence source of a Repeats container: the keys
	// that exist right now, read from the state view. Optional: without it
	// the instances are the ones registered by the host (RegisterActions
	// with an Instance). It is read with the session's lock released, on
	// a copy of the state, each time a call may need it (a fire, the
	// served rows, a plan), and read again if the state moved meanwhile.
	// It may read the session, but not call what reads it: Fire,
	// CommitJourney, LeaveJourney, and the rows and plans (Here,
	// Available, Plan, Standing, ContextBrief).
	Instances func(StateView) []string
	// Actions declared in this container.
	Actions []Action
	// Containers nested below this one.
	Containers []Container
	// Tab marks a tab: it is shown only while the app says so (Show,
	// SetVisible), and showing one tab of a parent hides its sibling
	// tabs. Its actions are not clickable while it is hidden
	// (NODE_NOT_VISIBLE).
	Tab bool
	// Modal marks a modal: closed until the app shows it. While a
	// blocking modal is shown, every action on its page outside it is
	// masked (BLOCKED_BY_OVERLAY); while it is closed its own actions
	// are not clickable (NODE_NOT_VISIBLE).
	Modal bool
	// Popover makes a Modal non-blocking: it masks nothing.
	Popover bool
}

// Action declares one thing a person (or a model) can do. Only Name and
// Does are required.
type Action struct {
	// Name is the action's own segment; its id is qualified by its page and
	// containers.
	Name string
	// Does is the one authored sentence both the planner and the model
	// read. It is the only action text that ever reaches a model as text.
	Does string
	// When is the availability guard: while it fails the action is hidden
	// (not served). AND-composed with every ancestor container's When.
	When Guard
	// EnabledWhen is clickability: while it fails the action is still
	// served, greyed (enabled:false), and a fire is refused TOOL_DISABLED.
	// It is not composed with ancestors.
	EnabledWhen Guard
	// Writes are the state keys the action claims to change (names only).
	Writes []string
	// Reads are the state keys its outcome depends on.
	Reads []string
	// GoTo is the page the action claims to navigate to. The claim is the
	// page edge: pages declare no edges of their own.
	GoTo string
	// Confirm marks the action high-effect: a model must have it confirmed
	// (or, under enforcement, approved by a person) before it fires.
	Confirm bool
	// PersonApproves says the application asks the person to approve each
	// fire on their own screen (an approval the app declares and shows,
	// such as agent.Variant.Approval; journey/bind sets it from the
	// capability). That on-screen question is the confirmation: a model is
	// told before it fires that the person will be asked there, and is not
	// asked to get a yes in the chat as well.
	PersonApproves bool
	// Input is the input contract. Nil accepts any input unchecked.
	Input *Input
	// Verify is the app's own postcondition, as a guard over the state
	// view, checked once after the action comes to rest.
	Verify Guard
	// VerifyFunc is the same postcondition as a predicate. At most one of
	// Verify and VerifyFunc may be set.
	VerifyFunc func(StateView) bool
	// BlockedBecause is the app's explanation for a greyed control. It is
	// served (as data) only while the control is switched off.
	BlockedBecause *Blocked
	// Concurrency limits overlapping fires of this action.
	Concurrency Concurrency
	// HumanDecides declares the action the person's decision: the model
	// presents the options and does not make it. It is disclosure only:
	// such an action is served as awaiting the person (awaitingHuman,
	// a journey standing with-the-human), never as a ready step, but no
	// fire is refused for it (use Policy for that). Nil means the
	// action is an ordinary one.
	HumanDecides *HumanDecides
	// Policy says who may fire the action. The zero value lets anyone.
	Policy PrincipalPolicy
}

// HumanDecides declares an action as the person's decision.
type HumanDecides struct {
	// About is the app's own short name for the decision. It is data: it
	// rides data fields only and never enters a sentence.
	About string
	// DoneWhen is when the decision counts as made, over the state view.
	// Nil means the library cannot tell (made is "unknown").
	DoneWhen Guard
}

// PrincipalPolicy says which actors may fire an action. The session
// enforces it on every fire: an actor outside MayInvoke is refused
// PRINCIPAL_NOT_ALLOWED before anything else about the fire is judged
// but whether the action exists, so no confirm card is ever minted for a
// fire that actor could not make.
type PrincipalPolicy struct {
	// MayInvoke lists the actors allowed to fire it (ActorUser for the
	// person, ActorAgent, ActorSystem). Empty means every actor.
	// []Actor{ActorUser} declares the action human-only.
	MayInvoke []Actor
}

// allows reports whether the policy lets an actor fire.
func (p PrincipalPolicy) allows(a Actor) bool {
	return len(p.MayInvoke) == 0 || slices.Contains(p.MayInvoke, a)
}

// RootAction is an action offered on several pages.
type RootAction struct {
	Action
	// On lists the pages the action is offered on (at least one).
	On []string
}

// Journey declares a journey: a named, described, ordered list of steps.
type Journey struct {
	// ID is the journey id (a segment; it becomes part of a tool name).
	ID string
	// Does is the authored description of the whole flow.
	Does string
	// Steps are qualified action ids, or unambiguous suffixes of one
	// ("place-order" matches "checkout.place-order").
	Steps []string
	// When is an optional precondition over the state view.
	When Guard
}

// Blocked is the app's own explanation of why a control is switched off.
// Says is application text: it rides data fields only.
type Blocked struct {
	Says      string `json:"says"`
	ClearedBy string `json:"clearedBy,omitempty"` // "app", "user" or "invalid"
}

// Concurrency declares how overlapping fires of one action are handled.
// The zero value is parallel: no limit.
type Concurrency struct {
	// SingleFlight refuses a fire (PRIOR_FIRE_PENDING) while an earlier
	// fire of the same action has not come to rest.
	SingleFlight bool
	// PerInstance scopes SingleFlight (and Once) to the instance key
	// instead of the whole action.
	PerInstance bool
	// Once declares an action that must happen at most once (a payment,
	// a refund): after a fire of it came to rest successfully, a new fire
	// is refused DUPLICATE_EXECUTION naming that settled transition; a
	// fire refused, rejected or rolled back does not count. While a fire
	// is not at rest it behaves as SingleFlight. What is served follows
	// the refusal: once settled (per instance: for every listed
	// instance) the row names the fire in priorTransitionId and is not
	// clickable, and in an open journey frame the step is done; settled
	// instances are left out of the row's instances.
	Once bool
}

// GraphError is a definition-time mistake found while building a graph.
// The message names the culprit.
type GraphError struct {
	Graph string
	Msg   string
}

// Error renders the mistake with the graph id.
func (e *GraphError) Error() string {
	return fmt.Sprintf("journey: graph %q: %s", e.Graph, e.Msg)
}

// segmentRE is what one id segment may contain. Segments are joined by '.'
// into qualified ids and then into tool names, which MCP limits to
// [A-Za-z0-9_.-]; a dot inside a segment would make ids ambiguous.
var segmentRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// maxToolName is the longest tool name MCP hosts accept.
const maxToolName = 128

// reservedNames cannot be used as action or journey names.
var reservedNames = []string{"leave-journey"}

// reservedRootNames cannot be root action ids: a root action's transition
// ids are "<name>#<n>", which for these would read as ask ids.
var reservedRootNames = []string{"ask"}

// Graph is a compiled, immutable navigation graph. Build one with NewGraph
// or MustNewGraph, then open sessions with NewSession. A Graph is safe for
// concurrent use.
type Graph struct {
	id   string
	does string

	pages     []*pageNode
	pageIndex map[string]int

	actions     []*actionNode // declaration order
	actionIndex map[string]*actionNode

	journeys     []*journeyNode
	journeyIndex map[string]*journeyNode

	// served[i] lists the actions offered on page i, in declaration order:
	// the page's own actions (containers depth-first) then root actions.
	served [][]*actionNode
	// entries[i] lists the journeys whose first step is offered on page i.
	entries [][]*journeyNode
	// hops[i] lists the navigating actions offered on page i.
	hops [][]*actionNode
	// sourcesOn[i] lists the containers with a declared Instances source
	// whose actions are offered on page i; onceSources, those of once-only
	// actions anywhere (a plan reads them whatever the page). They are
	// the host code a session reads outside its lock (sources.go).
	sourcesOn   [][]*containerNode
	onceSources []*containerNode

	// containers are every declared container, in declaration order,
	// indexed by qualified path.
	containers     []*containerNode
	containerIndex map[string]*containerNode

	requiredKeys []string
	// writers[k] lists the actions declaring a write of state key k, in
	// declaration order.
	writers map[string][]*actionNode
}

type pageNode struct {
	idx   int
	id    string
	route string
	does  string
	segs  []string // parsed route segments
}

type containerNode struct {
	page      int
	parent    *containerNode
	tab       bool
	modal     bool
	blocks    bool
	name      string
	path      string
	when      Guard
	repeats   bool
	instances func(StateView) []string
	actions   []*actionNode // a repeats container's actions (nearest container)
}

type actionNode struct {
	idx        int
	id         string
	name       string
	does       string
	on         []int // page indexes
	onIDs      []string
	root       bool
	chain      []*containerNode // ancestors, outermost first
	guard      Guard            // composed: container guards then action guard
	enabled    Guard
	writes     []string
	reads      []string
	goTo       int // -1 when none
	goToID     string
	highEffect bool
	// personApproves: the app asks the person on screen (Action.PersonApproves).
	personApproves bool
	input          *Input
	verify         Guard
	verifyFn       func(StateView) bool
	blocked        *Blocked
	conc           Concurrency
	repeat         *containerNode // nearest repeats container, if any
	decides        *HumanDecides
	decideWhen     Guard
	policy         PrincipalPolicy
}

// humanOnly: the policy does not let the agent fire it.
func (an *actionNode) humanOnly() bool { return !an.policy.allows(ActorAgent) }

type journeyNode struct {
	idx   int
	id    string
	does  string
	steps []*actionNode
	when  Guard
	// deps[i] lists the other steps whose declared writes overlap step i's
	// guard keys: the derived dependency edges.
	deps [][]string
}

// MustNewGraph is NewGraph that panics on a definition error, for graphs
// declared in package variables and tests, like regexp.MustCompile.
func MustNewGraph(id string, def GraphDef) *Graph {
	g, err := NewGraph(id, def)
	if err != nil {
		panic(err)
	}
	return g
}

// NewGraph validates and compiles a graph declaration. Every authoring
// mistake is reported as a *GraphError naming it: an invalid or duplicate
// name, a missing Does, an empty guard, an unknown operator, a GoTo naming
// an unknown page, a journey step that matches nothing or is ambiguous,
// and so on. The definition is copied; later changes to def do not affect
// the graph.
func NewGraph(id string, def GraphDef) (*Graph, error) {
	b := &graphBuilder{g: &Graph{id: id, does: def.Does, pageIndex: map[string]int{}, actionIndex: map[string]*actionNode{}, journeyIndex: map[string]*journeyNode{}}}
	// The steps, in order; each refuses the first authoring mistake it
	// finds with a *GraphError naming it.
	for _, step := range []func() error{
		b.checkID,
		func() error { return b.pages(def.Pages) },
		func() error { return b.pageActions(def.Pages) },
		func() error { return b.rootActions(def.Actions) },
		b.link,
		func() error { return b.journeys(def.Journeys) },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	b.index()
	return b.g, nil
}

// graphBuilder compiles a GraphDef into a Graph, one step at a time.
type graphBuilder struct {
	g     *Graph
	goTos []string // per action idx, the declared goTo until link resolves it
}

func (b *graphBuilder) fail(format string, a ...any) error {
	return &GraphError{Graph: b.g.id, Msg: fmt.Sprintf(format, a...)}
}

func (b *graphBuilder) checkID() error {
	id := b.g.id
	if strings.TrimSpace(id) == "" {
		return b.fail("the graph id is empty")
	}
	if !segmentRE.MatchString(id) {
		return b.fail("the graph id cannot become part of a tool name: use letters, digits, '-' and '_'")
	}
	return nil
}

// pages compiles the page list: ids, routes.
func (b *graphBuilder) pages(pages []Page) error {
	g := b.g
	if len(pages) == 0 {
		return b.fail("a graph needs at least one page")
	}
	for _, p := range pages {
		if !segmentRE.MatchString(p.ID) {
			return b.fail("page id %q cannot become part of a tool name: use letters, digits, '-' and '_'", p.ID)
		}
		if _, dup := g.pageIndex[p.ID]; dup {
			return b.fail("page %q is declared twice", p.ID)
		}
		pn := &pageNode{idx: len(g.pages), id: p.ID, route: p.Route, does: p.Does}
		if p.Route != "" {
			if !strings.HasPrefix(p.Route, "/") {
				return b.fail("page %q: route %q must start with '/'", p.ID, p.Route)
			}
			pn.segs = splitPath(p.Route)
		}
		g.pageIndex[p.ID] = pn.idx
		g.pages = append(g.pages, pn)
	}
	g.served = make([][]*actionNode, len(g.pages))
	g.entries = make([][]*journeyNode, len(g.pages))
	g.hops = make([][]*actionNode, len(g.pages))
	return nil
}

// add compiles one action and gives it the next index.
func (b *graphBuilder) add(an *actionNode, a Action, where string) error {
	g := b.g
	if err := g.compileAction(an, a, where); err != nil {
		return err
	}
	if _, dup := g.actionIndex[an.id]; dup {
		return b.fail("action id %q is declared twice", an.id)
	}
	an.idx = len(g.actions)
	g.actions = append(g.actions, an)
	g.actionIndex[an.id] = an
	b.goTos = append(b.goTos, a.GoTo)
	return nil
}

// pageActions compiles each page's actions, containers depth-first, in
// declaration order.
func (b *graphBuilder) pageActions(pages []Page) error {
	for i, p := range pages {
		if err := b.walk(i, p.ID, p.ID, nil, p.Actions, p.Containers); err != nil {
			return err
		}
	}
	return nil
}

func (b *graphBuilder) walk(page int, pageID, prefix string, chain []*containerNode, acts []Action, conts []Container) error {
	local := map[string]bool{}
	for _, a := range acts {
		if !segmentRE.MatchString(a.Name) {
			return b.fail("action name %q on %q cannot become part of a tool name: use letters, digits, '-' and '_'", a.Name, prefix)
		}
		if local[a.Name] {
			return b.fail("%q declares the name %q twice", prefix, a.Name)
		}
		local[a.Name] = true
		an := &actionNode{id: prefix + "." + a.Name, name: a.Name, on: []int{page}, onIDs: []string{pageID}, chain: slices.Clone(chain)}
		if err := b.add(an, a, an.id); err != nil {
			return err
		}
	}
	for _, c := range conts {
		if !segmentRE.MatchString(c.Name) {
			return b.fail("container name %q in %q cannot become part of an id: use letters, digits, '-' and '_'", c.Name, prefix)
		}
		if local[c.Name] {
			return b.fail("%q declares the name %q twice (a container and an action share one namespace)", prefix, c.Name)
		}
		local[c.Name] = true
		path := prefix + "." + c.Name
		when, err := compileGuard(c.When, path+" when")
		if err != nil {
			return b.fail("%s", err)
		}
		if c.Instances != nil && !c.Repeats {
			return b.fail("container %q has Instances but is not a Repeats container", path)
		}
		if c.Popover && !c.Modal {
			return b.fail("container %q is a Popover but not a Modal", path)
		}
		if c.Tab && c.Modal {
			return b.fail("container %q is both a Tab and a Modal", path)
		}
		if c.Repeats && (c.Tab || c.Modal) {
			return b.fail("container %q cannot be both Repeats and a Tab or Modal", path)
		}
		var parent *containerNode
		if len(chain) > 0 {
			parent = chain[len(chain)-1]
		}
		cn := &containerNode{page: page, parent: parent, tab: c.Tab, modal: c.Modal, blocks: c.Modal && !c.Popover,
			name: c.Name, path: path, when: when, repeats: c.Repeats, instances: c.Instances}
		b.g.containers = append(b.g.containers, cn)
		if b.g.containerIndex == nil {
			b.g.containerIndex = map[string]*containerNode{}
		}
		b.g.containerIndex[path] = cn
		if err := b.walk(page, pageID, path, append(slices.Clone(chain), cn), c.Actions, c.Containers); err != nil {
			return err
		}
	}
	return nil
}

// rootActions compiles the actions offered on several pages.
func (b *graphBuilder) rootActions(roots []RootAction) error {
	g := b.g
	for _, ra := range roots {
		if !segmentRE.MatchString(ra.Name) {
			return b.fail("root action name %q cannot become part of a tool name: use letters, digits, '-' and '_'", ra.Name)
		}
		if len(ra.On) == 0 {
			return b.fail("root action %q is offered on no page: On is empty", ra.Name)
		}
		if slices.Contains(reservedRootNames, ra.Name) {
			return b.fail("root action %q uses a reserved name: its transition ids would collide with ask ids", ra.Name)
		}
		an := &actionNode{id: ra.Name, name: ra.Name, root: true}
		seen := map[string]bool{}
		for _, pid := range ra.On {
			pi, ok := g.pageIndex[pid]
			if !ok {
				return b.fail("root action %q is offered on unknown page %q", ra.Name, pid)
			}
			if seen[pid] {
				return b.fail("root action %q lists page %q twice", ra.Name, pid)
			}
			seen[pid] = true
			an.on = append(an.on, pi)
			an.onIDs = append(an.onIDs, pid)
		}
		if err := b.add(an, ra.Action, ra.Name); err != nil {
			return err
		}
	}
	return nil
}

// link resolves goTo targets and indexes, per page, what is served there
// (the page's own actions, then root actions) and which hops leave it.
func (b *graphBuilder) link() error {
	g := b.g
	for i, an := range g.actions {
		an.goTo = -1
		if t := b.goTos[i]; t != "" {
			pi, ok := g.pageIndex[t]
			if !ok {
				return b.fail("action %q: goTo names unknown page %q", an.id, t)
			}
			an.goTo, an.goToID = pi, t
		}
	}
	for _, root := range []bool{false, true} {
		for _, an := range g.actions {
			if an.root != root {
				continue
			}
			for _, pi := range an.on {
				g.served[pi] = append(g.served[pi], an)
			}
		}
	}
	g.sourcesOn = make([][]*containerNode, len(g.pages))
	for pi, list := range g.served {
		for _, an := range list {
			if an.goTo >= 0 {
				g.hops[pi] = append(g.hops[pi], an)
			}
			if c := an.repeat; c != nil && c.instances != nil && !slices.Contains(g.sourcesOn[pi], c) {
				g.sourcesOn[pi] = append(g.sourcesOn[pi], c)
			}
		}
	}
	for _, an := range g.actions {
		if c := an.repeat; c != nil && c.instances != nil && an.conc.Once && !slices.Contains(g.onceSources, c) {
			g.onceSources = append(g.onceSources, c)
		}
	}
	return nil
}

// journeys compiles the journeys, their derived step dependencies and the
// per-page index of the journeys that start there.
func (b *graphBuilder) journeys(defs []Journey) error {
	g := b.g
	for _, jd := range defs {
		if !segmentRE.MatchString(jd.ID) {
			return b.fail("journey id %q cannot become part of a tool name: use letters, digits, '-' and '_'", jd.ID)
		}
		if slices.Contains(reservedNames, jd.ID) {
			return b.fail("journey id %q is reserved", jd.ID)
		}
		if len(g.id)+len(".journey.")+len(jd.ID) > maxToolName {
			return b.fail("journey id %q makes a tool name longer than %d characters", jd.ID, maxToolName)
		}
		if _, dup := g.journeyIndex[jd.ID]; dup {
			return b.fail("journey %q is declared twice", jd.ID)
		}
		if strings.TrimSpace(jd.Does) == "" {
			return b.fail("journey %q has no Does", jd.ID)
		}
		if len(jd.Steps) == 0 {
			return b.fail("journey %q has no steps", jd.ID)
		}
		when, err := compileGuard(jd.When, "journey "+jd.ID+" when")
		if err != nil {
			return b.fail("%s", err)
		}
		jn := &journeyNode{idx: len(g.journeys), id: jd.ID, does: jd.Does, when: when}
		for _, s := range jd.Steps {
			an, err := g.resolveStep(s)
			if err != nil {
				return b.fail("journey %q: %s", jd.ID, err)
			}
			jn.steps = append(jn.steps, an)
		}
		jn.deps = stepDeps(jn.steps)
		g.journeys = append(g.journeys, jn)
		g.journeyIndex[jd.ID] = jn
		for _, pi := range jn.steps[0].on {
			g.entries[pi] = append(g.entries[pi], jn)
		}
	}
	return nil
}

// stepDeps derives, per step, the other steps whose declared writes
// overlap its guard keys.
func stepDeps(steps []*actionNode) [][]string {
	deps := make([][]string, len(steps))
	for i, b := range steps {
		keys := guardKeys(b.guard)
		deps[i] = []string{}
		for j, a := range steps {
			if i == j || a == b || slices.Contains(deps[i], a.id) {
				continue
			}
			for _, w := range a.writes {
				if slices.Contains(keys, w) {
					deps[i] = append(deps[i], a.id)
					break
				}
			}
		}
	}
	return deps
}

// index builds what reads look up instead of scanning the graph: the
// required state keys, the actions writing each key, and the actions of
// each repeats container.
func (b *graphBuilder) index() {
	g := b.g
	// Required state keys: every key a guard, precondition or container
	// guard reads, sorted and de-duplicated.
	keys := map[string]bool{}
	for _, an := range g.actions {
		for _, c := range an.guard {
			keys[c.Key] = true
		}
		for _, c := range an.enabled {
			keys[c.Key] = true
		}
		for _, c := range an.decideWhen {
			keys[c.Key] = true
		}
	}
	for _, jn := range g.journeys {
		for _, c := range jn.when {
			keys[c.Key] = true
		}
	}
	for k := range keys {
		g.requiredKeys = append(g.requiredKeys, k)
	}
	slices.Sort(g.requiredKeys)
	g.writers = map[string][]*actionNode{}
	for _, an := range g.actions {
		for _, w := range an.writes {
			if list := g.writers[w]; len(list) == 0 || list[len(list)-1] != an {
				g.writers[w] = append(g.writers[w], an)
			}
		}
		if an.repeat != nil {
			an.repeat.actions = append(an.repeat.actions, an)
		}
	}
}

// checkAction refuses an action declaration that cannot be served,
// naming the culprit: a reserved name, no Does, a tool name too long, an
// empty state key, a broken input contract, an unknown clearedBy, a
// concurrency or policy that means nothing.
func (g *Graph) checkAction(an *actionNode, a Action, where string) error {
	fail := func(format string, args ...any) error {
		return &GraphError{Graph: g.id, Msg: fmt.Sprintf(format, args...)}
	}
	if slices.Contains(reservedNames, a.Name) {
		return fail("action %q uses the reserved name %q", where, a.Name)
	}
	if strings.TrimSpace(a.Does) == "" {
		return fail("action %q has no Does: every action needs its one authored sentence", where)
	}
	if len(g.id)+1+len(an.id) > maxToolName {
		return fail("action %q makes a tool name longer than %d characters", where, maxToolName)
	}
	if a.Verify != nil && a.VerifyFunc != nil {
		return fail("action %q declares both Verify and VerifyFunc; pick one", where)
	}
	for _, k := range append(slices.Clone(a.Writes), a.Reads...) {
		if strings.TrimSpace(k) == "" {
			return fail("action %q declares an empty state key in writes or reads", where)
		}
	}
	if a.Input != nil && a.Input.err != nil {
		return fail("action %q: input contract: %v", where, a.Input.err)
	}
	if a.Input != nil && a.Input.kind == inputInvalid {
		return fail("action %q: input contract is not recognized (use NoInput, InputSchema or InputFor)", where)
	}
	if a.BlockedBecause != nil {
		switch a.BlockedBecause.ClearedBy {
		case "", "app", "user", "invalid":
		default:
			return fail("action %q: blockedBecause.clearedBy %q must be app, user or invalid", where, a.BlockedBecause.ClearedBy)
		}
	}
	if a.Concurrency.PerInstance && !a.Concurrency.SingleFlight && !a.Concurrency.Once {
		return fail("action %q: concurrency PerInstance needs SingleFlight or Once", where)
	}
	for _, who := range a.Policy.MayInvoke {
		switch who {
		case ActorUser, ActorAgent, ActorSystem:
		default:
			return fail("action %q: policy MayInvoke names %q; use ActorUser (the person), ActorAgent or ActorSystem", where, who)
		}
	}
	return nil
}

func (g *Graph) compileAction(an *actionNode, a Action, where string) error {
	fail := func(format string, args ...any) error {
		return &GraphError{Graph: g.id, Msg: fmt.Sprintf(format, args...)}
	}
	if slices.Contains(reservedNames, a.Name) || strings.TrimSpace(a.Does) == "" || len(g.id)+1+len(an.id) > maxToolName {
		return g.checkAction(an, a, where)
	}
	when, err := compileGuard(a.When, where+" when")
	if err != nil {
		return fail("%s", err)
	}
	enabledWhen, err := compileGuard(a.EnabledWhen, where+" enabledWhen")
	if err != nil {
		return fail("%s", err)
	}
	verify, err := compileGuard(a.Verify, where+" verify")
	if err != nil {
		return fail("%s", err)
	}
	if err := g.checkAction(an, a, where); err != nil {
		return err
	}
	var decideWhen Guard
	if a.HumanDecides != nil {
		if decideWhen, err = compileGuard(a.HumanDecides.DoneWhen, where+" humanDecides doneWhen"); err != nil {
			return fail("%s", err)
		}
	}
	an.does = a.Does
	for _, c := range an.chain {
		an.guard = append(an.guard, c.when...)
		if c.repeats {
			an.repeat = c
		}
	}
	an.guard = append(an.guard, when...)
	if len(an.guard) == 0 {
		an.guard = nil
	}
	an.enabled = enabledWhen
	an.writes = slices.Clone(a.Writes)
	an.reads = slices.Clone(a.Reads)
	an.highEffect = a.Confirm
	an.personApproves = a.PersonApproves
	an.input = a.Input
	an.verify = verify
	an.verifyFn = a.VerifyFunc
	if a.BlockedBecause != nil {
		b := *a.BlockedBecause
		an.blocked = &b
	}
	an.conc = a.Concurrency
	if a.HumanDecides != nil {
		hd := *a.HumanDecides
		hd.DoneWhen = nil
		an.decides, an.decideWhen = &hd, decideWhen
	}
	an.policy = PrincipalPolicy{MayInvoke: slices.Clone(a.Policy.MayInvoke)}
	if an.root && an.repeat != nil {
		return fail("root action %q cannot live in a repeats container", where)
	}
	return nil
}

// resolveStep maps a journey step to an action: an exact qualified id, or
// a unique ".suffix" match.
func (g *Graph) resolveStep(s string) (*actionNode, error) {
	if an, ok := g.actionIndex[s]; ok {
		return an, nil
	}
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("a step is empty")
	}
	var hits []string
	for _, an := range g.actions {
		if strings.HasSuffix(an.id, "."+s) {
			hits = append(hits, an.id)
		}
	}
	switch len(hits) {
	case 0:
		return nil, fmt.Errorf("step %q matches no action", s)
	case 1:
		return g.actionIndex[hits[0]], nil
	default:
		return nil, fmt.Errorf("step %q is ambiguous; qualify it: %s", s, strings.Join(hits, " | "))
	}
}

// ID returns the graph id.
func (g *Graph) ID() string { return g.id }

// Does returns the graph's authored description, if any.
func (g *Graph) Does() string { return g.does }

// RequiredStateKeys lists every state key a guard or precondition reads,
// sorted. Seed each in the session's initial state, or the guards reading
// it are unevaluable.
func (g *Graph) RequiredStateKeys() []string { return slices.Clone(g.requiredKeys) }

// PageInfo describes one declared page.
type PageInfo struct {
	ID    string `json:"id"`
	Route string `json:"route,omitempty"`
	Does  string `json:"does,omitempty"`
}

// Pages lists the declared pages in declaration order.
func (g *Graph) Pages() []PageInfo {
	out := make([]PageInfo, len(g.pages))
	for i, p := range g.pages {
		out[i] = PageInfo{ID: p.id, Route: p.route, Does: p.does}
	}
	return out
}

// HasPage reports whether the graph declares the page.
func (g *Graph) HasPage(id string) bool { _, ok := g.pageIndex[id]; return ok }

// ActionInfo describes one declared action. Slices are copies.
type ActionInfo struct {
	ID         string   `json:"id"`
	Does       string   `json:"does"`
	On         []string `json:"on"`
	Writes     []string `json:"writes,omitempty"`
	Reads      []string `json:"reads,omitempty"`
	GoTo       string   `json:"goTo,omitempty"`
	HighEffect bool     `json:"highEffect,omitempty"`
	// PersonApproves: the app asks the person to approve each fire on
	// their screen (Action.PersonApproves).
	PersonApproves bool `json:"personApproves,omitempty"`
	// Expects is the wire-shaped input contract: a JSON Schema object, the
	// JSON string "none", or absent when no contract was declared.
	Expects json.RawMessage `json:"expects,omitempty"`
	// Repeats is the qualified path of the repeats container the action
	// lives in; fires of it must name an instance.
	Repeats      string `json:"repeats,omitempty"`
	HasVerify    bool   `json:"hasVerify,omitempty"`
	Guarded      bool   `json:"guarded,omitempty"`
	SingleFlight bool   `json:"singleFlight,omitempty"`
	Once         bool   `json:"once,omitempty"`
	// HumanDecides: the action is the person's decision.
	HumanDecides bool `json:"humanDecides,omitempty"`
	// MayInvoke is the declared policy (empty: anyone may fire it).
	MayInvoke []Actor `json:"mayInvoke,omitempty"`
}

// Allows reports whether the action's policy lets an actor fire it.
func (ai ActionInfo) Allows(a Actor) bool {
	return PrincipalPolicy{MayInvoke: ai.MayInvoke}.allows(a.Normalized())
}

func (an *actionNode) info() ActionInfo {
	ai := ActionInfo{ID: an.id, Does: an.does, On: slices.Clone(an.onIDs), Writes: slices.Clone(an.writes), Reads: slices.Clone(an.reads),
		GoTo: an.goToID, HighEffect: an.highEffect, PersonApproves: an.personApproves, Expects: an.input.expectsJSON(), HasVerify: an.verify != nil || an.verifyFn != nil,
		Guarded: an.guard != nil, SingleFlight: an.conc.SingleFlight || an.conc.Once, Once: an.conc.Once,
		HumanDecides: an.decides != nil, MayInvoke: slices.Clone(an.policy.MayInvoke)}
	if an.repeat != nil {
		ai.Repeats = an.repeat.path
	}
	return ai
}

// Actions lists every declared action in declaration order (page actions
// in page order, then root actions).
func (g *Graph) Actions() []ActionInfo {
	out := make([]ActionInfo, len(g.actions))
	for i, an := range g.actions {
		out[i] = an.info()
	}
	return out
}

// Action returns one declared action by its qualified id.
func (g *Graph) Action(id string) (ActionInfo, bool) {
	an, ok := g.actionIndex[id]
	if !ok {
		return ActionInfo{}, false
	}
	return an.info(), true
}

// Info describes one declared journey.
type Info struct {
	ID    string   `json:"id"`
	Does  string   `json:"does"`
	Steps []string `json:"steps"`
	// HasPrecondition reports whether the journey declares a When guard.
	HasPrecondition bool `json:"hasPrecondition,omitempty"`
}

// Journeys lists the declared journeys in declaration order.
func (g *Graph) Journeys() []Info {
	out := make([]Info, len(g.journeys))
	for i, jn := range g.journeys {
		out[i] = jn.info()
	}
	return out
}

// Journey returns one declared journey.
func (g *Graph) Journey(id string) (Info, bool) {
	jn, ok := g.journeyIndex[id]
	if !ok {
		return Info{}, false
	}
	return jn.info(), true
}

func (jn *journeyNode) info() Info {
	steps := make([]string, len(jn.steps))
	for i, s := range jn.steps {
		steps[i] = s.id
	}
	return Info{ID: jn.id, Does: jn.does, Steps: steps, HasPrecondition: jn.when != nil}
}

// MatchRoute maps a router path to a declared page id. Literal segments
// and ":param" segments are read; a trailing slash, query and hash are
// ignored; the most literal match wins, ties going to the page declared
// first. It reports false when no declared route matches.
func (g *Graph) MatchRoute(path string) (string, bool) {
	pi := g.matchRoute(path)
	if pi < 0 {
		return "", false
	}
	return g.pages[pi].id, true
}

func (g *Graph) matchRoute(path string) int {
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	segs := splitPath(path)
	best, bestLit := -1, -1
	for _, p := range g.pages {
		if p.route == "" || len(p.segs) != len(segs) {
			continue
		}
		lit, ok := 0, true
		for i, s := range p.segs {
			if strings.HasPrefix(s, ":") {
				if segs[i] == "" {
					ok = false
					break
				}
				continue
			}
			if s != segs[i] {
				ok = false
				break
			}
			lit++
		}
		if ok && lit > bestLit {
			best, bestLit = p.idx, lit
		}
	}
	return best
}

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return []string{}
	}
	return strings.Split(p, "/")
}
