package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// This file derives the JSON Schema a Go type advertises. It does what
// jsonschema-go's ForType does for the schemas this package needs, and
// writes the same bytes json.Marshal writes for ForType's result (a test
// holds the two to that, see derive_test.go).
//
// Why not call jsonschema-go, as this package once did? Because importing
// it links its whole package into every binary that uses agent: its
// package initialisation compiles regular expressions and builds tables
// that bring regexp, math/big and net/url with them. For a browser build
// (examples/todo-web) that was about a third of the download. Deriving a
// schema from a struct is a small, closed job (a dozen kinds, json tags,
// jsonschema tags for descriptions), so it is done here by hand; schemas
// a type supplies itself (WireSchema) are taken as JSON, verbatim.

// derived is a JSON Schema as derivation builds it: the handful of
// keywords a Go type gives rise to, or, for a type that supplies its own
// schema, that schema's JSON.
type derived struct {
	typ      string   // "type" as one name
	types    []string // "type" as a list, when typ is ""
	props    map[string]*derived
	order    []string // the properties' order; every key of props is in it
	items    *derived
	desc     string
	min, max *float64
	minItems *int
	maxItems *int
	// minLength and maxLength come only from a bounds tag (bounds.go).
	minLength, maxLength *int
	required             []string
	closed               bool     // additionalProperties: false
	addl                 *derived // additionalProperties as a schema (maps)

	// supplied, when set, is the schema as a type supplied it (an object's
	// members in order); the fields above are then unused, except that
	// nullable adds "null" to its type the way a pointer does.
	supplied []member
	nullable bool

	// verbatim, when set, is written as it is: a property schema an
	// embedded type's own schema lends.
	verbatim json.RawMessage
}

// member is one name and value of a JSON object, in the object's order.
type member struct {
	name  string
	value json.RawMessage
}

// objectMembers splits a JSON object into its members in order. raw
// must be well-formed JSON.
func objectMembers(raw []byte) ([]member, error) {
	p := payloadWalker{data: raw}
	p.skipSpace()
	if p.i >= len(raw) || raw[p.i] != '{' {
		return nil, errors.New("it is not a JSON object")
	}
	p.i++
	var out []member
	for {
		p.skipSpace()
		if p.i < len(raw) && raw[p.i] == '}' {
			return out, nil
		}
		if p.i < len(raw) && raw[p.i] == ',' {
			p.i++
			p.skipSpace()
		}
		start := p.i
		if _, err := p.str(); err != nil {
			return nil, err
		}
		name, err := unquote(raw[start:p.i])
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		p.i++ // :
		p.skipSpace()
		vstart := p.i
		if err := p.value(anyNode); err != nil {
			return nil, err
		}
		out = append(out, member{name: name, value: raw[vstart:p.i]})
	}
}

// suppliedSchema reads the schema a WireSchema type returned: a JSON
// object (or true, or false), compacted.
func suppliedSchema(t reflect.Type, raw json.RawMessage) (*derived, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("%s.WireSchema does not return JSON: %w", t, err)
	}
	switch c := buf.Bytes(); string(c) {
	case "true":
		return &derived{supplied: []member{}}, nil
	case "false":
		return &derived{supplied: []member{{name: "not", value: json.RawMessage("true")}}}, nil
	default:
		ms, err := objectMembers(c)
		if err != nil {
			return nil, fmt.Errorf("%s.WireSchema does not return a JSON Schema object: %w", t, err)
		}
		if ms == nil {
			ms = []member{}
		}
		return &derived{supplied: ms}, nil
	}
}

// stringSchemaTypes are the standard-library types jsonschema-go
// advertises as strings whatever their Go form (it encodes time.Time as
// RFC 3339 text, and so on). They are named by package path and name so
// that naming them links none of those packages.
var stringSchemaTypes = map[[2]string]bool{
	{"time", "Time"}:      true,
	{"log/slog", "Level"}: true,
	{"math/big", "Int"}:   true,
	{"math/big", "Rat"}:   true,
	{"math/big", "Float"}: true,
}

// deriver derives the schema of one type.
type deriver struct {
	// nullableMaps advertises every map without a schema of its own as
	// object or null, as encoding/json encodes a nil map (projections).
	nullableMaps bool
	seen         map[reflect.Type]bool
	supplied     map[reflect.Type]*derived
}

