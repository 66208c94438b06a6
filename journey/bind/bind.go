package bind

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/journey"
)

// Capability is what an action names: a typed handle on one capability of
// the contract, as agent.Expose and agent.ExposeMapped return it
// (*agent.Exposed). The journey keeps the handle, not its name, so a
// capability renamed in the contract is followed without editing the
// journey.
type Capability[Model, P any] interface {
	agent.Capability[Model, P]
	Name() string
	Descriptor() agent.Descriptor
}

// Runtime is what a journey needs from a bound contract. *agent.Runtime
// satisfies it, and so does an application's wrapper around one (an
// activity panel that reports every call, say), which then sees the
// journey's calls exactly as it sees an adapter's.
type Runtime[Model, P any] interface {
	// Contract is the contract the runtime binds; actions must name
	// capabilities it exposes.
	Contract() *agent.Contract[Model, P]
	// DispatchUnknown runs the contract's checked path; every fire goes
	// through it.
	DispatchUnknown(ctx context.Context, name string, payload json.RawMessage, inv agent.Invocation) (agent.Result, error)
	// Available lists what the current Model offers.
	Available() ([]agent.Descriptor, error)
	// Subscribe follows Model changes.
	Subscribe(listener func()) (unsubscribe func())
	// CanSubscribe reports whether Subscribe will ever call its listener.
	CanSubscribe() bool
	// Version is the current Model's version, 0 on an unversioned host:
	// each view the journey folds names the version it shows (seen.go).
	Version() uint64
	// TracksDelivery reports whether the host also says which version
	// each call's Message makes (agent.Runtime.TracksDelivery): a fire's
	// Model change is then the one at that version.
	TracksDelivery() bool
}

// Def declares a journey graph over a contract. It is journey.GraphDef
// with two differences: every action names the capability that performs
// it, and where the application is and what it holds are projections of
// the Model, not reports.
type Def[Model, P any] struct {
	// Does is the authored description of the application.
	Does string
	// Pages are the application's pages, in declaration order.
	Pages []Page[Model, P]
	// Journeys are the named flows over the actions (journey.Journey).
	Journeys []journey.Journey
	// Page says which page the Model is on: a declared page id, or a path
	// matched against the pages' routes. Anything else takes the cursor
	// off the graph. Required.
	Page func(model Model) string
	// State is the state view guards, writes, reads and instances read:
	// JSON values by key. After each Model change it is projected again,
	// and the keys whose value changed are the change reported. Required
	// (it may return an empty map).
	//
	// A fire is judged by its capability's watches (agent.Watch) against
	// the Model the session showed at the version it cites, and the
	// session's version moves only when State (or the page) does. So
	// project into State every value a bound capability watches: a
	// watched value State leaves out can move without the session moving,
	// and a fire citing that version is then judged against the newer
	// Model, which the agent was never shown.
	State func(model Model) map[string]any
	// LookingAt says where below page level the person is looking: the
	// qualified path of a container on the Model's page ("checkout.review"),
	// or "" for the page itself. It is read after each Model change and
	// served as lookingAt (journey.Session.ObserveFocus); a path the page
	// does not hold reads as "". Nil reports nothing.
	LookingAt func(model Model) string
}

// Page is journey.Page with bound actions.
type Page[Model, P any] struct {
	ID         string
	Route      string
	Does       string
	Actions    []Action[Model, P]
	Containers []Container[Model, P]
}

// Container is journey.Container with bound actions. A Tab or a Modal
// (Popover: a Modal that masks nothing) is shown or hidden by the Model,
// like everything else a binding serves: Shown is read after each Model
// change, and what it says is reported to the session
// (journey.Session.SetVisible), so the application never reports it by
// hand. While it is hidden, its actions are served but not clickable
// (NODE_NOT_VISIBLE); while a blocking Modal is shown, the rest of its
// page is masked (BLOCKED_BY_OVERLAY).
type Container[Model, P any] struct {
	Name       string
	Does       string
	When       journey.Guard
	Repeats    bool
	Instances  func(journey.StateView) []string
	Actions    []Action[Model, P]
	Containers []Container[Model, P]

	Tab     bool
	Modal   bool
	Popover bool
	// Shown says whether the Tab or Modal is shown in this Model.
	// Required for a Tab or a Modal, refused on any other container.
	Shown func(model Model) bool
}

