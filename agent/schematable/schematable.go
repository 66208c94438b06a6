package schematable

import "github.com/foldagent/foldagent/agent/internal/wire"

// Entry is one type's derived schema: the schema a capability's input or
// a projection advertises and, for a projection, whether served values
// are checked against it (true when the type holds a WireSchema type).
type Entry = wire.Entry

// Enabled reports whether this build reads schemas from the table (the
// build tag foldagent_schematable). Without the tag every schema is
// derived and Install does nothing.
const Enabled = wire.SchemaTable

// Install adds entries, keyed as Derived keys them, to the table this
// build reads schemas from. It does nothing in a build without the tag.
func Install(entries map[string]Entry) { wire.Install(entries) }

// Derived returns every schema this process has derived so far, keyed
// by what it is ("input" or "projected") and the type's package path and
// name. It fails in a build with the tag, which derives nothing, and
// when two unnamed types spelled alike derived different schemas.
func Derived() (map[string]Entry, error) { return wire.Derived() }
