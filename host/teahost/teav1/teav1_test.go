package teav1_test

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/bubbles/list"
	v1 "github.com/charmbracelet/bubbletea"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/keyact"
	"github.com/foldagent/foldagent/host/teahost/keyact/listact"
	"github.com/foldagent/foldagent/host/teahost/teahosttest"
	"github.com/foldagent/foldagent/host/teahost/teav1"
)

// shelf is an application as it is written for Bubble Tea v1, on bubbles'
// v1 list (github.com/charmbracelet/bubbles v1.0.0, whose Update and View
// are its own): nothing in it knows of v2, teahost or agents.
type shelf struct{ list list.Model }

type item string

func (i item) Title() string       { return string(i) }
func (i item) Description() string { return "" }
func (i item) FilterValue() string { return string(i) }

func newShelf(names ...string) shelf {
	items := make([]list.Item, len(names))
	for i, n := range names {
		items[i] = item(n)
	}
	d := list.NewDefaultDelegate()
	d.ShowDescription = false
	l := list.New(items, d, 40, 20)
	l.Title = "Shelf"
	return shelf{l}
}

func (s shelf) Init() v1.Cmd { return nil }
func (s shelf) Update(msg v1.Msg) (v1.Model, v1.Cmd) {
	var cmd v1.Cmd
	s.list, cmd = s.list.Update(msg)
	return s, cmd
}
func (s shelf) View() string { return s.list.View() }

// The contract an agent gets: what the list shows, and two actions carried
// out as the key presses a person would make.
type (
	shelfModel = teav1.Model[shelf]
	shelfView  struct {
		Visible  []string `json:"visible"`
		Selected string   `json:"selected"`
	}
	nameInput struct {
		Name string `json:"name" jsonschema:"a name the list shows"`
	}
)

func names(items []list.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.FilterValue()
	}
	return out
}

func browsing(m shelfModel) bool { return m.V1.list.FilterState() != list.Filtering }

var shelfContract = agent.Make(agent.Definition[shelfModel, agent.NoPrincipal]{
	Context: agent.Project(func(m shelfModel) shelfView {
		v := shelfView{Visible: names(m.V1.list.VisibleItems())}
		if it := m.V1.list.SelectedItem(); it != nil {
			v.Selected = it.FilterValue()
		}
		return v
	}),
	Capabilities: []agent.Capability[shelfModel, agent.NoPrincipal]{
		keyact.Expose(keyact.Action[nameInput, shelfModel, agent.NoPrincipal]{
			Name:        "filter",
			Description: "Show only the names that match a text, as / then the text then enter does.",
			Available:   browsing,
			Keys:        func(in nameInput, _ shelfModel) []tea.KeyPressMsg { return listact.Filter(in.Name) },
			Settled: func(_ nameInput, m shelfModel) bool {
				return m.V1.list.FilterState() != list.Filtering
			},
		}),
		keyact.Expose(keyact.Action[nameInput, shelfModel, agent.NoPrincipal]{
			Name:        "select",
			Description: "Move the cursor to a name the list shows, as home and the down arrow do.",
			Available:   browsing,
			Depends:     func(m shelfModel) any { return names(m.V1.list.VisibleItems()) },
			Exists: func(in nameInput, m shelfModel) (string, bool) {
				return "/name", slices.Contains(names(m.V1.list.VisibleItems()), in.Name)
			},
			Keys: func(in nameInput, m shelfModel) []tea.KeyPressMsg {
				keys := []tea.KeyPressMsg{teahost.Key("home")}
				for range slices.Index(names(m.V1.list.VisibleItems()), in.Name) {
					keys = append(keys, teahost.Key("down"))
				}
				return keys
			},
		}),
	},
})

// An unchanged v1 program, bubbles' v1 list, hosted by teahost through
// teav1: the person's keys (parsed by v2) and the agent's actions (v2 key
// presses) reach the v1 list as v1 KeyMsgs, its filtering Cmds come back
// through v2's program, and the screen shows its v1 View.
func TestAV1ListDrivenByAnAgent(t *testing.T) {
	h := teahost.New[shelfModel, tea.Msg](teav1.New(newShelf("apples", "bread", "butter", "cheese")), nil)
	rt, err := agent.Bind(shelfContract, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	screen := teahosttest.NewScreen(60, 24)
	in, keys := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	go h.Run(ctx, append(screen.ProgramOptions(), tea.WithInput(in))...)
	defer func() { cancel(); keys.Close(); <-h.Done() }()
	if err := screen.WaitFor(ctx, "Shelf"); err != nil {
		t.Fatal(err)
	}

	call := func(name, input string) teahost.KeysDone {
		t.Helper()
		res, err := rt.DispatchUnknown(ctx, name, json.RawMessage(input), agent.Invocation{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		d, ok := res.Completion.Message.(teahost.KeysDone)
		if !ok || !d.Applied {
			t.Fatalf("%s: %+v", name, res.Completion)
		}
		return d
	}
	call("select", `{"name":"butter"}`)
	if got := h.Model().V1.list.SelectedItem(); got != item("butter") {
		t.Fatalf("selected %v, want butter", got)
	}
	// The person presses k (up) in the terminal: v2 parses it, the v1 list
	// moves.
	moved := make(chan struct{})
	stop := h.Subscribe(func() {
		if h.Model().V1.list.SelectedItem() == item("bread") {
			select {
			case <-moved:
			default:
				close(moved)
			}
		}
	})
	if _, err := keys.Write([]byte("k")); err != nil {
		t.Fatal(err)
	}
	<-moved
	stop()
	call("filter", `{"name":"chee"}`)
	if l := h.Model().V1.list; l.FilterValue() != "chee" || l.FilterState() != list.FilterApplied {
		t.Fatalf("after the filter: %q, %v", l.FilterValue(), l.FilterState())
	}
	if got := names(h.Model().V1.list.VisibleItems()); !slices.Equal(got, []string{"cheese"}) {
		t.Fatalf("visible after the filter: %v", got)
	}
	if err := screen.WaitFor(ctx, `“chee” 1 item`); err != nil {
		t.Fatal(err)
	}
	if s := screen.String(); strings.Contains(s, "apples") {
		t.Fatalf("the filtered list still shows apples:\n%s", s)
	}
}
