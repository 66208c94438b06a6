package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/approvals"
	"github.com/foldagent/foldagent/host/inert"
)

// The application's own Messages, besides the list's (todo.Msg). None of
// them is exposed to an agent.
type (
	// Saved reports that a version of the list reached the file: List is
	// what was written.
	Saved struct {
		Version int64
		List    todo.List
	}
	// SaveFailed reports that a version could not be written.
	SaveFailed struct {
		Version int64
		Err     string
	}
	// AuditTrouble reports an audit entry a sink did not keep (the audit
	// file on a full disk, say): how many so far, and the last failure.
	// The app shows it until it quits: a lost entry stays lost.
	AuditTrouble struct {
		Lost uint64
		Err  string
	}
	// Endpoint tells the app where it serves agents, to show on screen:
	// the MCP URL, the A2A base URL and the Agent Native actions' base URL.
	Endpoint struct{ URL, A2A, Native string }
	// Activity reports something an agent did, for the activity panel:
	// who (the principal its transport authenticated), which capability,
	// with what arguments (the JSON it sent), how it ended (see Outcome)
	// and, when it did not go through, the reason the agent was given.
	Activity struct {
		At         time.Time
		Who        string
		Capability string
		Input      string
		Outcome    string
		Reason     string
	}
)

type mode int

const (
	browsing mode = iota
	adding
	renaming
)

// maxActivity is how many agent actions the panel keeps and shows.
const maxActivity = 6

// App is the todo application as a Bubble Tea model: the shared todo
// List, plus what the terminal adds (the store, the status line, the
// activity panel, the text being typed). Like every model a host
// publishes to an agent, it is a value: Update returns a new App and never
// changes the one it was given.
//
// The list an agent works on is the list as saved (Kept): a todo an agent
// is told it created, or a title it is told it gave, is on disk, and the
// reports that say so (todo.CreatedTodo, todo.ChangeKept) are held until the save that
// holds their change has finished (see apply).
type App struct {
	List todo.List

	store *Store
	// version counts changes of the todos; kept is the list as last
	// written (or loaded), and keptVersion the version it was.
	version     int64
	kept        todo.List
	keptVersion int64
	// held are reports waiting for the save of their version.
	held []heldReport

	status string
	// activity is the panel (host/approvals draws it); agents numbers
	// the callers, shared with the approval card teahost draws over the
	// app (Agents), so both name an agent alike.
	activity approvals.Activity
	agents   *approvals.Agents
	audit    AuditTrouble // the last audit trouble; zero when none
	mode     mode
	draft    string
	endpoint Endpoint
}

// heldReport is a report of the list's Update waiting for the save of the
// version that holds its change.
type heldReport struct {
	version int64
	msg     todo.Msg
}

// NewApp returns the application with list loaded from store. Loading is
// synchronous, before the program starts, so that nothing an agent does
// early can be overwritten by a late load; saving is asynchronous.
func NewApp(store *Store, list todo.List) App {
	agents := &approvals.Agents{}
	a := App{List: list, kept: list, agents: agents,
		activity: approvals.NewActivity(approvals.ActivityOptions{Keep: maxActivity, Show: maxActivity, Agents: agents})}
	if store != nil {
		a.store = store
		a.status = "loaded " + store.Path()
		if !store.Exists() {
			a.status = "new list: it will be saved to " + store.Path()
		}
	}
	return a
}

// Kept is the list as an agent sees it: the todos as last saved, with the
// person's selection when it names one of them. An agent therefore never
// learns of a todo that a crash could still take away.
func (a App) Kept() todo.List {
	l := a.kept
	l.Selected = ""
	if _, ok := l.Find(a.List.Selected); ok {
		l.Selected = a.List.Selected
	}
	return l
}

// Init implements tea.Model.
func (a App) Init() tea.Cmd { return nil }

// Update implements tea.Model.
func (a App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case todo.Msg:
		return a.apply(msg)
	case Saved:
		return a.saved(msg)
	case SaveFailed:
		a.status = "could not save: " + msg.Err
		return a, nil
	case AuditTrouble:
		if msg.Lost >= a.audit.Lost {
			a.audit = msg
		}
		return a, nil
	case Endpoint:
		a.endpoint = msg
		return a, nil
	case Activity:
		a.activity = a.activity.Add(approvals.Entry{At: msg.At, Who: msg.Who, Capability: msg.Capability, Input: msg.Input, Outcome: msg.Outcome, Reason: msg.Reason})
		return a, nil
	case tea.KeyPressMsg:
		return a.key(msg)
	}
	// The runtime's approval Messages: the card is teahost's
	// (Options.Approvals); the panel says how each request ended.
	if next, ok := a.activity.Approval(msg, time.Now()); ok {
		a.activity = next
	}
	return a, nil
}

