package main

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/examples/todo/todo"
)

// The application's own Messages, besides the list's (todo.Msg). None of
// them is exposed to an agent.
type (
	// Saved reports that a version of the list reached the file.
	Saved struct{ Version int64 }
	// SaveFailed reports that a version could not be written.
	SaveFailed struct {
		Version int64
		Err     string
	}
	// Endpoint tells the app where it serves MCP, to show on screen.
	Endpoint struct{ URL string }
	// Activity reports something an agent did, for the activity panel.
	Activity struct {
		At         time.Time
		Who        string
		Capability string
		Outcome    string
	}
)

type mode int

const (
	browsing mode = iota
	adding
	renaming
)

// maxActivity is how many agent actions the panel shows.
const maxActivity = 6

// App is the todo application as a Bubble Tea model: the shared todo
// List, plus what the terminal adds (the store, the status line, the
// activity panel, the text being typed). Like every model a host
// publishes to an agent, it is a value: Update returns a new App and never
// changes the one it was given.
type App struct {
	List todo.List

	store    *Store
	version  int64
	status   string
	activity []Activity
	mode     mode
	draft    string
	endpoint string
}

// NewApp returns the application with list loaded from store. Loading is
// synchronous, before the program starts, so that nothing an agent does
// early can be overwritten by a late load; saving is asynchronous.
func NewApp(store *Store, list todo.List) App {
	return App{List: list, store: store, status: "loaded " + store.Path()}
}

// Init implements tea.Model.
func (a App) Init() tea.Cmd { return nil }

// Update implements tea.Model.
func (a App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case todo.Msg:
		return a.apply(msg)
	case Saved:
		if msg.Version == a.version {
			a.status = "saved"
		}
		return a, nil
	case SaveFailed:
		a.status = "could not save: " + msg.Err
		return a, nil
	case Endpoint:
		a.endpoint = msg.URL
		return a, nil
	case Activity:
		a.activity = append(a.activity[max(0, len(a.activity)-maxActivity+1):len(a.activity):len(a.activity)], msg)
		return a, nil
	case tea.KeyPressMsg:
		return a.key(msg)
	}
	return a, nil
}

// apply runs the list's Update and turns the Messages it reports into
// Cmds. A change of the todos is saved; a change of the selection (a
// session's, not the file's) and a report are not.
func (a App) apply(msg todo.Msg) (App, tea.Cmd) {
	list, reports := todo.Update(a.List, msg)
	var save tea.Cmd
	switch msg.(type) {
	case todo.SelectTodo, todo.CreatedTodo:
		a.List = list
	default:
		a, save = a.changed(list)
	}
	cmds := []tea.Cmd{save}
	for _, r := range reports {
		cmds = append(cmds, func() tea.Msg { return r })
	}
	return a, tea.Batch(cmds...)
}

// changed installs a new list and returns the Cmd that saves it.
func (a App) changed(list todo.List) (App, tea.Cmd) {
	a.List = list
	a.version++
	a.status = "saving…"
	store, version := a.store, a.version
	if store == nil {
		return a, nil
	}
	return a, func() tea.Msg {
		if err := store.Save(version, list); err != nil {
			return SaveFailed{Version: version, Err: err.Error()}
		}
		return Saved{Version: version}
	}
}

func (a App) key(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	key := k.String()
	if a.mode != browsing {
		switch key {
		case "enter":
			title := strings.TrimSpace(a.draft)
			m := a.mode
			a.mode, a.draft = browsing, ""
			if title == "" {
				return a, nil
			}
			if m == adding {
				return a.Update(todo.CreateTodo{Title: title})
			}
			return a.Update(todo.RenameTodo{ID: a.List.Selected, Title: title})
		case "esc":
			a.mode, a.draft = browsing, ""
		case "backspace":
			if r := []rune(a.draft); len(r) > 0 {
				a.draft = string(r[:len(r)-1])
			}
		default:
			if k.Text != "" {
				a.draft += k.Text
			}
		}
		return a, nil
	}
	switch key {
	case "q", "ctrl+c":
		return a, tea.Quit
	case "up", "k":
		a.List = a.List.Move(-1)
	case "down", "j":
		a.List = a.List.Move(1)
	case "space", "x":
		if a.List.Selected != "" {
			return a.Update(todo.ToggleTodo{ID: a.List.Selected})
		}
	case "a":
		a.mode, a.draft = adding, ""
	case "r":
		if t, ok := a.List.Find(a.List.Selected); ok {
			a.mode, a.draft = renaming, t.Title
		}
	case "d":
		if a.List.Selected != "" {
			return a.Update(todo.DeleteTodo{ID: a.List.Selected})
		}
	case "c":
		return a.Update(todo.ClearCompleted{})
	}
	return a, nil
}

// View implements tea.Model.
func (a App) View() tea.View {
	var b strings.Builder
	b.WriteString("foldagent todo\n\n")
	if len(a.List.Todos) == 0 {
		b.WriteString("  (no todos yet: press a to add one)\n")
	}
	for _, t := range a.List.Todos {
		cursor, box := "  ", "[ ]"
		if t.ID == a.List.Selected {
			cursor = "> "
		}
		if t.Done {
			box = "[x]"
		}
		fmt.Fprintf(&b, "%s%s %s\n", cursor, box, t.Title)
	}
	b.WriteString("\n")
	switch a.mode {
	case adding:
		fmt.Fprintf(&b, "new todo: %s█\n", a.draft)
	case renaming:
		fmt.Fprintf(&b, "rename to: %s█\n", a.draft)
	default:
		b.WriteString("a add · r rename · space done · d delete · c clear done · ↑↓ select · q quit\n")
	}
	fmt.Fprintf(&b, "status: %s\n", a.status)
	if a.endpoint != "" {
		fmt.Fprintf(&b, "agents: MCP at %s\n", a.endpoint)
	}
	b.WriteString("\nagent activity:\n")
	if len(a.activity) == 0 {
		b.WriteString("  (none yet)\n")
	}
	for _, e := range a.activity {
		fmt.Fprintf(&b, "  %s %s %s → %s\n", e.At.Format("15:04:05"), e.Who, e.Capability, e.Outcome)
	}
	return tea.NewView(b.String())
}

// Flush writes the list synchronously, unless a save of this version (or
// a newer one) already reached the file. Call it with the final App when
// the program returns, before closing the store.
func (a App) Flush() error {
	if a.store == nil {
		return nil
	}
	return a.store.Save(a.version, a.List)
}

// Activity returns the agent actions the panel shows, oldest first.
func (a App) Activity() []Activity { return append([]Activity(nil), a.activity...) }

// Status returns the status line (loaded, saving…, saved, could not save).
func (a App) Status() string { return a.status }
