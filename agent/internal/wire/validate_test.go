package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// The types below cover every shape jsonschema-go's For produces: nested
// structs, pointers (nullable), slices (nullable arrays) of structs, fixed
// arrays (minItems/maxItems), maps (additionalProperties schema), sized
// integers (minimum/maximum), an any, and WireSchema types whose schemas
// use keywords the fast validator leaves to jsonschema-go.

type vtCode string

func (vtCode) WireSchema() json.RawMessage {
	return json.RawMessage(`{"type":"string","pattern":"^[A-Z]{3}$"}`)
}

type vtLevel string

func (vtLevel) WireSchema() json.RawMessage {
	return json.RawMessage(`{"enum":["low","high",null]}`)
}

type vtItem struct {
	ID   string  `json:"id"`
	Done bool    `json:"done"`
	Note *string `json:"note,omitempty"`
}

type vtAll struct {
	Name   string              `json:"name"`
	Count  int                 `json:"count"`
	Small  int8                `json:"small,omitempty"`
	Size   uint                `json:"size,omitempty"`
	Ratio  float64             `json:"ratio,omitempty"`
	Flag   bool                `json:"flag,omitempty"`
	Item   vtItem              `json:"item"`
	Ptr    *vtItem             `json:"ptr,omitempty"`
	Items  []vtItem            `json:"items,omitempty"`
	Tags   map[string]int      `json:"tags,omitempty"`
	Groups map[string][]vtItem `json:"groups,omitempty"`
	Any    any                 `json:"any,omitempty"`
	Code   vtCode              `json:"code,omitempty"`
	Level  vtLevel             `json:"level,omitempty"`
	Pair   [2]int              `json:"pair,omitempty"`
	Nested [][]string          `json:"nested,omitempty"`
}

type vtOrder struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
	Note     string `json:"note"`
}

type vtEmpty struct{}

// vtIdentified's schema carries an $id, so its subschemas cannot be judged
// apart from the whole: the validator hands the whole payload over.
type vtIdentified string

func (vtIdentified) WireSchema() json.RawMessage {
	return json.RawMessage(`{"type":"string","$id":"https://example.com/identified","minLength":2}`)
}

type vtWhole struct {
	Label vtIdentified `json:"label"`
	Extra *vtItem      `json:"extra,omitempty"`
}

// vtWide has more declared members than the linear lookup handles.
type vtWide struct {
	A string `json:"a"`
	B string `json:"b,omitempty"`
	C string `json:"c,omitempty"`
	D string `json:"d,omitempty"`
	E string `json:"e,omitempty"`
	F string `json:"f,omitempty"`
	G string `json:"g,omitempty"`
	H string `json:"h,omitempty"`
	I string `json:"i,omitempty"`
	J int    `json:"j"`
}

// validatorFixture returns the codec for t and the schema it advertises,
// resolved by jsonschema-go as the reference judge.
func validatorFixture(t testing.TB, typ reflect.Type) (*Codec, *jsonschema.Resolved) {
	t.Helper()
	c, err := NewCodec(typ)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(c.schema, &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return c, r
}

// referenceValidate is what dispatch did before the fast validator:
// decode the payload into an any and ask jsonschema-go.
func referenceValidate(r *jsonschema.Resolved, raw []byte) error {
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return ErrNotObject
	}
	var instance any
	if err := json.Unmarshal(raw, &instance); err != nil {
		return err
	}
	return r.Validate(instance)
}

// hasDuplicateNames reports whether some object in data names a member
// twice (after unescaping, as a decoded map would see it).
func hasDuplicateNames(data []byte) bool {
	type frame struct {
		object  bool
		names   map[string]bool
		wantKey bool
	}
	var stack []*frame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
			if tok == json.Delim('}') {
				stack = stack[:n-1]
				valueDone()
				continue
			}
			name, _ := tok.(string)
			if stack[n-1].names[name] {
				return true
			}
			stack[n-1].names[name] = true
			stack[n-1].wantKey = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, names: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
			valueDone()
		default:
			valueDone()
		}
	}
}

const vtMinimal = `{"name":"a","count":1,"item":{"id":"x","done":false}}`

