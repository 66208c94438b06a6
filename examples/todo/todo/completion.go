package todo

import "github.com/foldagent/foldagent/agent"

// Placeholders until the completion constructors land.
func createdCompletion() agent.CompletionContract[CreateInput, App, Principal] { return nil }
func renamedCompletion() agent.CompletionContract[RenameTodo, App, Principal]  { return nil }
