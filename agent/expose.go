package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/foldagent/foldagent/agent/internal/wire"
)

// Variant declares a capability whose input is the Message itself: the
// agent sends the Message's fields, and the decoded value is dispatched
// as is. M is the Message type (a named struct), Model the application's
// Model and P its principal type (NoPrincipal when hooks read none).
//
// To avoid writing the Model and principal types on every declaration,
// declare the package's alias pattern once in the application (see the
// package documentation):
//
//	type capability[M any] = agent.Variant[M, Model, User]
//
//	agent.Expose(capability[CreateTodo]{Description: "Create a todo"})
type Variant[M, Model, P any] struct {
	// Name is the protocol name. It defaults to DefaultName of the Go type
	// name and must match ^[a-zA-Z0-9_-]{1,128}$.
	Name string
	// Description is required: it is what the agent reads to choose the
	// capability. Write it as an authored sentence; it is served verbatim.
	Description string
	// Available reports whether the capability exists in this Model. A
	// capability whose Available is false is not listed, and dispatching it
	// is refused before its input is even decoded. Nil means always.
	Available func(model Model) bool
	// AvailableReads declares what of the Model Available and Requires
	// read: the watches whose values alone decide whether the capability
	// is offered. A listener that follows the offer (mcpagent's Feed, see
	// Runtime.TrackOffer) then re-checks the capability only when one of
	// them moved, instead of after every Model change. It is the
	// application's promise, which the runtime cannot check; a call is
	// always checked against Available and Requires themselves, so a
	// broken promise can only leave a listing late, never let a call
	// through. Nil declares nothing: the capability is re-checked after
	// every change. It must be nil when neither Available nor Requires is
	// set.
	AvailableReads []Watch[Model]
	// Authorize decides whether this principal may invoke it, after the
	// input has been decoded. Nil means always allowed. Returning a non-nil
	// error that is one of this package's Errors refuses with that error;
	// any other error is a defect.
	Authorize func(ctx context.Context, in M, call Call[Model, P]) (Decision, error)
	// Completion, when set, makes dispatch wait for the fact that finishes
	// the capability's work (see CompletionContract). Nil means the work
	// is done when the Message is handed to the application.
	Completion CompletionContract[M]
	// ReadOnly declares that the capability changes nothing: update
	// leaves the application's state as it was, and nothing outside it
	// changes either. Adapters pass it on to clients (MCP's and WebMCP's
	// readOnlyHint), which may then call the capability without asking
	// the person first, so declare it only when it is true: it is the
	// application's promise, which the runtime cannot check. False, the
	// default, claims nothing.
	ReadOnly bool
	// Destructive declares that the capability may destroy or overwrite
	// what cannot be got back: a deletion, a clearing, a replacement.
	// Adapters pass it on to clients (MCP's destructiveHint, WebMCP's
	// consequentialHint), which may ask the person before calling it.
	// False, the default, claims nothing either way. A capability cannot
	// be both ReadOnly and Destructive.
	Destructive bool
	// Requires lists conditions under which the capability is offered,
	// each with the authored sentence an agent is told when it fails: the
	// capability is offered when Available (if set) and every requirement
	// hold, and a call while one fails is refused with an
	// *UnavailableError whose Reason is the first failing requirement's
	// sentence. Nil requires nothing.
	Requires []Requirement[Model]
	// Exists checks that what the input names exists in the snapshot the
	// call runs on: it returns the JSON Pointer of the input member that
	// names something missing ("/id"), or ok true. A call naming a missing
	// thing is refused with a *NotFoundError, after decode and before the
	// principal and Authorize, so a capability that refuses only missing
	// referents is not marked as requiring authorization. Nil checks
	// nothing.
	Exists func(in M, model Model) (missing string, ok bool)
	// Missing is the authored sentence a caller is told when Exists finds
	// something missing ("There is no todo with that id; read the list
	// first."): the contract's own words, never the value. Empty, the
	// refusal says so in general terms. It must be empty when Exists is
	// nil.
	Missing string
	// Watches lists what of the Model the call depends on (see Watch):
	// a call is judged against what its caller last saw of each. Nil
	// watches nothing, and the call is never judged stale.
	Watches []Watch[Model]
	// Freshness says what a call does when a watched value moved since
	// its caller last looked. The zero value is StaleRefuse. It must be empty
	// when Watches is.
	Freshness Freshness
	// Approval, when set, holds a call for the person's approval before
	// it runs (see Approval): the call is checked, shown to the person in
	// the application, and runs only if they approve what they were
	// shown. Nil: calls run once authorized.
	Approval *Approval[M, Model, P]
}