// apply runs the list's Update. A change of the todos is saved; a change
// of the selection (a session's, not the file's) and a report are not.
//
// The Messages Update reports (a CreatedTodo, which create_todo completes
// on; a ChangeKept, which toggle_todo, delete_selected_todo and
// clear_completed complete on) are held until the save of this version has reached the file, and
// only then applied: an agent is told its change is made once a kill -9 can
// no longer take it away. A failed save keeps them held; the next save
// that succeeds holds their change too, and releases them. With no store
// there is nothing to wait for.
func (a App) apply(msg todo.Msg) (App, tea.Cmd) {
	list, reports := todo.Update(a.List, msg)
	var save tea.Cmd
	switch msg.(type) {
	case todo.SelectTodo, todo.CreatedTodo, todo.ChangeKept:
		a.List = list
	default:
		a, save = a.changed(list)
	}
	if len(reports) == 0 {
		return a, save
	}
	if a.store == nil {
		return a, tea.Batch(save, emit(reports))
	}
	held := slices.Clip(a.held)
	for _, r := range reports {
		held = append(held, heldReport{version: a.version, msg: r})
	}
	a.held = held
	return a, save
}

// changed installs a new list and returns the Cmd that saves it.
func (a App) changed(list todo.List) (App, tea.Cmd) {
	a.List = list
	a.version++
	store, version := a.store, a.version
	if store == nil {
		a.kept, a.keptVersion = list, version
		return a, nil
	}
	a.status = "saving…"
	return a, func() tea.Msg {
		wrote, err := store.Save(version, list)
		if err != nil {
			return SaveFailed{Version: version, Err: err.Error()}
		}
		if !wrote {
			// A newer version is on disk already; its own Saved says so.
			return nil
		}
		return Saved{Version: version, List: list}
	}
}

// saved records that msg.List is on disk and releases the reports its
// version (or an older one) was holding.
func (a App) saved(msg Saved) (App, tea.Cmd) {
	if msg.Version <= a.keptVersion {
		return a, nil
	}
	a.kept, a.keptVersion = msg.List, msg.Version
	if msg.Version == a.version {
		a.status = "saved"
	}
	var release []todo.Msg
	var still []heldReport
	for _, h := range a.held {
		if h.version <= msg.Version {
			release = append(release, h.msg)
		} else {
			still = append(still, h)
		}
	}
	a.held = still
	return a, emit(release)
}

// emit returns a Cmd that applies each report, or nil for none.
func emit(reports []todo.Msg) tea.Cmd {
	if len(reports) == 0 {
		return nil
	}
	cmds := make([]tea.Cmd, len(reports))
	for i, r := range reports {
		cmds[i] = func() tea.Msg { return r }
	}
	return tea.Batch(cmds...)
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
		// An agent's title is drawn as text, never obeyed (host/inert).
		fmt.Fprintf(&b, "%s%s %s\n", cursor, box, inert.Line(t.Title, 96))
	}
	b.WriteString("\n")
	switch a.mode {
	case adding:
		fmt.Fprintf(&b, "new todo: %s█\n", inert.Text(a.draft))
	case renaming:
		fmt.Fprintf(&b, "rename to: %s█\n", inert.Text(a.draft))
	default:
		b.WriteString("a add · r rename · space done · d delete · c clear done · ↑↓ select · q quit\n")
	}
	fmt.Fprintf(&b, "status: %s\n", inert.Text(a.status))
	if a.audit.Lost > 0 {
		fmt.Fprintf(&b, "AUDIT: %d entries not kept; last: %s\n", a.audit.Lost, inert.Line(a.audit.Err, 96))
	}
	if a.endpoint.URL != "" {
		fmt.Fprintf(&b, "agents: MCP at %s\n", a.endpoint.URL)
		if a.endpoint.A2A != "" {
			fmt.Fprintf(&b, "        A2A at %s (0.3 at %s%s)\n", a.endpoint.A2A, a.endpoint.A2A, a2a03Path)
			fmt.Fprintf(&b, "        actions at %s\n", a.endpoint.Native)
		}
	}
	b.WriteString("\n")
	lines := a.activity.Lines(110)
	b.WriteString(lines[0] + "\n")
	if len(lines) > 1 {
		b.WriteString("  (dispatched: the app took the request · completed: its effect is done and saved)\n")
	}
	for _, l := range lines[1:] {
		b.WriteString(l + "\n")
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
	_, err := a.store.Save(a.version, a.List)
	return err
}

// Activity returns the agent actions the panel keeps, oldest first.
func (a App) Activity() []approvals.Entry { return a.activity.Entries() }

// Agents numbers the agents the panel and the approval card name.
func (a App) Agents() *approvals.Agents { return a.agents }

// Status returns the status line (loaded, saving…, saved, could not save).
func (a App) Status() string { return a.status }
