package devtools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/foldagent/foldagent/agent"
)

// approvalTypes are the runtime's approval Messages: the person's answer
// and the runtime's asking and withdrawing. Only the person (through the
// application) and the runtime send them, so none may be declared for
// the developer's dispatch, which a coding agent drives: it could approve
// a held call, draw a card nobody asked, or take one off the screen.
var approvalTypes = []reflect.Type{
	reflect.TypeFor[agent.ApprovalAnswer](), reflect.TypeFor[agent.ApprovalAsked](), reflect.TypeFor[agent.ApprovalWithdrawn](),
}

// MessageType is one of the application's Message types, with its JSON
// Schema: what the schema tool lists and what dispatch decodes into.
type MessageType struct {
	name     string
	typ      reflect.Type
	schema   *jsonschema.Schema
	resolved *jsonschema.Resolved
	err      error
}

// Message describes the Message type T, by its Go name ("todo.CreateTodo")
// and the JSON Schema jsonschema-go derives from it.
func Message[T any]() MessageType {
	return messageOf(reflect.TypeFor[T]())
}

// TypeInfo is a Message type as the schema tool lists it.
type TypeInfo struct {
	Name   string             `json:"name"`
	Schema *jsonschema.Schema `json:"schema"`
}

// registry holds the application's Message types by name.
type registry struct {
	byName map[string]MessageType
	names  []string
}

func newRegistry(msg reflect.Type, types []MessageType) (*registry, error) {
	if msg.Kind() != reflect.Interface {
		types = append([]MessageType{messageOf(msg)}, types...)
	}
	r := &registry{byName: map[string]MessageType{}}
	for _, t := range types {
		if t.typ == nil {
			return nil, fmt.Errorf("%w: a MessageType not made by Message", ErrOptions)
		}
		if t.err != nil {
			return nil, fmt.Errorf("%w: no JSON Schema for %s: %w", ErrOptions, t.name, t.err)
		}
		if !t.typ.AssignableTo(msg) {
			return nil, fmt.Errorf("%w: %s is not a %s", ErrOptions, t.name, msg)
		}
		if slices.Contains(approvalTypes, t.typ) {
			return nil, fmt.Errorf("%w: %s is the person's or the runtime's, never the developer's to dispatch", ErrOptions, t.name)
		}
		if _, dup := r.byName[t.name]; dup {
			continue
		}
		r.byName[t.name] = t
		r.names = append(r.names, t.name)
	}
	slices.Sort(r.names)
	return r, nil
}

func messageOf(t reflect.Type) MessageType {
	mt := MessageType{name: t.String(), typ: t}
	mt.schema, mt.err = jsonschema.ForType(t, nil)
	if mt.err == nil {
		mt.resolved, mt.err = mt.schema.Resolve(nil)
	}
	return mt
}

func (r *registry) list() []TypeInfo {
	out := make([]TypeInfo, 0, len(r.names))
	for _, n := range r.names {
		out = append(out, TypeInfo{Name: n, Schema: r.byName[n].schema})
	}
	return out
}

// decode builds a Message of the named type from raw: the type must be
// registered, raw must meet its schema and decode with no unknown member.
// The reason it returns is written for the developer and names no value.
func (r *registry) decode(name string, raw json.RawMessage) (any, string) {
	t, ok := r.byName[name]
	if !ok {
		return nil, "no Message type has this name (the types tool lists them)"
	}
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	var inst any
	if err := json.Unmarshal(raw, &inst); err != nil {
		return nil, "the message is not JSON"
	}
	if err := t.resolved.Validate(inst); err != nil {
		return nil, "the message does not meet its type's schema (the types tool gives it)"
	}
	v := reflect.New(t.typ)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v.Interface()); err != nil {
		return nil, "the message does not decode into its type"
	}
	return v.Elem().Interface(), ""
}

// typeName is the Go name of msg's dynamic type.
func typeName(msg any) string {
	if msg == nil {
		return "<nil>"
	}
	return reflect.TypeOf(msg).String()
}
