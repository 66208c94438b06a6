// Package keyact declares agent capabilities that a Bubble Tea application
// carries out as key presses, for the many programs whose only Messages are
// keys (those built from bubbles components: list, table, textinput, huh
// forms).
//
// Each [Action] is an ordinary capability of an agent.Contract, with its own
// name, description, typed input, availability, authorization, approval and
// audit, all checked on the runtime's one path. What it sends is a
// teahost.Keys Message: the presses a person would make, which the Host
// applies in one turn of the event loop, after asking Available again of
// the application's current model. So keys never land in a mode the action
// was not offered in: when the person has opened a dialog or started a
// filter since the agent looked, nothing is pressed and the call reports
// it. The result's completion is the teahost.KeysDone that says what
// happened (which keys, whether the model changed), or a failed one
// carrying teahost.KeysRefused and why; with [Action.Settled], once the
// application shows what the presses began, for one that finishes their
// work in a Cmd.
//
// The host's Message type must hold teahost.Keys, KeysDone and KeysRefused
// (tea.Msg does).
package keyact

import (
	"context"
	"fmt"
	"reflect"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
)

// Action declares a capability carried out as key presses. In is its input
// (agent.NoPrincipal-like empty structs for none), M the application's
// model type and P the principal type.
//
// Fields not documented here mean what agent.Mapped's fields of the same
// name mean.
type Action[In any, M tea.Model, P any] struct {
	// Name is required: every action sends the same Message type, so no
	// default name could tell them apart.
	Name        string
	Description string
	// Available is the mode the presses are meant for. The runtime asks it
	// of the snapshot a call reads, and the Host asks it again of the
	// application's model on the event loop, just before the first press:
	// if it no longer holds, nothing is pressed and the call fails with
	// KeysDone.Refused "not_offered". Nil means any mode.
	Available func(model M) bool
	// Keys returns the presses for in, from the snapshot Available
	// approved (teahost.Key for a named key, teahost.Type for text). It is
	// required. An empty list presses nothing and completes.
	Keys func(in In, model M) []tea.KeyPressMsg
	// Depends, when set, returns what the presses were computed from (the
	// cursor, the order of the visible rows): it is read from the snapshot
	// Keys saw and again from the application's model before the first
	// press, and when the two differ (reflect.DeepEqual) nothing is
	// pressed and the call fails with KeysDone.Refused "moved", since the
	// same keys would now do something else. Nil: the presses mean the
	// same in any model where Available holds.
	Depends func(model M) any
	// Settled, when set, is what the application's model shows once the
	// presses have taken effect, for an application that finishes their
	// work in a Cmd (bubbles' list filters in one): the call completes
	// once the Cmds the presses returned have all come back and it holds,
	// asked then and after every later Update (teahost.Keys.AwaitSettled),
	// so the result, and what the agent reads next, is what the
	// application settled on. Nil: the call completes right after the
	// presses.
	Settled func(in In, model M) bool

	Authorize   func(ctx context.Context, in In, call agent.Call[M, P]) (agent.Decision, error)
	ReadOnly    bool
	Destructive bool
	Requires    []agent.Requirement[M]
	Exists      func(in In, model M) (missing string, ok bool)
	Missing     string
	Watches     []agent.Watch[M]
	Freshness   agent.Freshness
	Approval    *agent.Approval[In, M, P]
}

// Expose declares the action as a capability. It panics, naming the
// action, when Name or Keys is missing, and as agent.ExposeMapped does for
// the rest.
func Expose[In any, M tea.Model, P any](a Action[In, M, P]) *agent.Exposed[In, M, P] {
	if a.Name == "" {
		panic("keyact: an Action needs a Name: every action sends teahost.Keys, so none has a default")
	}
	if a.Keys == nil {
		panic(fmt.Sprintf("keyact: action %q needs Keys, the presses it makes", a.Name))
	}
	name, keys, available, requires, depends, settled := a.Name, a.Keys, a.Available, a.Requires, a.Depends, a.Settled
	mine := func(in In, got teahost.KeysDone, inv agent.Invocation) bool {
		return got.Invocation == inv.ID && got.Action == name
	}
	return agent.ExposeMapped(agent.Mapped[In, teahost.Keys, M, P]{
		Name:        a.Name,
		Description: a.Description,
		Available:   available,
		Authorize:   a.Authorize,
		ToMessage: func(in In, call agent.Call[M, P]) teahost.Keys {
			var basis any
			if depends != nil {
				basis = depends(call.Model)
			}
			check := func(m tea.Model) string {
				model, ok := m.(M)
				if !ok || !offered(model, available, requires) {
					return NotOffered
				}
				if depends != nil && !reflect.DeepEqual(depends(model), basis) {
					return Moved
				}
				return ""
			}
			k := teahost.NewKeys(call.Invocation.ID, name, check, keys(in, call.Model)...)
			if settled != nil {
				k = k.AwaitSettled(func(m tea.Model) bool {
					model, ok := m.(M)
					return !ok || settled(in, model)
				})
			}
			return k
		},
		Completion: agent.CompleteOn(agent.On(mine)).FailOn(agent.On(func(in In, got teahost.KeysRefused, inv agent.Invocation) bool {
			return mine(in, teahost.KeysDone(got), inv)
		})),
		ReadOnly:    a.ReadOnly,
		Destructive: a.Destructive,
		Requires:    a.Requires,
		Exists:      a.Exists,
		Missing:     a.Missing,
		Watches:     a.Watches,
		Freshness:   a.Freshness,
		Approval:    a.Approval,
	})
}

// What KeysDone.Refused says when an action's keys were not pressed.
const (
	// NotOffered: the application left the mode the action is offered in
	// (Available or a requirement no longer holds).
	NotOffered = "not_offered"
	// Moved: what the presses were computed from (Depends) has changed.
	Moved = "moved"
)

// offered is the action's availability on the live model: Available and
// every requirement.
func offered[M any](m M, available func(M) bool, requires []agent.Requirement[M]) bool {
	if available != nil && !available(m) {
		return false
	}
	for _, r := range requires {
		if !r.Holds(m) {
			return false
		}
	}
	return true
}
