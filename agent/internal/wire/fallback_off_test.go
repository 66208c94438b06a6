//go:build foldagent_noschemafallback

package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Run with: go test -tags foldagent_noschemafallback ./agent/internal/wire

type patternCode string

func (patternCode) WireSchema() json.RawMessage {
	return json.RawMessage(`{"type":"string","pattern":"^[A-Z]{3}$"}`)
}

type withPattern struct {
	Code patternCode `json:"code"`
}

type plainInput struct {
	Title string   `json:"title"`
	Tags  []string `json:"tags,omitempty"`
	Due   *int     `json:"due"`
}

type boundedInput struct {
	Title string `json:"title" bounds:"minLength=1,maxLength=200"`
	Qty   int    `json:"qty" bounds:"minimum=1,maximum=99"`
}

// Without the fallback, a schema within the validator's subset works as
// in every build, and one beyond it is refused at construction, saying
// which build tag left the fallback out.
func TestNoFallbackBuild(t *testing.T) {
	if FallbackLinked {
		t.Fatal("FallbackLinked is true in a foldagent_noschemafallback build")
	}
	c, err := NewCodec(reflect.TypeFor[plainInput]())
	if err != nil {
		t.Fatalf("a subset schema: %v", err)
	}
	if err := c.Validate([]byte(`{"title":"Milk","due":null}`)); err != nil {
		t.Errorf("valid payload refused: %v", err)
	}
	if err := c.Validate([]byte(`{"title":"Milk","due":null,"extra":1}`)); err == nil {
		t.Error("an undeclared member was accepted")
	}
	// Bounds are in the validator's subset: enforced without the fallback.
	bounded, err := NewCodec(reflect.TypeFor[boundedInput]())
	if err != nil {
		t.Fatalf("a bounded schema: %v", err)
	}
	for payload, ok := range map[string]bool{
		`{"title":"Milk","qty":3}`:                             true,
		`{"title":"` + strings.Repeat("é", 200) + `","qty":1}`: true,
		`{"title":"` + strings.Repeat("é", 201) + `","qty":1}`: false,
		`{"title":"","qty":1}`:                                 false,
		`{"title":"Milk","qty":100}`:                           false,
	} {
		if err := bounded.Validate([]byte(payload)); (err == nil) != ok {
			t.Errorf("%.40s: %v, want accepted %v", payload, err, ok)
		}
	}
	if _, err := NewCodec(reflect.TypeFor[withPattern]()); err == nil || !strings.Contains(err.Error(), "foldagent_noschemafallback") {
		t.Fatalf("a pattern schema: err = %v, want one naming the build tag", err)
	}
	if _, err := NewProjected(reflect.TypeFor[withPattern](), "context"); err == nil || !strings.Contains(err.Error(), "foldagent_noschemafallback") {
		t.Fatalf("a projected pattern schema: err = %v, want one naming the build tag", err)
	}
}
