//go:build !foldagent_schematable

package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"sync"
)

// SchemaTable reports whether this build reads schemas from an installed
// table. It is false in this build: every schema is derived, and noted
// for Derived.
const SchemaTable = false

// derivations are the entries this process derived, for Derived: one per
// declared type, so bounded by the program's own types.
var derivations struct {
	sync.Mutex
	m        map[string]Entry
	conflict string // a key derived twice with different results
}

func note(key string, e Entry) {
	derivations.Lock()
	defer derivations.Unlock()
	if old, ok := derivations.m[key]; ok && (old.Checked != e.Checked || !bytes.Equal(old.Schema, e.Schema)) {
		derivations.conflict = key
	}
	if derivations.m == nil {
		derivations.m = map[string]Entry{}
	}
	derivations.m[key] = e
}

// Derived returns every schema this process derived so far, keyed as a
// table is. It fails when two types share a key (two unnamed types
// spelled alike from packages of the same name) and derived differently,
// which a table could not tell apart.
func Derived() (map[string]Entry, error) {
	derivations.Lock()
	defer derivations.Unlock()
	if derivations.conflict != "" {
		return nil, errors.New("two types named " + derivations.conflict + " derived different schemas; a schema table cannot tell them apart")
	}
	return maps.Clone(derivations.m), nil
}

// Install does nothing in this build, which derives every schema.
func Install(map[string]Entry) {}

func inputSchema(t reflect.Type) (json.RawMessage, error) {
	raw, err := deriveInput(t)
	if err == nil {
		note(tableKey(inputKind, t), Entry{Schema: raw})
	}
	return raw, err
}

func projectedSchema(t reflect.Type, label string) (json.RawMessage, bool, error) {
	return deriveProjected(t, label)
}

func confirmSamples(t reflect.Type, p *Projected) error {
	if err := deriveSamples(t, p); err != nil {
		return err
	}
	note(tableKey(projectedKind, t), Entry{Schema: p.schema, Checked: p.checked})
	return nil
}
