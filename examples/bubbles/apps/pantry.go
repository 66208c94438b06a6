package apps

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/list"
	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/keyact"
	"github.com/foldagent/foldagent/host/teahost/keyact/listact"
)

// Pantry is bubbles' list as a program: a list of groceries a person
// browses, filters with "/", and clears with "x" (the delegate removes the
// selected item with list.RemoveItem, which rewrites the list's items in
// place). The list's Update and View are bubbles' own.
type Pantry struct{ list.Model }

// --- glue: the list as a tea.Model, and what "x" does (as in bubbles'
// list-fancy example, here listact.RemoveOn). Counted in the report.

func (p Pantry) Init() tea.Cmd { return nil }
func (p Pantry) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if a, ok := msg.(AddGrocery); ok {
		cmd := p.InsertItem(len(p.Items()), listact.Item(a.Name))
		return p, cmd
	}
	var cmd tea.Cmd
	p.Model, cmd = p.Model.Update(msg)
	return p, cmd
}

// AddGrocery puts a grocery at the end of the list (list.InsertItem,
// which also changes the list in place): the program's one Message of
// its own, since bubbles' list has no key that adds.
type AddGrocery struct {
	Name string `json:"name" jsonschema:"the grocery's name" bounds:"minLength=1,maxLength=100"`
}

func (p Pantry) View() tea.View { return tea.NewView(p.Model.View()) }

// NewPantry returns the program with these groceries.
func NewPantry(names ...string) Pantry {
	d := list.NewDefaultDelegate()
	d.ShowDescription = false
	d.UpdateFunc = listact.RemoveOn("x")
	l := list.New(listact.Items(names...), d, 40, 20)
	l.Title = "Pantry"
	return Pantry{l}
}

// --- end of glue.

// What the agent sees and does. Everything below is the contract's own
// declarations.

// PantryView is the context an agent reads.
type PantryView struct {
	Items     []string `json:"items" jsonschema:"every grocery, in order"`
	Visible   []string `json:"visible" jsonschema:"the groceries the filter shows, in order"`
	Selected  string   `json:"selected,omitempty" jsonschema:"the grocery under the cursor"`
	Filtering bool     `json:"filtering" jsonschema:"a filter is being typed"`
	Filter    string   `json:"filter,omitempty" jsonschema:"the filter text"`
}

// GroceryInput names a grocery.
type GroceryInput struct {
	Name string `json:"name" jsonschema:"the grocery's name, as listed"`
}

// FilterInput is the text to filter by.
type FilterInput struct {
	Text string `json:"text" jsonschema:"the text to filter the list by"`
}

type pantryAction[In any] = keyact.Action[In, Pantry, agent.NoPrincipal]

func browsing(p Pantry) bool { return listact.Browsing(p.Model) }
func visible(p Pantry) any   { return listact.Values(p.VisibleItems()) }

// PantryContract is the agent's contract for Pantry.
var PantryContract = agent.Make(agent.Definition[Pantry, agent.NoPrincipal]{
	Context: agent.Project(func(p Pantry) PantryView {
		v := PantryView{Items: listact.Values(p.Items()), Visible: listact.Values(p.VisibleItems()),
			Filtering: p.FilterState() == list.Filtering, Filter: p.FilterValue()}
		if it := p.SelectedItem(); it != nil {
			v.Selected = it.FilterValue()
		}
		return v
	}),
	Capabilities: []agent.Capability[Pantry, agent.NoPrincipal]{
		agent.Expose(agent.Variant[AddGrocery, Pantry, agent.NoPrincipal]{
			Name:        "add_grocery",
			Description: "Add a grocery at the end of the list. Returns once the list holds it.",
			Available:   browsing,
			Completion: agent.When(func(p Pantry) []string { return listact.Values(p.Items()) },
				func(items []string, in AddGrocery) bool { return slices.Contains(items, in.Name) }),
		}),
		keyact.Expose(pantryAction[GroceryInput]{
			Name:        "remove_grocery",
			Description: "Remove a grocery the list shows, by moving the cursor to it and pressing x, as the person would.",
			Destructive: true,
			Available:   browsing,
			Exists: func(in GroceryInput, p Pantry) (string, bool) {
				return "/name", listact.Select(p.Model, in.Name) != nil
			},
			Missing: "The list shows no grocery with that name; read the context and use a name from visible.",
			Depends: visible,
			Keys: func(in GroceryInput, p Pantry) []tea.KeyPressMsg {
				return append(listact.Select(p.Model, in.Name), teahost.Key("x"))
			},
		}),
		keyact.Expose(pantryAction[FilterInput]{
			Name:        "filter_groceries",
			Description: "Show only the groceries that match a text, as typing / then the text then enter does.",
			Available:   browsing,
			Keys:        func(in FilterInput, _ Pantry) []tea.KeyPressMsg { return listact.Filter(strings.TrimSpace(in.Text)) },
			// The list matches in a Cmd: done once it shows what its own
			// filter matches.
			Settled: func(_ FilterInput, p Pantry) bool { return listact.Filtered(p.Model) },
		}),
		keyact.Expose(pantryAction[struct{}]{
			Name:        "clear_filter",
			Description: "Show every grocery again, as esc does.",
			Available:   func(p Pantry) bool { return p.FilterState() == list.FilterApplied },
			Keys:        func(struct{}, Pantry) []tea.KeyPressMsg { return []tea.KeyPressMsg{teahost.Key("esc")} },
		}),
	},
})