// Action is one thing the journey offers, performed by a capability of
// the contract. The fields it shares with journey.Action mean what they
// mean there; its input contract is the capability's own input schema.
type Action[Model, P any] struct {
	// Name is the action's segment in the graph (its own name, not the
	// capability's: a rename in the contract leaves the journey alone).
	Name string
	// Does is the authored sentence the planner and the model read.
	Does string
	// Capability performs the action. It must be a capability the bound
	// contract exposes. It may be nil only for an action Policy keeps for
	// the person alone (MayInvoke []journey.Actor{journey.ActorUser}):
	// the person performs it in the application itself, through its own
	// Messages, and the contract need not expose it at all, so no agent,
	// on any route, can perform it. Such an action is served awaiting the
	// person, and an agent fire of it is refused PRINCIPAL_NOT_ALLOWED.
	Capability Capability[Model, P]
	// InstanceField, for an action inside a Repeats container, is the
	// capability's input member the instance key fills: the agent names
	// the instance, and the journey puts it into the input. The member is
	// left out of the action's own input schema.
	InstanceField string

	When           journey.Guard
	EnabledWhen    journey.Guard
	Writes         []string
	Reads          []string
	GoTo           string
	Confirm        bool
	Verify         journey.Guard
	BlockedBecause *journey.Blocked
	// Concurrency limits overlapping fires. Once (at most one fire that
	// came to rest successfully) with PerInstance, on an action inside a
	// Repeats container, is at most once per instance: a payment, once
	// per order.
	Concurrency journey.Concurrency
	// HumanDecides declares the action the person's decision
	// (journey.Action.HumanDecides): served awaiting the person, made once
	// its DoneWhen holds over the state view. It is disclosure only; pair
	// it with Policy to refuse an agent's fire.
	HumanDecides *journey.HumanDecides
	// Policy says who may fire the action (journey.PrincipalPolicy). A
	// Model change no fire accounts for, every key of which is declared
	// written by actions only the person may fire, is reported as the
	// person's own change (journey.ReportOptions.Principal): the
	// declaration says nobody else makes it.
	Policy journey.PrincipalPolicy
	// Holds reads what the control holds right now (a draft), from the
	// Model. Nil holds nothing.
	Holds func(model Model) any
}

// JourneyTransport is the transport a journey's fires are recorded with
// when Options.Transport is empty: not agent.InApp, since the fires are
// an agent's, so a contract's approvals and authorization meant for
// agents apply to them.
const JourneyTransport agent.Transport = "journey"

// Options configure a bound journey. The zero value works, and fires as
// an agent (JourneyTransport).
type Options struct {
	// Session configures the journey session; its Page and State are the
	// binding's (read from the Model), and are ignored here. Its
	// RequireHumanApproval must stay false: a bound journey's approvals
	// are the contract's (agent.Variant.Approval), asked in the app.
	Session journey.Options
	// Transport is the transport every dispatch is recorded with and
	// judged by (a capability's Approval.When and Authorize read it as
	// call.Invocation.Transport). Empty is JourneyTransport: a journey's
	// fires are an agent's, so what the contract keeps for agents
	// (approvals that skip the person's own in-app calls) applies. A
	// server that fires on a caller's behalf names its own (agent.MCP),
	// so the audit log records the route. agent.InApp, named
	// explicitly, fires as the person's own application would; only a
	// journey that the person drives themselves should.
	Transport agent.Transport
	// ObserveWithin bounds how long a fire whose capability declares no
	// completion waits for the Model change its Message causes before it
	// comes to rest as performed with its writes unobserved. Zero means
	// 5 s.
	ObserveWithin time.Duration
	// Caller names whose conversation the journey's fires are: every
	// dispatch carries it (agent.WithCaller), so the contract's audit and
	// its stale-view rule see each conversation as its own caller. Empty
	// names none. Sessions.Open sets it.
	Caller string

	// peers are shared with the other journeys of a Sessions; nil: the
	// journey's own.
	peers *peers
}

// Journey is a journey graph bound to a running contract: a session whose
// cursor and state view follow the Model, whose actions run capabilities
// through the contract's checked path, and whose fires come to rest on
// what the contract and the Model say. Serve its Session with
// journey/fixed (or journeymcp) as usual.
type Journey struct {
	s         *journey.Session
	transport agent.Transport
	within    time.Duration
	dispatch  func(ctx context.Context, name string, payload json.RawMessage, inv agent.Invocation) (agent.Result, error)
	available func() ([]agent.Descriptor, error)
	follow    func(listener bool) uint64
	// seen maps session versions to the Model versions they show (see
	// seen.go); empty on an unversioned host.
	seen seenMarks
	// exact is true when the host tells each fire the Model version its
	// Message makes (agent.WhenDelivered): a fire's Model change is then
	// the one at that version, never a Message around it.
	exact bool
	// peers hold the fires waiting for their Model change, this
	// session's and, under Sessions, the others' (sessions.go).
	peers   *peers
	caller  string
	onClose func()

	// changes is the queue of Model changes, applied one at a time with
	// no lock held (follow.go); working, the fires working until their
	// completion.
	changes *changes
	working workingSet
	// What follows is the state the change being applied reads and moves
	// (and New, before the first): never two at a time, by changes.
	state   map[string]any
	page    string
	on      map[*bound]bool
	handles map[string]*journey.Handle

	actions []*bound
	// personal are the state keys only the person's actions write.
	personal map[string]bool
	// shown are the paths of the tabs and modals the Model shows or
	// hides, by page.
	shown map[string][]string

	unsub  func()
	closed chan struct{}
	once   sync.Once
	// life ends when the journey is closed: every dispatch runs under
	// it, so a call held for the person's approval is withdrawn when the
	// journey's session ends, never run for a conversation that left.
	life context.Context
	end  context.CancelFunc
}

// bound is one action as the binding runs it.
type bound struct {
	id        string // qualified action id
	page      string
	rel       string // the id relative to its page, as registrations name it
	capName   func() string
	completes bool
	writes    bool
	// keys are the state keys the action declares writing.
	keys     []string
	instance string
	conc     journey.Concurrency
}

