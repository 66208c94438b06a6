// Package teadevtools attaches package devtools to a host/teahost Host,
// so that a Bubble Tea application's history is recorded like a host/loop
// one's. It is its own package so that an application on host/loop that
// imports devtools does not link Bubble Tea.
//
// Each published Update is recorded with its provenance, read at the
// Host's door (teahost.Host.Record): a dispatch by its context (an agent
// marked by devtools.Agent or devtools.WithAgent, the developer, or the
// application's own code: the person), the person's keys, mouse and
// pastes (door "input"), and everything else Bubble Tea delivered, a
// tea.Cmd's result or a terminal event (the app, door "program"). Replay
// runs the model's Update on a deep copy (teahost.Host.Sandbox).
package teadevtools

import (
	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/devtools"
	"github.com/foldagent/foldagent/host/teahost"
)

// Attach attaches devtools to h. It fails on options devtools cannot use
// and when h already has a recorder. Close on the result detaches.
func Attach[M tea.Model](h *teahost.Host[M, tea.Msg], opts devtools.Options) (*devtools.Devtools[M, tea.Msg], error) {
	var stop func()
	d, err := devtools.New[M, tea.Msg](h, h.Sandbox(), func() { stop() }, opts)
	if err != nil {
		return nil, err
	}
	stop, err = h.Record(func(a teahost.Applied[M]) {
		d.Add(a.Version, a.Msg, a.Model, provenance(a))
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

func provenance[M any](a teahost.Applied[M]) devtools.Provenance {
	switch a.Source {
	case teahost.FromDispatch:
		return devtools.FromDispatch(a.Ctx)
	case teahost.FromInput:
		return devtools.Provenance{Kind: devtools.KindPerson, Door: "input"}
	}
	return devtools.Provenance{Kind: devtools.KindApp, Door: "program"}
}
