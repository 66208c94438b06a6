//go:build !foldagent_noschemafallback

package wire

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
)

// FallbackLinked reports whether this build links jsonschema-go's
// validator for schema keywords the compiled validator does not
// implement. It is false in a build with the foldagent_noschemafallback
// tag.
const FallbackLinked = true

// fallbackJudge resolves the schema raw with jsonschema-go and returns
// its validator. It is the only place the package uses jsonschema-go, so
// that a build tag can leave it (and the regexp, math/big and net/url
// code it brings) out of the binary.
func fallbackJudge(raw json.RawMessage) (judge, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	return r.Validate, nil
}
