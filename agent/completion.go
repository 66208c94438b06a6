package agent

import (
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/foldagent/foldagent/agent/internal/wire"
)

// DefaultCompletionTimeout is how long dispatch waits for a completion
// contract when the contract sets no timeout of its own.
const DefaultCompletionTimeout = 30 * time.Second

// CompletionContract says which later fact finishes a capability's work,
// so that dispatch waits for it instead of reporting success on receipt.
// Without one, validated dispatch is the boundary: the result says the
// Message was handed to the application, and nothing more.
//
// There are two kinds, built by this package only (the interface is
// closed, so the runtime can rely on their semantics):
//
//   - CompleteOn completes when update processes one of the Message types
//     it names, matched to this invocation by a correlate function (see On
//     and OnType). The host must implement Observer.
//   - When and WhenSource complete when a condition over state holds. When
//     reads the Model, so the host must implement Subscriber; WhenSource
//     reads a value that lives outside the Model.
//
// In is the capability's input type (the Message itself for a Variant, the
// mapped input for a Mapped), so the compiler refuses a contract written
// against another capability's input. Every constructor infers it from
// the functions it is given.
type CompletionContract[In any] interface {
	completionDecl(*In) *completionDecl
}

// completionDecl is a completion contract before it is checked against a
// capability. Its functions are type-erased; compile restores the types.
type completionDecl struct {
	kind    string // "OnMessages" or "When"
	success []*matchDecl
	failure []*matchDecl
	timeout time.Duration
	state   *stateDecl
}

// Match is one Message type that can finish the work of a capability whose
// input is In, with the correlate function that decides whether a given
// Message of that type belongs to this invocation. Build it with On or
// OnType; the zero Match is refused by Expose.
type Match[In any] struct {
	m *matchDecl
}

type matchDecl struct {
	typ reflect.Type // the Message type R
	tag string
	// correlate is a func(in any, got any, inv Invocation) bool wrapping
	// the typed function, or nil to accept every Message of typ.
	correlate func(in any, got any, inv Invocation) bool
}

// On matches a Message of type R for which correlate returns true. Every
// type parameter is inferred from the function literal, so correlate is
// checked by the compiler against the capability's input and the Message
// it names:
//
//	agent.On(func(in CreateInput, got TodoCreated, inv agent.Invocation) bool {
//		return got.RequestID == inv.ID
//	})
//
// in is the decoded input of the capability and inv the invocation, the
// same one ToMessage received in its Call. The invocation id is the usual
// key: ToMessage puts call.Invocation.ID into the Message, update carries
// it onto the fact it produces, and correlate compares the two. That is
// what tells apart two overlapping invocations whose inputs are equal.
// Anything else a correlate needs (a value read from the Model, the
// principal) belongs in the Message ToMessage builds, where update sees it
// too.
//
// correlate runs on the goroutine that observes the Message (usually the
// application's update loop), for each Message of type R while the
// invocation waits. Keep it a cheap, pure comparison: it must not block or
// dispatch. A correlate that panics fails only its own invocation, with a
// *DefectError at stage "completion".
//
// R must be a named type or a pointer to one: the Go type name is the tag
// that manifests and results report.
func On[In, R any](correlate func(in In, got R, inv Invocation) bool) Match[In] {
	t := reflect.TypeOf((*R)(nil)).Elem()
	tag := completionTag(t, "On")
	if correlate == nil {
		panic(fmt.Sprintf("agent: On[%s] needs a correlate function; use OnType to match on the type alone", tag))
	}
	return Match[In]{&matchDecl{
		typ: t,
		tag: tag,
		correlate: func(in any, got any, inv Invocation) bool {
			return correlate(in.(In), got.(R), inv)
		},
	}}
}

