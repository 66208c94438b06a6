//go:build !js

package wire

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds the decoder Decode uses once the validator has accepted
// a payload: the payload is then known to be well-formed JSON whose
// member names are exactly the declared ones, so most of what
// encoding/json.Unmarshal spends its time on (checking the syntax again
// from the first byte, matching names case-insensitively, walking
// reflection for every value) is not needed for the usual input struct of
// strings, numbers and booleans.
//
// It is only ever an optimisation: its result is the value
// encoding/json.Unmarshal would produce, and whenever it meets something it
// does not handle exactly as encoding/json does (an escaped member name, a
// number that does not fit, a field whose type decodes itself) it gives
// up and Decode starts over with encoding/json, so every refusal, and its
// message, stays encoding/json's. Values of any other type (slices, maps,
// pointers, nested structs, interfaces) are handed to encoding/json one
// field at a time.

// fieldKind is how the decoder stores one struct field.
type fieldKind uint8

const (
	fieldOther  fieldKind = iota // handed to encoding/json
	fieldString                  // a string kind without custom decoding
	fieldBool
	fieldInt
	fieldUint
	fieldFloat
)

type planField struct {
	name  string
	index int
	kind  fieldKind
}

// structPlan decodes validated payloads into one struct type.
type structPlan struct {
	fields []planField
}

var textUnmarshalerType = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()

// decodesItself reports whether encoding/json hands values of t to the
// type's own method rather than decoding them by kind.
func decodesItself(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(jsonUnmarshalType) || pt.Implements(jsonUnmarshalType) ||
		t.Implements(textUnmarshalerType) || pt.Implements(textUnmarshalerType)
}

// compilePlan returns the plan for struct type t, or nil when t's fields
// are laid out in a way the decoder does not reproduce (embedded structs,
// repeated or unusual names, the ",string" option) or t decodes itself;
// Decode then uses encoding/json alone.
func compilePlan(t reflect.Type) *structPlan {
	if t.Kind() != reflect.Struct || decodesItself(t) {
		return nil
	}
	plan := &structPlan{}
	seen := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			return nil
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts := tag, ""
		for j := 0; j < len(tag); j++ {
			if tag[j] == ',' {
				name, opts = tag[:j], tag[j+1:]
				break
			}
		}
		if slices.Contains(strings.Split(opts, ","), "string") {
			return nil
		}
		if name == "" {
			name = f.Name
		}
		if !plainName(name) || seen[name] {
			return nil
		}
		seen[name] = true
		plan.fields = append(plan.fields, planField{name: name, index: i, kind: kindOf(f.Type)})
	}
	return plan
}

// plainName reports whether name is printable ASCII that JSON writes
// without escapes, so that a member name matches it byte for byte.
func plainName(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return false
		}
	}
	return name != ""
}

func kindOf(t reflect.Type) fieldKind {
	if decodesItself(t) {
		return fieldOther
	}
	switch t.Kind() {
	case reflect.String:
		return fieldString
	case reflect.Bool:
		return fieldBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fieldInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return fieldUint
	case reflect.Float32, reflect.Float64:
		return fieldFloat
	}
	return fieldOther
}

func (pl *structPlan) lookup(key []byte) *planField {
	for i := range pl.fields {
		if pl.fields[i].name == string(key) {
			return &pl.fields[i]
		}
	}
	return nil
}

// decode stores the validated object raw into v, a settable struct of the
// plan's type. It reports false when encoding/json must decide instead;
// v is then partly written and must be reset.
func (pl *structPlan) decode(raw []byte, v reflect.Value) bool {
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	i = skipWS(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return true
	}
	for i < len(raw) && raw[i] == '"' {
		// The member name: only a plain one is matched here.
		j := i + 1
		for j < len(raw) && raw[j] != '"' {
			if c := raw[j]; c == '\\' || c >= utf8.RuneSelf {
				return false
			}
			j++
		}
		if j >= len(raw) {
			return false
		}
		f := pl.lookup(raw[i+1 : j])
		if f == nil {
			return false
		}
		i = skipWS(raw, j+1)
		if i >= len(raw) || raw[i] != ':' {
			return false
		}
		i = skipWS(raw, i+1)
		end := skipValue(raw, i)
		if end <= i || !f.store(v.Field(f.index), raw[i:end]) {
			return false
		}
		i = skipWS(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i = skipWS(raw, i+1)
			continue
		}
		return i < len(raw) && raw[i] == '}'
	}
	return false
}

// store decodes the value token into fv as encoding/json would, or
// reports false.
func (f *planField) store(fv reflect.Value, tok []byte) bool {
	if f.kind == fieldOther {
		return json.Unmarshal(tok, fv.Addr().Interface()) == nil
	}
	if string(tok) == "null" {
		return true // encoding/json leaves a string, number or bool as it is
	}
	switch f.kind {
	case fieldString:
		if tok[0] != '"' {
			return false
		}
		s := tok[1 : len(tok)-1]
		for _, c := range s {
			if c == '\\' || c >= utf8.RuneSelf {
				// Escapes, or UTF-8 encoding/json may have to repair.
				return json.Unmarshal(tok, fv.Addr().Interface()) == nil
			}
		}
		fv.SetString(string(s))
	case fieldBool:
		switch string(tok) {
		case "true":
			fv.SetBool(true)
		case "false":
			fv.SetBool(false)
		default:
			return false
		}
	case fieldInt:
		n, err := strconv.ParseInt(string(tok), 10, 64)
		if err != nil || fv.OverflowInt(n) {
			return false
		}
		fv.SetInt(n)
	case fieldUint:
		n, err := strconv.ParseUint(string(tok), 10, 64)
		if err != nil || fv.OverflowUint(n) {
			return false
		}
		fv.SetUint(n)
	case fieldFloat:
		if c := tok[0]; c != '-' && (c < '0' || c > '9') {
			return false
		}
		n, err := strconv.ParseFloat(string(tok), fv.Type().Bits())
		if err != nil || fv.OverflowFloat(n) {
			return false
		}
		fv.SetFloat(n)
	}
	return true
}

func skipWS(raw []byte, i int) int {
	for i < len(raw) {
		switch raw[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipValue returns the offset just past the well-formed value at i.
func skipValue(raw []byte, i int) int {
	if i >= len(raw) {
		return i
	}
	switch raw[i] {
	case '"':
		return skipString(raw, i)
	case '{', '[':
		depth := 0
		for i < len(raw) {
			switch raw[i] {
			case '"':
				i = skipString(raw, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(raw) {
		switch raw[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// skipString returns the offset just past the string starting at i.
func skipString(raw []byte, i int) int {
	for i++; i < len(raw); i++ {
		switch raw[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}
