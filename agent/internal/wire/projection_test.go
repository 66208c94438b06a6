package wire

import (
	"encoding/json"
	"errors"
	"log/slog"
	"math/big"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Types a projection may hold without declaring anything: their schema and
// their encoding agree, which NewProjected establishes at declaration so
// that serving need not check.

type pjTodo struct {
	ID    string     `json:"id"`
	Title string     `json:"title"`
	Done  bool       `json:"done"`
	Due   *time.Time `json:"due,omitempty"`
	Tags  []string   `json:"tags"`
}

type pjBase struct {
	Owner string `json:"owner"`
	Count uint16 `json:"count"`
}

type pjEmbeds struct {
	pjBase
	Level  slog.Level         `json:"level"`
	At     time.Time          `json:"at"`
	ByID   map[string]pjTodo  `json:"byId"`
	Nested map[string][]int8  `json:"nested,omitempty"`
	Grid   [2][3]float64      `json:"grid"`
	Extra  any                `json:"extra"`
	Ptrs   []*pjTodo          `json:"ptrs"`
	Maybe  *map[string]string `json:"maybe"`
	//lint:ignore U1000 an unexported field, which a projection leaves out, is the case under test
	skip   int
	Hidden string `json:"-"`
}

// Every value of a type proven safe encodes as its schema says: random
// values (nil maps, slices and pointers included) pass the full check.
func TestProvenSafeTypesEncodeAsAdvertised(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, typ := range []reflect.Type{
		reflect.TypeFor[pjTodo](),
		reflect.TypeFor[[]pjTodo](),
		reflect.TypeFor[pjEmbeds](),
		reflect.TypeFor[map[string]int](),
		reflect.TypeFor[*pjBase](),
		reflect.TypeFor[int](),
	} {
		p, err := NewProjected(typ, typ.String())
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if p.Checked() {
			t.Fatalf("%s: holds no WireSchema type, yet is checked when served", typ)
		}
		for i := range 300 {
			v := randomValue(typ, rng, 0)
			if i%5 == 0 {
				v = reflect.New(typ).Elem() // the zero value, nils everywhere
			}
			b, err := json.Marshal(v.Interface())
			if err != nil {
				t.Fatalf("%s: %v", typ, err)
			}
			if err := p.Validate(b); err != nil {
				t.Fatalf("%s: %s does not match its own schema %s: %v", typ, b, p.Schema(), err)
			}
		}
	}
}

// randomValue returns a random value of t: numbers anywhere in their
// range, strings with escapes and non-ASCII, and nil, empty or filled
// pointers, slices and maps.
func randomValue(t reflect.Type, rng *rand.Rand, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	switch t {
	case reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(time.Unix(rng.Int63n(1<<35), rng.Int63n(1e9)).In(time.FixedZone("z", rng.Intn(3600)))))
		return v
	case reflect.TypeFor[slog.Level]():
		v.SetInt(int64(rng.Intn(20) - 10))
		return v
	}
	filledOrNil := depth < 4 && rng.Intn(3) > 0
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(rng.Intn(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(rng.Int63() >> (rng.Intn(64)) * int64(1-2*rng.Intn(2)))
		if v.OverflowInt(v.Int()) {
			v.SetInt(int64(int8(v.Int())))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		u := rng.Uint64() >> rng.Intn(64)
		if v.OverflowUint(u) {
			u = uint64(uint8(u))
		}
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(rng.NormFloat64() * float64(int(1)<<rng.Intn(60)))
	case reflect.String:
		v.SetString([]string{"", "plain", "quote \" and \\ slash", "é ✓ \u2028", "\x00ctl"}[rng.Intn(5)])
	case reflect.Interface:
		if filledOrNil {
			v.Set(reflect.ValueOf([]any{1.5, "s", map[string]any{"k": []any{true, nil}}}[rng.Intn(3)]))
		}
	case reflect.Pointer:
		if filledOrNil {
			v.Set(randomValue(t.Elem(), rng, depth+1).Addr())
		}
	case reflect.Slice:
		if filledOrNil {
			v.Set(reflect.MakeSlice(t, 0, 3))
			for range rng.Intn(3) {
				v.Set(reflect.Append(v, randomValue(t.Elem(), rng, depth+1)))
			}
		}
	case reflect.Array:
		for i := range t.Len() {
			v.Index(i).Set(randomValue(t.Elem(), rng, depth+1))
		}
	case reflect.Map:
		if filledOrNil {
			v.Set(reflect.MakeMap(t))
			for i := range rng.Intn(3) {
				v.SetMapIndex(reflect.ValueOf(string(rune('a'+i))), randomValue(t.Elem(), rng, depth+1))
			}
		}
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			if fv, err := v.FieldByIndexErr(f.Index); err == nil && !f.Anonymous && fv.CanSet() {
				fv.Set(randomValue(f.Type, rng, depth+1))
			}
		}
	}
	return v
}

func TestMapsAreAdvertisedNullable(t *testing.T) {
	p, err := NewProjected(reflect.TypeFor[struct {
		M map[string]map[string]int `json:"m"`
	}](), "m")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","required":["m"],"additionalProperties":false,"properties":{"m":{"type":["null","object"],"additionalProperties":{"type":["null","object"],"additionalProperties":{"type":"integer"}}}}}`
	var got, w any
	_ = json.Unmarshal(p.Schema(), &got)
	_ = json.Unmarshal([]byte(want), &w)
	if !reflect.DeepEqual(got, w) {
		t.Fatalf("schema %s, want %s", p.Schema(), want)
	}
	if err := p.Validate([]byte(`{"m":{"a":null}}`)); err != nil {
		t.Fatal(err)
	}
}

// Self-encoding types and the others below would be advertised one way
// and served another; each is refused, naming its path.

type pjPrice struct{ Cents int }

func (p pjPrice) MarshalJSON() ([]byte, error) {
	return json.Marshal("$" + string(rune('0'+p.Cents%10)))
}

type pjPtrPrice struct{ Cents int }

func (p *pjPtrPrice) MarshalJSON() ([]byte, error) { return []byte(`"x"`), nil }

type pjText struct{ V int }

func (pjText) MarshalText() ([]byte, error) { return []byte("t"), nil }

type pjByte uint8

type pjInner struct{ A int }

// pjTwice has two fields named "a" in JSON. It is built with StructOf so
// that go vet, rightly, does not object to it.
var pjTwice = reflect.StructOf([]reflect.StructField{
	{Name: "A", Type: reflect.TypeFor[int](), Tag: `json:"a"`},
	{Name: "B", Type: reflect.TypeFor[int](), Tag: `json:"a"`},
})

type pjBadTag struct {
	//lint:ignore SA5008 the malformed tag is the case under test: a projection encoding/json reads differently is refused
	A int `json:"a\\b"`
}

type pjPromotedClash struct {
	pjInner
	X int `json:"A"`
}

type pjEmbedsTime struct {
	time.Time
	N int
}

func TestProjectionsWhoseSchemaAndEncodingDisagreeAreRefused(t *testing.T) {
	cases := []struct {
		typ  reflect.Type
		want []string
	}{
		{reflect.TypeFor[struct{ Price pjPrice }](), []string{"root.Price", "MarshalJSON", "WireSchema"}},
		{reflect.TypeFor[pjPrice](), []string{"root ", "MarshalJSON"}},
		{reflect.TypeFor[[]*pjPrice](), []string{"root ", "MarshalJSON"}},
		{reflect.TypeFor[struct{ P pjPtrPrice }](), []string{"root.P", "MarshalJSON"}},
		{reflect.TypeFor[struct{ T map[string]pjText }](), []string{"root.T", "MarshalText"}},
		{reflect.TypeFor[struct{ B []byte }](), []string{"root.B", "byte slice"}},
		{reflect.TypeFor[struct{ B []pjByte }](), []string{"root.B", "byte slice"}},
		{reflect.TypeFor[struct{ N json.Number }](), []string{"root.N", "json.Number"}},
		{reflect.TypeFor[struct{ R json.RawMessage }](), []string{"root.R", "MarshalJSON"}},
		{reflect.TypeFor[struct{ I *big.Int }](), []string{"root.I", "MarshalJSON"}},
		{reflect.TypeFor[struct {
			N int `json:"n,string"`
		}](), []string{"root.N", ",string"}},
		{reflect.TypeFor[struct{ *pjInner }](), []string{"root.pjInner", "pointer"}},
		{reflect.TypeFor[struct {
			pjInner `json:"inner"`
		}](), []string{"root.pjInner", "json tag"}},
		{reflect.TypeFor[struct{ PjLevel }](), []string{"root.PjLevel", "not a struct"}},
		{pjTwice, []string{"root.B", "root.A", `"a"`}},
		{reflect.TypeFor[pjBadTag](), []string{"root.A", "json name"}},
		{reflect.TypeFor[pjPromotedClash](), []string{`"A"`}},
		{reflect.TypeFor[pjEmbedsTime](), []string{"root ", "MarshalJSON"}},
	}
	for _, c := range cases {
		_, err := NewProjected(c.typ, "root")
		if err == nil {
			t.Errorf("%s: accepted", c.typ)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error()+" ", w) {
				t.Errorf("%s: %q does not mention %q", c.typ, err, w)
			}
		}
	}
}

