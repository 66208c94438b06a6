// Package schemas is the page's schema table: the JSON Schemas of the
// todo contract's inputs and projections, as a build without the tag
// foldagent_schematable derives them, installed at initialisation for
// the page's build, which has the tag and so links no schema derivation
// (see agent/schematable).
//
// table.go is generated: TestTableIsCurrent makes the page's
// declarations (the todo contract bound to the page's Program), in a
// build without the tag, and fails when what they derived differs from
// the file. After changing a todo type, regenerate it:
//
//	go test ./examples/todo-web/schemas -update
//
// The application imports it for its init, which installs the table
// before the todo package declares anything: Go initialises the ready
// package whose import path sorts first, and ".../todo-web/schemas" sorts
// before ".../todo/todo".
package schemas
