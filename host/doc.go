// Package host is the parent of the ready-made hosts an agent contract binds
// to. A host runs an Elm-architecture application and exposes it through four
// methods: Model (the current immutable snapshot), Dispatch (queue a
// Message), Subscribe (the Model changed) and Observe (a Message was
// applied, after its Model is visible).
//
//   - [github.com/foldagent/foldagent/host/loop] is a small runtime of its
//     own, for applications with no UI framework: servers, daemons, tests.
//   - [github.com/foldagent/foldagent/host/teahost] hosts a Bubble Tea v2
//     terminal program, so a person and an agent use it at the same time.
//
// This package itself holds no code.
package host