// deriveSchema derives the JSON Schema of t: json tags are honoured,
// fields without omitempty or omitzero are required, every struct is
// closed with additionalProperties: false, a jsonschema tag is the
// field's description, a bounds tag its lengths, ranges and item counts
// (bounds.go), and a type implementing WireSchema contributes its own
// schema.
func deriveSchema(t reflect.Type, nullableMaps bool) (json.RawMessage, error) {
	d := &deriver{nullableMaps: nullableMaps, seen: map[reflect.Type]bool{}, supplied: map[reflect.Type]*derived{}}
	s, err := d.derive(t)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	s.write(&buf)
	return buf.Bytes(), nil
}

// override returns the schema t supplies itself, or nil.
func (d *deriver) override(t reflect.Type) (*derived, error) {
	if t.Kind() == reflect.Pointer {
		return nil, nil
	}
	if s, ok := d.supplied[t]; ok {
		return s, nil
	}
	var s *derived
	switch {
	case t.Implements(wireSchemaType):
		var err error
		if s, err = suppliedSchema(t, reflect.Zero(t).Interface().(wireSchema).WireSchema()); err != nil {
			return nil, err
		}
	case stringSchemaTypes[[2]string{t.PkgPath(), t.Name()}]:
		s = &derived{typ: "string"}
	}
	d.supplied[t] = s
	return s, nil
}

func (d *deriver) derive(t reflect.Type) (*derived, error) {
	allowNull := false
	for t.Kind() == reflect.Pointer {
		allowNull = true
		t = t.Elem()
	}
	if t.Name() != "" {
		if d.seen[t] {
			return nil, fmt.Errorf("cycle detected for type %v", t)
		}
		d.seen[t] = true
		defer delete(d.seen, t)
	}
	o, err := d.override(t)
	if err != nil {
		return nil, err
	}
	if o != nil {
		c := *o
		if allowNull {
			c.nullable = true
			if c.supplied == nil {
				c.typ, c.types = "", []string{"null", c.typ}
			}
		}
		return &c, nil
	}

	s := new(derived)
	switch t.Kind() {
	case reflect.Bool:
		s.typ = "boolean"
	case reflect.Int, reflect.Int64:
		s.typ = "integer"
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		s.typ, s.min = "integer", ptr(0.0)
	case reflect.Int8:
		s.typ, s.min, s.max = "integer", ptr(float64(math.MinInt8)), ptr(float64(math.MaxInt8))
	case reflect.Uint8:
		s.typ, s.min, s.max = "integer", ptr(0.0), ptr(float64(math.MaxUint8))
	case reflect.Int16:
		s.typ, s.min, s.max = "integer", ptr(float64(math.MinInt16)), ptr(float64(math.MaxInt16))
	case reflect.Uint16:
		s.typ, s.min, s.max = "integer", ptr(0.0), ptr(float64(math.MaxUint16))
	case reflect.Int32:
		s.typ, s.min, s.max = "integer", ptr(float64(math.MinInt32)), ptr(float64(math.MaxInt32))
	case reflect.Uint32:
		s.typ, s.min, s.max = "integer", ptr(0.0), ptr(float64(math.MaxUint32))
	case reflect.Float32, reflect.Float64:
		s.typ = "number"
	case reflect.Interface:
		// Any value.
	case reflect.Map:
		if t.Key().Kind() != reflect.String && !t.Key().Implements(textMarshalerType) {
			return nil, fmt.Errorf("unsupported map key type %v", t.Key().Kind())
		}
		s.typ = "object"
		if s.addl, err = d.derive(t.Elem()); err != nil {
			return nil, fmt.Errorf("computing map value schema: %v", err)
		}
		if d.nullableMaps {
			s.typ, s.types = "", []string{"null", "object"}
		}
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice {
			s.types = []string{"null", "array"}
		} else {
			s.typ = "array"
			s.minItems, s.maxItems = ptr(t.Len()), ptr(t.Len())
		}
		if s.items, err = d.derive(t.Elem()); err != nil {
			return nil, fmt.Errorf("computing element schema: %v", err)
		}
	case reflect.String:
		s.typ = "string"
	case reflect.Struct:
		if err := d.deriveStruct(t, s); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("type %v is unsupported by jsonschema", t)
	}
	if allowNull && s.typ != "" {
		s.typ, s.types = "", []string{"null", s.typ}
	}
	return s, nil
}

