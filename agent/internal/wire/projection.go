package wire

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"
)

// Projected is the wire side of a context or resource: the JSON Schema
// advertised for a projected Go type, and the check that a served value
// meets it.
//
// The schema is derived the way an input's is (deriveSchema, json tags
// honoured, WireSchema types contributing their own), with one difference
// that makes it tell the truth about what encoding/json serves: a map,
// which encodes a nil map as null, is advertised as nullable.
//
// Two layers keep what an agent is shown equal to what it is told. At
// declaration, NewProjected refuses a type whose derived schema and
// encoding/json disagree (see checkProjectionAgreement), unless the
// disagreeing type declares its wire form with WireSchema. At serving,
// Check holds the encoded value to the schema with the same compiled
// validator inputs use, which catches a WireSchema type whose MarshalJSON
// does not produce what its schema declares.
type Projected struct {
	schema    json.RawMessage
	validator *validator
	// checked is true when served values are checked: when the type holds
	// a WireSchema type, whose encoding only a served value can show.
	// Every other type was shown at declaration to encode as advertised.
	checked bool
}

// NewProjected derives and compiles the schema for projected values of
// type t. label names the projection in errors ("context", a resource's
// name); the error names the field path of the culprit.
func NewProjected(t reflect.Type, label string) (*Projected, error) {
	raw, checked, err := projectedSchema(t, label)
	if err != nil {
		return nil, err
	}
	v, err := compileValidator(raw)
	if err != nil {
		return nil, fmt.Errorf("cannot compile its JSON Schema: %w", err)
	}
	p := &Projected{schema: raw, validator: v, checked: checked}
	if err := confirmSamples(t, p); err != nil {
		return nil, err
	}
	return p, nil
}

// deriveProjected derives the schema of the projected type t after
// checking that its wire form agrees with what the schema will say, and
// reports whether served values must be checked (the type holds a
// WireSchema type).
func deriveProjected(t reflect.Type, label string) (json.RawMessage, bool, error) {
	w := agreementWalk{seen: map[reflect.Type]bool{}}
	if err := w.check(t, label); err != nil {
		return nil, false, err
	}
	raw, err := deriveSchema(t, true)
	if err != nil {
		return nil, false, err
	}
	return raw, w.selfDescribed, nil
}

// deriveSamples confirms, for a type whose served values are not
// checked, that two sample values, the zero one and one with every
// field, pointer, slice and map filled, encode as p's schema says: the
// agreement rules mirror encoding/json, and the samples show it for this
// type, so that serving need not.
func deriveSamples(t reflect.Type, p *Projected) error {
	if p.checked {
		return nil
	}
	for _, sample := range []reflect.Value{reflect.New(t).Elem(), filled(t, 0)} {
		b, err := json.Marshal(sample.Interface())
		if err != nil {
			continue // such a value is a defect when served, not a disagreement
		}
		if err := p.validator.validateValue(b); err != nil {
			return fmt.Errorf("its JSON does not match the schema derived from it (%v); give the disagreeing type a WireSchema, or change its fields", err)
		}
	}
	return nil
}

// Checked reports whether Check validates served values. It is false for
// a type shown at declaration to encode as its schema says.
func (p *Projected) Checked() bool { return p.checked }

// Schema returns the advertised JSON Schema.
func (p *Projected) Schema() json.RawMessage { return p.schema }

// Check reports whether raw, an encoded projected value, meets the
// advertised schema. Any JSON value may stand at the top (a context can be
// an array or a number). The error is a *Mismatch, or a syntax error, for
// the application's logs; it names a member path but restates no value.
//
// For a type without WireSchema parts, Check returns nil at once: the
// type was shown at declaration to encode as advertised (see Checked).
func (p *Projected) Check(raw []byte) error {
	if !p.checked {
		return nil
	}
	return p.validator.validateValue(raw)
}

// Validate checks raw against the schema whatever the type, for tests and
// for callers that want the check on a type proven safe.
func (p *Projected) Validate(raw []byte) error {
	return p.validator.validateValue(raw)
}

