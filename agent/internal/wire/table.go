package wire

import (
	"encoding/json"
	"reflect"
)

// This file names what a schema table holds. A build with the tag
// foldagent_schematable (a browser page's, whose download pays for every
// function) reads each type's schema from a table installed at
// initialisation instead of deriving it: the derivation, the agreement
// checks and the sample encodings (derive.go, bounds.go, most of
// projection.go) then leave the binary. The table is what a build
// without the tag derived for the same declarations (Derived), so the
// schemas, and every check made on them, are the ones that build made.
// agent/schematable is the way in for applications.

// Entry is what NewCodec or NewProjected derived for one type: the
// advertised schema, and, for a projected type, whether served values
// are checked against it (Projected.Checked).
type Entry struct {
	Schema  json.RawMessage
	Checked bool
}

// Table keys: an input type (NewCodec) and a projected type
// (NewProjected) are derived differently (a projected map admits null).
const (
	inputKind     = "input"
	projectedKind = "projected"
)

// tableKey names t in a table: a named type by its package path and
// name, any other by its Go syntax.
func tableKey(kind string, t reflect.Type) string {
	name := t.String()
	if t.Name() != "" && t.PkgPath() != "" {
		name = t.PkgPath() + "." + t.Name()
	}
	return kind + " " + name
}
