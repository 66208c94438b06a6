package listact

import (
	"slices"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/list"
	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/host/teahost"
)

// Item is a row that is only its text: its title and its filter value,
// with no description. It is a list.DefaultItem.
type Item string

// Title returns the text.
func (i Item) Title() string { return string(i) }

// Description returns nothing.
func (i Item) Description() string { return "" }

// FilterValue returns the text.
func (i Item) FilterValue() string { return string(i) }

// Items returns texts as rows, in order.
func Items(texts ...string) []list.Item {
	out := make([]list.Item, len(texts))
	for i, t := range texts {
		out[i] = Item(t)
	}
	return out
}

// Values returns each row's filter value, in order: what a context shows
// of the rows, and what an agent names one by.
func Values(items []list.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.FilterValue()
	}
	return out
}

// Browsing reports whether no filter is being typed: the mode in which the
// list's own keys (the cursor's, a delegate's) are keys and not filter
// text. It is a keyact Available as it is (func(list.Model) bool).
func Browsing(l list.Model) bool { return l.FilterState() != list.Filtering }

// Select returns the presses that put the cursor on the shown row whose
// filter value is value, as a person would: home, then down once per row
// above it (down moves on to the next page). It returns nil when no shown
// row has that value, so a contract's Exists can ask first.
func Select(l list.Model, value string) []tea.KeyPressMsg {
	i := slices.Index(Values(l.VisibleItems()), value)
	if i < 0 {
		return nil
	}
	keys := make([]tea.KeyPressMsg, 0, i+1)
	keys = append(keys, teahost.Key("home"))
	for range i {
		keys = append(keys, teahost.Key("down"))
	}
	return keys
}

// Filter returns the presses that filter the list by text: "/", the
// text in one press (as an input method or a paste delivers it), and
// enter. The list matches in a Cmd on every change of its filter and
// shows whichever result comes last; typed character by character, the
// match for an earlier prefix could come last and stay. In one press
// there is one match. An empty text is "/" and enter.
func Filter(text string) []tea.KeyPressMsg {
	keys := []tea.KeyPressMsg{teahost.Key("/")}
	if text != "" {
		keys = append(keys, tea.KeyPressMsg{Code: tea.KeyExtended, Text: text})
	}
	return append(keys, teahost.Key("enter"))
}

// Filtered reports whether the list shows what its own filter matches of
// its rows, in its filter's order; true when no filter is applied (none
// was, or the list cleared one that matched nothing). The list matches in
// a Cmd, so right after Filter's presses it may not yet: use Filtered as
// keyact's Settled.
func Filtered(l list.Model) bool {
	if l.FilterState() != list.FilterApplied {
		return true
	}
	all := Values(l.Items())
	want := []string{}
	for _, r := range l.Filter(l.FilterValue(), all) {
		want = append(want, all[r.Index])
	}
	return slices.Equal(Values(l.VisibleItems()), want)
}

// RemoveOn returns a delegate UpdateFunc (list.DefaultDelegate.UpdateFunc)
// that removes the selected row when one of keys is pressed while the
// list shows at least one row (list.RemoveItem, which changes the list in
// place). The delegate only gets keys while the person browses.
func RemoveOn(keys ...string) func(tea.Msg, *list.Model) tea.Cmd {
	b := key.NewBinding(key.WithKeys(keys...))
	return func(msg tea.Msg, m *list.Model) tea.Cmd {
		if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, b) && len(m.VisibleItems()) > 0 {
			m.RemoveItem(m.GlobalIndex())
		}
		return nil
	}
}
