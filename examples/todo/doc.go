// Command todo is a terminal todo list that a person uses and an AI agent
// drives at the same time, through the same Messages.
//
//	go run ./examples/todo                 # the TUI, also serving MCP on 127.0.0.1 (URL and owner token printed)
//	go run ./examples/todo -demo           # the same, with a scripted in-process agent
//	go run ./examples/todo -mcp stdio      # headless, MCP over stdin/stdout (what an MCP client launches)
//	go run ./examples/todo -mcp http       # headless, MCP over streamable HTTP only
//	go run ./examples/todo -data FILE      # keep the list somewhere else
//	go run ./examples/todo -tokens FILE    # bearer tokens → principals: {"<token>": {"name": "ada", "role": "owner"}}
//	go run ./examples/todo -audit FILE     # also append every audit entry to FILE, as JSON Lines
//
// The list, its Messages and the agent contract are the shared todo
// domain, package examples/todo/todo; this command adds the terminal: the
// Bubble Tea App (its view, its keys, its status line and activity
// panel), the Store the list is kept in, and Bind, which binds the
// contract to the running App. Persistence is asynchronous: a change
// returns a Cmd that writes the list to a JSON file and reports Saved or
// SaveFailed; saves carry a version so an older one never overwrites a
// newer, and Flush plus Close on exit make sure nothing is lost or
// written late.
//
// Every agent action and refusal appears in the activity panel as it
// happens, fed by the contract's audit log. Over stdio the client is the
// local user, acting as -role (owner unless told otherwise).
package main