// OnType matches every Message of type R, whichever invocation caused it:
// the first one update processes while the invocation waits finishes it.
// Use it only for a capability that cannot have two invocations in flight
// at once; otherwise correlate with On. Its type arguments cannot be
// inferred, since it takes no function: the capability's input type
// comes first, then the Message's.
//
//	agent.CompleteOn(agent.OnType[ResetInput, ResetDone]())
func OnType[In, R any]() Match[In] {
	t := reflect.TypeOf((*R)(nil)).Elem()
	return Match[In]{&matchDecl{typ: t, tag: completionTag(t, "OnType")}}
}

// completionTag is the Go type name reported for a completion Message. It
// panics on a type that no observed Message can have, or that has no name.
func completionTag(t reflect.Type, fn string) string {
	base := t
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if t.Kind() == reflect.Interface {
		panic(fmt.Sprintf("agent: %s[%s]: a completion Message must be a concrete type, not an interface", fn, t))
	}
	if base.Name() == "" {
		panic(fmt.Sprintf("agent: %s[%s]: a completion Message must be a named type or a pointer to one", fn, t))
	}
	return base.Name()
}

// OnMessages is a completion contract on Messages, built by CompleteOn:
// the capability's work is finished when update processes a Message that
// one of its success or failure Matches accepts. The result then carries
// Completion{Status: Completed} or Completion{Status: Failed}, with that
// Message and its tag.
//
// The host must implement Observer (Bind refuses one that does not,
// rather than report every call as complete), and every Message type
// named must fit the host's Message type.
//
// Dispatch registers its interest before it calls the host's Dispatch, so
// a Message that update produces synchronously is not missed. The first
// matching Message settles the invocation; later ones are ignored. A
// Message type listed twice, in success and failure or twice in one list,
// is refused by Expose.
type OnMessages[In any] struct {
	success []Match[In]
	failure []Match[In]
	timeout time.Duration
}

// CompleteOn is a completion contract on Messages: the work is done when
// update processes a Message one of the Matches accepts. At least one is
// required, so a contract cannot forget its success:
//
//	Completion: agent.CompleteOn(
//		agent.On(func(in CreateInput, got TodoCreated, inv agent.Invocation) bool { return got.RequestID == inv.ID }),
//	).FailOn(
//		agent.On(func(in CreateInput, got CreateFailed, inv agent.Invocation) bool { return got.RequestID == inv.ID }),
//	).Within(10 * time.Second),
func CompleteOn[In any](success Match[In], more ...Match[In]) OnMessages[In] {
	return OnMessages[In]{success: append([]Match[In]{success}, more...)}
}

// FailOn returns a copy of the contract in which the Messages the Matches
// accept report that the work failed. The result then says Failed, with
// that Message; the agent is told the work did not happen.
func (o OnMessages[In]) FailOn(failure ...Match[In]) OnMessages[In] {
	o.failure = append(append([]Match[In](nil), o.failure...), failure...)
	return o
}

// Within returns a copy of the contract that waits at most timeout, from
// the moment the host's Dispatch is called; a host whose Dispatch never
// returns is bounded by it too. Zero means DefaultCompletionTimeout
// (30 s); negative is refused by Expose.
func (o OnMessages[In]) Within(timeout time.Duration) OnMessages[In] {
	o.timeout = timeout
	return o
}

func (o OnMessages[In]) completionDecl(*In) *completionDecl {
	d := &completionDecl{kind: "OnMessages", timeout: o.timeout}
	for _, m := range o.success {
		d.success = append(d.success, m.m)
	}
	for _, m := range o.failure {
		d.failure = append(d.failure, m.m)
	}
	return d
}

// OnState is a completion contract on state, built by When or WhenSource.
// The capability's work is finished when the condition holds; the result
// carries Completion{Status: Completed} with no Message.
//
// Completed means the condition holds, not that this invocation made it
// true: write a predicate only this invocation can make true. A creation,
// where only the resulting fact says which record is this call's,
// completes on its Message with On instead.
type OnState[In any] struct {
	d       *stateDecl
	timeout time.Duration
}

