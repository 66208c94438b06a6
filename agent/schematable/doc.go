// Package schematable lets a build read the JSON Schemas of its
// capabilities' inputs and its projections from a table instead of
// deriving them from the Go types when they are declared.
//
// Deriving a schema takes code: the derivation itself, the checks that a
// type's JSON agrees with what its schema will say, and the sample
// encodings that confirm it. A server does not notice it; a browser page
// downloads it (about 27 KB of examples/todo-web's gzip). A build with
// the tag foldagent_schematable links none of it: NewCodec and
// NewProjected, inside agent, look each type up in the table Install
// filled, and a type missing from it fails its declaration with an error
// saying so, the way any declaration mistake does.
//
// The table is what a build without the tag derived for the same
// declarations: such a build notes every schema it derives, and Derived
// returns them. An application keeps the table in a generated file whose
// test, in a build without the tag, makes the declarations the page makes
// and compares Derived with the file (examples/todo-web/schemas does),
// so the table cannot fall behind the types, and every check a
// derivation makes was made on them.
//
// Install must run before the first declaration: from an init function
// of a package that is initialised before the declaring packages (Go
// initialises, among the packages whose imports are ready, the one whose
// import path sorts first).
package schematable
