package page

import (
	"slices"
	"strings"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/loop"
)

// Model is the page's state: the todo list and the new-todo form. Update
// replaces it, never mutates it, so a snapshot handed to the agent
// runtime stays true.
type Model struct {
	List todo.List
	// Draft is the text in the page's new-todo field.
	Draft string
	// FormSubmits counts the times the application's own submit handler
	// ran: an agent's submission of the form must not reach it.
	FormSubmits int
	// Asked are the agent's calls waiting for the person's approval,
	// oldest first (agent.ApprovalAsked): the page shows the first, and
	// the person's Approve or Decline answers it (agent.ApprovalAnswer).
	Asked []agent.ApprovalRequest
}

// The page's own Messages, besides the list's (todo.Msg), which the
// person's clicks and the agent both send.
type (
	// DraftChanged reports the person typing in the new-todo field.
	DraftChanged struct{ Text string }
	// DraftSubmitted is the person submitting the new-todo form: the
	// application's own submit handler.
	DraftSubmitted struct{}
)

// Msg is the page's Message type: a todo.Msg or one of the page's own.
type Msg = any

// Program is the page application running on host/loop.
type Program = loop.Program[Model, Msg]

// Init is the first Model: two todos, nothing selected.
func Init() (Model, loop.Cmd[Msg]) {
	l, _ := todo.List{}.Add("Buy milk")
	l, _ = l.Add("Walk the dog")
	return Model{List: l}, nil
}

// Update applies one Message.
func Update(m Model, msg Msg) (Model, loop.Cmd[Msg]) {
	switch msg := msg.(type) {
	case todo.Msg:
		var reports []todo.Msg
		m.List, reports = todo.Update(m.List, msg)
		cmds := make([]Msg, len(reports))
		for i, r := range reports {
			cmds[i] = r
		}
		return m, loop.Emit(cmds...)
	case DraftChanged:
		m.Draft = msg.Text
	case agent.ApprovalAsked:
		m.Asked = append(slices.Clone(m.Asked), msg.Request)
	case agent.ApprovalWithdrawn:
		m.Asked = slices.DeleteFunc(slices.Clone(m.Asked), func(q agent.ApprovalRequest) bool { return q.ID == msg.ID })
	case DraftSubmitted:
		m.FormSubmits++
		if strings.TrimSpace(m.Draft) != "" {
			title := m.Draft
			m.Draft = ""
			return Update(m, todo.CreateTodo{Title: title})
		}
	}
	return m, nil
}

// Person is who an agent in the page acts for: the person at the page,
// who owns the list.
var Person = todo.Principal{Name: "page", Role: todo.Owner}

// Runtime is the todo contract bound to the running page.
type Runtime = agent.Runtime[todo.List, Msg, todo.Principal]

// Bind binds the todo contract to the running page, acting as Person: the
// contract that asks the owner (todo.ContractAskingOwner), since the
// person is at the page to answer an agent's clear_completed. The
// runtime's Contract is the one to build the page's form tools from.
func Bind(p *Program) (*Runtime, error) {
	return agent.Bind(todo.ContractAskingOwner(), todo.Focus(p, func(m Model) todo.List { return m.List }), todo.As(Person))
}