// Mapped declares a capability whose input is its own type In, mapped to
// the Message M by ToMessage. Use it when the agent should send less than
// the Message holds (an id the application fills in, a field taken from
// the Model), or a different shape.
type Mapped[In, M, Model, P any] struct {
	Name        string
	Description string
	Available   func(model Model) bool
	// AvailableReads is Variant.AvailableReads.
	AvailableReads []Watch[Model]
	// Authorize is Variant.Authorize, judging the mapped input.
	Authorize func(ctx context.Context, in In, call Call[Model, P]) (Decision, error)
	// ToMessage builds the Message from the decoded input and the call. It
	// is required. call.Model is the snapshot Available approved, so a
	// value Available checked (a selection, say) is still there.
	ToMessage func(in In, call Call[Model, P]) M
	// Completion is Variant.Completion, written against the mapped input.
	Completion CompletionContract[In]
	// ReadOnly and Destructive are Variant's.
	ReadOnly    bool
	Destructive bool
	// Requires, Watches and Freshness are Variant's.
	Requires []Requirement[Model]
	// Exists is Variant.Exists, judging the mapped input; Missing is
	// Variant.Missing.
	Exists    func(in In, model Model) (missing string, ok bool)
	Missing   string
	Watches   []Watch[Model]
	Freshness Freshness
	// Approval is Variant.Approval, judging the mapped input.
	Approval *Approval[In, Model, P]
}

// Capability is one exposed capability of a contract, as Expose and
// ExposeMapped return it. Pass capabilities to Make.
type Capability[Model, P any] interface {
	capability() *capability[Model, P]
}

// Exposed is a typed handle on a capability whose input type is In. Keep it
// to dispatch with a compile-time checked input (see Dispatch): the handle
// survives a rename of the capability.
type Exposed[In, Model, P any] struct {
	c *capability[Model, P]
}

func (e *Exposed[In, Model, P]) capability() *capability[Model, P] { return e.c }

// Name returns the capability's protocol name.
func (e *Exposed[In, Model, P]) Name() string { return e.c.name }

// Descriptor returns the capability's description as data.
func (e *Exposed[In, Model, P]) Descriptor() Descriptor { return e.c.descriptor }

// capability is the type-erased form the runtime works with. Every func
// field closes over the declaration's own types, so the erasure is
// checked once, at Expose.
type capability[Model, P any] struct {
	name        string
	tag         string
	description string
	msgType     reflect.Type
	inType      reflect.Type
	direct      bool
	codec       *wire.Codec
	available   func(Model) bool
	authorize   func(ctx context.Context, in any, call Call[Model, P]) (Decision, error)
	construct   func(in any, call Call[Model, P]) any
	decode      func(raw []byte) (any, error)
	completion  completionPlan[Model, P]
	readOnly    bool
	destructive bool
	requires    []Requirement[Model]
	exists      func(in any, model Model) (string, bool)
	missing     string
	watches     []*watch[Model]
	reads       []*watch[Model] // AvailableReads
	freshness   Freshness
	approval    *approvalPlan[Model, P]
	descriptor  Descriptor
}

