package wire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// vtBounded declares bounds on its fields with the bounds tag.
type vtBounded struct {
	Title string   `json:"title" jsonschema:"What to do." bounds:"minLength=1,maxLength=5"`
	Note  *string  `json:"note,omitempty" bounds:"maxLength=3"`
	Qty   int      `json:"qty" bounds:"minimum=1,maximum=99"`
	Small int8     `json:"small,omitempty" bounds:"maximum=10"`
	Price float64  `json:"price,omitempty" bounds:"minimum=0.5"`
	Tags  []string `json:"tags,omitempty" bounds:"minItems=1,maxItems=2"`
	Free  string   `json:"free,omitempty"`
}

// The schema a bounded input advertises is what jsonschema-go writes for
// the same type with the same keywords set: the tag's keywords are the
// schema's own.
func TestBoundsAreAdvertisedAsJSONSchemaKeywords(t *testing.T) {
	got, err := deriveSchema(reflect.TypeFor[vtBounded](), false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := jsonschema.For[vtBounded](nil)
	if err != nil {
		t.Fatal(err)
	}
	one, five, three, two := 1, 5, 3, 2
	lo, hi, ten, half := 1.0, 99.0, 10.0, 0.5
	want.Properties["title"].MinLength, want.Properties["title"].MaxLength = &one, &five
	want.Properties["note"].MaxLength = &three
	want.Properties["qty"].Minimum, want.Properties["qty"].Maximum = &lo, &hi
	want.Properties["small"].Maximum = &ten
	want.Properties["price"].Minimum = &half
	want.Properties["tags"].MinItems, want.Properties["tags"].MaxItems = &one, &two
	wantJSON, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wantJSON) {
		t.Fatalf("derived\n%s\nwant\n%s", got, wantJSON)
	}
}

// The validator enforces the bounds exactly as jsonschema-go judges the
// advertised schema: lengths in Unicode code points of the decoded string
// (escapes, surrogate pairs and bytes that are not UTF-8 included), ranges
// and item counts, each refusal a correctable problem at its path.
func TestBoundsAreEnforcedAsJSONSchemaJudgesThem(t *testing.T) {
	c, ref := validatorFixture(t, reflect.TypeFor[vtBounded]())
	with := func(members string) string { return `{"title":"abc","qty":1` + members + `}` }
	cases := []struct {
		payload string
		path    string // "" when accepted
	}{
		{with(``), ""},
		{`{"title":"abcde","qty":99}`, ""},
		{`{"title":"abcdef","qty":1}`, "/title"},
		{`{"title":"","qty":1}`, "/title"},
		{`{"title":"ééééé","qty":1}`, ""},                   // five code points, ten bytes
		{`{"title":"😀😀😀😀😀","qty":1}`, ""},                   // five code points, twenty bytes
		{`{"title":"\ud83d\ude00\u00e9\n\"x","qty":1}`, ""}, // five after unescaping
		{`{"title":"\ud83d\ude00\u00e9\n\"xy","qty":1}`, "/title"},
		{"{\"title\":\"\xff\xfe\xfd\xfc\xfb\",\"qty\":1}", ""}, // five U+FFFD
		{"{\"title\":\"\xff\xfe\xfd\xfc\xfb\xfa\",\"qty\":1}", "/title"},
		{with(`,"note":"abc"`), ""},
		{with(`,"note":null`), ""},
		{with(`,"note":"abcd"`), "/note"},
		{`{"title":"abc","qty":0}`, "/qty"},
		{`{"title":"abc","qty":100}`, "/qty"},
		{with(`,"small":10`), ""},
		{with(`,"small":11`), "/small"},
		{with(`,"price":0.4`), "/price"},
		{with(`,"tags":["a","b"]`), ""},
		{with(`,"tags":[]`), "/tags"},
		{with(`,"tags":["a","b","c"]`), "/tags"},
		{with(`,"free":"` + strings.Repeat("x", 10000) + `"`), ""},
		{`{"title":"` + strings.Repeat("x", 900<<10) + `","qty":1}`, "/title"},
	}
	for _, tc := range cases {
		fast := c.Validate([]byte(tc.payload))
		if want := referenceValidate(ref, []byte(tc.payload)); (fast == nil) != (want == nil) {
			t.Errorf("%.60q: validator %v, jsonschema-go %v", tc.payload, fast, want)
		}
		_, err := Decode[vtBounded](c, []byte(tc.payload))
		if tc.path == "" {
			if err != nil {
				t.Errorf("%.60q refused: %v", tc.payload, err)
			}
			continue
		}
		rej, ok := err.(*Rejection)
		if !ok || len(rej.Problems) != 1 || rej.Problems[0] != (Problem{Path: tc.path, Code: CodeInvalid}) {
			t.Errorf("%.60q: got %v, want one invalid problem at %s", tc.payload, err, tc.path)
			continue
		}
		if strings.Contains(rej.Err.Error(), "xxx") {
			t.Errorf("the cause restates the value: %.80s", rej.Err)
		}
	}
	// Every bound broken at once: each is listed.
	_, err := Decode[vtBounded](c, []byte(`{"title":"","qty":0,"note":"abcd","tags":[]}`))
	rej, _ := err.(*Rejection)
	if rej == nil || len(rej.Problems) != 4 {
		t.Fatalf("four broken bounds: %v", err)
	}
}

// A mistake in a bounds tag fails the declaration, naming the field and
// what is wrong.
func TestBoundsTagMistakesFailNamingTheField(t *testing.T) {
	cases := []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeOf(struct {
			A string `bounds:"maxLen=3"`
		}{}), "A: maxLen is not a bounds keyword"},
		{reflect.TypeOf(struct {
			A int `bounds:"maxLength=3"`
		}{}), "A: maxLength bounds a string, and the field is int"},
		{reflect.TypeOf(struct {
			A string `bounds:"maximum=3"`
		}{}), "A: maximum bounds a number"},
		{reflect.TypeOf(struct {
			A [2]int `bounds:"maxItems=3"`
		}{}), "A: maxItems bounds a slice"},
		{reflect.TypeOf(struct {
			A string `bounds:"maxLength=-1"`
		}{}), "A: maxLength=-1: want a count"},
		{reflect.TypeOf(struct {
			A string `bounds:"minLength=4,maxLength=3"`
		}{}), "A: minLength 4 is above maxLength 3"},
		{reflect.TypeOf(struct {
			A int `bounds:"minimum=5,maximum=1"`
		}{}), "A: minimum 5 is above maximum 1"},
		{reflect.TypeOf(struct {
			A int `bounds:"maximum=1.5"`
		}{}), "A: maximum=1.5: the field is int, which holds whole numbers"},
		{reflect.TypeOf(struct {
			A uint8 `bounds:"maximum=300"`
		}{}), "A: maximum=300 is outside what uint8 holds"},
		{reflect.TypeOf(struct {
			A string `bounds:"maxLength=3,maxLength=4"`
		}{}), "A: maxLength is given twice"},
		{reflect.TypeOf(struct {
			A string `bounds:"maxLength"`
		}{}), `A: "maxLength" is not KEYWORD=VALUE`},
		{reflect.TypeOf(struct {
			A vtCode `bounds:"maxLength=3"`
		}{}), "A: wire.vtCode supplies its own schema (WireSchema): declare its bounds there"},
	}
	for _, tc := range cases {
		_, err := NewCodec(tc.typ)
		if err == nil || !strings.Contains(err.Error(), "bounds tag on struct field") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.typ, err, tc.want)
		}
	}
}
