// Package wire is the agent package's JSON machinery: deriving the JSON
// Schema a Go type advertises, checking a raw payload against it without
// building a tree (the validator), decoding it, and copying an audit
// input with redacted members. None of it is a contract concept, so it
// lives here, out of the agent package's API, the way log/slog keeps its
// buffers in an internal package.
//
// A validated payload is decoded by the codec's own decoder where it can
// (decode.go), which is only ever faster than encoding/json, never
// different; a js build, whose code is a page's download, decodes with
// encoding/json alone (decode_js.go).
//
// A build with the tag foldagent_schematable derives no schema: it reads
// each from a table installed at initialisation (table_lookup.go), which
// a build without the tag generated from what it derived (Derived), so
// the derivation and the agreement checks leave its binary.
package wire
