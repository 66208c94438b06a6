//go:build !js

// The decoder under test is not in js builds (see decode_js.go).

package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The validated-input decoder must give exactly what encoding/json gives
// for every payload the validator accepts: the same value, or the same
// refusal.

type dtLabel string

type dtUpper string

func (u *dtUpper) UnmarshalText(b []byte) error {
	*u = dtUpper(strings.ToUpper(string(b)))
	return nil
}

type dtInner struct {
	A int    `json:"a"`
	B string `json:"b,omitempty"`
}

type dtInput struct {
	S     string            `json:"s"`
	L     dtLabel           `json:"label"`
	U     dtUpper           `json:"upper,omitempty"`
	I     int               `json:"i"`
	I8    int8              `json:"i8,omitempty"`
	U16   uint16            `json:"u16,omitempty"`
	F     float64           `json:"f,omitempty"`
	F32   float32           `json:"f32,omitempty"`
	B     bool              `json:"b,omitempty"`
	P     *string           `json:"p,omitempty"`
	List  []string          `json:"list,omitempty"`
	Map   map[string]int    `json:"map,omitempty"`
	In    dtInner           `json:"in,omitzero"`
	Any   any               `json:"any,omitempty"`
	Raw   json.RawMessage   `json:"raw,omitempty"`
	Items []dtInner         `json:"items,omitempty"`
	Tags  map[string]string `json:"tags,omitempty"`
	NoTag string            `json:",omitempty"`
	skip  int
}

var decodeSeeds = []string{
	`{"s":"a","label":"b","i":1}`,
	` { "s" : "a" , "label" : "b" , "i" : -12 } `,
	`{"s":"caf\u00e9 \"q\" \\","label":"","i":0}`,
	`{"s":"café ☕","label":"x","i":1}`,
	"{\"s\":\"\xff\xfe\",\"label\":\"x\",\"i\":1}",
	`{"s":"a","label":"b","i":1.0}`,
	`{"s":"a","label":"b","i":1e2}`,
	`{"s":"a","label":"b","i":99999999999999999999}`,
	`{"s":"a","label":"b","i":1,"i8":200}`,
	`{"s":"a","label":"b","i":1,"i8":-128,"u16":65535}`,
	`{"s":"a","label":"b","i":1,"u16":65536}`,
	`{"s":"a","label":"b","i":1,"f":1.5e300,"f32":3.5e38}`,
	`{"s":"a","label":"b","i":1,"f32":1e39}`,
	`{"s":"a","label":"b","i":1,"f":-0.0,"b":true}`,
	`{"s":"a","label":"b","i":1,"b":false,"p":"x","list":["a","b\n"],"map":{"k":2}}`,
	`{"s":"a","label":"b","i":1,"p":null,"list":null,"map":null}`,
	`{"s":"a","label":"b","i":1,"in":{"a":3,"b":"c"},"any":{"x":[1,"}",{"y":null}]}}`,
	`{"s":"a","label":"b","i":1,"raw":{"k":[1,2,"]"]},"items":[{"a":1},{"a":2,"b":"z"}]}`,
	`{"s":"a","label":"b","i":1,"tags":{"a":"b","c":"\"}"}}`,
	`{"s":"a","label":"b","i":1,"upper":"shout"}`,
	`{"s":"a","label":"b","i":1,"NoTag":"n"}`,
	`{"s":"a","s":"again","label":"b","i":1,"i":2}`,
	`{"s":"a","label":"b","i":1,"map":{"k":1},"map":{"j":2}}`,
	`{"s":"a","label":"b","i":1,"list":["x","y"],"list":["z"]}`,
	`{"\u0073":"escaped name","label":"b","i":1}`,
	`{"s":"a","label":"b","i":1,"in":{"a":1.5}}`,
	`{}`,
}

func checkDecodeMatches(t *testing.T, c *Codec, raw []byte) {
	t.Helper()
	if c.Validate(raw) != nil {
		return // Decode refuses it before decoding
	}
	got, gotErr := Decode[dtInput](c, raw)
	var want dtInput
	wantErr := json.Unmarshal(raw, &want)
	if wantErr != nil {
		if gotErr == nil || !strings.Contains(gotErr.Error(), wantErr.Error()) {
			t.Fatalf("%s: Decode err = %v, encoding/json err = %v", raw, gotErr, wantErr)
		}
		return
	}
	if gotErr != nil {
		t.Fatalf("%s: Decode err = %v, encoding/json accepted it", raw, gotErr)
	}
	want.skip, got.skip = 0, 0
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n Decode        %#v\n encoding/json %#v", raw, got, want)
	}
}

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	c, err := NewCodec(reflect.TypeFor[dtInput]())
	if err != nil {
		t.Fatal(err)
	}
	if c.plan == nil {
		t.Fatal("dtInput has no decode plan; the test would not exercise the decoder")
	}
	validated := 0
	for _, raw := range decodeSeeds {
		if c.Validate([]byte(raw)) == nil {
			validated++
		}
		checkDecodeMatches(t, c, []byte(raw))
	}
	if validated < len(decodeSeeds)/2 {
		t.Fatalf("only %d of %d seeds pass validation; the table no longer tests decoding", validated, len(decodeSeeds))
	}
}

// The decoder itself handles the common payload without encoding/json.
func TestDecodePlanHandlesPlainPayload(t *testing.T) {
	c, err := NewCodec(reflect.TypeFor[dtInput]())
	if err != nil {
		t.Fatal(err)
	}
	var in dtInput
	raw := []byte(`{"s":"a","label":"b","i":-7,"u16":7,"f":0.25,"b":true}`)
	if !c.plan.decode(raw, reflect.ValueOf(&in).Elem()) {
		t.Fatal("plan gave up on a plain payload")
	}
	if in.S != "a" || in.L != "b" || in.I != -7 || in.U16 != 7 || in.F != 0.25 || !in.B {
		t.Fatalf("decoded %+v", in)
	}
}

func TestDecodePlanRefusesLayoutsItCannotReproduce(t *testing.T) {
	type embedded struct{ dtInner }
	type dup struct {
		A string `json:"X"`
		X string
	}
	type quoted struct {
		N int `json:"n,string"`
	}
	type escaped struct {
		//lint:ignore SA5008 the malformed tag is the case under test: encoding/json's reading of it decides
		N int `json:"a\"b"`
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[embedded](), reflect.TypeFor[dup](), reflect.TypeFor[quoted](),
		reflect.TypeFor[escaped](), reflect.TypeFor[dtUpper](),
	} {
		if compilePlan(typ) != nil {
			t.Errorf("%v: got a plan, want encoding/json alone", typ)
		}
	}
}

func FuzzDecodeMatchesEncodingJSON(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	c, err := NewCodec(reflect.TypeFor[dtInput]())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkDecodeMatches(t, c, raw) })
}