type stateDecl struct {
	modelType reflect.Type // nil for a source
	// fromModel is a func(in any) func(model Model) bool, stored erased.
	fromModel any
	// fromSource binds a source check to the input.
	fromSource func(in any) func() bool
	subscribe  func(listener func()) (unsubscribe func())
}

// Within returns a copy of the contract that waits at most timeout, from
// the moment the host's Dispatch is called. Zero means
// DefaultCompletionTimeout; negative is refused by Expose.
func (s OnState[In]) Within(timeout time.Duration) OnState[In] {
	s.timeout = timeout
	return s
}

func (s OnState[In]) completionDecl(*In) *completionDecl {
	return &completionDecl{kind: "When", timeout: s.timeout, state: s.d}
}

// When completes a capability when predicate(project(model), in) holds,
// where model is the application's current Model and in the capability's
// decoded input. Every type parameter is inferred from the two functions:
//
//	Completion: agent.When(
//		func(m Model) string { return m.ProjectName },
//		func(name string, in RenameProject) bool { return name == in.Name },
//	),
//
// The host must implement Subscriber. Dispatch subscribes before it calls
// the host's Dispatch and checks once more when it starts waiting, so a
// change update makes synchronously is not missed and a condition that
// already holds completes at once.
//
// After each Model change the projection is read again, and the predicate
// runs only when the projected value differs from the one it last judged:
// values are compared with == when V is a comparable type with no
// interface, slice, map or func inside (a pointer then compares by
// address), and with reflect.DeepEqual otherwise. Project to a value (a
// string, a small struct), not to a pointer into the Model, so that a
// change is seen as one. A projection or predicate that panics fails
// only that invocation, with a *DefectError at stage "completion"; the
// code that changed the Model never sees the panic.
//
// Both functions run on whichever goroutine reports the Model change and
// on the dispatching goroutine, never at the same time for one invocation.
func When[Model, V, In any](project func(model Model) V, predicate func(value V, in In) bool) OnState[In] {
	if project == nil || predicate == nil {
		panic("agent: When needs both a projection and a predicate")
	}
	equal := equalFunc[V]()
	return OnState[In]{d: &stateDecl{
		modelType: reflect.TypeOf((*Model)(nil)).Elem(),
		fromModel: func(in any) func(model Model) bool {
			typed := in.(In)
			var last V
			judged := false
			return func(model Model) bool {
				v := project(model)
				if judged && equal(last, v) {
					return false
				}
				last, judged = v, true
				return predicate(v, typed)
			}
		},
	}}
}

// Source is a value that lives outside the Model (a synced store, a
// device reading) that a completion contract can wait on. Get reads the
// current value; Subscribe registers listener to be called after every
// change and returns a function that removes it.
type Source[V any] struct {
	Get       func() V
	Subscribe func(listener func()) (unsubscribe func())
}

// WhenSource completes a capability when predicate(src.Get(), in) holds.
// It follows the same rules as When, except that the host needs no
// Subscriber and the predicate is evaluated again on every notification,
// since a source may change its value in place.
func WhenSource[V, In any](src Source[V], predicate func(value V, in In) bool) OnState[In] {
	if src.Get == nil || src.Subscribe == nil || predicate == nil {
		panic("agent: WhenSource needs a Source with Get and Subscribe, and a predicate")
	}
	get := src.Get
	return OnState[In]{d: &stateDecl{
		fromSource: func(in any) func() bool {
			typed := in.(In)
			return func() bool { return predicate(get(), typed) }
		},
		subscribe: src.Subscribe,
	}}
}

// equalFunc chooses how When decides that a projected value is unchanged.
func equalFunc[V any]() func(a, b V) bool {
	if plainComparable(reflect.TypeOf((*V)(nil)).Elem()) {
		return func(a, b V) bool { return any(a) == any(b) }
	}
	return func(a, b V) bool { return reflect.DeepEqual(a, b) }
}