func (d *deriver) deriveStruct(t reflect.Type, s *derived) error {
	s.typ, s.closed = "object", true
	var skipPath []int
	for _, field := range reflect.VisibleFields(t) {
		if s.props == nil {
			s.props = map[string]*derived{}
		}
		if field.Anonymous {
			// An embedded type with a schema of its own lends its
			// properties; any other embedded struct's fields are visited
			// as promoted fields.
			o, err := d.override(field.Type)
			if err != nil {
				return err
			}
			if o != nil {
				props, err := embeddedProperties(field.Type, o)
				if err != nil {
					return err
				}
				skipPath = field.Index
				for _, p := range props {
					if _, ok := s.props[p.name]; !ok {
						s.props[p.name] = &derived{verbatim: p.value}
						s.order = append(s.order, p.name)
					}
				}
			}
			continue
		}
		if skipPath != nil {
			if len(field.Index) >= len(skipPath) && slices.Equal(field.Index[:len(skipPath)], skipPath) {
				continue
			}
			skipPath = nil
		}
		if !field.IsExported() {
			continue
		}
		name, settings := field.Name, ""
		if tag, ok := field.Tag.Lookup("json"); ok {
			n, rest, found := strings.Cut(tag, ",")
			if n == "-" && !found {
				continue
			}
			if n != "" {
				name = n
			}
			settings = rest
		}
		fs, err := d.derive(field.Type)
		if err != nil {
			return err
		}
		if tag, ok := field.Tag.Lookup("jsonschema"); ok {
			if tag == "" {
				return fmt.Errorf("empty jsonschema tag on struct field %s.%s", t, field.Name)
			}
			if i := strings.IndexAny(tag, " \t\n="); i >= 0 && tag[i] == '=' {
				return fmt.Errorf("tag must not begin with 'WORD=': %q", tag)
			}
			if fs.supplied != nil {
				c := *fs
				c.supplied = withDescription(c.supplied, tag)
				fs = &c
			} else {
				fs.desc = tag
			}
		}
		if tag, ok := field.Tag.Lookup("bounds"); ok {
			if err := applyBounds(fs, field.Type, tag); err != nil {
				return fmt.Errorf("bounds tag on struct field %s.%s: %w", t, field.Name, err)
			}
		}
		s.props[name] = fs
		s.order = append(s.order, name)
		if !hasOption(settings, "omitempty") && !hasOption(settings, "omitzero") {
			s.required = append(s.required, name)
		}
	}
	if len(s.order) > 1 {
		// A name given twice keeps its last place.
		seen := map[string]bool{}
		cleaned := make([]string, 0, len(s.order))
		for i := len(s.order) - 1; i >= 0; i-- {
			if name := s.order[i]; !seen[name] {
				cleaned = append(cleaned, name)
				seen[name] = true
			}
		}
		slices.Reverse(cleaned)
		s.order = cleaned
	}
	return nil
}

// embeddedProperties reads the properties an embedded type's own schema
// lends, sorted by name; that schema may hold only "type": "object" and
// "properties".
func embeddedProperties(t reflect.Type, o *derived) ([]member, error) {
	var typ string
	var props []member
	for _, m := range o.supplied {
		switch m.name {
		case "type":
			_ = json.Unmarshal(m.value, &typ)
		case "properties":
			var err error
			if props, err = objectMembers(m.value); err != nil {
				return nil, fmt.Errorf("the schema of embedded %s: %w", t, err)
			}
		default:
			return nil, fmt.Errorf(`overrides for embedded fields can have only "Type" and "Properties"; this has %q`, m.name)
		}
	}
	if o.supplied == nil {
		typ = o.typ
	}
	if typ != "object" {
		return nil, fmt.Errorf(`custom schema for embedded struct must have type "object", got %q`, typ)
	}
	// Sorted by name through a sort of strings, which the binary has
	// anyway, rather than a sort of members, which it would add.
	byName := make(map[string]json.RawMessage, len(props))
	names := make([]string, 0, len(props))
	for _, p := range props {
		if _, dup := byName[p.name]; !dup {
			names = append(names, p.name)
		}
		byName[p.name] = p.value
	}
	slices.Sort(names)
	sorted := make([]member, len(names))
	for i, name := range names {
		sorted[i] = member{name: name, value: byName[name]}
	}
	return sorted, nil
}

