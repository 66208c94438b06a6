package todo

// Msg is a Message the list handles: one of the types below. Applications
// with more state than the list (the terminal App, the web page) take
// their own Messages besides, and hand these to Update.
type Msg interface{ isMsg() }

// The list's Messages. The agent contract exposes most of them (see
// Contract); CreatedTodo and ChangeKept are reports, never sent by an
// agent.
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
		ID    string `json:"id" jsonschema:"The id of the todo to rename." bounds:"maxLength=32"`
		Title string `json:"title" jsonschema:"The todo's new title." bounds:"minLength=1,maxLength=200"`
	}
	// SelectTodo selects a todo.
	SelectTodo struct {
		ID string `json:"id" jsonschema:"The id of the todo to select." bounds:"maxLength=32"`
	}
	// ToggleTodo marks a todo done, or not done again. RequestID, as in
	// CreateTodo, carries the agent invocation that asked (empty for a
	// person): the ChangeKept it causes carries it back. It has no JSON
	// name, so that a contract exposing the Message itself as a
	// capability's input (as mcpagent's tests do) never lets an agent
	// choose it; the todo contract sets it in ToMessage.
	ToggleTodo struct {
		ID        string `json:"id" jsonschema:"The id of the todo to mark done or not done." bounds:"maxLength=32"`
		RequestID string `json:"-"`
	}
	// DeleteTodo removes a todo; RequestID as in ToggleTodo.
	DeleteTodo struct {
		ID        string `json:"id"`
		RequestID string `json:"-"`
	}
	// ClearCompleted removes every todo that is done; RequestID as in
	// ToggleTodo.
	ClearCompleted struct {
		RequestID string `json:"-"`
	}
	// ChangeKept reports that a change an agent asked for (a ToggleTodo,
	// DeleteTodo or ClearCompleted with a RequestID) is made, with the
	// RequestID of the Message that asked and what the change did. It is
	// the one fact toggle_todo, delete_selected_todo and clear_completed
	// complete on, so, like CreatedTodo, a host applies it only once the
	// change is kept: at once for a list kept in memory (Loop, the web
	// page), after the save that wrote the change for a list kept in a
	// file (the terminal app).
	ChangeKept struct {
		RequestID string `json:"requestId,omitempty"`
		// Todo is the todo as the change left it (a ToggleTodo's), nil
		// when the change removed todos instead.
		Todo *Todo `json:"todo,omitempty"`
		// Removed lists the todos the change took off the list, in list
		// order: a DeleteTodo's one, a ClearCompleted's every done todo
		// (none when there was none). Nil for a ToggleTodo.
		Removed []Todo `json:"removed,omitempty"`
	}
)

func (CreateTodo) isMsg()     {}
func (CreatedTodo) isMsg()    {}
func (RenameTodo) isMsg()     {}
func (SelectTodo) isMsg()     {}
func (ToggleTodo) isMsg()     {}
func (DeleteTodo) isMsg()     {}
func (ClearCompleted) isMsg() {}
func (ChangeKept) isMsg()     {}

// Update applies msg to l. It returns the new list and the Messages that
// report what happened, to be applied after msg: a CreatedTodo for a
// CreateTodo, a ChangeKept for a ToggleTodo, DeleteTodo or ClearCompleted
// an agent asked for (one with a RequestID), nothing otherwise. It never changes l, and it does no I/O:
// each host turns the reports into its own effect (a Bubble Tea Cmd,
// loop.Emit), and saving is the application's business. An application
// that saves the list applies the reports once the save holding their
// change has finished, since an agent takes them as a promise that the
// change is kept.
//
// A Message naming a todo the list does not hold changes nothing and
// reports nothing: an agent asking for it is not told it is done.
func Update(l List, msg Msg) (List, []Msg) {
	switch msg := msg.(type) {
	case CreateTodo:
		if l.Full() {
			// Past the bound nothing is added, from anyone; create_todo
			// is not offered then, so only a create racing another one
			// to the last place gets here, and its call ends at its
			// deadline, never reported done.
			return l, nil
		}
		next, created := l.Add(msg.Title)
		return next, []Msg{CreatedTodo{Todo: created, RequestID: msg.RequestID}}
	case RenameTodo:
		return l.Rename(msg.ID, msg.Title), nil
	case SelectTodo:
		return l.Select(msg.ID), nil
	case ToggleTodo:
		next := l.Toggle(msg.ID)
		t, ok := next.Find(msg.ID)
		if !ok {
			return l, nil
		}
		return next, report(ChangeKept{RequestID: msg.RequestID, Todo: &t})
	case DeleteTodo:
		t, ok := l.Find(msg.ID)
		if !ok {
			return l, nil
		}
		return l.Delete(msg.ID), report(ChangeKept{RequestID: msg.RequestID, Removed: []Todo{t}})
	case ClearCompleted:
		var done []Todo
		for _, t := range l.Todos {
			if t.Done {
				done = append(done, t)
			}
		}
		return l.ClearCompleted(), report(ChangeKept{RequestID: msg.RequestID, Removed: done})
	}
	// CreatedTodo and ChangeKept report a change already made.
	return l, nil
}

// report returns c when an agent asked for its change: a person's change
// has no one waiting on it.
func report(c ChangeKept) []Msg {
	if c.RequestID == "" {
		return nil
	}
	return []Msg{c}
}