// working is a fire waiting for its capability's completion, and the
// work it holds open.
type working struct {
	id   string
	act  *bound
	work *journey.Work
}

// waiter is a fire waiting for the Model change its Message causes.
type waiter struct {
	id   string
	act  *bound
	j    *Journey
	seen chan struct{}
	// at is the Model version the fire's Message makes, once the host
	// has taken it (agent.WhenDelivered); 0 before, and always for a
	// sticky waiter.
	at atomic.Uint64
	// sticky marks a fire the app completes: it stays registered until
	// its dispatch returns, and every change of a key it declares
	// writing meanwhile is its own.
	sticky bool
}

// New builds the graph, checks every action's capability against rt's
// contract, opens the session on the Model as it is, and follows the
// Model from then on. It fails, naming the action and the capability, for
// an action whose capability the contract does not expose, and for
// anything journey.NewGraph refuses. model reads the current Model (the
// host's Model method). Close releases the subscription.
func New[Model, P any](id string, rt Runtime[Model, P], model func() Model, def Def[Model, P], opts Options) (*Journey, error) {
	if err := checkNew(rt, model, def, opts); err != nil {
		return nil, err
	}
	j := &Journey{transport: opts.Transport, within: opts.ObserveWithin, dispatch: rt.DispatchUnknown, available: rt.Available,
		peers: opts.peers, caller: opts.Caller,
		on: map[*bound]bool{}, handles: map[string]*journey.Handle{}, closed: make(chan struct{}), changes: newChanges(),
		personal: map[string]bool{}, shown: map[string][]string{}}
	j.life, j.end = context.WithCancel(context.Background())
	if j.transport == "" {
		j.transport = JourneyTransport
	}
	if j.within <= 0 {
		j.within = 5 * time.Second
	}
	gb := &graphBuilder[Model, P]{j: j, c: rt.Contract(), model: model, holds: map[string]map[string]func() any{},
		personHolds: map[string]bool{}, shownFns: map[string]func(Model) bool{}}
	g, err := gb.graph(id, def)
	if err != nil {
		return nil, err
	}
	if err := gb.open(g, def, opts.Session); err != nil {
		return nil, err
	}
	if err := gb.register(def.Pages); err != nil {
		return nil, err
	}
	gb.subscribe(rt, def)
	return j, nil
}

// checkNew refuses what New cannot bind.
func checkNew[Model, P any](rt Runtime[Model, P], model func() Model, def Def[Model, P], opts Options) error {
	switch {
	case rt == nil || model == nil:
		return errors.New("bind: New needs a runtime and a Model reader")
	case def.Page == nil || def.State == nil:
		return errors.New("bind: a Def needs its Page and State projections")
	case !rt.CanSubscribe():
		return errors.New("bind: the runtime's host reports no Model changes (it needs a Subscribe seam)")
	case opts.Session.RequireHumanApproval:
		// The journey's own approval cards are answered through the
		// session, which no screen of a bound app shows: the person would
		// be asked nowhere. The contract asks them in the app.
		return errors.New("bind: Options.Session.RequireHumanApproval: a bound journey asks the person through the contract; declare the approval on the capability (agent.Variant.Approval), which the app shows and the person answers in it")
	}
	return nil
}

// graphBuilder turns a Def into a journey.GraphDef: every action's
// capability checked against the contract, what each control holds read
// from the Model, the tabs' and modals' Shown projections kept.
type graphBuilder[Model, P any] struct {
	j           *Journey
	c           *agent.Contract[Model, P]
	model       func() Model
	holds       map[string]map[string]func() any // page -> action -> reader
	personHolds map[string]bool                  // pages with a person-only control that holds something
	shownFns    map[string]func(Model) bool
}

func (gb *graphBuilder[Model, P]) graph(id string, def Def[Model, P]) (*journey.Graph, error) {
	gd := journey.GraphDef{Does: def.Does, Journeys: def.Journeys}
	for _, p := range def.Pages {
		acts, err := gb.actions(p.ID, "", p.Actions, false)
		if err != nil {
			return nil, err
		}
		cs, err := gb.containers(p.ID, "", p.Containers, false)
		if err != nil {
			return nil, err
		}
		gd.Pages = append(gd.Pages, journey.Page{ID: p.ID, Route: p.Route, Does: p.Does, Actions: acts, Containers: cs})
	}
	return journey.NewGraph(id, gd)
}

// holdsReader registers what a control holds, read from the Model.
func (gb *graphBuilder[Model, P]) holdsReader(page, rel string, read func(Model) any) {
	if gb.holds[page] == nil {
		gb.holds[page] = map[string]func() any{}
	}
	model := gb.model
	gb.holds[page][rel] = func() any { return read(model()) }
}

func (gb *graphBuilder[Model, P]) actions(page, prefix string, acts []Action[Model, P], repeats bool) ([]journey.Action, error) {
	out := make([]journey.Action, 0, len(acts))
	for _, a := range acts {
		ja, err := gb.action(page, prefix, a, repeats)
		if err != nil {
			return nil, err
		}
		out = append(out, ja)
	}
	return out, nil
}