// beforeDescription are the keywords jsonschema-go writes before
// "description".
var beforeDescription = []string{"type", "properties", "dependencies", "items", "$id", "$schema", "$ref",
	"$comment", "$defs", "definitions", "$anchor", "$dynamicAnchor", "$dynamicRef", "$vocabulary", "title"}

// withDescription returns a copy of a supplied schema's members with its
// description set to desc: in place if it has one, else where
// jsonschema-go would write it.
func withDescription(ms []member, desc string) []member {
	value := mustMarshal(desc)
	out := slices.Clone(ms)
	if i := slices.IndexFunc(out, func(m member) bool { return m.name == "description" }); i >= 0 {
		out[i].value = value
		return out
	}
	i := 0
	for i < len(out) && slices.Contains(beforeDescription, out[i].name) {
		i++
	}
	out = append(out, member{})
	copy(out[i+1:], out[i:])
	out[i] = member{name: "description", value: value}
	return out
}

func ptr[T any](v T) *T { return &v }

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // strings, string lists and float64s from reflection always encode
	}
	return b
}

// write writes s as JSON, its keywords in the order jsonschema-go's
// Schema.MarshalJSON writes them. An empty schema is written true.
func (s *derived) write(buf *bytes.Buffer) {
	if s.verbatim != nil {
		buf.Write(s.verbatim)
		return
	}
	if s.supplied != nil {
		s.writeSupplied(buf)
		return
	}
	start := buf.Len()
	buf.WriteByte('{')
	sep := func(name string) {
		if buf.Len() > start+1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('"')
		buf.WriteString(name)
		buf.WriteString(`":`)
	}
	switch {
	case s.typ != "":
		sep("type")
		buf.Write(mustMarshal(s.typ))
	case s.types != nil:
		sep("type")
		buf.Write(mustMarshal(s.types))
	}
	if s.props != nil {
		sep("properties")
		buf.WriteByte('{')
		for i, name := range s.order {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(mustMarshal(name))
			buf.WriteByte(':')
			s.props[name].write(buf)
		}
		buf.WriteByte('}')
	}
	if s.items != nil {
		sep("items")
		s.items.write(buf)
	}
	if s.desc != "" {
		sep("description")
		buf.Write(mustMarshal(s.desc))
	}
	for _, kw := range []struct {
		name string
		f    *float64
	}{{"minimum", s.min}, {"maximum", s.max}} {
		if kw.f != nil {
			sep(kw.name)
			buf.Write(mustMarshal(*kw.f))
		}
	}
	for _, kw := range []struct {
		name string
		n    *int
	}{{"minLength", s.minLength}, {"maxLength", s.maxLength}, {"minItems", s.minItems}, {"maxItems", s.maxItems}} {
		if kw.n != nil {
			sep(kw.name)
			buf.WriteString(strconv.Itoa(*kw.n))
		}
	}
	if len(s.required) > 0 {
		sep("required")
		buf.Write(mustMarshal(s.required))
	}
	switch {
	case s.closed:
		sep("additionalProperties")
		buf.WriteString("false")
	case s.addl != nil:
		sep("additionalProperties")
		s.addl.write(buf)
	}
	if buf.Len() == start+1 {
		buf.Truncate(start)
		buf.WriteString("true")
		return
	}
	buf.WriteByte('}')
}

// writeSupplied writes a schema a type supplied, as written but for its
// type list, which gains "null" when the type is reached through a
// pointer (and then comes first, where jsonschema-go writes it).
func (s *derived) writeSupplied(buf *bytes.Buffer) {
	ms := s.supplied
	if s.nullable {
		var types []string
		var one string
		var rest []member
		for _, m := range ms {
			if m.name != "type" {
				rest = append(rest, m)
			} else if json.Unmarshal(m.value, &one) != nil {
				one = ""
				_ = json.Unmarshal(m.value, &types)
			}
		}
		switch {
		case one != "":
			types = []string{"null", one}
		case !slices.Contains(types, "null"):
			types = append([]string{"null"}, types...)
		}
		ms = append([]member{{name: "type", value: mustMarshal(types)}}, rest...)
	}
	if len(ms) == 0 {
		buf.WriteString("true")
		return
	}
	buf.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(mustMarshal(m.name))
		buf.WriteByte(':')
		buf.Write(m.value)
	}
	buf.WriteByte('}')
}