// withMember returns vtMinimal with one more member.
func withMember(member string) string {
	return strings.TrimSuffix(vtMinimal, "}") + "," + member + "}"
}

func TestValidatorTable(t *testing.T) {
	deep := func(levels int) string { // an "any" member holding nested arrays
		return `{"name":"a","count":1,"item":{"id":"x","done":false},"any":` +
			strings.Repeat("[", levels) + strings.Repeat("]", levels) + `}`
	}
	cases := []struct {
		name    string
		payload string
		accept  bool
	}{
		{"minimal", vtMinimal, true},
		{"spaces everywhere", " \n{ \"name\" :\t\"a\" , \"count\" : 1 ,\r\n\"item\":{ \"id\":\"x\",\"done\":false } } \n", true},
		{"member order is free", `{"item":{"done":true,"id":"x"},"count":-3,"name":""}`, true},
		{"escaped names", `{"n\u0061me":"a","co\u0075nt":1,"item":{"\u0069d":"x","done":false}}`, true},
		{"escaped values", withMember(`"any":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"`), true},
		{"non-ASCII values and map keys", withMember(`"tags":{"clé":1,"日本":2}`), true},
		{"invalid UTF-8 map key", withMember("\"tags\":{\"\xff\":1}"), true},
		{"nullable pointer null", withMember(`"ptr":null`), true},
		{"nullable pointer object", withMember(`"ptr":{"id":"p","done":true,"note":null}`), true},
		{"nullable slice null", withMember(`"items":null`), true},
		{"slice of structs", withMember(`"items":[{"id":"1","done":false},{"id":"2","done":true,"note":"n"}]`), true},
		{"map of ints", withMember(`"tags":{"a":1,"b":-2,"c":3e2}`), true},
		{"map of slices of structs", withMember(`"groups":{"g":[{"id":"1","done":false}],"h":null}`), true},
		{"any holds anything", withMember(`"any":{"Deep":[1,"x",null,true,{"k":[]}]}`), true},
		{"pattern met", withMember(`"code":"ABC"`), true},
		{"enum met", withMember(`"level":"high"`), true},
		{"enum allows null", withMember(`"level":null`), true},
		{"int8 bounds", withMember(`"small":-128`), true},
		{"int8 upper bound", withMember(`"small":127`), true},
		{"uint zero", withMember(`"size":0`), true},
		{"float", withMember(`"ratio":-1.5e-3`), true},
		{"integral float for an integer", `{"name":"a","count":2.0,"item":{"id":"x","done":false}}`, true},
		{"exponent integer", `{"name":"a","count":1E+2,"item":{"id":"x","done":false}}`, true},
		{"minus zero", `{"name":"a","count":-0,"item":{"id":"x","done":false}}`, true},
		{"underflow is zero", withMember(`"ratio":1e-400`), true},
		{"long integer", `{"name":"a","count":123456789012345678901234567890,"item":{"id":"x","done":false}}`, true},
		{"fixed array", withMember(`"pair":[1,2]`), true},
		{"nested slices", withMember(`"nested":[["a"],[],null]`), true},
		{"repeated member, each valid", `{"name":"a","name":"b","count":1,"item":{"id":"x","done":false}}`, true},
		{"nesting at the limit", deep(maxNestingDepth - 1), true},

		{"case-folded member", `{"Name":"a","count":1,"item":{"id":"x","done":false}}`, false},
		{"case-folded nested member", `{"name":"a","count":1,"item":{"ID":"x","done":false}}`, false},
		{"undeclared member", withMember(`"extra":1`), false},
		{"undeclared nested member", `{"name":"a","count":1,"item":{"id":"x","done":false,"evil":true}}`, false},
		{"undeclared member in a slice element", withMember(`"items":[{"id":"1","done":false},{"id":"2","done":true,"evil":1}]`), false},
		{"undeclared member in a map value", withMember(`"groups":{"g":[{"id":"1","done":false,"evil":1}]}`), false},
		{"undeclared member in a pointer", withMember(`"ptr":{"id":"p","done":true,"evil":null}`), false},
		{"escaped name that is not declared", `{"na\u006De2":"a","name":"a","count":1,"item":{"id":"x","done":false}}`, false},
		{"missing required", `{"name":"a","item":{"id":"x","done":false}}`, false},
		{"missing nested required", `{"name":"a","count":1,"item":{"id":"x"}}`, false},
		{"missing required in a slice element", withMember(`"items":[{"id":"1"}]`), false},
		{"null for a string", `{"name":null,"count":1,"item":{"id":"x","done":false}}`, false},
		{"null for a struct", `{"name":"a","count":1,"item":null}`, false},
		{"null in a slice of structs", withMember(`"items":[null]`), false},
		{"null map value", withMember(`"tags":{"a":null}`), false},
		{"null fixed array", withMember(`"pair":null`), false},
		{"string for an integer", `{"name":"a","count":"1","item":{"id":"x","done":false}}`, false},
		{"fraction for an integer", `{"name":"a","count":1.5,"item":{"id":"x","done":false}}`, false},
		{"number for a string", `{"name":1,"count":1,"item":{"id":"x","done":false}}`, false},
		{"object for a string", `{"name":{},"count":1,"item":{"id":"x","done":false}}`, false},
		{"array for a struct", `{"name":"a","count":1,"item":[]}`, false},
		{"string for a bool", `{"name":"a","count":1,"item":{"id":"x","done":"false"}}`, false},
		{"wrong map value", withMember(`"tags":{"a":"1"}`), false},
		{"int8 too small", withMember(`"small":-129`), false},
		{"int8 too large", withMember(`"small":128`), false},
		{"uint negative", withMember(`"size":-1`), false},
		{"fixed array too short", withMember(`"pair":[1]`), false},
		{"fixed array too long", withMember(`"pair":[1,2,3]`), false},
		{"pattern not met", withMember(`"code":"abc"`), false},
		{"pattern on a number", withMember(`"code":5`), false},
		{"enum not met", withMember(`"level":"mid"`), false},
		{"inner slice element wrong", withMember(`"nested":[["a",1]]`), false},
		{"number out of float64 range", withMember(`"any":1e400`), false},
		{"nesting past the limit", deep(maxNestingDepth), false},

		{"null payload", `null`, false},
		{"array payload", `[]`, false},
		{"string payload", `"x"`, false},
		{"number payload", `1`, false},
		{"empty payload", ``, false},
		{"only spaces", " \n ", false},
		{"unterminated", `{"name":"a"`, false},
		{"trailing comma", `{"name":"a","count":1,"item":{"id":"x","done":false},}`, false},
		{"missing colon", `{"name" "a"}`, false},
		{"trailing value", vtMinimal + ` {}`, false},
		{"trailing junk", vtMinimal + `x`, false},
		{"leading zero", `{"name":"a","count":01,"item":{"id":"x","done":false}}`, false},
		{"bare minus", `{"name":"a","count":-,"item":{"id":"x","done":false}}`, false},
		{"dot without digits", `{"name":"a","count":1.,"item":{"id":"x","done":false}}`, false},
		{"exponent without digits", `{"name":"a","count":1e,"item":{"id":"x","done":false}}`, false},
		{"bad escape", `{"name":"\x","count":1,"item":{"id":"x","done":false}}`, false},
		{"short unicode escape", `{"name":"\u12","count":1,"item":{"id":"x","done":false}}`, false},
		{"control character in a string", "{\"name\":\"a\tb\",\"count\":1,\"item\":{\"id\":\"x\",\"done\":false}}", false},
		{"bad literal", `{"name":"a","count":1,"item":{"id":"x","done":fals}}`, false},
		{"unquoted name", `{name:"a"}`, false},
		{"single quotes", `{'name':'a'}`, false},
	}
	c, ref := validatorFixture(t, reflect.TypeFor[vtAll]())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := c.Validate([]byte(tc.payload))
			if (err == nil) != tc.accept {
				t.Fatalf("validate = %v, want accept=%v", err, tc.accept)
			}
			// The table itself is checked against jsonschema-go, so an
			// expectation cannot drift from the reference judge.
			if refErr := referenceValidate(ref, []byte(tc.payload)); (refErr == nil) != tc.accept {
				t.Fatalf("jsonschema-go says %v, the table says accept=%v", refErr, tc.accept)
			}
		})
	}
}