// plainComparable reports whether == on t can neither panic nor stop at
// an interface: basic kinds, pointers, channels, and arrays and structs of
// those.
func plainComparable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface, reflect.Slice, reflect.Map, reflect.Func:
		return false
	case reflect.Array:
		return plainComparable(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !plainComparable(t.Field(i).Type) {
				return false
			}
		}
		return true
	default:
		return t.Comparable()
	}
}

// completionPlan is a compiled completion contract. A nil plan means the
// capability declares none.
type completionPlan[Model, P any] = *completionSpec[Model, P]

// completionSpec is a completion contract checked against its capability,
// with its functions restored to the capability's types.
type completionSpec[Model, P any] struct {
	descriptor *CompletionDescriptor
	timeout    time.Duration
	// On Messages: success matches first, then failure matches.
	matches []compiledMatch
	// On state: exactly one of these is set.
	fromModel  func(in any) func(model Model) bool
	fromSource func(in any) func() bool
	subscribe  func(listener func()) (unsubscribe func())
}

type compiledMatch struct {
	typ       reflect.Type
	tag       string
	status    CompletionStatus
	correlate func(in any, got any, inv Invocation) bool // nil: any Message of typ
	// wire is the Message's wire side: the schema a result advertises for
	// it, and the check its encoding meets before it is sent.
	wire *wire.Projected
}

func (s *completionSpec[Model, P]) describe() *CompletionDescriptor {
	if s == nil {
		return nil
	}
	return s.descriptor
}

func (s *completionSpec[Model, P]) needsObserve() bool   { return s != nil && len(s.matches) > 0 }
func (s *completionSpec[Model, P]) needsSubscribe() bool { return s != nil && s.fromModel != nil }

// compileCompletion checks a completion contract against the capability
// it is declared on and panics, naming the capability, when it is
// invalid. It runs inside Expose and ExposeMapped.
func compileCompletion[In, Model, P any](capability string, cc CompletionContract[In]) completionPlan[Model, P] {
	if cc == nil {
		return nil
	}
	return compileCompletionDecl[Model, P](capability, cc.completionDecl(nil))
}

// compileCompletionDecl is compileCompletion once the contract's In no
// longer matters: kept apart so that its code is instantiated once per
// Model and principal, not once per input type as well.
func compileCompletionDecl[Model, P any](capability string, d *completionDecl) completionPlan[Model, P] {
	fail := func(format string, args ...any) {
		panic(fmt.Sprintf("agent: cannot expose %q: "+format, append([]any{capability}, args...)...))
	}
	if d == nil {
		fail("its completion contract is empty")
	}
	if d.timeout < 0 {
		fail("its completion timeout %s is negative", d.timeout)
	}
	spec := &completionSpec[Model, P]{timeout: d.timeout}
	if spec.timeout == 0 {
		spec.timeout = DefaultCompletionTimeout
	}
	if d.state != nil {
		st := d.state
		if st.fromSource != nil {
			spec.fromSource, spec.subscribe = st.fromSource, st.subscribe
		} else {
			f, ok := st.fromModel.(func(any) func(Model) bool)
			if !ok {
				fail("its completion projection reads Model %s, but the capability's Model is %s", st.modelType, reflect.TypeOf((*Model)(nil)).Elem())
			}
			spec.fromModel = f
		}
		spec.descriptor = &CompletionDescriptor{State: true}
		return spec
	}
	if d.kind == "When" {
		fail("its completion contract is a zero OnState; build it with When or WhenSource")
	}
	if len(d.success) == 0 {
		fail("its completion contract names no success Message; build it with CompleteOn")
	}
	seen := make(map[reflect.Type]CompletionStatus)
	tags := make(map[string]bool)
	desc := &CompletionDescriptor{Schemas: make(map[string]json.RawMessage)}
	add := func(list []*matchDecl, status CompletionStatus) {
		for i, md := range list {
			if md == nil {
				fail("%s Match %d is the zero Match; build it with On or OnType", status, i)
			}
			if prev, dup := seen[md.typ]; dup {
				if prev != status {
					fail("%q is both a success and a failure Message", md.tag)
				}
				fail("%q is named twice as a %s Message", md.tag, status)
			}
			seen[md.typ] = status
			if tags[md.tag] {
				fail("two of its completion Messages are named %q; a result names the Message by its type name, so rename one", md.tag)
			}
			tags[md.tag] = true
			// The completing Message is sent to the agent as data, so its
			// type must say truthfully what its JSON is, as a projection's
			// must.
			w, err := wire.NewProjected(md.typ, md.tag)
			if err != nil {
				fail("its completion Message %s cannot be sent to an agent as data: %v", md.tag, err)
			}
			desc.Schemas[md.tag] = w.Schema()
			cm := compiledMatch{typ: md.typ, tag: md.tag, status: status, correlate: md.correlate, wire: w}
			spec.matches = append(spec.matches, cm)
			if status == Completed {
				desc.Success = append(desc.Success, md.tag)
			} else {
				desc.Failure = append(desc.Failure, md.tag)
			}
		}
	}
	add(d.success, Completed)
	add(d.failure, Failed)
	spec.descriptor = desc
	return spec
}

