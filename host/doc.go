// Package host is the parent of the ready-made hosts an agent contract binds
// to. A host runs an Elm-architecture application and exposes it through four
// methods: Model (the current immutable snapshot), Dispatch (queue a
// Message), Subscribe (the Model changed) and Observe (a Message was
// applied, after its Model is visible).
//
//   - [github.com/foldagent/foldagent/host/loop] is a small runtime of its
//     own, for applications with no UI framework: servers, daemons, tests.
//   - [github.com/foldagent/foldagent/host/teahost] hosts a Bubble Tea v2
//     terminal program, so a person and an agent use it at the same time,
//     and draws the person's approval cards over it.
//
// Beside them, for the person's screen whatever the host:
//
//   - [github.com/foldagent/foldagent/host/approvals] is the person's side
//     of approvals: a deck of cards with a settle time, answers naming the
//     card drawn, and the activity lines.
//   - [github.com/foldagent/foldagent/host/inert] makes agent and Model text
//     inert for a terminal.
//
// This package itself holds no code (only tests of what every host shares).
package host