// TestValidatorRepeatedMembers pins the one deliberate difference from
// jsonschema-go. A decoded map keeps only the last occurrence of a member,
// but encoding/json decodes every occurrence into the same struct, so an
// earlier, unchecked occurrence could leave a value behind: here a
// case-folded "NOTE" would set Note. The validator checks every occurrence.
func TestValidatorRepeatedMembers(t *testing.T) {
	c, ref := validatorFixture(t, reflect.TypeFor[vtAll]())
	for _, payload := range []string{
		`{"name":"a","count":1,"item":{"NOTE":"smuggled"},"item":{"id":"x","done":false}}`,
		`{"name":5,"name":"a","count":1,"item":{"id":"x","done":false}}`,
		`{"name":null,"name":"a","count":1,"item":{"id":"x","done":false}}`,
		withMember(`"tags":{"a":"x","a":1}`),
	} {
		if err := referenceValidate(ref, []byte(payload)); err != nil {
			t.Fatalf("jsonschema-go refused %s (%v); the case no longer shows the difference", payload, err)
		}
		if err := c.Validate([]byte(payload)); err == nil {
			t.Errorf("accepted %s, whose earlier occurrence is invalid", payload)
		}
	}
	// What the check prevents: encoding/json merges the occurrences.
	var merged vtAll
	if err := json.Unmarshal([]byte(`{"name":"a","count":1,"item":{"NOTE":"smuggled"},"item":{"id":"x","done":false}}`), &merged); err != nil {
		t.Fatal(err)
	}
	if merged.Item.Note == nil || *merged.Item.Note != "smuggled" {
		t.Fatalf("encoding/json no longer merges repeated members (%+v); revisit the rationale", merged.Item)
	}
}

