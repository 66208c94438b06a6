package agent

import "encoding/json"

// WireSchema is implemented by a type whose wire (JSON) form differs from
// its Go form, the way a quantity can travel as the string "42" and reach
// update as the number 42. The type supplies the JSON Schema of its wire
// form, as JSON, and its json.Unmarshaler and json.Marshaler convert
// between the two:
//
//	func (Quantity) WireSchema() json.RawMessage {
//		return json.RawMessage(`{"type":"string","pattern":"^[0-9]+$"}`)
//	}
//
// The schema a capability advertises is always the wire side, because that
// is what a caller sends and what dispatch decodes. WireSchema is consulted
// wherever the type appears in an input, context or resource type, and is
// called on the zero value, so it must not depend on the receiver's value.
// Its schema is advertised as written (compacted; reached through a
// pointer, its "type" also admits null). Returning anything but a JSON
// object, true or false is a declaration mistake, reported when the
// capability is declared.
//
// The schema is JSON rather than a schema library's type so that the
// agent package, and every binary built with it (a browser's among them),
// links no schema library.
type WireSchema interface {
	WireSchema() json.RawMessage
}
