// Package bubbles holds three programs built from Bubble Tea components
// this repository did not write, each taken as a module dependency and run
// with its Update and View unchanged: bubbles' list (pantry), bubbles'
// textarea (notes) and a huh form (signup). Package apps declares, for
// each, the few lines that make the component a tea.Model and the agent
// contract whose actions are the key presses a person would make
// (host/teahost/keyact, and keyact/listact for the list); the commands
// serve them with teaserve.Main. What is counted as glue (the component
// made a tea.Model, and main) is marked in each file.
//
// Each command's test runs its binary in tmux and has the official
// TypeScript MCP client do a whole task, over stdio attached to the
// running program and over HTTP, while the person's keys arrive in
// between; an agent's hostile text is checked both as the model reads it
// and as the person's screen shows it. The harness they share is
// internal/tsdrive.
package bubbles