// action is one action of the graph: bound to its capability, or, kept
// for the person alone, bound to nothing.
func (gb *graphBuilder[Model, P]) action(page, prefix string, a Action[Model, P], repeats bool) (journey.Action, error) {
	qid := page + "." + prefix + a.Name
	personOnly := len(a.Policy.MayInvoke) > 0 && slices.Contains(a.Policy.MayInvoke, journey.ActorUser) &&
		!slices.Contains(a.Policy.MayInvoke, journey.ActorAgent)
	if personOnly {
		for _, w := range a.Writes {
			gb.j.personal[w] = true
		}
	}
	ja := journey.Action{Name: a.Name, Does: a.Does, When: a.When, EnabledWhen: a.EnabledWhen,
		Writes: a.Writes, Reads: a.Reads, GoTo: a.GoTo, Confirm: a.Confirm, Verify: a.Verify,
		BlockedBecause: a.BlockedBecause, Concurrency: a.Concurrency, HumanDecides: a.HumanDecides, Policy: a.Policy}
	if a.Capability == nil || reflect.ValueOf(a.Capability).IsNil() {
		if !personOnly {
			return ja, fmt.Errorf("bind: action %q names no capability (only an action whose Policy keeps it for the person alone may name none)", qid)
		}
		if a.InstanceField != "" {
			return ja, fmt.Errorf("bind: action %q sets InstanceField but names no capability to fill", qid)
		}
		// The person performs it in the application: nothing is bound to
		// run it, and nothing is exposed for it. What the control holds
		// is still served.
		if a.Holds != nil {
			gb.holdsReader(page, prefix+a.Name, a.Holds)
			gb.personHolds[page] = true
		}
		return ja, nil
	}
	capab := a.Capability
	if !agent.Exposes(gb.c, capab) {
		return ja, fmt.Errorf("bind: action %q names capability %q, which the contract does not expose (it exposes %s)",
			qid, capab.Name(), exposedNames(gb.c))
	}
	if a.InstanceField != "" && !repeats {
		return ja, fmt.Errorf("bind: action %q sets InstanceField outside a repeating container", qid)
	}
	d := capab.Descriptor()
	// The capability's approval is asked on the person's screen: that
	// question is the confirmation, never a second one in the chat. Only
	// an approval asked on every call is said in advance: one whose When
	// selects calls may not be asked for this one, and a held call says
	// it waits for the person once it does.
	ja.PersonApproves = d.NeedsApproval && !d.ApprovalWhen
	in, err := inputOf(d.InputSchema, a.InstanceField)
	if err != nil {
		return ja, fmt.Errorf("bind: action %q: capability %q: %w", qid, capab.Name(), err)
	}
	b := &bound{id: qid, page: page, rel: prefix + a.Name, capName: capab.Name,
		completes: d.Completion != nil, writes: len(a.Writes) > 0, keys: slices.Clone(a.Writes), instance: a.InstanceField,
		conc: a.Concurrency}
	gb.j.actions = append(gb.j.actions, b)
	if a.Holds != nil {
		gb.holdsReader(page, b.rel, a.Holds)
	}
	ja.Input = in
	return ja, nil
}

func (gb *graphBuilder[Model, P]) containers(page, prefix string, cs []Container[Model, P], repeats bool) ([]journey.Container, error) {
	out := make([]journey.Container, 0, len(cs))
	for _, ct := range cs {
		p := prefix + ct.Name + "."
		path := page + "." + prefix + ct.Name
		switch {
		case (ct.Tab || ct.Modal) && ct.Shown == nil:
			return nil, fmt.Errorf("bind: container %q is a Tab or a Modal but has no Shown projection", path)
		case !ct.Tab && !ct.Modal && ct.Shown != nil:
			return nil, fmt.Errorf("bind: container %q has a Shown projection but is neither a Tab nor a Modal", path)
		case ct.Shown != nil:
			gb.j.shown[page] = append(gb.j.shown[page], path)
			gb.shownFns[path] = ct.Shown
		}
		acts, err := gb.actions(page, p, ct.Actions, repeats || ct.Repeats)
		if err != nil {
			return nil, err
		}
		inner, err := gb.containers(page, p, ct.Containers, repeats || ct.Repeats)
		if err != nil {
			return nil, err
		}
		out = append(out, journey.Container{Name: ct.Name, Does: ct.Does, When: ct.When, Repeats: ct.Repeats,
			Instances: ct.Instances, Actions: acts, Containers: inner, Tab: ct.Tab, Modal: ct.Modal, Popover: ct.Popover})
	}
	return out, nil
}

// open opens the session on the Model as it is now.
func (gb *graphBuilder[Model, P]) open(g *journey.Graph, def Def[Model, P], so journey.Options) error {
	j := gb.j
	m := gb.model()
	j.state = detach(def.State(m))
	j.page = def.Page(m)
	so.State = maps.Clone(j.state)
	so.Page = ""
	if g.HasPage(j.page) {
		so.Page = j.page
	} else if pid, ok := g.MatchRoute(j.page); ok {
		so.Page = pid
	}
	s, err := g.NewSession(so)
	if err != nil {
		return err
	}
	j.s = s
	if so.Page == "" {
		s.Sync(j.page) // off the graph, or the first page
	}
	return nil
}