// Expose declares a capability whose input is the Message itself.
//
// It panics, naming the Message type, when the declaration is invalid: M
// is not a named struct, the description is empty, or the name is not a
// valid capability name. Like regexp.MustCompile, it is meant for
// package-level declarations, where a mistake should stop the program.
func Expose[M, Model, P any](v Variant[M, Model, P]) *Exposed[M, Model, P] {
	msgType := reflect.TypeOf((*M)(nil)).Elem()
	c := newCapability[M, Model, P](msgType, msgType, v.Name, v.Description, v.Available)
	c.direct = true
	c.construct = func(in any, _ Call[Model, P]) any { return in }
	if v.Authorize != nil {
		c.authorize = adaptAuthorize(v.Authorize)
	}
	c.completion = compileCompletion[M, Model, P](c.name, v.Completion)
	c.annotate(v.ReadOnly, v.Destructive)
	c.declareFreshness(v.Requires, v.Watches, v.Freshness)
	c.declareReads(v.AvailableReads)
	c.declareExists(adaptExists(v.Exists), v.Missing)
	compileApproval(c, v.Approval)
	c.descriptor = c.describe()
	return &Exposed[M, Model, P]{c: c}
}

// ExposeMapped declares a capability whose input type In is mapped to the
// Message M by ToMessage. It panics, naming the Message type, when the
// declaration is invalid, including when ToMessage is missing.
func ExposeMapped[In, M, Model, P any](v Mapped[In, M, Model, P]) *Exposed[In, Model, P] {
	msgType, inType := reflect.TypeOf((*M)(nil)).Elem(), reflect.TypeOf((*In)(nil)).Elem()
	if v.ToMessage == nil {
		panic(fmt.Sprintf("agent: cannot expose %s: a mapped input (%s) was given without ToMessage", typeLabel(msgType), inType))
	}
	c := newCapability[In, Model, P](msgType, inType, v.Name, v.Description, v.Available)
	toMessage := v.ToMessage
	c.construct = func(in any, call Call[Model, P]) any { return toMessage(in.(In), call) }
	if v.Authorize != nil {
		c.authorize = adaptAuthorize(v.Authorize)
	}
	c.completion = compileCompletion[In, Model, P](c.name, v.Completion)
	c.annotate(v.ReadOnly, v.Destructive)
	c.declareFreshness(v.Requires, v.Watches, v.Freshness)
	c.declareReads(v.AvailableReads)
	c.declareExists(adaptExists(v.Exists), v.Missing)
	compileApproval(c, v.Approval)
	c.descriptor = c.describe()
	return &Exposed[In, Model, P]{c: c}
}

func newCapability[In, Model, P any](msgType, inType reflect.Type, name, description string, available func(Model) bool) *capability[Model, P] {
	c := newErasedCapability[Model, P](msgType, inType, name, description, available)
	codec := c.codec
	c.decode = func(raw []byte) (any, error) {
		in := new(In)
		if err := codec.DecodeInto(raw, in); err != nil {
			return nil, err
		}
		return *in, nil
	}
	return c
}

// newErasedCapability is newCapability but for the decoder, the one part
// that needs In: kept apart so that its code is instantiated once per
// Model and principal, not once per input type as well.
func newErasedCapability[Model, P any](msgType, inType reflect.Type, name, description string, available func(Model) bool) *capability[Model, P] {
	if msgType.Kind() != reflect.Struct || msgType.Name() == "" {
		panic(fmt.Sprintf("agent: cannot expose %s: a capability's Message must be a named struct type", typeLabel(msgType)))
	}
	if description == "" {
		panic(fmt.Sprintf("agent: cannot expose %s: Description is required", typeLabel(msgType)))
	}
	if name == "" {
		name = DefaultName(msgType.Name())
	}
	if !ValidName(name) {
		panic(fmt.Sprintf("agent: cannot expose %s: %q is not a valid capability name; use 1-128 characters of [a-zA-Z0-9_-]", typeLabel(msgType), name))
	}
	codec, err := wire.NewCodec(inType)
	if err != nil {
		panic(fmt.Sprintf("agent: cannot expose %s: %v", typeLabel(msgType), err))
	}
	return &capability[Model, P]{
		name:        name,
		tag:         msgType.Name(),
		description: description,
		msgType:     msgType,
		inType:      inType,
		codec:       codec,
		available:   available,
	}
}