// CompletionDescriptor is a completion contract as data, for manifests
// and for the output schemas adapters advertise (see ReplySchema).
type CompletionDescriptor struct {
	// Success lists the Go type tags of the Messages that complete the work.
	Success []string `json:"success,omitempty"`
	// Failure lists the tags of the Messages that report it failed.
	Failure []string `json:"failure,omitempty"`
	// State is true for a contract that completes on a condition over state.
	State bool `json:"state,omitempty"`
	// Schemas holds, by tag, the JSON Schema of each Message in Success
	// and Failure: the JSON a result carries as completion.message. It is
	// derived from the Message's Go type as a projection's is (see
	// Project). Nil for a contract on state.
	Schemas map[string]json.RawMessage `json:"schemas,omitempty"`
}

// CompletionStatus is how a completion contract was met.
type CompletionStatus string

// Completion statuses.
const (
	Completed CompletionStatus = "completed"
	Failed    CompletionStatus = "failed"
)

// Completion is the fact that finished a capability's work: a success or
// failure Message, or (for a contract on state) no Message at all.
//
// Its JSON is {"status", "tag", "message"}: the completing Message itself
// travels as data, so an agent learns from the result what the work
// produced (the id of what it created, say) without reading it back. A
// contract on state has neither tag nor message.
type Completion struct {
	Status CompletionStatus `json:"status"`
	// Message is the Message that finished the work, nil for a contract
	// on state. It is encoded with encoding/json, as the schema its type
	// derives says (CompletionDescriptor.Schemas).
	Message any `json:"-"`
	// Tag is the Go type name of Message, or "" for a contract on state.
	Tag string `json:"tag,omitempty"`

	wire     *wire.Projected // the Message's wire side, when the runtime built it
	withheld bool            // encode without the Message (see ReplyTo)
	version  uint64          // the host's version when the fact was seen; 0 unversioned
}

// MarshalJSON encodes the completion as {"status", "tag", "message"},
// "message" being the completing Message's JSON. It fails when that
// Message cannot be encoded, or its JSON breaks the schema its type
// advertises.
func (c Completion) MarshalJSON() ([]byte, error) {
	out := struct {
		_       incomparable
		Status  CompletionStatus `json:"status"`
		Tag     string           `json:"tag,omitempty"`
		Message json.RawMessage  `json:"message,omitempty"`
	}{Status: c.Status, Tag: c.Tag}
	if c.Tag != "" && !c.withheld {
		b, err := json.Marshal(c.Message)
		if err != nil {
			return nil, fmt.Errorf("the completion Message %s cannot be encoded: %w", c.Tag, err)
		}
		if c.wire != nil {
			if err := c.wire.Check(b); err != nil {
				return nil, fmt.Errorf("the completion Message %s breaks its own schema: %w", c.Tag, err)
			}
		}
		out.Message = b
	}
	return json.Marshal(out)
}