// register mounts each page's handlers (and what its controls hold) on
// the session.
func (gb *graphBuilder[Model, P]) register(pages []Page[Model, P]) error {
	j := gb.j
	regs := map[string]journey.Registration{}
	for _, b := range j.actions {
		r := regs[b.page]
		if r.Handlers == nil {
			r.Handlers = map[string]journey.Handler{}
			r.Holds = gb.holds[b.page]
		}
		r.Handlers[b.rel] = j.handler(b)
		regs[b.page] = r
	}
	for _, p := range pages {
		r, ok := regs[p.ID]
		if !ok && gb.personHolds[p.ID] {
			r, ok = journey.Registration{Handlers: map[string]journey.Handler{}, Holds: gb.holds[p.ID]}, true
		}
		if !ok {
			continue
		}
		h, err := j.s.RegisterActions(p.ID, r)
		if err != nil {
			return err
		}
		j.handles[p.ID] = h
	}
	for _, b := range j.actions {
		j.on[b] = true
	}
	return nil
}

// subscribe follows the Model from now on.
func (gb *graphBuilder[Model, P]) subscribe(rt Runtime[Model, P], def Def[Model, P]) {
	j, model, shownFns := gb.j, gb.model, gb.shownFns
	j.exact = rt.TracksDelivery()
	j.follow = func(listener bool) uint64 {
		seq := j.peers.current()
		m, mv := snapshot(rt, model)
		v := view{model: mv, seq: seq, page: def.Page(m), state: detach(def.State(m)), shown: make(map[string]bool, len(shownFns))}
		for path, shown := range shownFns {
			v.shown[path] = shown(m)
		}
		if def.LookingAt != nil {
			v.lookingAt, v.looks = def.LookingAt(m), true
		}
		return j.changed(v, listener)
	}
	if j.peers == nil {
		// Alone: the journey numbers the Model changes itself.
		j.peers = newPeers()
		p := j.peers
		j.unsub = rt.Subscribe(func() { p.next(); j.follow(true) })
	} else {
		j.unsub = rt.Subscribe(func() { j.follow(true) })
	}
	// The Model may have moved between the first read and the
	// subscription; and availability is read for the first time here.
	// This read is no notification: no fire is credited with it. New
	// returns once it has reached the session (a listener applying a
	// change meanwhile applies it in turn).
	j.waitApplied(j.follow(false))
}

// MustNew is New that panics on error, for package-level declarations.
func MustNew[Model, P any](id string, rt Runtime[Model, P], model func() Model, def Def[Model, P], opts Options) *Journey {
	j, err := New(id, rt, model, def, opts)
	if err != nil {
		panic(err)
	}
	return j
}

// Session is the journey session the binding drives; serve it with
// journey/fixed.
func (j *Journey) Session() *journey.Session { return j.s }

// Close stops following the Model. A fire still waiting for its Model
// change stops waiting. Close is idempotent.
func (j *Journey) Close() {
	j.once.Do(func() {
		j.end()
		j.unsub()
		close(j.closed)
		if j.onClose != nil {
			j.onClose()
		}
	})
}

// exposedNames lists the contract's capability names for an error.
func exposedNames[Model, P any](c *agent.Contract[Model, P]) string {
	var names []string
	for _, d := range c.Describe().Capabilities {
		names = append(names, strconv.Quote(d.Name))
	}
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, ", ")
}

// inputOf turns a capability's input schema into the action's input
// contract: no input for a capability that takes none, the schema
// otherwise, less the member an instance fills.
func inputOf(schema json.RawMessage, instanceField string) (*journey.Input, error) {
	var s map[string]any
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("its input schema is not a JSON object: %w", err)
	}
	props, _ := s["properties"].(map[string]any)
	if instanceField != "" {
		if _, ok := props[instanceField]; !ok {
			return nil, fmt.Errorf("its input has no member %q for the instance", instanceField)
		}
		delete(props, instanceField)
		if req, ok := s["required"].([]any); ok {
			s["required"] = slices.DeleteFunc(req, func(x any) bool { return x == instanceField })
		}
	}
	if len(props) == 0 {
		return journey.NoInput(), nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	return journey.InputSchemaJSON(b), nil
}

// detach copies a projected state view into plain JSON values, so that
// two projections compare by value.
func detach(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		b, err := json.Marshal(v)
		if err != nil {
			out[k] = nil
			continue
		}
		var x any
		_ = json.Unmarshal(b, &x)
		out[k] = x
	}
	return out
}

// diff returns the keys of next whose value differs from prev (and the
// keys prev had that next lost, as null).
func diff(prev, next map[string]any) map[string]any {
	d := map[string]any{}
	for k, v := range next {
		if old, ok := prev[k]; !ok || !reflect.DeepEqual(old, v) {
			d[k] = v
		}
	}
	for k := range prev {
		if _, ok := next[k]; !ok {
			d[k] = nil
		}
	}
	return d
}

// view is what one Model shows a journey: its page, its state view, the
// tabs and modals it shows, and where the person looks.
type view struct {
	model     uint64 // the Model version the view was projected from
	seq       uint64 // the peers' number of the Model change it follows
	page      string
	state     map[string]any
	shown     map[string]bool
	lookingAt string
	looks     bool // the Def reports where the person looks
}

