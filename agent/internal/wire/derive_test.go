//lint:file-ignore U1000 the types below are read by reflection only: their fields and methods are the cases under test

package wire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The schema derivation is held to jsonschema-go's: for every type below,
// as an input (maps as objects) and as a projection (maps nullable), the
// bytes are the same as json.Marshal of jsonschema-go's ForType, or both
// refuse the type.

type dvEmbedded struct {
	Inner  string `json:"inner"`
	Shared int    `json:"shared,omitempty"`
}

type dvSupplied struct{}

func (dvSupplied) WireSchema() []byte { return nil } // not WireSchema: wrong result type

// dvObject and dvObject2 both supply a schema, so a struct embedding both
// has no WireSchema method (the selector is ambiguous) and lends their
// properties instead.
type dvObject struct{}

func (dvObject) WireSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"alpha":{"type":"integer"},"zeta":{"type":"string"}}}`)
}

type dvObject2 struct{}

func (dvObject2) WireSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"beta":{"type":["null","string"]},"shared":{"type":"boolean"}}}`)
}

type dvMany struct {
	dvEmbedded
	dvObject
	dvObject2
	Shared    string   `json:"shared"`
	Described string   `json:"described" jsonschema:"A <described> & quoted \"value\"."`
	Code      *vtCode  `json:"code,omitempty" jsonschema:"A code."`
	Codes     []vtCode `json:"codes"`
	Level     *vtLevel `json:"level"`
	//lint:ignore SA5008 "-," names the member "-", the case under test
	Dash     string            `json:"-,"`
	Skipped  string            `json:"-"`
	Untagged uint32            // exported but untagged, on purpose
	Zero     int16             `json:",omitzero"`
	Texts    map[dvText]string `json:"texts"`
	When     *time.Time        `json:"when"`
	Unicode  string            `json:"ünï"`
	Uintptr  uintptr           `json:"p,omitempty"`
	Float32  float32           `json:"f32"`
	Bytes    [4]byte           `json:"bytes"`
	Ptr2     **int             `json:"ptr2"`
	Empty    struct{}          `json:"empty"`
	Unexp    struct{ a int }   `json:"unexp"`
	Iface    *any              `json:"iface"`
	unexpT   int
}

type dvText int

func (dvText) MarshalText() ([]byte, error) { return nil, nil }

type dvBadMapKey struct {
	M map[int]string `json:"m"`
}

type dvBadTag struct {
	X string `json:"x" jsonschema:"format=date"`
}

type dvEmptyTag struct {
	X string `json:"x" jsonschema:""`
}

type dvChan struct {
	C chan int `json:"c"`
}

type dvCycle struct {
	Next *dvCycle `json:"next"`
}

func deriveCases() []reflect.Type {
	return []reflect.Type{
		reflect.TypeFor[vtAll](), reflect.TypeFor[vtItem](), reflect.TypeFor[vtOrder](), reflect.TypeFor[vtEmpty](),
		reflect.TypeFor[vtWhole](), reflect.TypeFor[vtWide](), reflect.TypeFor[vtCode](), reflect.TypeFor[*vtLevel](),
		reflect.TypeFor[pjTodo](), reflect.TypeFor[pjEmbeds](), reflect.TypeFor[pjMoney](), reflect.TypeFor[*pjMoney](),
		reflect.TypeFor[dvMany](), reflect.TypeFor[dvBadMapKey](), reflect.TypeFor[dvBadTag](), reflect.TypeFor[dvEmptyTag](),
		reflect.TypeFor[dvChan](), reflect.TypeFor[dvCycle](), reflect.TypeFor[dvSupplied](),
		reflect.TypeFor[[]map[string]*[]int](), reflect.TypeFor[map[string]map[string]int](), reflect.TypeFor[any](),
		reflect.TypeFor[*int8](), reflect.TypeFor[[3]*string](),
	}
}

func TestDerivedSchemasMatchJSONSchemaGo(t *testing.T) {
	for _, typ := range deriveCases() {
		for _, nullable := range []bool{false, true} {
			compareDerivation(t, typ, nullable)
		}
	}
}