func TestValidatorErrorsNamePathNotValue(t *testing.T) {
	c, _ := validatorFixture(t, reflect.TypeFor[vtAll]())
	err := c.Validate([]byte(withMember(`"items":[{"id":"1","done":false},{"id":"2","done":"secret-value"}]`)))
	var m *Mismatch
	if !errors.As(err, &m) {
		t.Fatalf("error %T (%v) is not a schema mismatch", err, err)
	}
	if got := err.Error(); !strings.HasPrefix(got, "at /items/1/done: ") || strings.Contains(got, "secret-value") {
		t.Fatalf("error = %q, want the path /items/1/done and no value", got)
	}
	if err := c.Validate([]byte(`[]`)); !errors.Is(err, ErrNotObject) {
		t.Fatalf("array payload: %v, want ErrNotObject", err)
	}
}

func TestValidatorWideObjectAndEmpty(t *testing.T) {
	c, ref := validatorFixture(t, reflect.TypeFor[vtWide]())
	if c.validator.root.byName == nil {
		t.Fatal("a wide object should be looked up through a map")
	}
	for _, tc := range []struct {
		payload string
		accept  bool
	}{
		{`{"a":"1","j":2}`, true},
		{`{"a":"1","i":"x","h":"y","j":2}`, true},
		{`{"a":"1"}`, false},
		{`{"a":"1","j":2,"k":3}`, false},
		{`{"a":"1","J":2}`, false},
	} {
		if err := c.Validate([]byte(tc.payload)); (err == nil) != tc.accept {
			t.Errorf("%s: %v, want accept=%v", tc.payload, err, tc.accept)
		}
		if err := referenceValidate(ref, []byte(tc.payload)); (err == nil) != tc.accept {
			t.Errorf("%s: jsonschema-go says %v, want accept=%v", tc.payload, err, tc.accept)
		}
	}
	e, _ := validatorFixture(t, reflect.TypeFor[vtEmpty]())
	for payload, accept := range map[string]bool{`{}`: true, ` { } `: true, `{"a":1}`: false, `{"":null}`: false, `[]`: false, `null`: false} {
		if err := e.Validate([]byte(payload)); (err == nil) != accept {
			t.Errorf("empty input %s: %v, want accept=%v", payload, err, accept)
		}
	}
}

