package agent

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/foldagent/foldagent/agent/internal/wire"
)

// Projection is a read-only view of the Model: a function from Model to a
// Go value whose JSON is what the agent sees. Build one with Project. The
// zero Projection projects nothing.
type Projection[Model any] struct {
	p *projection[Model]
}

type projection[Model any] struct {
	typ  reflect.Type
	wire *wire.Projected
	read func(Model) any
}

// Project declares a projection of the Model. The value's JSON Schema is
// derived from V (json tags honoured, as for inputs), and reading the
// projection encodes the value with encoding/json, so what an agent sees
// is the value's wire form.
//
// What an agent is shown always matches what it is told, in two layers.
// At declaration, Project panics, naming the field path, when V's schema
// and its encoding would disagree: a type that encodes itself
// (MarshalJSON or MarshalText) without declaring its wire form with
// WireSchema, a []byte, json.Number or `json:",string"` field, or an
// embedding encoding/json serves differently from its schema (a tagged,
// non-struct or pointer embedding). time.Time and slog.Level are fine:
// they are advertised as the strings they encode to. A map is advertised
// as nullable, since a nil map encodes as null. Then, every value served
// is checked against the advertised schema, so a WireSchema type whose
// encoding does not match what it declares is a *ProjectionError, and its
// value never reaches the agent.
//
// Project also panics if V has no JSON Schema (a channel, a func, a map
// keyed by something other than strings, a type that contains itself).
func Project[Model, V any](read func(model Model) V) Projection[Model] {
	if read == nil {
		panic("agent: Project needs a read function")
	}
	p, err := newProjection(read)
	if err != nil {
		panic(fmt.Sprintf("agent: Project: %v", err))
	}
	return p
}

func newProjection[Model, V any](read func(model Model) V) (Projection[Model], error) {
	t := reflect.TypeOf((*V)(nil)).Elem()
	w, err := wire.NewProjected(t, typeLabel(t))
	if err != nil {
		return Projection[Model]{}, fmt.Errorf("cannot project %s: %w", t, err)
	}
	return Projection[Model]{p: &projection[Model]{
		typ:  t,
		wire: w,
		read: func(m Model) any { return read(m) },
	}}, nil
}

// Schema returns the JSON Schema of the projected value, or nil for the
// zero Projection.
func (p Projection[Model]) Schema() json.RawMessage {
	if p.p == nil {
		return nil
	}
	return p.p.wire.Schema()
}

// Resource is a named, read-only projection of the Model with a
// description, which an agent reads on demand (MCP serves it as
// app://<name>).
type Resource[Model any] struct {
	name        string
	description string
	projection  Projection[Model]
}

// NewResource declares a resource. Its value is projected as by Project,
// and refused at declaration for the same reasons. It panics, naming the
// resource, when the name is not a valid capability-style name (1-128
// characters of [a-zA-Z0-9_-]), the description is empty, read is nil, or
// V cannot be projected.
func NewResource[Model, V any](name, description string, read func(model Model) V) Resource[Model] {
	if !ValidName(name) {
		panic(fmt.Sprintf("agent: resource %q: the name must be 1-128 characters of [a-zA-Z0-9_-]", name))
	}
	if description == "" {
		panic(fmt.Sprintf("agent: resource %q: Description is required", name))
	}
	if read == nil {
		panic(fmt.Sprintf("agent: resource %q needs a read function", name))
	}
	p, err := newProjection(read)
	if err != nil {
		panic(fmt.Sprintf("agent: resource %q: %v", name, err))
	}
	return Resource[Model]{name: name, description: description, projection: p}
}

// Name returns the resource's name.
func (r Resource[Model]) Name() string { return r.name }

// ResourceDescriptor is a resource as data.
type ResourceDescriptor struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
}

// Definition is everything a contract declares: what an agent may see
// (the context and the resources) and what it may do (the capabilities,
// in the order they are listed).
type Definition[Model, P any] struct {
	// Context is the projection returned to an agent as its view of the
	// application. Optional.
	Context Projection[Model]
	// Capabilities are the exposed Messages, in declaration order. Exposure
	// is opt-in: a Message not listed here cannot be reached.
	Capabilities []Capability[Model, P]
	// Resources are named read-only projections, in declaration order.
	Resources []Resource[Model]
}