// changed is the Model listener. It queues the view, and applies it (and
// every view queued meanwhile, in order) unless a change is being applied
// already, which then applies this one in turn: no lock is held while a
// change reaches the session (follow.go). It returns the change's number.
// listener is false for the read New makes itself, which is no
// notification and credits no fire.
func (j *Journey) changed(v view, listener bool) uint64 {
	n, drain := j.changes.push(change{v: v, listener: listener})
	if !drain {
		return n
	}
	for {
		c, ok := j.changes.next()
		if !ok {
			return n
		}
		j.apply(c.v, c.listener)
		j.changes.done(c.v.model)
	}
}

// waitApplied waits until change n has reached the session.
func (j *Journey) waitApplied(n uint64) {
	for {
		ok, ch := j.changes.appliedThrough(n)
		if ok {
			return
		}
		<-ch
	}
}

// apply folds one Model view into the session: it moves the cursor when
// the page projection moves, reports which tabs and modals of the page
// are shown, reports the state keys that changed, attributing them to the
// fire, of any session sharing its peers, whose Model change this is
// (takeWaiter: the fire whose Message made this version, else the
// best-fitting waiting fire); another session's fire's change is reported
// as another agent's; with none fitting, to the person when only the
// person's actions write them, else leaving attribution to the session,
// after ending the work of the completing fires whose writes it covers.
// It switches each action's control on or off with its capability's
// availability. Only one change is applied at a time (changes), and no
// lock is held meanwhile.
func (j *Journey) apply(v view, listener bool) {
	// Controls first: a fire this change brings to rest is answered with
	// what the new Model offers.
	j.refresh()
	delta := diff(j.state, v.state)
	j.state = v.state
	var w, other *waiter
	if listener {
		w = j.takeWaiter(delta, v.model, v.seq)
	}
	switch {
	case w != nil && w.j != j:
		// Another conversation's fire: its effect, not this session's.
		w, other = nil, w
	case w != nil && w.sticky:
		// This session's fire the app completes: the session credits
		// its changes (signature-match), as it always has, and the
		// change that covers its writes ends its work (below).
		w = nil
	}
	if v.page != j.page || w != nil {
		// A fire's Model change is also its arrival, when it claimed one:
		// a sync on the claimed page observes it.
		j.page = v.page
		j.s.Sync(v.page)
	}
	// What the person sees, before the state report: a fire this change
	// brings to rest (opening a modal, say) is answered with the surface
	// it produced. SetVisible moves nothing when nothing changed.
	on := j.s.View().Position().YouAreOn
	for _, path := range j.shown[on] {
		_ = j.s.SetVisible(path, v.shown[path])
	}
	if v.looks && (v.lookingAt == "" || j.s.ObserveFocus(v.lookingAt) != nil) {
		_ = j.s.ObserveFocus("")
	}
	switch {
	case w != nil && (len(delta) > 0 || w.act.writes):
		j.s.UpdateState(delta, w.id)
	case other != nil && len(delta) > 0:
		// Another conversation's agent made it: an agent's change no
		// action of this session made, never credited to one of its
		// fires.
		j.s.ReportState(delta, journey.ReportOptions{Principal: journey.ActorAgent})
	case len(delta) > 0 && j.personOnly(delta):
		j.s.ReportState(delta, journey.ReportOptions{Principal: journey.ActorUser})
	case len(delta) > 0:
		// A change that covers every write of a fire waiting for its
		// completion is the change the session brings that fire to rest
		// with: its work ends first, so the answer written as it comes
		// to rest never says the app is still working on it, however
		// soon after the runtime saw the completion.
		for _, work := range j.working.coveredBy(delta) {
			work.Done(nil)
		}
		j.s.UpdateState(delta, "")
	}
	if v.model != 0 {
		j.seen.mark(j.s.View().Version(), v.model)
	}
	if w != nil {
		close(w.seen)
	}
}

// takeWaiter takes the waiting fire this Model change (at Model
// version version, 0 on an unversioned host; numbered seq by the peers)
// is that fire's own. On a host that says which version each fire's
// Message makes (exact), a change before that version is never the
// fire's (its Message was not applied yet: the application's own
// Messages, the person's keys), and
// the change at that version is the fire's, whatever it moved, before any
// other fire. Otherwise, and for a change after that version (the host
// reported several Messages at once), it is a change that moves no key of
// the state view (its Message moved nothing, or only the page), or one
// that moves a key the fire declares writing. A fire that declares
// writing a key the change moves is preferred to one that declares no
// writes; among equals the oldest is taken. A fire that declares no
// writes is not credited with a change that only the person's actions
// write. A fire the app completes (sticky) has no version of its own: it
// is taken by a change of a key it declares writing. A change that fits
// no waiting fire is left for the session, and the fires keep waiting:
// the person's edit while the agent's Message is in flight is never
// passed off as the agent's effect. Under Sessions the waiting fires are
// every conversation's, and the choice is made once for all of them.
func (j *Journey) takeWaiter(delta map[string]any, version, seq uint64) *waiter {
	writes := func(w *waiter) bool {
		for _, k := range w.act.keys {
			if _, ok := delta[k]; ok {
				return true
			}
		}
		return false
	}
	return j.peers.take(seq, func(w *waiter) fit {
		if j.exact && version != 0 && !w.sticky {
			switch at := w.at.Load(); {
			case at == 0 || version < at:
				// Its Message is not applied yet: not its change.
				return fitNone
			case version == at:
				return fitExact
			}
		}
		switch {
		case writes(w):
			return fitWrites
		case w.sticky:
			// A fire the app completes is credited by its session; it
			// is taken only to tell the other sessions whose a change
			// of a key it declares writing is.
			return fitNone
		case len(delta) == 0:
			return fitAny
		case len(w.act.keys) == 0 && !j.personOnly(delta):
			return fitAny
		}
		return fitNone
	})
}