// validateValue is validate without the top-level object requirement.
func (v *validator) validateValue(raw []byte) error {
	if v.whole != nil {
		var instance any
		if err := json.Unmarshal(raw, &instance); err != nil {
			return fmt.Errorf("the value is not valid JSON: %w", err)
		}
		if err := v.whole(instance); err != nil {
			return &Mismatch{code: CodeInvalid, reason: err.Error()}
		}
		return nil
	}
	p := payloadWalker{data: raw}
	p.skipSpace()
	if err := p.value(v.root); err != nil {
		return err
	}
	p.skipSpace()
	if p.i != len(raw) {
		return p.syntaxError("after the top-level value")
	}
	return nil
}

// verifiedEncodings are the standard-library types with their own
// encoding whose schema jsonschema-go supplies and whose encoding matches
// it: each encodes as a JSON string and is advertised as one. (jsonschema-go
// also advertises big.Int, big.Rat and big.Float as strings, but a *big.Int
// encodes as a JSON number and the values, held by value, encode as {}:
// those are refused like any other self-encoding type.)
var verifiedEncodings = map[reflect.Type]bool{
	reflect.TypeOf((*time.Time)(nil)).Elem(): true,
}

// verified reports whether t is one of verifiedEncodings, or slog.Level,
// which is named rather than referred to so that naming it does not link
// log/slog.
func verified(t reflect.Type) bool {
	return verifiedEncodings[t] || t.PkgPath() == "log/slog" && t.Name() == "Level"
}

var (
	jsonMarshalerType = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textMarshalerType = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
	jsonNumberType    = reflect.TypeOf((*json.Number)(nil)).Elem()
)

// agreementWalk finds, in a projected type, the places where the schema
// jsonschema-go derives and the JSON encoding/json writes disagree.
type agreementWalk struct {
	seen map[reflect.Type]bool
	// selfDescribed is set when the type holds a WireSchema type.
	selfDescribed bool
}

