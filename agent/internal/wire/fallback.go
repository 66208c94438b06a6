//go:build !foldagent_noschemafallback

package wire

import "github.com/google/jsonschema-go/jsonschema"

// FallbackLinked reports whether this build links jsonschema-go's
// validator for schema keywords the compiled validator does not
// implement. It is false in a build with the foldagent_noschemafallback
// tag.
const FallbackLinked = true

// fallbackJudge resolves s with jsonschema-go and returns its validator.
// It is the only place the package resolves or validates with
// jsonschema-go, so that a build tag can leave that machinery (and the
// regexp and math/big code it brings) out of the binary.
func fallbackJudge(s *jsonschema.Schema) (judge, error) {
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	return r.Validate, nil
}
