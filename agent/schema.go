package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// WireSchema is implemented by a type whose wire (JSON) form differs from
// its Go form, the way a quantity can travel as the string "42" and reach
// update as the number 42. The type supplies the JSON Schema of its wire
// form, and its json.Unmarshaler and json.Marshaler convert between the two.
//
// The schema a capability advertises is always the wire side, because that
// is what a caller sends and what dispatch decodes. WireSchema is consulted
// wherever the type appears in an input, context or resource type, and is
// called on the zero value, so it must not depend on the receiver's value.
type WireSchema interface {
	WireSchema() *jsonschema.Schema
}

var wireSchemaType = reflect.TypeFor[WireSchema]()

// emptyObjectSchema is what a capability with no payload advertises: an
// object with no properties and nothing else.
const emptyObjectSchema = `{"type":"object","properties":{},"required":[],"additionalProperties":false}`

// schemaFor derives the JSON Schema of t with jsonschema-go: json tags are
// honoured, fields without omitempty or omitzero are required, and every
// struct is closed with additionalProperties: false. Types implementing
// WireSchema contribute their own schema.
func schemaFor(t reflect.Type) (*jsonschema.Schema, error) {
	overrides := map[reflect.Type]*jsonschema.Schema{}
	collectWireSchemas(t, overrides, map[reflect.Type]bool{})
	return jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: overrides})
}

func collectWireSchemas(t reflect.Type, out map[reflect.Type]*jsonschema.Schema, seen map[reflect.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	if t.Implements(wireSchemaType) {
		out[t] = reflect.Zero(t).Interface().(WireSchema).WireSchema()
		return
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		collectWireSchemas(t.Elem(), out, seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				collectWireSchemas(f.Type, out, seen)
			}
		}
	}
}

// inputCodec decodes a capability's wire payload into its Go input type,
// after checking it against the schema the capability advertises.
type inputCodec struct {
	typ        reflect.Type
	schemaJSON json.RawMessage
	resolved   *jsonschema.Resolved
}

func newInputCodec(t reflect.Type) (*inputCodec, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("its input type %s is not a struct; a capability's input is an object of fields", t)
	}
	var (
		schema *jsonschema.Schema
		raw    []byte
		err    error
	)
	if exportedFieldCount(t) == 0 {
		raw = []byte(emptyObjectSchema)
		schema = new(jsonschema.Schema)
		if err = json.Unmarshal(raw, schema); err != nil {
			return nil, err
		}
	} else {
		if schema, err = schemaFor(t); err != nil {
			return nil, fmt.Errorf("cannot derive the JSON Schema of %s: %w", t, err)
		}
		if raw, err = json.Marshal(schema); err != nil {
			return nil, fmt.Errorf("cannot encode the JSON Schema of %s: %w", t, err)
		}
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("the JSON Schema of %s does not resolve: %w", t, err)
	}
	return &inputCodec{typ: t, schemaJSON: raw, resolved: resolved}, nil
}

func exportedFieldCount(t reflect.Type) int {
	n := 0
	for i := range t.NumField() {
		if t.Field(i).IsExported() {
			n++
		}
	}
	return n
}

var errNotObject = errors.New("the payload is not a JSON object")

// validate checks raw against the advertised schema. It rejects anything
// but an object (null, arrays, strings, numbers), undeclared fields at any
// depth, missing required fields and wrong types.
func (c *inputCodec) validate(raw []byte) error {
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errNotObject
	}
	var instance any
	if err := json.Unmarshal(raw, &instance); err != nil {
		return fmt.Errorf("the payload is not valid JSON: %w", err)
	}
	if err := c.resolved.Validate(instance); err != nil {
		return err
	}
	return nil
}

// decodeInput validates raw and decodes it into an In.
func decodeInput[In any](c *inputCodec, raw []byte) (In, error) {
	var in In
	if err := c.validate(raw); err != nil {
		return in, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return in, fmt.Errorf("the payload does not decode into %s: %w", c.typ, err)
	}
	return in, nil
}

// projectionSchema derives the schema advertised for a context or resource
// value of type t.
func projectionSchema(t reflect.Type) (json.RawMessage, error) {
	s, err := schemaFor(t)
	if err != nil {
		return nil, err
	}
	return json.Marshal(s)
}
