package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
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

// maxActivity is how many agent actions the panel shows.
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

	status   string
	audit    AuditTrouble // the last audit trouble; zero when none
	activity []Activity
	mode     mode
	draft    string
	endpoint Endpoint
	// asked are agents' calls waiting for the owner's approval, oldest
	// first (agent.ApprovalAsked); y and n answer the first.
	asked []agent.ApprovalRequest
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
	a := App{List: list, kept: list}
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
		a.activity = logged(a.activity, msg)
		return a, nil
	case agent.ApprovalAsked:
		a.asked = append(slices.Clone(a.asked), msg.Request)
		return a, nil
	case agent.ApprovalWithdrawn:
		for _, q := range a.asked {
			if q.ID == msg.ID {
				e := Activity{At: time.Now(), Who: "you", Capability: q.Capability, Input: string(q.Input), Outcome: "approval " + string(msg.Why)}
				a.activity = logged(a.activity, e)
			}
		}
		a.asked = slices.DeleteFunc(slices.Clone(a.asked), func(q agent.ApprovalRequest) bool { return q.ID == msg.ID })
		return a, nil
	case tea.KeyPressMsg:
		return a.key(msg)
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
	case "y", "n":
		// The owner answers the oldest request on screen.
		if len(a.asked) > 0 {
			answer := agent.ApprovalAnswer{ID: a.asked[0].ID, Approve: key == "y", By: "owner"}
			return a, func() tea.Msg { return answer }
		}
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
	if a.audit.Lost > 0 {
		fmt.Fprintf(&b, "AUDIT: %d entries not kept; last: %s\n", a.audit.Lost, trim(a.audit.Err, 96))
	}
	if a.endpoint.URL != "" {
		fmt.Fprintf(&b, "agents: MCP at %s\n", a.endpoint.URL)
		if a.endpoint.A2A != "" {
			fmt.Fprintf(&b, "        A2A at %s (0.3 at %s%s)\n", a.endpoint.A2A, a.endpoint.A2A, a2a03Path)
			fmt.Fprintf(&b, "        actions at %s\n", a.endpoint.Native)
		}
	}
	if len(a.asked) > 0 {
		q := a.asked[0]
		fmt.Fprintf(&b, "\nAPPROVE? %s\n", q.Summary)
		var done []todo.Todo
		if json.Unmarshal(q.Watched["doneTodos"], &done) == nil {
			for _, t := range done {
				fmt.Fprintf(&b, "  removes: %s\n", t.Title)
			}
		}
		fmt.Fprintf(&b, "  asked by %s", q.Transport)
		if q.Caller != "" {
			fmt.Fprintf(&b, " (%s)", q.Caller)
		}
		b.WriteString("\n  y approves, n declines")
		if more := len(a.asked) - 1; more > 0 {
			fmt.Fprintf(&b, " (%d more waiting)", more)
		}
		b.WriteString("\n")
	}
	b.WriteString("\nagent activity:\n")
	if len(a.activity) == 0 {
		b.WriteString("  (none yet)\n")
	} else {
		b.WriteString("  (dispatched: the app took the request · completed: its effect is done and saved)\n")
	}
	for _, e := range a.activity {
		fmt.Fprintf(&b, "  %s %s %s %s → %s\n", e.At.Format("15:04:05"), e.Who, e.Capability, trim(e.Input, 48), e.Outcome)
		if e.Reason != "" {
			fmt.Fprintf(&b, "      %s\n", trim(e.Reason, 96))
		}
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

// trim shortens s to at most n runes, marking a cut with "…", and puts
// it on one line.
func trim(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Activity returns the agent actions the panel shows, oldest first.
func (a App) Activity() []Activity { return append([]Activity(nil), a.activity...) }

// Status returns the status line (loaded, saving…, saved, could not save).
func (a App) Status() string { return a.status }

// logged appends e to the panel's lines, keeping the last maxActivity;
// it never writes into the slice an earlier App holds.
func logged(lines []Activity, e Activity) []Activity {
	return append(lines[max(0, len(lines)-maxActivity+1):len(lines):len(lines)], e)
}