// More than 64 members: the presence of required members no longer fits
// a bitmask.
func TestValidatorManyMembers(t *testing.T) {
	const n = 70
	fields := make([]reflect.StructField, n)
	var all strings.Builder
	all.WriteByte('{')
	for i := range n {
		name := fmt.Sprintf("f%02d", i)
		fields[i] = reflect.StructField{Name: "F" + name[1:], Type: reflect.TypeFor[int](), Tag: reflect.StructTag(`json:"` + name + `"`)}
		if i > 0 {
			all.WriteByte(',')
		}
		fmt.Fprintf(&all, "%q:%d", name, i)
	}
	all.WriteByte('}')
	c, ref := validatorFixture(t, reflect.StructOf(fields))
	full := all.String()
	for _, tc := range []struct {
		payload string
		accept  bool
	}{
		{full, true},
		{strings.Replace(full, `,"f69":69`, "", 1), false},
		{strings.Replace(full, `"f00":0,`, "", 1), false},
		{strings.Replace(full, `"f42":42`, `"f42":"x"`, 1), false},
		{strings.TrimSuffix(full, "}") + `,"f70":70}`, false},
	} {
		if err := c.Validate([]byte(tc.payload)); (err == nil) != tc.accept {
			t.Errorf("%.40s…: %v, want accept=%v", tc.payload, err, tc.accept)
		}
		if err := referenceValidate(ref, []byte(tc.payload)); (err == nil) != tc.accept {
			t.Errorf("%.40s…: jsonschema-go says %v, want accept=%v", tc.payload, err, tc.accept)
		}
	}
}

// A schema with an identifier is judged whole by jsonschema-go, and
// judged the same way.
func TestValidatorWholeFallback(t *testing.T) {
	c, ref := validatorFixture(t, reflect.TypeFor[vtWhole]())
	if c.validator.whole == nil {
		t.Fatal("a schema with $id must be judged whole")
	}
	for payload, accept := range map[string]bool{
		`{"label":"ab"}`: true, `{"label":"a"}`: false, `{"label":"ab","extra":{"id":"1","done":true}}`: true,
		`{"label":"ab","extra":{"id":"1","done":true,"x":1}}`: false, `{"Label":"ab"}`: false, `null`: false,
	} {
		if err := c.Validate([]byte(payload)); (err == nil) != accept {
			t.Errorf("%s: %v, want accept=%v", payload, err, accept)
		}
		if err := referenceValidate(ref, []byte(payload)); (err == nil) != accept {
			t.Errorf("%s: jsonschema-go says %v, want accept=%v", payload, err, accept)
		}
	}
}

func TestValidatorFallbackIsPerNode(t *testing.T) {
	c, _ := validatorFixture(t, reflect.TypeFor[vtAll]())
	root := c.validator.root
	if root.fallback != nil || c.validator.whole != nil {
		t.Fatal("vtAll's own schema is in the fast subset")
	}
	var code, name *vnode
	for _, f := range root.fields {
		switch f.name {
		case "code":
			code = f.node
		case "name":
			name = f.node
		}
	}
	if code == nil || code.fallback == nil {
		t.Fatal("the pattern of vtCode must be judged by jsonschema-go")
	}
	if name == nil || name.fallback != nil || name.kinds != kindString {
		t.Fatalf("a plain string must be judged by the fast path: %+v", name)
	}
}

func TestValidatorAllocatesNothingOnTheFastPath(t *testing.T) {
	for _, tc := range []struct {
		typ     reflect.Type
		payload string
	}{
		{reflect.TypeFor[vtOrder](), `{"sku":"SKU-1234","quantity":3,"note":"leave at the door"}`},
		{reflect.TypeFor[vtAll](), withMember(`"items":[{"id":"1","done":false,"note":null}],"tags":{"a":1},"pair":[1,2],"ratio":0.5,"small":-3`)},
	} {
		c, _ := validatorFixture(t, tc.typ)
		raw := []byte(tc.payload)
		if err := c.Validate(raw); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() { _ = c.Validate(raw) }); n != 0 {
			t.Errorf("%s: %v allocations per validation, want 0", tc.typ, n)
		}
	}
}

