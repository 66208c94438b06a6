package devtools

import (
	"context"
	"reflect"
)

// origin is a Provenance as the recorder reads it at the host's door:
// small codes and pointers, with no strings, made a Provenance only when
// a tool asks. A record keeps a pointer to one, shared by every record
// of the same origin (see intern), and the cause beside it.
type origin struct {
	kind, door uint8
	agent      *AgentOrigin // kindAgent
	mk         *mark        // kindDeveloper: the developer's mark
	full       *Provenance  // a Provenance handed to Add that the codes cannot say
}

// plain holds the origins made of codes alone, one per kind and door, so
// that a record of one points to it and nothing is allocated.
var plain = func() (t [len(kinds)][len(doors)]origin) {
	for k := range t {
		for d := range t[k] {
			t[k][d] = origin{kind: uint8(k), door: uint8(d)}
		}
	}
	return t
}()

// intern returns a pointer to o: the shared one when o is codes alone,
// else a copy of its own.
func intern(o origin) *origin {
	if o.agent == nil && o.mk == nil && o.full == nil {
		return &plain[o.kind][o.door]
	}
	p := new(origin) // only here: taking &o would allocate o on every call
	*p = o
	return p
}

// The codes of an origin's kind and door: indexes into kinds and doors.
const (
	kindUnknown uint8 = iota
	kindPerson
	kindAgent
	kindApp
	kindDeveloper
)

const (
	doorNone uint8 = iota
	doorDispatch
	doorCmd
	doorPanic
	doorInput
	doorProgram
)

var (
	kinds = [...]string{kindUnknown: KindUnknown, kindPerson: KindPerson, kindAgent: KindAgent, kindApp: KindApp, kindDeveloper: KindDeveloper}
	doors = [...]string{doorNone: "", doorDispatch: "dispatch", doorCmd: "cmd", doorPanic: "panic", doorInput: "input", doorProgram: "program"}
)

// provenance is o as tools serve it, for a Message sent by a command
// of version cause (0: none).
func (o *origin) provenance(cause uint64) Provenance {
	if o.full != nil {
		return *o.full
	}
	p := Provenance{Kind: kinds[o.kind], Door: doors[o.door], Agent: o.agent, Cause: cause}
	if o.mk != nil {
		p.Developer = o.mk.developer
	}
	return p
}

// originOf is p as a record keeps it (Add's Provenance).
func originOf(p Provenance) origin {
	k, kok := indexOf(kinds[:], p.Kind)
	d, dok := indexOf(doors[:], p.Door)
	if !kok || !dok || p.Developer != "" {
		full := new(Provenance) // only here: taking &p would allocate p on every call
		*full = p
		return origin{full: full, agent: p.Agent}
	}
	return origin{kind: k, door: d, agent: p.Agent}
}

func indexOf(names []string, name string) (uint8, bool) {
	for i, n := range names {
		if n == name {
			return uint8(i), true
		}
	}
	return 0, false
}

// lastOrigin keeps the origin of the last dispatch context the recorder
// read, for the next Message dispatched with the very same context (the
// application's own code often dispatches with one long-lived context):
// reading a context's marks costs several lookups through its chain, as
// much as a third of applying a small Message, and a context's values
// never change. Only the recorder's goroutine uses it.
type lastOrigin struct {
	ctx context.Context
	o   *origin
}

// of returns the origin of a Message dispatched with ctx, named.
//
// Only a context of a comparable type is kept, so that comparing the next
// one with it never panics: two interfaces holding values of different
// types are unequal without comparing the values.
func (l *lastOrigin) of(ctx context.Context, named func(origin) origin) *origin {
	if l.ctx != nil && ctx == l.ctx {
		return l.o
	}
	o := intern(named(dispatchOrigin(ctx)))
	l.ctx, l.o = nil, o
	if ctx != nil && reflect.TypeOf(ctx).Comparable() {
		l.ctx = ctx
	}
	return o
}
