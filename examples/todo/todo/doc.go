// Package todo is the todo domain every todo example shares: the list
// (List, a value whose every change builds a new one), its Messages and
// their pure Update, and the agent contract over it. The terminal app
// (examples/todo, Bubble Tea), the web app (examples/todo-web, host/loop
// in the browser) and mcpagent's tests and examples all run this one
// list; what each adds (a terminal view and a store, a DOM view and a
// form's draft) stays in the application. The package has no user
// interface and no I/O, so it builds anywhere, GOOS=js included.
//
// Contract declares what an agent may see (the todos and the selection;
// the resources todos and stats) and do. Every capability that changes
// the todos completes only once its change is kept (saved, for an app
// that keeps the list in a file): create_todo on the CreatedTodo its own
// Message caused, correlated by the invocation id that ToMessage carries
// into CreateTodo; toggle_todo, delete_selected_todo and clear_completed
// the same way, on the one report ChangeKept, which carries what the
// change did; rename_todo when the todo has the new title in the list
// as kept. select_todo completes once the todo is selected. rename_todo,
// select_todo and toggle_todo refuse
// an id the list does not hold; delete_selected_todo is offered only
// while a todo is selected and builds its Message from the selection
// Available approved; clear_completed is offered only while some todo is
// done, and only the owner may use it.
//
// The contract's Model is List. An application whose Model holds a List
// binds it through Focus; a program whose Model is the List runs Loop.
// As binds a runtime whose every call acts as one principal.
package todo
