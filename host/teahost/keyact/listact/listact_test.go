package listact_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"charm.land/bubbles/v2/list"
	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/keyact"
	"github.com/foldagent/foldagent/host/teahost/keyact/listact"
	"github.com/foldagent/foldagent/host/teahost/teahosttest"
)

// shelf is bubbles' list as a program, with x removing the selected row.
type shelf struct{ list.Model }

func (s shelf) Init() tea.Cmd { return nil }
func (s shelf) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	s.Model, cmd = s.Model.Update(msg)
	return s, cmd
}
func (s shelf) View() tea.View { return tea.NewView(s.Model.View()) }

func newShelf(names ...string) shelf {
	d := list.NewDefaultDelegate()
	d.UpdateFunc = listact.RemoveOn("x", "delete")
	return shelf{list.New(listact.Items(names...), d, 40, 30)}
}

type nameIn struct {
	Name string `json:"name"`
}

func browsing(s shelf) bool { return listact.Browsing(s.Model) }

type action = keyact.Action[nameIn, shelf, agent.NoPrincipal]

var contract = agent.Make(agent.Definition[shelf, agent.NoPrincipal]{
	Context: agent.Project(func(s shelf) []string { return listact.Values(s.VisibleItems()) }),
	Capabilities: []agent.Capability[shelf, agent.NoPrincipal]{
		keyact.Expose(action{
			Name: "remove", Description: "Remove a row, as the cursor keys and x do.", Available: browsing,
			Exists: func(in nameIn, s shelf) (string, bool) { return "/name", listact.Select(s.Model, in.Name) != nil },
			Keys: func(in nameIn, s shelf) []tea.KeyPressMsg {
				return append(listact.Select(s.Model, in.Name), teahost.Key("x"))
			},
			Depends: func(s shelf) any { return listact.Values(s.VisibleItems()) },
		}),
		keyact.Expose(action{
			Name: "filter", Description: "Filter the rows, as / then the text then enter does.", Available: browsing,
			Keys:    func(in nameIn, _ shelf) []tea.KeyPressMsg { return listact.Filter(in.Name) },
			Settled: func(_ nameIn, s shelf) bool { return listact.Filtered(s.Model) },
		}),
	},
})

// An agent removes a row on the second page and filters, through keyact
// actions made of listact's presses, on a list running in a Host.
func TestActionsOnARunningList(t *testing.T) {
	names := []string{"apples", "bread", "butter", "cheese", "milk", "eggs", "flour", "honey", "jam", "oats", "rice", "salt", "tea"}
	h := teahost.New[shelf, tea.Msg](newShelf(names...), nil)
	rt, err := agent.Bind(contract, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	screen := teahosttest.NewScreen(40, 30)
	ctx, cancel := context.WithCancel(context.Background())
	go h.Run(ctx, screen.ProgramOptions()...)
	defer func() { cancel(); <-h.Done() }()

	call := func(name, in string) error {
		res, err := rt.DispatchUnknown(ctx, name, json.RawMessage(in), agent.Invocation{})
		if err != nil {
			return err
		}
		if d, ok := res.Completion.Message.(teahost.KeysDone); !ok || !d.Applied {
			return fmt.Errorf("%s: %+v", name, res.Completion)
		}
		return nil
	}
	if h.Model().Paginator.TotalPages < 2 {
		t.Fatal("the list fits one page: the test would not cross pages")
	}
	if err := call("remove", `{"name":"salt"}`); err != nil {
		t.Fatal(err)
	}
	if got := listact.Values(h.Model().Items()); slices.Contains(got, "salt") || len(got) != len(names)-1 {
		t.Fatalf("after removing salt: %v", got)
	}
	if err := call("remove", `{"name":"salt"}`); err == nil {
		t.Fatal("a row no longer shown was not refused")
	}
	if err := call("filter", `{"name":"hon"}`); err != nil {
		t.Fatal(err)
	}
	if got := listact.Values(h.Model().VisibleItems()); !slices.Equal(got, []string{"honey"}) {
		t.Fatalf("after filtering by hon: %v", got)
	}
}

// Filtered is false while the list's matches for the applied filter
// have not come back, and true once they have.
func TestFilteredWaitsForTheMatches(t *testing.T) {
	l := list.New(listact.Items("apples", "bread", "cheese"), list.NewDefaultDelegate(), 40, 20)
	keys := listact.Filter("br")
	var last tea.Cmd
	for _, k := range keys[:len(keys)-1] {
		l, last = l.Update(k)
	}
	l, _ = l.Update(firstMatches(last)) // the matches for "br"
	l, _ = l.Update(keys[len(keys)-1])  // enter
	if l.FilterState() != list.FilterApplied || !listact.Filtered(l) {
		t.Fatalf("with its matches, the list is filtered: %v %v", l.FilterState(), listact.Values(l.VisibleItems()))
	}
	l, _ = l.Update(list.FilterMatchesMsg(nil)) // a stale, empty result
	if listact.Filtered(l) {
		t.Fatal("a list showing other rows than its filter matches is not filtered")
	}
	if !listact.Filtered(list.New(nil, list.NewDefaultDelegate(), 1, 1)) {
		t.Fatal("a list with no filter is filtered")
	}
}

// firstMatches runs cmd and the Cmds it batches, each on its own
// goroutine (a cursor's blink waits before it answers), and returns the
// first filter result one gives.
func firstMatches(cmd tea.Cmd) list.FilterMatchesMsg {
	got := make(chan list.FilterMatchesMsg, 16)
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			switch m := c().(type) {
			case list.FilterMatchesMsg:
				got <- m
			case tea.BatchMsg:
				for _, c := range m {
					run(c)
				}
			}
		}()
	}
	run(cmd)
	return <-got
}

func ExampleSelect() {
	l := list.New(listact.Items("apples", "bread", "butter"), list.NewDefaultDelegate(), 40, 20)
	fmt.Println(listact.Select(l, "butter"))
	fmt.Println(listact.Select(l, "jam") == nil)
	fmt.Println(listact.Filter("ch"))
	// Output:
	// [home down down]
	// true
	// [/ ch enter]
}
