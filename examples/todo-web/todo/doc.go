// Package todo is the application half of examples/todo-web: the Model,
// its Messages, update, and the agent contract. It has no browser code, so
// it builds and is tested anywhere; the app package runs it in the page.
package todo
