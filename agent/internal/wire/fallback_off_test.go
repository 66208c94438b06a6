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
	if _, err := NewCodec(reflect.TypeFor[withPattern]()); err == nil || !strings.Contains(err.Error(), "foldagent_noschemafallback") {
		t.Fatalf("a pattern schema: err = %v, want one naming the build tag", err)
	}
	if _, err := NewProjected(reflect.TypeFor[withPattern](), "context"); err == nil || !strings.Contains(err.Error(), "foldagent_noschemafallback") {
		t.Fatalf("a projected pattern schema: err = %v, want one naming the build tag", err)
	}
}
