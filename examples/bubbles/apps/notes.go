package apps

import (
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/keyact"
)

// Notes is bubbles' textarea as a program. The textarea keeps its text as
// rows of runes that its Update edits in place; its Update and View are
// bubbles' own.
type Notes struct{ textarea.Model }

// --- glue: the textarea as a tea.Model. Counted in the report.

func (n Notes) Init() tea.Cmd { return nil }
func (n Notes) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	n.Model, cmd = n.Model.Update(msg)
	return n, cmd
}
func (n Notes) View() tea.View { return tea.NewView(n.Model.View()) }

// NewNotes returns the program with an empty, focused textarea.
func NewNotes() Notes {
	t := textarea.New()
	t.SetWidth(60)
	t.Focus()
	return Notes{t}
}

// --- end of glue.

// NotesView is the context an agent reads.
type NotesView struct {
	Lines []string `json:"lines" jsonschema:"the text, line by line"`
}

// LineInput is a line to add.
type LineInput struct {
	Text string `json:"text" jsonschema:"the line to add, without a line break"`
}

// NotesContract is the agent's contract for Notes.
var NotesContract = agent.Make(agent.Definition[Notes, agent.NoPrincipal]{
	Context: agent.Project(func(n Notes) NotesView { return NotesView{Lines: strings.Split(n.Value(), "\n")} }),
	Capabilities: []agent.Capability[Notes, agent.NoPrincipal]{
		keyact.Expose(keyact.Action[LineInput, Notes, agent.NoPrincipal]{
			Name:        "add_line",
			Description: "Add a line at the end of the notes, as typing it on a new line would.",
			Available:   func(n Notes) bool { return n.Focused() },
			// Whether a line break comes first depends on the notes being
			// empty: a person's key since the agent looked can change that.
			Depends: func(n Notes) any { return n.Value() == "" },
			Keys: func(in LineInput, n Notes) []tea.KeyPressMsg {
				keys := []tea.KeyPressMsg{teahost.Key("ctrl+end")}
				if n.Value() != "" {
					keys = append(keys, teahost.Key("enter"))
				}
				return append(keys, teahost.Type(strings.ReplaceAll(in.Text, "\n", " "))...)
			},
		}),
	},
})
