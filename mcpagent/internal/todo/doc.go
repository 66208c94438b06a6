// Package todo is a small todo application used to exercise mcpagent end
// to end: an Elm-architecture Model and update run by host/loop, and an
// agent contract exposing create_todo, rename_todo, select_todo,
// toggle_todo, delete_selected_todo and clear_completed (owner only),
// with the resources todos and stats. The peer tests and the todoserver
// command serve it; examples/todo is the application users read.
package todo