// PjLevel is exported so that embedding it is served as a member.
type PjLevel int

// A self-encoding type that declares its wire form is accepted, advertised
// by what it declares, and checked when served.

type pjMoney struct{ Cents int }

func (pjMoney) WireSchema() json.RawMessage {
	return json.RawMessage(`{"type":"string","pattern":"^\\$[0-9]+\\.[0-9]{2}$"}`)
}

func (m pjMoney) MarshalJSON() ([]byte, error) {
	return json.Marshal("$" + big.NewRat(int64(m.Cents), 100).FloatString(2))
}

// pjLiar declares a string and encodes a number.
type pjLiar int

func (pjLiar) WireSchema() json.RawMessage { return json.RawMessage(`{"type":"string"}`) }

func (l pjLiar) MarshalJSON() ([]byte, error) { return json.Marshal(int(l)) }

func TestWireSchemaTypesAreCheckedWhenServed(t *testing.T) {
	type view struct {
		Price pjMoney  `json:"price"`
		Lies  []pjLiar `json:"lies"`
	}
	p, err := NewProjected(reflect.TypeFor[view](), "view")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Checked() {
		t.Fatal("a type holding WireSchema types is not checked when served")
	}
	if !strings.Contains(string(p.Schema()), `"pattern"`) {
		t.Fatalf("schema %s does not advertise the declared wire form", p.Schema())
	}
	good, _ := json.Marshal(view{Price: pjMoney{4242}})
	if err := p.Check(good); err != nil {
		t.Fatalf("%s: %v", good, err)
	}
	bad, _ := json.Marshal(view{Price: pjMoney{1}, Lies: []pjLiar{7}})
	err = p.Check(bad)
	var m *Mismatch
	if !errors.As(err, &m) {
		t.Fatalf("%s: err %v, want a *Mismatch", bad, err)
	}
	if !strings.Contains(err.Error(), "/lies/0") || strings.Contains(err.Error(), "7") {
		t.Fatalf("mismatch %q should name /lies/0 and restate no value", err)
	}
	// Any JSON value may stand at the top.
	top, err := NewProjected(reflect.TypeFor[pjLiar](), "liar")
	if err != nil {
		t.Fatal(err)
	}
	if err := top.Check([]byte(`"ok"`)); err != nil {
		t.Fatal(err)
	}
	if err := top.Check([]byte(`42`)); err == nil {
		t.Fatal("a number passed a string schema")
	}
	if err := top.Check([]byte(`"ok" 1`)); err == nil {
		t.Fatal("trailing data passed")
	}
}

// A WireSchema type behind a pointer contributes its schema (it used to
// make derivation call WireSchema on a nil pointer).
func TestWireSchemaBehindAPointer(t *testing.T) {
	type view struct {
		Price *pjMoney `json:"price"`
	}
	p, err := NewProjected(reflect.TypeFor[view](), "view")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(p.Schema()), `"pattern"`) || !strings.Contains(string(p.Schema()), `"null"`) {
		t.Fatalf("schema %s", p.Schema())
	}
	if err := p.Check([]byte(`{"price":null}`)); err != nil {
		t.Fatal(err)
	}
}

// The same holds for inputs: an optional WireSchema field is advertised by
// its declared form, nullable.
func TestInputWireSchemaBehindAPointer(t *testing.T) {
	c, err := NewCodec(reflect.TypeFor[struct {
		Price *pjMoney `json:"price"`
	}]())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(c.Schema()), `"pattern"`) {
		t.Fatalf("schema %s", c.Schema())
	}
	if err := c.Validate([]byte(`{"price":"$1.00"}`)); err != nil {
		t.Fatal(err)
	}
	if err := c.Validate([]byte(`{"price":{"Cents":1}}`)); err == nil {
		t.Fatal("the Go form passed the wire schema")
	}
}
