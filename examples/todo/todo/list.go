package todo

import (
	"slices"
	"strconv"
)

// Todo is one item on the list.
type Todo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Done  bool   `json:"done"`
}

// List is the todo list: the todos, the selection, and the number the
// next todo's id is made from. It is a value; every change builds a new
// List (slices are never written in place), so a snapshot an agent holds
// never changes under it. The zero List is empty and ready to use.
type List struct {
	Todos    []Todo `json:"todos"`
	Selected string `json:"selected,omitempty"`
	NextID   int    `json:"nextId"`
}

// The list's bounds. A title is at most MaxTitle characters (Unicode code
// points, as the contract's schema counts them) and the list holds at most
// MaxTodos todos: the contract advertises and enforces both (create_todo's
// and rename_todo's title, create_todo's requirement), and Update refuses
// a CreateTodo past MaxTodos from anyone, so neither the list nor the file
// that keeps it grows without bound (at most about 2.5 MB of titles).
// MaxTodos leaves room for mcpagent's load test, 10,000 creates on one
// list.
const (
	MaxTitle = 200
	MaxTodos = 10_000
)

// Full reports whether the list holds MaxTodos todos.
func (l List) Full() bool { return len(l.Todos) >= MaxTodos }

// Find returns the todo with the given id.
func (l List) Find(id string) (Todo, bool) {
	i := l.index(id)
	if i < 0 {
		return Todo{}, false
	}
	return l.Todos[i], true
}

func (l List) index(id string) int {
	return slices.IndexFunc(l.Todos, func(t Todo) bool { return t.ID == id })
}

// AnyDone reports whether some todo is done.
func (l List) AnyDone() bool {
	return slices.ContainsFunc(l.Todos, func(t Todo) bool { return t.Done })
}

// Stats counts the todos.
func (l List) Stats() Stats {
	s := Stats{Total: len(l.Todos)}
	for _, t := range l.Todos {
		if t.Done {
			s.Done++
		}
	}
	return s
}

// Stats is the `stats` resource.
type Stats struct {
	Total int `json:"total"`
	Done  int `json:"done"`
}

// Add returns the list with a new todo at the end, and that todo.
func (l List) Add(title string) (List, Todo) {
	l.NextID++
	t := Todo{ID: "t" + strconv.Itoa(l.NextID), Title: title}
	l.Todos = append(slices.Clip(l.Todos), t)
	return l, t
}

// Rename returns the list with todo id renamed.
func (l List) Rename(id, title string) List {
	return l.edit(id, func(t *Todo) { t.Title = title })
}

// Toggle returns the list with todo id's done flag flipped.
func (l List) Toggle(id string) List {
	return l.edit(id, func(t *Todo) { t.Done = !t.Done })
}

func (l List) edit(id string, f func(*Todo)) List {
	i := l.index(id)
	if i < 0 {
		return l
	}
	l.Todos = slices.Clone(l.Todos)
	f(&l.Todos[i])
	return l
}

// Delete returns the list without todo id; a deleted selection is cleared.
func (l List) Delete(id string) List {
	l.Todos = slices.DeleteFunc(slices.Clone(l.Todos), func(t Todo) bool { return t.ID == id })
	if l.Selected == id {
		l.Selected = ""
	}
	return l
}

// ClearCompleted returns the list without its done todos.
func (l List) ClearCompleted() List {
	l.Todos = slices.DeleteFunc(slices.Clone(l.Todos), func(t Todo) bool { return t.Done })
	if _, ok := l.Find(l.Selected); !ok {
		l.Selected = ""
	}
	return l
}

// Select returns the list with id selected, if it exists.
func (l List) Select(id string) List {
	if _, ok := l.Find(id); ok {
		l.Selected = id
	}
	return l
}

// Move returns the list with the selection moved by delta positions.
func (l List) Move(delta int) List {
	if len(l.Todos) == 0 {
		return l
	}
	i := l.index(l.Selected)
	switch {
	case i < 0 && delta > 0:
		i = 0
	case i < 0:
		i = len(l.Todos) - 1
	default:
		i = min(max(i+delta, 0), len(l.Todos)-1)
	}
	l.Selected = l.Todos[i].ID
	return l
}