// annotate records what the declaration says about the capability's
// effect, refusing a contradiction.
func (c *capability[Model, P]) annotate(readOnly, destructive bool) {
	if readOnly && destructive {
		panic(fmt.Sprintf("agent: cannot expose %s: a capability cannot be both ReadOnly and Destructive", typeLabel(c.msgType)))
	}
	c.readOnly, c.destructive = readOnly, destructive
}

// declareFreshness records the requirements, watches and freshness
// policy, refusing a malformed declaration.
func (c *capability[Model, P]) declareFreshness(requires []Requirement[Model], watches []Watch[Model], f Freshness) {
	for i, r := range requires {
		if r.Holds == nil || r.Says == "" {
			panic(fmt.Sprintf("agent: cannot expose %s: Requires[%d] needs both Holds and Says", typeLabel(c.msgType), i))
		}
	}
	c.requires = requires
	seen := map[*watch[Model]]bool{}
	for i, w := range watches {
		if w.w == nil {
			panic(fmt.Sprintf("agent: cannot expose %s: Watches[%d] is the zero Watch; declare it with Watching", typeLabel(c.msgType), i))
		}
		if seen[w.w] {
			panic(fmt.Sprintf("agent: cannot expose %s: the watch %q is listed twice", typeLabel(c.msgType), w.w.name))
		}
		seen[w.w] = true
		c.watches = append(c.watches, w.w)
	}
	if !f.valid() {
		panic(fmt.Sprintf("agent: cannot expose %s: %q is not a freshness policy; use StaleRefuse, StaleRequireAck or StaleDisclose", typeLabel(c.msgType), f))
	}
	if f != "" && len(watches) == 0 {
		panic(fmt.Sprintf("agent: cannot expose %s: Freshness is set but the capability watches nothing", typeLabel(c.msgType)))
	}
	if f == "" && len(watches) > 0 {
		f = StaleRefuse
	}
	c.freshness = f
}

// declareReads records what Available and Requires read, refusing a
// malformed declaration.
func (c *capability[Model, P]) declareReads(reads []Watch[Model]) {
	if len(reads) > 0 && c.available == nil && len(c.requires) == 0 {
		panic(fmt.Sprintf("agent: cannot expose %s: AvailableReads is set but neither Available nor Requires is", typeLabel(c.msgType)))
	}
	for i, w := range reads {
		if w.w == nil {
			panic(fmt.Sprintf("agent: cannot expose %s: AvailableReads[%d] is the zero Watch; declare it with Watching", typeLabel(c.msgType), i))
		}
		if slices.Contains(c.reads, w.w) {
			panic(fmt.Sprintf("agent: cannot expose %s: the watch %q is read twice", typeLabel(c.msgType), w.w.name))
		}
		c.reads = append(c.reads, w.w)
	}
}

// isOffered reports whether the capability is offered in model and, when
// it is not because a requirement fails, that requirement's sentence.
func (c *capability[Model, P]) isOffered(model Model) (ok bool, reason string, err error) {
	ok, err = c.isAvailable(model)
	if err != nil || !ok {
		return false, "", err
	}
	for _, r := range c.requires {
		holds, err := c.holds(r, model)
		if err != nil {
			return false, "", err
		}
		if !holds {
			return false, r.Says, nil
		}
	}
	return true, "", nil
}

func (c *capability[Model, P]) holds(r Requirement[Model], model Model) (ok bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			ok, err = false, &DefectError{Capability: c.name, Stage: "available", Cause: panicError(v)}
		}
	}()
	return r.Holds(model), nil
}

// checkExists runs Exists on the snapshot the call runs on.
func (c *capability[Model, P]) checkExists(in any, model Model) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &DefectError{Capability: c.name, Stage: "exists", Cause: panicError(v)}
		}
	}()
	if missing, ok := c.exists(in, model); !ok {
		return &NotFoundError{Capability: c.name, Type: c.tag, Path: missing, Reason: c.missing}
	}
	return nil
}

// declareExists records Exists and its authored sentence. A sentence
// without a check is a declaration mistake: it would never be said.
func (c *capability[Model, P]) declareExists(exists func(any, Model) (string, bool), missing string) {
	if exists == nil && missing != "" {
		panic(fmt.Sprintf("agent: cannot expose %s: Missing is set but Exists is nil", typeLabel(c.msgType)))
	}
	c.exists, c.missing = exists, missing
}

