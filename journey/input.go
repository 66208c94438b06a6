package journey

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

type inputKind int

const (
	inputInvalid inputKind = iota
	inputNone
	inputSchema
)

// Input is an action's input contract: what a caller must send. Build one
// with NoInput, InputSchema, InputSchemaJSON or InputFor. The wire-shaped
// form ("expects") is rendered once, when the contract is built, and the
// same bytes are served on every surface that describes the action, so
// one action can never advertise two shapes.
type Input struct {
	kind     inputKind
	resolved *jsonschema.Resolved
	object   bool
	expects  json.RawMessage
	err      error
}

var noneExpects = json.RawMessage(`"none"`)

// NoInput declares that the action takes no input. A blank input (nil or
// an empty object) is erased before the handler runs; anything else is
// refused PAYLOAD_INVALID.
func NoInput() *Input { return &Input{kind: inputNone, expects: noneExpects} }

// InputSchema declares the input as a JSON Schema. The schema is copied
// (its PropertyOrder, as set by jsonschema.For, orders the rendered
// properties); a schema that does not resolve fails the graph at
// construction.
func InputSchema(s *jsonschema.Schema) *Input {
	if s == nil {
		return &Input{kind: inputInvalid, err: errors.New("nil schema")}
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return &Input{kind: inputSchema, err: fmt.Errorf("schema does not serialize: %v", err)}
	}
	return InputSchemaJSON(raw)
}

// InputSchemaJSON declares the input as a JSON Schema given as bytes. The
// bytes, compacted, are what expects serves, so the author's property
// order is kept.
func InputSchemaJSON(raw []byte) *Input {
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return &Input{kind: inputSchema, err: fmt.Errorf("not a JSON Schema: %v", err)}
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return &Input{kind: inputSchema, err: fmt.Errorf("schema does not resolve: %v", err)}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return &Input{kind: inputSchema, err: fmt.Errorf("not a JSON Schema: %v", err)}
	}
	return &Input{kind: inputSchema, resolved: rs, object: s.Type == "object", expects: buf.Bytes()}
}

// InputFor derives the input contract from a Go type with
// jsonschema.For: struct fields become properties (json tags respected),
// fields without omitempty are required, and unknown properties are
// refused.
func InputFor[T any]() *Input {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return &Input{kind: inputSchema, err: fmt.Errorf("cannot derive a schema from the Go type: %v", err)}
	}
	return InputSchema(s)
}

// expectsJSON returns the shared wire rendering, or nil without a contract.
func (in *Input) expectsJSON() json.RawMessage {
	if in == nil {
		return nil
	}
	return in.expects
}

// check validates a normalized payload against the contract and returns
// the payload the handler receives plus any issues.
func (in *Input) check(payload any) (any, []string) {
	if in == nil {
		return payload, nil
	}
	switch in.kind {
	case inputNone:
		if isBlank(payload) {
			return nil, nil
		}
		return nil, []string{"this action takes no input: omit it"}
	case inputSchema:
		v := payload
		if v == nil && in.object {
			v = map[string]any{}
		}
		if err := in.resolved.Validate(v); err != nil {
			return nil, []string{err.Error()}
		}
		return v, nil
	}
	return nil, []string{"the input contract is not usable"}
}

func isBlank(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(x) == 0
	}
	return false
}
