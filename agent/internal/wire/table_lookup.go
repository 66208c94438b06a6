//go:build foldagent_schematable

package wire

import (
	"encoding/json"
	"errors"
	"reflect"
	"sync"
)

// SchemaTable reports whether this build reads schemas from an installed
// table. It is true in this build (tag foldagent_schematable).
const SchemaTable = true

var table struct {
	sync.Mutex
	m map[string]Entry
}

// Install adds entries to the table the schemas are read from. It must
// run before the first declaration: in an init function of a package
// initialised before the declaring ones.
func Install(entries map[string]Entry) {
	table.Lock()
	defer table.Unlock()
	if table.m == nil {
		table.m = make(map[string]Entry, len(entries))
	}
	for k, e := range entries {
		table.m[k] = e
	}
}

// Derived fails in this build, which derives nothing.
func Derived() (map[string]Entry, error) {
	return nil, errors.New("this build (tag foldagent_schematable) reads schemas from a table and derives none; list them in a build without the tag")
}

func lookup(kind string, t reflect.Type) (Entry, error) {
	table.Lock()
	defer table.Unlock()
	e, ok := table.m[tableKey(kind, t)]
	if !ok {
		return Entry{}, errors.New("the JSON Schema of " + t.String() + " is not in this build's schema table (build tag foldagent_schematable); regenerate the table, in a build without the tag, from the declarations this build makes")
	}
	return e, nil
}

func inputSchema(t reflect.Type) (json.RawMessage, error) {
	e, err := lookup(inputKind, t)
	return e.Schema, err
}

func projectedSchema(t reflect.Type, _ string) (json.RawMessage, bool, error) {
	e, err := lookup(projectedKind, t)
	return e.Schema, e.Checked, err
}

// confirmSamples has nothing to do: the build that derived the table
// confirmed the samples before noting the entry.
func confirmSamples(reflect.Type, *Projected) error { return nil }