// Contract is a validated, protocol-neutral declaration of what an agent
// may see and do. It is data: it runs nothing and reads no Model until it
// is bound to a host with Bind. A Contract is immutable and safe to share.
type Contract[Model, P any] struct {
	caps       []*capability[Model, P]
	byName     map[string]*capability[Model, P]
	byType     map[reflect.Type]*capability[Model, P]
	context    Projection[Model]
	resources  []Resource[Model]
	resByName  map[string]*Resource[Model]
	descriptor []Descriptor
	// watches are every capability's watches, each once, in the order
	// first listed.
	watches []*watch[Model]
}

// Make validates a definition and returns its contract. It panics, naming
// the culprit, on a nil capability, two capabilities with one name, two
// Variants (Expose) for one Message type, or two resources with one name.
// Mapped capabilities (ExposeMapped) may share a Message type with each
// other and with one Variant: each has its own name, input and checks.
func Make[Model, P any](d Definition[Model, P]) *Contract[Model, P] {
	c := &Contract[Model, P]{
		byName:    make(map[string]*capability[Model, P], len(d.Capabilities)),
		byType:    make(map[reflect.Type]*capability[Model, P], len(d.Capabilities)),
		context:   d.Context,
		resources: append([]Resource[Model](nil), d.Resources...),
		resByName: make(map[string]*Resource[Model], len(d.Resources)),
	}
	for i, decl := range d.Capabilities {
		if decl == nil || decl.capability() == nil {
			panic(fmt.Sprintf("agent: Make: capability %d is nil", i))
		}
		capab := decl.capability()
		if prev, dup := c.byName[capab.name]; dup {
			panic(fmt.Sprintf("agent: Make: duplicate capability name %q (Messages %s and %s)", capab.name, prev.tag, capab.tag))
		}
		if slices.Contains(approvalMessages, capab.msgType) {
			panic(fmt.Sprintf("agent: Make: %s is the person's own Message and cannot be exposed as capability %q: no agent may approve", capab.tag, capab.name))
		}
		if prev, dup := c.byType[capab.msgType]; dup && capab.direct {
			// Mapped capabilities may share a Message type (several
			// actions over one key Message); two that take the Message
			// itself as input could not be told apart by DispatchMessage.
			panic(fmt.Sprintf("agent: Make: Message %s is exposed twice (as %q and %q)", capab.tag, prev.name, capab.name))
		}
		for _, w := range capab.watches {
			if slices.Contains(c.watches, w) {
				continue
			}
			for _, other := range c.watches {
				if other.name == w.name {
					panic(fmt.Sprintf("agent: Make: two different watches are named %q (declare a watch once with Watching and list that one value)", w.name))
				}
			}
			c.watches = append(c.watches, w)
		}
		c.byName[capab.name] = capab
		if capab.direct {
			c.byType[capab.msgType] = capab
		}
		c.caps = append(c.caps, capab)
		c.descriptor = append(c.descriptor, capab.descriptor)
	}
	for i := range c.resources {
		r := &c.resources[i]
		if r.projection.p == nil {
			panic(fmt.Sprintf("agent: Make: resource %d was not built with NewResource", i))
		}
		if _, dup := c.resByName[r.name]; dup {
			panic(fmt.Sprintf("agent: Make: duplicate resource name %q", r.name))
		}
		c.resByName[r.name] = r
	}
	return c
}

// Description is a contract as data, whatever the Model: what it lets an
// agent do and see. It is the shape of agent.json (see Manifest), and what
// an adapter turns into tools, skills or actions without naming the
// contract's type parameters.
type Description struct {
	// Capabilities are every capability's descriptor, in declaration
	// order, available or not in the current Model.
	Capabilities []Descriptor `json:"capabilities"`
	// Resources are the named read-only projections, in declaration order.
	Resources []ResourceDescriptor `json:"resources"`
	// Context is the JSON Schema of the context projection, or nil when
	// the contract projects no context.
	Context json.RawMessage `json:"context,omitempty"`
}

// Describe returns the contract as data. The slices are fresh copies, so a
// caller may keep or change them.
func (c *Contract[Model, P]) Describe() Description {
	d := Description{
		Capabilities: append(make([]Descriptor, 0, len(c.descriptor)), c.descriptor...),
		Resources:    make([]ResourceDescriptor, len(c.resources)),
		Context:      c.context.Schema(),
	}
	for i, r := range c.resources {
		d.Resources[i] = ResourceDescriptor{Name: r.name, Description: r.description, Schema: r.projection.Schema()}
	}
	return d
}