func TestDecodeInputAfterValidation(t *testing.T) {
	c, _ := validatorFixture(t, reflect.TypeFor[vtAll]())
	got, err := Decode[vtAll](c, []byte(withMember(`"code":"ABC","tags":{"a":1},"ptr":{"id":"p","done":true}`)))
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "a" || got.Count != 1 || got.Code != "ABC" || got.Tags["a"] != 1 || got.Ptr == nil || got.Ptr.ID != "p" {
		t.Fatalf("decoded %+v", got)
	}
	// Valid for the schema but not for the Go type: the decode refuses,
	// and the zero value is returned.
	got, err = Decode[vtAll](c, []byte(`{"name":"a","count":2.5e0,"item":{"id":"x","done":false}}`))
	if err == nil {
		t.Fatal("a fraction decoded into an int")
	}
	got, err = Decode[vtAll](c, []byte(`{"name":"a","count":1.0,"item":{"id":"x","done":false}}`))
	if err == nil || !reflect.DeepEqual(got, vtAll{}) {
		t.Fatalf("1.0 into an int: %+v, %v; want an error and the zero value", got, err)
	}
}

// FuzzValidatorMatchesJSONSchema checks the fast validator against
// jsonschema-go on arbitrary payloads: the same verdict whenever no object
// repeats a member, and never more lenient when one does.
func FuzzValidatorMatchesJSONSchema(f *testing.F) {
	for _, seed := range []string{
		vtMinimal, withMember(`"items":[{"id":"1","done":false}]`), withMember(`"tags":{"a":1}`),
		withMember(`"code":"ABC"`), withMember(`"level":null`), withMember(`"pair":[1,2]`), withMember(`"small":128`),
		withMember(`"any":[1e400]`), `{"name":"a","name":"b"}`, `{"sku":"a","quantity":1,"note":""}`, `{}`, `[]`, `null`,
		`{"label":"ab"}`, `{"a":"1","j":2}`, `{"n\u0061me":"a"}`, "{\"\xff\":1}", `{"count":1.0}`, `{"count":-0.0e-0}`,
		`{"title":"\ud83d\ude00ab\u00e9","qty":99,"tags":["x"]}`, "{\"title\":\"\xff\xfeab\",\"qty\":1}",
	} {
		for which := range uint8(6) {
			f.Add(which, []byte(seed))
		}
	}
	types := []reflect.Type{
		reflect.TypeFor[vtAll](), reflect.TypeFor[vtOrder](), reflect.TypeFor[vtEmpty](),
		reflect.TypeFor[vtWhole](), reflect.TypeFor[vtWide](), reflect.TypeFor[vtBounded](),
	}
	codecs := make([]*Codec, len(types))
	refs := make([]*jsonschema.Resolved, len(types))
	for i, typ := range types {
		codecs[i], refs[i] = validatorFixture(f, typ)
	}
	f.Fuzz(func(t *testing.T, which uint8, payload []byte) {
		i := int(which) % len(types)
		fast := codecs[i].Validate(payload)
		checkDiagnosis(t, codecs[i], payload, fast)
		ref := referenceValidate(refs[i], payload)
		if hasDuplicateNames(payload) {
			if fast == nil && ref != nil {
				t.Fatalf("%s: fast validator accepted %q, jsonschema-go refused: %v", types[i], payload, ref)
			}
			return
		}
		if (fast == nil) != (ref == nil) {
			t.Fatalf("%s: %q: fast validator says %v, jsonschema-go says %v", types[i], payload, fast, ref)
		}
	})
}

// checkDiagnosis holds a refusal's diagnosis to what the fast verdict
// said: a refused payload has at least one and at most MaxProblems
// problems, each with a known code, the first mismatch among them, and
// an accepted payload has none.
func checkDiagnosis(t *testing.T, c *Codec, payload []byte, fast error) {
	t.Helper()
	problems := c.validator.diagnose(payload, fast)
	if fast == nil {
		if problems != nil {
			t.Fatalf("%q was accepted but diagnosed %v", payload, problems)
		}
		return
	}
	if len(problems) == 0 || len(problems) > MaxProblems {
		t.Fatalf("%q: %d problems for a refusal (%v)", payload, len(problems), fast)
	}
	for _, p := range problems {
		switch p.Code {
		case CodeUndeclared, CodeMissing, CodeWrongType, CodeInvalid, CodeMalformed:
		default:
			t.Fatalf("%q: unknown code %q", payload, p.Code)
		}
	}
	var m *Mismatch
	if errors.As(fast, &m) && len(problems) < MaxProblems && !slices.Contains(problems, Problem{Path: m.Path(), Code: m.Code()}) {
		t.Fatalf("%q: the first mismatch (%s %s) is not among %v", payload, m.Path(), m.Code(), problems)
	}
}