func compareDerivation(t *testing.T, typ reflect.Type, nullable bool) {
	t.Helper()
	got, gotErr := deriveSchema(typ, nullable)
	want, wantErr := ReferenceSchema(typ, nullable)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("%s (nullable maps %v): derived error %v, jsonschema-go error %v", typ, nullable, gotErr, wantErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s (nullable maps %v):\nderived      %s\njsonschema-go %s", typ, nullable, got, want)
	}
}

// fuzzFieldTypes are the field types a fuzzed struct draws from.
var fuzzFieldTypes = []reflect.Type{
	reflect.TypeFor[bool](), reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[int16](),
	reflect.TypeFor[int32](), reflect.TypeFor[int64](), reflect.TypeFor[uint](), reflect.TypeFor[uint8](),
	reflect.TypeFor[uint16](), reflect.TypeFor[uint32](), reflect.TypeFor[uint64](), reflect.TypeFor[float32](),
	reflect.TypeFor[float64](), reflect.TypeFor[string](), reflect.TypeFor[any](), reflect.TypeFor[time.Time](),
	reflect.TypeFor[vtCode](), reflect.TypeFor[vtLevel](), reflect.TypeFor[vtItem](), reflect.TypeFor[dvObject](),
	reflect.TypeFor[dvText](), reflect.TypeFor[complex64](),
}

var fuzzTags = []string{
	``, `json:"a"`, `json:"b,omitempty"`, `json:",omitzero"`, `json:"-"`, `json:"-,"`, `json:"a,string"`,
	`jsonschema:"Some <text> & more."`, `json:"c" jsonschema:"x=y"`, `json:"d" jsonschema:""`, `json:"a,omitempty" jsonschema:"Again."`,
}

// FuzzDerivedSchemaMatchesJSONSchemaGo builds struct types from the
// fuzzer's bytes (field types, pointers, slices, arrays, maps, nesting,
// embedding and tags drawn from small lists) and compares the two
// derivations on each.
func FuzzDerivedSchemaMatchesJSONSchemaGo(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte{18, 0, 9, 64, 3, 130, 2, 200, 19, 1, 1, 1})
	f.Add(bytes.Repeat([]byte{7, 33, 250, 4}, 8))
	f.Fuzz(func(t *testing.T, data []byte) {
		typ, ok := fuzzStruct(&data, 0)
		if !ok {
			return
		}
		compareDerivation(t, typ, len(data)%2 == 1)
	})
}

func fuzzStruct(data *[]byte, depth int) (reflect.Type, bool) {
	next := func() byte {
		if len(*data) == 0 {
			return 0
		}
		b := (*data)[0]
		*data = (*data)[1:]
		return b
	}
	n := int(next()%6) + 1
	var fields []reflect.StructField
	for i := range n {
		b := next()
		var ft reflect.Type
		if b%8 == 7 && depth < 2 {
			inner, ok := fuzzStruct(data, depth+1)
			if !ok {
				return nil, false
			}
			ft = inner
		} else {
			ft = fuzzFieldTypes[int(b)%len(fuzzFieldTypes)]
		}
		for wrap := next(); wrap != 0 && wrap%5 != 0; wrap /= 5 {
			switch wrap % 5 {
			case 1:
				ft = reflect.PointerTo(ft)
			case 2:
				ft = reflect.SliceOf(ft)
			case 3:
				ft = reflect.ArrayOf(int(wrap%3), ft)
			case 4:
				ft = reflect.MapOf(reflect.TypeFor[string](), ft)
			}
		}
		tag := fuzzTags[int(next())%len(fuzzTags)]
		name := "F" + strings.Repeat("x", i)
		anonymous := next()%9 == 8 && ft.Kind() == reflect.Struct && ft.Name() != ""
		if anonymous {
			name = ft.Name()
			if !(name[0] >= 'A' && name[0] <= 'Z') {
				anonymous = false
				name = "F" + strings.Repeat("x", i)
			}
		}
		fields = append(fields, reflect.StructField{Name: name, Type: ft, Tag: reflect.StructTag(tag), Anonymous: anonymous})
	}
	var typ reflect.Type
	func() {
		defer func() { _ = recover() }() // StructOf refuses some combinations
		typ = reflect.StructOf(fields)
	}()
	return typ, typ != nil
}
