// Package teadevtools attaches package devtools to a host/teahost Host,
// so that a Bubble Tea application's history is recorded like a host/loop
// one's. It is its own package so that an application on host/loop that
// imports devtools does not link Bubble Tea.
//
// Each published Update is recorded with its provenance, read at the
// Host's door (teahost.Host.Record): a dispatch by its context (an agent
// runtime's invocation, devtools.WithAgent's mark, the developer, or
// else the application's own code: the app, door "dispatch"), the
// person's keys, mouse, pastes and window changes (door "input"), and
// everything else Bubble Tea delivered, a tea.Cmd's result or another
// terminal report (the app, door "program"). Replay runs the model's
// Update on a deep copy (teahost.Host.Sandbox).
//
// The environment Bubble Tea hands the program at start (tea.EnvMsg) is
// recorded as an Environment, which serves the variables' names and never
// their values (an environment holds API keys and tokens); replay hands
// update the tea.EnvMsg it was.
package teadevtools

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/devtools"
	"github.com/foldagent/foldagent/host/teahost"
)

// Serve is Attach and then Listen, what a program that offers devtools
// does at start-up: when Listen fails (no loopback port, a registry it
// refuses to publish into), the recorder is detached again and the error
// returned. Close on the result stops the server, unpublishes and
// detaches.
func Serve[M tea.Model](h *teahost.Host[M, tea.Msg], opts devtools.Options) (*devtools.Devtools[M, tea.Msg], devtools.Listing, error) {
	d, err := Attach(h, opts)
	if err != nil {
		return nil, devtools.Listing{}, err
	}
	l, err := d.Listen()
	if err != nil {
		_ = d.Close()
		return nil, devtools.Listing{}, err
	}
	return d, l, nil
}

// Attach attaches devtools to h. It fails on options devtools cannot use
// and when h already has a recorder. Close on the result detaches.
func Attach[M tea.Model](h *teahost.Host[M, tea.Msg], opts devtools.Options) (*devtools.Devtools[M, tea.Msg], error) {
	var stop func()
	sandbox := h.Sandbox()
	update := func(m M, msg tea.Msg) (M, error) {
		if e, ok := msg.(Environment); ok {
			msg = tea.EnvMsg(e)
		}
		return sandbox(m, msg)
	}
	d, err := devtools.New[M, tea.Msg](h, update, func() { stop() }, opts)
	if err != nil {
		return nil, err
	}
	stop, err = h.Record(func(a teahost.Applied[M]) {
		msg := a.Msg
		if e, ok := msg.(tea.EnvMsg); ok {
			msg = Environment(e)
		}
		if a.Source == teahost.FromDispatch {
			d.AddDispatched(a.Version, msg, a.Model, a.Ctx)
			return
		}
		d.Add(a.Version, msg, a.Model, provenance(a))
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// provenance is where a Message Bubble Tea delivered came from.
func provenance[M any](a teahost.Applied[M]) devtools.Provenance {
	switch a.Source {
	case teahost.FromInput:
		return devtools.Provenance{Kind: devtools.KindPerson, Door: "input"}
	}
	return devtools.Provenance{Kind: devtools.KindApp, Door: "program"}
}

// Environment is a tea.EnvMsg as recorded: its JSON is the variables'
// names, each "NAME=[redacted]", never a value.
type Environment tea.EnvMsg

// MarshalJSON encodes the names only.
func (e Environment) MarshalJSON() ([]byte, error) {
	names := make([]string, 0, len(e))
	for _, kv := range e {
		name, _, _ := strings.Cut(kv, "=")
		names = append(names, name+"=[redacted]")
	}
	return json.Marshal(names)
}