func TestDiagnoseListsEveryProblem(t *testing.T) {
	c, _ := validatorFixture(t, reflect.TypeFor[vtAll]())
	for _, tc := range []struct {
		name, payload string
		want          []Problem
	}{
		{"misspelled", `{"Name":"a","count":1,"item":{"id":"x","done":false}}`,
			[]Problem{{"/Name", CodeUndeclared}, {"/name", CodeMissing}}},
		{"missing", `{"name":"a","item":{"id":"x","done":false}}`,
			[]Problem{{"/count", CodeMissing}}},
		{"wrong type", `{"name":7,"count":"one","item":{"id":"x","done":false}}`,
			[]Problem{{"/name", CodeWrongType}, {"/count", CodeWrongType}}},
		{"null", `{"name":null,"count":1,"item":{"id":"x","done":false}}`,
			[]Problem{{"/name", CodeWrongType}}},
		{"deep", `{"name":"a","count":1,"item":{"id":"x"},"items":[{"id":"1","done":false},{"id":2,"done":false,"x~/y":1}]}`,
			[]Problem{{"/item/done", CodeMissing}, {"/items/1/id", CodeWrongType}, {"/items/1/x~0~1y", CodeUndeclared}}},
		{"object for string", `{"name":{"nested":[1]},"count":1,"item":{"id":"x","done":false}}`,
			[]Problem{{"/name", CodeWrongType}}},
		{"range", withMember(`"small":300`), []Problem{{"/small", CodeInvalid}}},
		{"repeated", `{"name":1,"name":2,"count":1,"item":{"id":"x","done":false}}`,
			[]Problem{{"/name", CodeWrongType}}},
		{"not an object", `["name"]`, []Problem{{"", CodeWrongType}}},
		{"not JSON", `{"name":`, []Problem{{"", CodeMalformed}}},
		{"mismatch then junk", `{"name":1,"count":1,"item":{"id":"x","done":false}} x`,
			[]Problem{{"/name", CodeWrongType}, {"", CodeMalformed}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode[vtAll](c, []byte(tc.payload))
			var rej *Rejection
			if !errors.As(err, &rej) {
				t.Fatalf("Decode error %T (%v), want a *Rejection", err, err)
			}
			if !slices.Equal(rej.Problems, tc.want) {
				t.Fatalf("problems = %v, want %v", rej.Problems, tc.want)
			}
		})
	}
}

func TestDiagnoseIsBounded(t *testing.T) {
	c, _ := validatorFixture(t, reflect.TypeFor[vtAll]())
	var b strings.Builder
	b.WriteString(`{"name":"a","count":1,"item":{"id":"x","done":false}`)
	for i := range 3 * MaxProblems {
		fmt.Fprintf(&b, `,"extra%d":1`, i)
	}
	b.WriteString("}")
	_, err := Decode[vtAll](c, []byte(b.String()))
	var rej *Rejection
	if !errors.As(err, &rej) || len(rej.Problems) != MaxProblems {
		t.Fatalf("got %v, want exactly %d problems", err, MaxProblems)
	}
}

// BenchmarkInputValidation compares the fast validator with what dispatch
// did before: decode into an any and validate it with jsonschema-go.
func BenchmarkInputValidation(b *testing.B) {
	c, ref := validatorFixture(b, reflect.TypeFor[vtOrder]())
	raw := []byte(`{"sku":"SKU-1234","quantity":3,"note":"leave at the door"}`)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := c.Validate(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jsonschema-go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := referenceValidate(ref, raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}
