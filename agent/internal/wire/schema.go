package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// wireSchema is agent.WireSchema: a type that supplies the JSON Schema of
// its own wire form. It is declared again here, structurally identical, so
// that this package does not import agent.
type wireSchema interface {
	WireSchema() json.RawMessage
}

var wireSchemaType = reflect.TypeOf((*wireSchema)(nil)).Elem()

// emptyObjectSchema is what a capability with no payload advertises: an
// object with no properties and nothing else.
const emptyObjectSchema = `{"type":"object","properties":{},"required":[],"additionalProperties":false}`

// Codec decodes a capability's wire payload into its Go input type,
// after checking it against the schema the capability advertises.
//
// The check is compiled once, here, from that schema (see validate.go):
// it walks the payload's bytes and refuses anything jsonschema-go would
// refuse, so that decoding can then be a plain json.Unmarshal. encoding/json
// alone is far too lenient for an agent's input: it matches member names
// case-insensitively, ignores unknown members, and accepts null into any
// field. None of that reaches Unmarshal, because the payload has already
// been held to the schema's exact names, types and required members at
// every depth.
type Codec struct {
	typ       reflect.Type
	schema    json.RawMessage
	validator *validator
	plan      *structPlan // nil: decode with encoding/json alone
}

func NewCodec(t reflect.Type) (*Codec, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("its input type %s is not a struct; a capability's input is an object of fields", t)
	}
	raw, err := inputSchema(t)
	if err != nil {
		return nil, err
	}
	validator, err := compileValidator(raw)
	if err != nil {
		return nil, fmt.Errorf("cannot compile the JSON Schema of %s: %w", t, err)
	}
	return &Codec{typ: t, schema: raw, validator: validator, plan: compilePlan(t)}, nil
}

// deriveInput derives the schema of the input type t, a struct, after
// checking that its wire form agrees with what the schema will say.
func deriveInput(t reflect.Type) (json.RawMessage, error) {
	if err := checkWireAgreement(t, t.Name(), map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	if exportedFieldCount(t) == 0 {
		return json.RawMessage(emptyObjectSchema), nil
	}
	raw, err := deriveSchema(t, false)
	if err != nil {
		return nil, fmt.Errorf("cannot derive the JSON Schema of %s: %w", t, err)
	}
	return raw, nil
}

var (
	byteType          = reflect.TypeOf((*byte)(nil)).Elem()
	jsonUnmarshalType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
)

// checkWireAgreement refuses input fields whose derived schema would
// advertise one wire form while encoding/json decodes another, which
// would make the capability impossible to call: a []byte (advertised as
// an array of integers, decoded from base64 text) and a field tagged
// `json:",string"` (advertised as its Go kind, decoded from a quoted
// string). A type that implements WireSchema, or decodes itself, says its
// own wire form and is trusted.
func checkWireAgreement(t reflect.Type, path string, seen map[reflect.Type]bool) error {
	if seen[t] || t.Implements(wireSchemaType) || reflect.PointerTo(t).Implements(jsonUnmarshalType) {
		return nil
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Array, reflect.Map:
		return checkWireAgreement(t.Elem(), path, seen)
	case reflect.Slice:
		// Only a slice of byte itself converts to []byte (a named
		// element type does not), asked without reflect's conversion
		// tables, which the browser build would otherwise carry.
		if t.Elem() == byteType {
			return fmt.Errorf("%s is a byte slice: JSON carries it as base64 text but its schema would advertise an array of integers; use a string, or a type that implements WireSchema", path)
		}
		return checkWireAgreement(t.Elem(), path, seen)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := path + "." + f.Name
			if tag := f.Tag.Get("json"); tag != "-" && hasOption(tagOptions(tag), "string") {
				return fmt.Errorf("%s is tagged json:\",string\": JSON carries it as a quoted string but its schema would advertise its Go kind; use a type that implements WireSchema instead", name)
			}
			if err := checkWireAgreement(f.Type, name, seen); err != nil {
				return err
			}
		}
	}
	return nil
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

var ErrNotObject = errors.New("the payload is not a JSON object")

// Validate checks raw against the advertised schema. It rejects anything
// but an object (null, arrays, strings, numbers), malformed JSON,
// undeclared members at any depth (names are exact: "Title" is not
// "title"), missing required members, wrong types and nulls the schema
// does not allow.
func (c *Codec) Validate(raw []byte) error {
	return c.validator.validate(raw)
}

// Schema returns the JSON Schema the codec checks against, as advertised.
func (c *Codec) Schema() json.RawMessage { return c.schema }

// Decode validates raw and decodes it into an In. Validation comes
// first, so an input type's UnmarshalJSON (a WireSchema type's, say) only
// ever sees values its advertised schema accepts. A refused payload is a
// *Rejection listing every problem in it, not only the first. The
// validated payload is decoded by the codec's own decoder where it can
// (see decode.go), with exactly encoding/json's result, and by
// encoding/json otherwise.
func Decode[In any](c *Codec, raw []byte) (In, error) {
	var in In
	if err := c.DecodeInto(raw, &in); err != nil {
		var zero In
		return zero, err
	}
	return in, nil
}

// DecodeInto is Decode into the value ptr points to, a pointer to a
// zero value of any type: the same checks and the same result, in code
// that is not instantiated once per input type. On an error the value
// may have been written to; Decode hands out a zero value then.
func (c *Codec) DecodeInto(raw []byte, ptr any) error {
	if err := c.Validate(raw); err != nil {
		return &Rejection{Problems: c.validator.diagnose(raw, err), Err: err}
	}
	if v := reflect.ValueOf(ptr).Elem(); c.plan != nil && v.Type() == c.typ {
		if c.plan.decode(raw, v) {
			return nil
		}
		v.SetZero()
	}
	if err := json.Unmarshal(raw, ptr); err != nil {
		// Only a type that decodes itself can refuse what its schema
		// accepts; where it did is its own business.
		return &Rejection{
			Problems: []Problem{{Path: "", Code: CodeInvalid}},
			Err:      fmt.Errorf("the payload does not decode into %s: %w", c.typ, err),
		}
	}
	return nil
}

// tagOptions returns the options of a json struct tag: what follows its
// name and first comma.
func tagOptions(tag string) string {
	_, opts, _ := strings.Cut(tag, ",")
	return opts
}

// hasOption reports whether the comma-separated options opts hold opt,
// as strings.Split and slices.Contains would, without linking
// strings.Split's code into a browser build.
func hasOption(opts, opt string) bool {
	for more := opts != ""; more; {
		var o string
		o, opts, more = strings.Cut(opts, ",")
		if o == opt {
			return true
		}
	}
	return false
}