func adaptExists[In, Model any](f func(In, Model) (string, bool)) func(any, Model) (string, bool) {
	if f == nil {
		return nil
	}
	return func(in any, m Model) (string, bool) { return f(in.(In), m) }
}

// invalidInput is the refusal of an input that failed decode with err:
// the sentence, the problems the decoder found and the schema the input
// should have met.
func (c *capability[Model, P]) invalidInput(err error) *InvalidInputError {
	e := &InvalidInputError{Capability: c.name, Type: c.tag, InputSchema: c.codec.Schema(), cause: err}
	if rej, ok := errors.AsType[*wire.Rejection](err); ok {
		e.Problems = make([]InputProblem, len(rej.Problems))
		for i, p := range rej.Problems {
			e.Problems[i] = InputProblem{Path: p.Path, Code: ProblemCode(p.Code)}
		}
	}
	return e
}

func adaptAuthorize[In, Model, P any](f func(context.Context, In, Call[Model, P]) (Decision, error)) func(context.Context, any, Call[Model, P]) (Decision, error) {
	return func(ctx context.Context, in any, call Call[Model, P]) (Decision, error) {
		return f(ctx, in.(In), call)
	}
}

func (c *capability[Model, P]) describe() Descriptor {
	return Descriptor{
		Name:                  c.name,
		Tag:                   c.tag,
		Description:           c.description,
		InputSchema:           c.codec.Schema(),
		ModelDependent:        c.available != nil || len(c.requires) > 0,
		RequiresAuthorization: c.authorize != nil,
		ReadOnly:              c.readOnly,
		Destructive:           c.destructive,
		Completion:            c.completion.describe(),
		Watches:               c.watchNames(),
		Freshness:             c.freshness,
		NeedsApproval:         c.approval != nil,
		ApprovalWhen:          c.approval != nil && c.approval.when != nil,
	}
}

func (c *capability[Model, P]) watchNames() []string {
	if len(c.watches) == 0 {
		return nil
	}
	names := make([]string, len(c.watches))
	for i, w := range c.watches {
		names[i] = w.name
	}
	return names
}

// Descriptor is a capability as data: what a manifest lists and what an
// adapter turns into a tool.
type Descriptor struct {
	// Name is the protocol name.
	Name string `json:"name"`
	// Tag is the Go type name of the Message the capability dispatches.
	Tag string `json:"tag"`
	// Description is the authored description.
	Description string `json:"description"`
	// InputSchema is the JSON Schema of the wire input.
	InputSchema json.RawMessage `json:"inputSchema"`
	// ModelDependent is true when the capability declares Available.
	ModelDependent bool `json:"modelDependent"`
	// RequiresAuthorization is true when the capability declares Authorize.
	RequiresAuthorization bool `json:"requiresAuthorization"`
	// ReadOnly is true when the capability declares that it changes
	// nothing (Variant.ReadOnly).
	ReadOnly bool `json:"readOnly,omitempty"`
	// Destructive is true when the capability declares that it may
	// destroy what cannot be got back (Variant.Destructive).
	Destructive bool `json:"destructive,omitempty"`
	// Completion describes the completion contract, when one is declared.
	Completion *CompletionDescriptor `json:"completion,omitempty"`
	// Watches names what of the Model a call depends on (Variant.Watches).
	Watches []string `json:"watches,omitempty"`
	// Freshness is the policy for a call whose watches moved; "" when it
	// watches nothing.
	Freshness Freshness `json:"freshness,omitempty"`
	// NeedsApproval is true when a call may be held for the person's
	// approval (Variant.Approval), always or by its When.
	NeedsApproval bool `json:"needsApproval,omitempty"`
	// ApprovalWhen is true when the approval holds only the calls its
	// When selects: a call may run without the person being asked.
	ApprovalWhen bool `json:"approvalWhen,omitempty"`
}

func typeLabel(t reflect.Type) string {
	if t.Name() != "" {
		return t.Name()
	}
	return t.String()
}
