// Command todo is a terminal todo list that a person uses and an AI agent
// drives at the same time, through the same Messages.
//
//	go run ./examples/todo                 # the TUI, also serving MCP on 127.0.0.1 (URL, owner token, registration command printed)
//	go run ./examples/todo -demo           # the same, with a scripted in-process agent, on a throwaway list
//	go run ./examples/todo -mcp stdio      # MCP over stdin/stdout (what an MCP client launches): attaches to the running app, or runs headless
//	go run ./examples/todo -mcp http       # headless, MCP over streamable HTTP only
//	go run ./examples/todo -data FILE      # keep the list somewhere else
//	go run ./examples/todo -tokens FILE    # bearer tokens → principals: {"<token>": {"name": "ada", "role": "owner"}}
//	go run ./examples/todo -audit FILE     # also append every audit entry to FILE, as JSON Lines
//	go run ./examples/todo -devtools       # also serve the app's history to foldagent-devtools run in this directory
//
// Installed (go install ./examples/todo), the command is todo, and an MCP
// client registers it by its path (claude mcp add todo -- "$(go env
// GOPATH)/bin/todo" -mcp stdio): nothing it does depends on the working
// directory. The list is kept under the user's config directory unless
// -data says otherwise, and a relative -data is taken as absolute from
// where the command starts, so that a client started elsewhere finds the
// running app beside the same list. -demo needs the terminal app: with
// -mcp, -a2a or -native it is refused. A tokens file that names no token,
// gives one token twice, or names a role other than owner and viewer, is
// refused.
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
// Acknowledged means saved. The contract sees the list as last saved
// (App.Kept), and the reports the changing capabilities complete on (the
// CreatedTodo of create_todo, the ChangeKept of toggle_todo,
// delete_selected_todo and clear_completed) are held until the save
// holding their change has reached the file, so a change an agent is told
// is done survives a kill -9 at any moment, and is in the file when the
// agent reads it. A save that fails keeps them held: the call is not
// reported completed.
// Saves are atomic (a synced temporary file renamed over the list); the
// temporary files a kill leaves are removed at the next start.
//
// One process owns a list: it holds a lock beside it (todos.json.lock)
// and serves the list with host/teaserve, as any Bubble Tea program
// would be: MCP over HTTP on loopback (with A2A, the Agent Native actions
// and /health mounted beside it) and a per-user, owner-only unix socket
// named after the list, on which each connection is an MCP session over
// the live app, acting as the role its hello names. `-mcp stdio` started
// while the app runs attaches to that socket (teaserve.Dial and Relay),
// so the agent drives what the person sees; with no owner it becomes the
// owner, headless. Any other second owner refuses, naming the owner's
// process and how to reach it.
//
// Every agent action and refusal appears in the activity panel as it
// happens: the principal its transport authenticated, the capability,
// its arguments, the outcome and, for a refusal, the reason the agent was
// given. Over stdio the client is the local user, acting as -role (owner
// unless told otherwise).
//
// With -devtools (off by default) the app records its history with
// package devtools (devtools.go: teadevtools.Attach on the host; each
// session's calls named by its principal as the audit names it, which the
// runtime hands the host, and their activity reports by
// devtools.WithAgent), serves it on loopback behind a random token and
// publishes it in the per-user registry ($FOLDAGENT_DEVTOOLS_DIR when
// set), where cmd/foldagent-devtools started in the app's directory or
// above finds it. The developer's dispatch is refused unless
// -devtools-dispatch enables it. Without -devtools none of it runs,
// though the command links it.
//
// An agent's clear_completed waits for the owner's approval in the
// terminal app. The card is the library's, drawn by host/teahost over the
// app (Options.Approvals; the App draws none and reads no y or n): the
// bottom rows, under a rule the app's content cannot cross, naming the
// asking agent and the done todos the clear removes; y and n count once
// the card has stood unchanged for a second. Todo titles, the status
// line and the activity panel are drawn through host/inert, so an
// agent's title shows its control characters instead of obeying them.
package main