// personOnly reports whether every key of a change no fire accounts for
// is one only the person's actions write (personal is fixed by New).
func (j *Journey) personOnly(delta map[string]any) bool {
	if len(j.personal) == 0 {
		return false
	}
	for k := range delta {
		if !j.personal[k] {
			return false
		}
	}
	return true
}

// refresh switches each action's control with its capability's
// availability, so an unavailable capability is refused by the session as
// a switched-off control (TOOL_DISABLED), the same predicate the contract
// checks again on dispatch.
func (j *Journey) refresh() {
	avail, _ := j.available()
	names := make(map[string]bool, len(avail))
	for _, d := range avail {
		names[d.Name] = true
	}
	for _, b := range j.actions {
		on := names[b.capName()]
		if j.on[b] == on {
			continue
		}
		if h := j.handles[b.page]; h != nil && h.SetEnabled(b.rel, on) == nil {
			j.on[b] = on
		}
	}
}

// seenBy is the Model version fire id's cursor showed (seen.go), or 0.
// It is read once every Model change queued so far has reached the
// session: a change is applied from the session update to the mark that
// says which Model version the new session version shows, so a fire
// attempted on that new version never finds its mark missing and cites an
// older Model (a stale view it never had: the shop's pay, fired right
// after open-review's answer, was refused STALE_CURSOR under load).
func (j *Journey) seenBy(id string) uint64 {
	_, n := j.changes.settled()
	for {
		ok, ch := j.changes.appliedThrough(n)
		if ok {
			break
		}
		select {
		case <-ch:
		case <-j.closed:
			return 0
		}
	}
	t, ok := j.s.View().Transition(id)
	if !ok {
		return 0
	}
	return j.seen.at(t.CursorVersion)
}

// handler runs an action: it dispatches its capability through the
// runtime and brings the fire to rest on what the contract says.
func (j *Journey) handler(b *bound) journey.Handler {
	return func(ctx context.Context, in any) (any, error) {
		id, _ := journey.TransitionIDFrom(ctx)
		payload, err := j.payload(ctx, b, id, in)
		if err != nil {
			return nil, err
		}
		// The conversation the fire is made in is the contract's caller.
		ctx = agent.WithCaller(ctx, j.caller)
		if b.conc.SingleFlight || b.conc.Once {
			// The session refused its own earlier fire still going; one
			// made in another conversation is refused here, as theirs.
			key, scope := j.scope(b, id)
			release, ok := j.peers.claim(j, key)
			if !ok {
				return nil, elsewhere(scope)
			}
			defer release()
		}
		var w *waiter
		if !b.completes {
			// Registered before the Message is handed over: its Model
			// change can arrive before dispatch returns.
			w = &waiter{id: id, act: b, j: j, seen: make(chan struct{})}
			j.peers.add(w)
		}
		name := b.capName()
		if b.completes {
			defer j.beginWorking(b, id, name)()
		}
		// The call cites the Model version the session showed when the
		// fire was attempted: the contract judges its watches against
		// what the agent could have seen (seen.go).
		inv := agent.Invocation{Transport: j.transport}
		// The session's answer showed that version whole (its state
		// view), not only what the last fire's Result carried.
		inv.SeenVersion = j.seenBy(id)
		inv.SeenWhole = inv.SeenVersion != 0
		ctx = j.callContext(ctx, id, w)
		// The fire outlives its caller's request, not its journey.
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(j.life, cancel)()
		res, err := j.dispatch(ctx, name, payload, inv)
		switch {
		case err != nil:
			return j.dispatchFailed(b, w, name, res, err)
		case res.Completion != nil:
			return j.completed(b, id, res)
		}
		j.awaitChange(b, id, w)
		return nil, nil
	}
}

// beginWorking marks a fire the application works on until its
// completion contract is met: the fire carries stillWorking meanwhile
// (the label is the capability's name, data), and its changes meanwhile
// are its own, which the other sessions are told (sessions.go). It
// returns what ends it.
func (j *Journey) beginWorking(b *bound, id, name string) func() {
	work := j.s.BeginWork(name, id)
	j.working.add(working{id: id, act: b, work: work})
	sw := &waiter{id: id, act: b, j: j, sticky: true}
	j.peers.add(sw)
	return func() {
		j.peers.forget(sw)
		j.working.remove(id)
		work.Done(nil)
	}
}

