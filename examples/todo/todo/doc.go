// Package todo is the todo application of examples/todo: an ordinary
// Bubble Tea program (App, its Messages and Update) that a person uses at
// the terminal while an AI agent drives it through the same Messages.
//
// The list is a value (List): every change builds a new one, so a Model
// snapshot an agent holds never changes under it. Persistence is
// asynchronous: a change returns a Cmd that writes the list to a JSON file
// (Store) and reports Saved or SaveFailed; saves carry a version so an
// older one never overwrites a newer, and Flush plus Close on exit make
// sure nothing is lost or written late.
//
// Contract declares what an agent may see (the todos and the selection;
// the resources todos and stats) and do: create_todo completes on the
// CreatedTodo its own Message caused, correlated by the invocation id that
// ToMessage carries into CreateTodo; rename_todo completes when the todo
// has the new title; delete_selected_todo is offered only while a todo is
// selected and builds its Message from the selection Available approved;
// clear_completed is offered only while some todo is done and only the
// owner may use it. Bind binds it to a running App (teahost) with an audit
// log whose entries come back into the App as Activity Messages, so the
// person sees every agent action and refusal as it happens; RuntimeFor
// gives each authenticated MCP session a runtime acting as its principal.
package todo
