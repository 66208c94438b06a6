// Package page is the application half of examples/todo-web: the shared
// todo list of examples/todo/todo plus what the page adds to it, the text
// in its new-todo form and the form's own submit handler. It has no
// browser code, so it builds and is tested anywhere; the app package runs
// it in the page.
package page