// callContext is the dispatch's context: a call the contract holds for
// the person's approval is a card in the session's ask book while it
// waits, answered by the person in the application (HeldForPerson).
func (j *Journey) callContext(ctx context.Context, id string, w *waiter) context.Context {
	if w != nil && j.exact {
		// Told on the host's update goroutine before any listener sees
		// the version: the listener then knows which Model change is
		// this fire's own (takeWaiterLocked).
		ctx = agent.WhenDelivered(ctx, func(v uint64) { w.at.Store(v) })
	}
	ctx = agent.WhileAwaitingApproval(ctx, func(q agent.ApprovalRequest) { _ = j.s.Asks().HeldForPerson(id, q.ID) })
	return agent.WhenApprovalEnds(ctx, func(q agent.ApprovalRequest, why agent.Withdrawal) {
		answer := journey.PersonWithdrawn
		switch why {
		case agent.WithdrawnApproved:
			answer = journey.PersonApproved
		case agent.WithdrawnDeclined:
			answer = journey.PersonDeclined
		}
		_ = j.s.Asks().PersonAnswered(q.ID, answer, "the person")
	})
}

// dispatchFailed answers a dispatch the contract refused (or a defect):
// the fire comes to rest refused, with a reason code, the sentence the
// agent would have been told, and the refusal as data. A completion that
// timed out is still pending instead.
func (j *Journey) dispatchFailed(b *bound, w *waiter, name string, res agent.Result, err error) (any, error) {
	if w != nil {
		j.forget(w)
	}
	var timeout *agent.CompletionTimeoutError
	if errors.As(err, &timeout) {
		return j.stillPending(b)
	}
	return nil, refusal(name, res, err)
}

// completed answers a dispatch whose completion contract was met.
func (j *Journey) completed(b *bound, id string, res agent.Result) (any, error) {
	c := res.Completion
	data := completionData(c)
	if c.Status == agent.Failed {
		// The application's own refusal: a code and our sentence, with
		// its completing Message as data ({"tag", "message"}), never
		// inside a string.
		_ = j.s.Reject(id, journey.OutcomeRejected, &journey.SettleError{Reason: journey.ReasonAppFailed, Message: appFailed, Data: data})
		return nil, nil
	}
	// The Model the completion was seen at is folded first: the state
	// change it made is observed before the fire is answered, however the
	// host's goroutines were scheduled.
	j.catchUp(res.Version)
	if b.writes && !j.settled(id) {
		// Completed, but no state change covered its writes: performed,
		// writes not observed.
		j.s.UpdateState(nil, id)
	}
	var out any
	_ = json.Unmarshal(data, &out)
	return out, nil
}

// awaitChange waits, within ObserveWithin, for the Model change the
// fire's Message causes; none within it means its writes were not
// observed.
func (j *Journey) awaitChange(b *bound, id string, w *waiter) {
	t := time.NewTimer(j.within)
	defer t.Stop()
	select {
	case <-w.seen:
	case <-t.C:
		if j.forget(w) && b.writes {
			j.s.UpdateState(nil, id)
		}
	case <-j.closed:
		j.forget(w)
	}
}

// completionData is the completing Message as data: {"tag", "message"},
// short enough to ride a settlement's error message whole.
func completionData(c *agent.Completion) json.RawMessage {
	b, err := json.Marshal(c)
	if err != nil {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return b
	}
	delete(m, "status")
	out, _ := json.Marshal(m)
	return out
}

// payload builds the capability's input from the action's, putting the
// instance into its member.
func (j *Journey) payload(ctx context.Context, b *bound, id string, in any) (json.RawMessage, error) {
	obj, _ := in.(map[string]any)
	if obj == nil {
		obj = map[string]any{}
	}
	if b.instance != "" {
		t, _ := j.s.View().Transition(id)
		obj = maps.Clone(obj)
		obj[b.instance] = t.Instance
	}
	return json.Marshal(obj)
}

// scope is the key under which a single-flight action's fires exclude
// each other across conversations, and its scope's name (as
// PRIOR_FIRE_PENDING names it): the action, or the action and the
// fire's instance.
func (j *Journey) scope(b *bound, id string) (key, scope string) {
	if !b.conc.PerInstance {
		return b.id, "action"
	}
	t, _ := j.s.View().Transition(id)
	return b.id + "\x00" + t.Instance, "instance"
}

// stillPending keeps a fire whose completion was not seen in time
// pending: the work reached the application, and how it ends is not
// known. A fire that declares writes waits for the state change that
// covers them; one that does not stays pending until Close.
func (j *Journey) stillPending(b *bound) (any, error) {
	if !b.writes {
		<-j.closed
	}
	return nil, nil
}

// forget withdraws a waiter the listener has not taken; it reports
// whether it was still waiting.
func (j *Journey) forget(w *waiter) bool { return j.peers.forget(w) }

// catchUp waits until the session has folded the Model at version (a
// Result's Version) or later, so that what a fire's answer says about the
// Model is what that Model shows, not how far the listener had got. It
// gives up after ObserveWithin, or on Close; version 0 (an unversioned
// host) waits for nothing.
func (j *Journey) catchUp(version uint64) {
	if version == 0 {
		return
	}
	var t *time.Timer
	for {
		folded, ch := j.changes.foldedAt()
		if folded >= version {
			return
		}
		if t == nil {
			t = time.NewTimer(j.within)
			defer t.Stop()
		}
		select {
		case <-ch:
		case <-t.C:
			return
		case <-j.closed:
			return
		}
	}
}

func (j *Journey) settled(id string) bool {
	_, known, _ := j.s.View().SettlementIfKnown(id)
	return known
}
