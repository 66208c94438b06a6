package main

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// This file is the application as huh's documentation has one embed a
// form in a Bubble Tea program: a tea.Model holding a *huh.Form (huh's,
// a published model this repository did not write, used as a module
// dependency) and passing it every Message. Nothing in it knows about
// agents or approvals: main is the only file that does.

// model is the program's tea.Model: the form, and nothing else.
type model struct{ form *huh.Form }

func newModel() model {
	return model{form: huh.NewForm(huh.NewGroup(
		huh.NewInput().Key("name").Title("Your name"),
		huh.NewInput().Key("city").Title("City"),
	))}
}

func (m model) Init() tea.Cmd { return m.form.Init() }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	f, cmd := m.form.Update(msg)
	if f, ok := f.(*huh.Form); ok {
		m.form = f
	}
	if m.form.State == huh.StateCompleted {
		return m, tea.Quit
	}
	return m, cmd
}

func (m model) View() tea.View { return tea.NewView(m.form.View()) }
