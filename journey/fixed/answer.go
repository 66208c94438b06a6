package fixed

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/foldagent/foldagent/journey"
)

// The port's answers are typed: each answer kind is a Go struct whose
// fields are in wire order, with the json names and omitempty rules the
// wire has, built by a pure function of one snapshot the session gave.
// resultOf turns one into the CallResult a call returns, whose encoding
// is the struct's own (json.Marshal without HTML escaping, byte for byte:
// TestTypedAnswersEncodeAsTheirResult). Nested answer structs become
// nested CallResults, so a caller reading a result by key sees what it
// always saw.

// answerField is one field of an answer struct, as resultOf reads it.
type answerField struct {
	index     []int
	name      string
	omitEmpty bool
	inline    bool // an embedded answer struct, whose fields are promoted
}

var answerPlans sync.Map // reflect.Type -> []answerField

var (
	callResultType = reflect.TypeFor[CallResult]()
	marshalerType  = reflect.TypeFor[json.Marshaler]()
)

// planOf lists an answer struct's fields in declaration order.
func planOf(t reflect.Type) []answerField {
	if p, ok := answerPlans.Load(t); ok {
		return p.([]answerField)
	}
	var out []answerField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, answerField{index: f.Index, inline: true})
			continue
		}
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		out = append(out, answerField{index: f.Index, name: name, omitEmpty: opts == "omitempty"})
	}
	answerPlans.Store(t, out)
	return out
}

// resultOf is an answer struct as the ordered result a call returns.
func resultOf(answer any) CallResult {
	var r CallResult
	appendFields(&r, reflect.ValueOf(answer))
	return r
}

func appendFields(r *CallResult, v reflect.Value) {
	for _, f := range planOf(v.Type()) {
		fv := v.FieldByIndex(f.index)
		if f.inline {
			appendFields(r, fv)
			continue
		}
		if f.omitEmpty && emptyValue(fv) {
			continue
		}
		r.set(f.name, plainValue(fv))
	}
}

// isAnswer reports whether t is one of this package's answer structs
// (not CallResult, which already is a result).
func isAnswer(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t != callResultType && t.PkgPath() == callResultType.PkgPath()
}

// plainValue is a field's value as a result holds it: named strings as
// string, pointers followed, answer structs as CallResults.
func plainValue(v reflect.Value) any {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		return plainValue(v.Elem())
	}
	if v.Type().Implements(marshalerType) {
		// A value with its own encoding (journey.Observed) keeps it.
		return v.Interface()
	}
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return v.Bool()
	case reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return v.Elem().Interface()
	case reflect.Struct:
		if isAnswer(v.Type()) {
			return resultOf(v.Interface())
		}
	case reflect.Slice:
		if !v.IsNil() && isAnswer(v.Type().Elem()) {
			out := make([]CallResult, v.Len())
			for i := range out {
				out[i] = resultOf(v.Index(i).Interface())
			}
			return out
		}
	}
	return v.Interface()
}

// emptyValue is encoding/json's rule for omitempty.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// no is the false a field carries when it is present only as false
// (materialized: false, feasible: false).
func no() *bool { f := false; return &f }

// merge sets every field of a typed part on r, in the part's order: a key
// r already holds keeps its place and takes the part's value.
func (r *CallResult) merge(part any) {
	for _, e := range resultOf(part).kv {
		r.set(e.k, e.v)
	}
}

// ---- closing an answer ----

// answer is a firing call's answer: the head, each part merged in order,
// and where the session is now.
func (p *Port) answer(head any, parts ...any) CallResult {
	r := resultOf(head)
	for _, part := range parts {
		r.merge(part)
	}
	return *p.position(&r)
}

// position closes an answer with where the session is now: a key the
// answer holds keeps its place, and a lookingAt no longer true goes.
func (p *Port) position(r *CallResult) *CallResult {
	here := p.here()
	r.merge(here)
	if here.LookingAt == "" {
		r.Delete("lookingAt")
	}
	return r
}

// position is where the session is: the fields that close every answer.
type position struct {
	YouAreOn  string `json:"youAreOn"`
	OffGraph  bool   `json:"offGraph,omitempty"`
	LookingAt string `json:"lookingAt,omitempty"`
	Version   int64  `json:"version"`
}

func (p *Port) here() position { return hereOf(p.s) }

func hereOf(s *journey.Session) position {
	pos := s.View().Position()
	return position{YouAreOn: pos.YouAreOn, OffGraph: pos.OffGraph, LookingAt: pos.LookingAt, Version: pos.Version}
}

// guard is deferred by every call: a defect in host code the call
// reached is recorded, and answered as a DEFECT refusal.
func (p *Port) guard(name string, res *CallResult) {
	if v := recover(); v != nil {
		p.s.RecordDefect("port call "+name, v)
		*res = resultOf(callRefusal{verdict: verdict{Judgment: "error", Reason: "DEFECT"}, Defect: fmt.Sprint(v)})
	}
}
