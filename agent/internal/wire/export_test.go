package wire

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// DeriveSchema and ReferenceSchema are for the external test
// (derive_ext_test.go), which derives the schemas of the examples' types.
var DeriveSchema = deriveSchema

// ReferenceSchema derives t's schema the way this package did before it
// derived schemas itself: with jsonschema-go's ForType, each WireSchema
// type's schema (and, for projections, each map's, made nullable) passed
// as a type schema, and the result encoded with json.Marshal.
func ReferenceSchema(t reflect.Type, nullableMaps bool) (json.RawMessage, error) {
	overrides := map[reflect.Type]*jsonschema.Schema{}
	if err := referenceWireSchemas(t, overrides, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	if nullableMaps {
		if err := referenceNullableMaps(t, overrides, map[reflect.Type]bool{}); err != nil {
			return nil, err
		}
	}
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: overrides})
	if err != nil {
		return nil, err
	}
	referenceBounds(s, t)
	return json.Marshal(s)
}

// referenceBounds sets, on jsonschema-go's schema s of t, the keywords the
// bounds tags of t's fields declare (jsonschema-go reads no such tag), at
// any depth of structs, so that the reference says what the derivation
// should.
func referenceBounds(s *jsonschema.Schema, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s == nil || t.Kind() != reflect.Struct {
		return
	}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name := f.Name
		if n, _, _ := strings.Cut(f.Tag.Get("json"), ","); n != "" {
			name = n
		}
		p := s.Properties[name]
		if p == nil {
			continue
		}
		referenceBounds(p, f.Type)
		tag, ok := f.Tag.Lookup("bounds")
		if !ok {
			continue
		}
		for _, part := range strings.Split(tag, ",") {
			k, v, _ := strings.Cut(part, "=")
			n, _ := strconv.Atoi(v)
			x, _ := strconv.ParseFloat(v, 64)
			switch k {
			case "minLength":
				p.MinLength = &n
			case "maxLength":
				p.MaxLength = &n
			case "minItems":
				p.MinItems = &n
			case "maxItems":
				p.MaxItems = &n
			case "minimum":
				p.Minimum = &x
			case "maximum":
				p.Maximum = &x
			}
		}
	}
}

func referenceWireSchemas(t reflect.Type, out map[reflect.Type]*jsonschema.Schema, seen map[reflect.Type]bool) error {
	if seen[t] {
		return nil
	}
	seen[t] = true
	if t.Kind() == reflect.Pointer {
		return referenceWireSchemas(t.Elem(), out, seen)
	}
	if t.Implements(wireSchemaType) {
		s := new(jsonschema.Schema)
		if err := json.Unmarshal(reflect.Zero(t).Interface().(wireSchema).WireSchema(), s); err != nil {
			return err
		}
		out[t] = s
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return referenceWireSchemas(t.Elem(), out, seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() || f.Anonymous {
				if err := referenceWireSchemas(f.Type, out, seen); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func referenceNullableMaps(t reflect.Type, overrides map[reflect.Type]*jsonschema.Schema, seen map[reflect.Type]bool) error {
	if seen[t] || overrides[t] != nil {
		return nil
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return referenceNullableMaps(t.Elem(), overrides, seen)
	case reflect.Map:
		if err := referenceNullableMaps(t.Elem(), overrides, seen); err != nil {
			return err
		}
		s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: overrides})
		if err != nil {
			return err
		}
		if s.Type == "object" {
			s.Type, s.Types = "", []string{"null", "object"}
		}
		overrides[t] = s
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			// A field JSON leaves out (json:"-") is not derived at all.
			if f.IsExported() && !f.Anonymous && f.Tag.Get("json") != "-" {
				if err := referenceNullableMaps(f.Type, overrides, seen); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
