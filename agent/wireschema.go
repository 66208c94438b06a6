package agent

import "github.com/google/jsonschema-go/jsonschema"

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
