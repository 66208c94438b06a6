//go:build foldagent_noschemafallback

package wire

import (
	"encoding/json"
	"errors"
)

// FallbackLinked reports whether this build links jsonschema-go's
// validator for schema keywords the compiled validator does not
// implement. It is false in this build (tag foldagent_noschemafallback).
const FallbackLinked = false

// errNoFallback says why a schema beyond the compiled validator's subset
// cannot be used in this build, and how to get one where it can.
var errNoFallback = errors.New("its JSON Schema uses keywords beyond what the built-in validator implements (type, properties, required, additionalProperties, items, minItems, maxItems, minimum, maximum, minLength, maxLength), and this build leaves jsonschema-go's validator out (build tag foldagent_noschemafallback); build without that tag")

// fallbackJudge refuses: this build has no jsonschema-go validator.
func fallbackJudge(json.RawMessage) (judge, error) { return nil, errNoFallback }