// check refuses, naming the field path:
//   - a type that encodes itself (json.Marshaler or encoding.TextMarshaler,
//     on the value or the pointer) without declaring its wire form with
//     WireSchema: its schema would describe its Go fields, not its JSON;
//   - json.Number, advertised as a string and encoded as a number;
//   - a byte slice, advertised as an array of integers and encoded as
//     base64 text, and a field tagged `json:",string"`, encoded as a quoted
//     string but advertised as its Go kind (the rule inputs follow);
//   - an embedded field that encoding/json and jsonschema-go read
//     differently: one with a json tag (encoding/json then serves it as
//     one member, or not at all, while the schema lists its fields), one
//     of a non-struct type (served as a member the schema leaves out), and
//     a pointer to a struct (when nil, its fields, which the schema may
//     require, are not served).
//
// A type implementing WireSchema is trusted here; its honesty is checked
// on every served value instead.
func (w *agreementWalk) check(t reflect.Type, path string) error {
	if w.seen[t] {
		return nil
	}
	w.seen[t] = true
	if t.Implements(wireSchemaType) {
		w.selfDescribed = true
		return nil
	}
	if verified(t) {
		return nil
	}
	if t == jsonNumberType {
		return fmt.Errorf("%s is a json.Number: JSON carries it as a number but its schema would advertise a string; use a numeric type, or a type that implements WireSchema", path)
	}
	if t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer {
		for _, m := range []reflect.Type{jsonMarshalerType, textMarshalerType} {
			if t.Implements(m) || reflect.PointerTo(t).Implements(m) {
				method := "MarshalJSON"
				if m == textMarshalerType {
					method = "MarshalText"
				}
				return fmt.Errorf("%s (%s) encodes itself with %s, but its schema would be derived from its Go fields; implement WireSchema on %s to declare the JSON it encodes to", path, t, method, t)
			}
		}
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Array, reflect.Map:
		// A map's keys are JSON member names whatever their Go type.
		return w.check(t.Elem(), path)
	case reflect.Slice:
		// encoding/json writes any slice of a uint8 kind as base64 text.
		if t.Elem().Kind() == reflect.Uint8 {
			return fmt.Errorf("%s is a byte slice: JSON carries it as base64 text but its schema would advertise an array of integers; use a string, or a type that implements WireSchema", path)
		}
		return w.check(t.Elem(), path)
	case reflect.Struct:
		names := map[string]string{}
		for _, f := range reflect.VisibleFields(t) {
			name := path + "." + f.Name
			tag, tagged := f.Tag.Lookup("json")
			if f.Anonymous {
				if err := checkEmbedded(f, tag, tagged, name); err != nil {
					return err
				}
				continue // its fields are visited as promoted fields
			}
			if !f.IsExported() || tag == "-" {
				continue
			}
			if hasOption(tagOptions(tag), "string") {
				return fmt.Errorf("%s is tagged json:\",string\": JSON carries it as a quoted string but its schema would advertise its Go kind; use a type that implements WireSchema instead", name)
			}
			member := f.Name
			if n, _, _ := strings.Cut(tag, ","); n != "" {
				if !validTagName(n) {
					return fmt.Errorf("%s has the json name %q, which encoding/json ignores (serving the field as %q) but its schema would advertise; use letters, digits and punctuation other than quotes, backslashes and commas", name, n, f.Name)
				}
				member = n
			}
			if other, dup := names[member]; dup {
				return fmt.Errorf("%s and %s.%s share the json name %q: JSON carries at most one of them but its schema would advertise one member for both; rename one", name, path, other, member)
			}
			names[member] = f.Name
			if err := w.check(f.Type, name); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkEmbedded(f reflect.StructField, tag string, tagged bool, name string) error {
	t := f.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		if f.IsExported() {
			return fmt.Errorf("%s embeds %s, which is not a struct: JSON carries it as a member named after the type, but its schema leaves it out; give it a named field", name, f.Type)
		}
		return nil // encoding/json ignores it, and so does the schema
	}
	if tagName, _, _ := strings.Cut(tag, ","); tagged && tagName != "" {
		return fmt.Errorf("%s embeds %s with a json tag: JSON carries it as a single member (or omits it), but its schema lists its fields in place; use a named field, or drop the tag", name, f.Type)
	}
	if f.Type.Kind() == reflect.Pointer {
		return fmt.Errorf("%s embeds a pointer to %s: when it is nil JSON leaves out its fields, which its schema lists; embed the struct by value, or use a named field", name, t)
	}
	return nil
}

// validTagName reports whether encoding/json accepts name as a member
// name from a json tag (its isValidTag); otherwise it uses the field's Go
// name while jsonschema-go uses the tag.
func validTagName(name string) bool {
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// maxFillDepth bounds how deep filled goes into nested pointers, slices
// and maps, which is enough to reach every struct of a realistic
// projection while keeping the sample small.
const maxFillDepth = 8

// filled returns a value of t with every field set and every pointer,
// slice and map holding one element, so that its encoding shows every
// member and element schema at least once. A type with its own encoding
// (time.Time, slog.Level) keeps its zero value; interfaces stay nil.
func filled(t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	if depth > maxFillDepth || verified(t) {
		return v
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.String:
		v.SetString("x")
	case reflect.Pointer:
		v.Set(filled(t.Elem(), depth+1).Addr())
	case reflect.Slice:
		v.Set(reflect.Append(v, filled(t.Elem(), depth+1)))
	case reflect.Array:
		for i := range t.Len() {
			v.Index(i).Set(filled(t.Elem(), depth+1))
		}
	case reflect.Map:
		key := reflect.New(t.Key()).Elem()
		if t.Key().Kind() == reflect.String {
			key.SetString("k")
		}
		m := reflect.MakeMapWithSize(t, 1)
		m.SetMapIndex(key, filled(t.Elem(), depth+1))
		v.Set(m)
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			if f.IsExported() && !f.Anonymous {
				if fv, err := v.FieldByIndexErr(f.Index); err == nil && fv.CanSet() {
					fv.Set(filled(f.Type, depth+1))
				}
			}
		}
	}
	return v
}
