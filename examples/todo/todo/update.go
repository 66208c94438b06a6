package todo

// Msg is a Message the list handles: one of the types below. Applications
// with more state than the list (the terminal App, the web page) take
// their own Messages besides, and hand these to Update.
type Msg interface{ isMsg() }

// The list's Messages. The agent contract exposes most of them (see
// Contract); CreatedTodo is a report, never sent by an agent.
type (
	// CreateTodo adds a todo. RequestID carries the agent invocation that
	// asked for it (empty for a person), so that the CreatedTodo it causes
	// can be told apart from another one with the same title.
	CreateTodo struct {
		Title     string `json:"title"`
		RequestID string `json:"requestId,omitempty"`
	}
	// CreatedTodo reports a todo that CreateTodo added, with the
	// RequestID of the CreateTodo that caused it. create_todo completes
	// on it, so a host applies it only once the todo is kept: at once
	// for a list kept in memory (Loop, the web page), after the save that
	// wrote it for a list kept in a file (the terminal app).
	CreatedTodo struct {
		Todo      Todo   `json:"todo"`
		RequestID string `json:"requestId,omitempty"`
	}
	// RenameTodo gives a todo a new title.
	RenameTodo struct {
		ID    string `json:"id" jsonschema:"The id of the todo to rename."`
		Title string `json:"title" jsonschema:"The todo's new title."`
	}
	// SelectTodo selects a todo.
	SelectTodo struct {
		ID string `json:"id" jsonschema:"The id of the todo to select."`
	}
	// ToggleTodo marks a todo done, or not done again.
	ToggleTodo struct {
		ID string `json:"id" jsonschema:"The id of the todo to mark done or not done."`
	}
	// DeleteTodo removes a todo.
	DeleteTodo struct {
		ID string `json:"id"`
	}
	// ClearCompleted removes every todo that is done.
	ClearCompleted struct{}
)

func (CreateTodo) isMsg()     {}
func (CreatedTodo) isMsg()    {}
func (RenameTodo) isMsg()     {}
func (SelectTodo) isMsg()     {}
func (ToggleTodo) isMsg()     {}
func (DeleteTodo) isMsg()     {}
func (ClearCompleted) isMsg() {}

// Update applies msg to l. It returns the new list and the Messages that
// report what happened, to be applied after msg: a CreatedTodo for a
// CreateTodo, nothing otherwise. It never changes l, and it does no I/O:
// each host turns the reports into its own effect (a Bubble Tea Cmd,
// loop.Emit), and saving is the application's business. An application
// that saves the list applies the reports once the save holding their
// change has finished, since an agent takes them as a promise that the
// change is kept.
//
// A Message naming a todo the list does not hold changes nothing.
func Update(l List, msg Msg) (List, []Msg) {
	switch msg := msg.(type) {
	case CreateTodo:
		next, created := l.Add(msg.Title)
		return next, []Msg{CreatedTodo{Todo: created, RequestID: msg.RequestID}}
	case RenameTodo:
		return l.Rename(msg.ID, msg.Title), nil
	case SelectTodo:
		return l.Select(msg.ID), nil
	case ToggleTodo:
		return l.Toggle(msg.ID), nil
	case DeleteTodo:
		return l.Delete(msg.ID), nil
	case ClearCompleted:
		return l.ClearCompleted(), nil
	}
	// CreatedTodo reports a change already made.
	return l, nil
}
