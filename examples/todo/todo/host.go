package todo

import (
	"context"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// Host is a running application the contract binds to: it reads the
// Model and takes Messages of type Msg, and it reports Model changes and
// processed Messages, which the capabilities' completions wait on. A *loop.Program and a *teahost.Host are hosts.
type Host[Model, Msg any] interface {
	agent.Host[Model, Msg]
	agent.Subscriber
	agent.Observer[Msg]
	agent.Versioned[Model]
	agent.DeliveryTracker[Msg]
	agent.NonBlocking
}

// Focus adapts h, whose Model holds a List among other state (the
// terminal App, the web page's Model), to the contract, which reads only
// the List: list picks it out of each Model snapshot. Messages, Model
// changes and processed Messages pass through unchanged.
//
// What list returns is what the agent is promised: an application that
// saves the list picks out the list as last saved (the terminal app's
// App.Kept), so that rename_todo, which completes on state, returns only
// once the new title is written, and an agent is never shown a todo that
// a crash could take away.
func Focus[Model, Msg any](h Host[Model, Msg], list func(Model) List) Host[List, Msg] {
	return focused[Model, Msg]{Host: h, list: list}
}

type focused[Model, Msg any] struct {
	Host[Model, Msg]
	list func(Model) List
}

func (f focused[Model, Msg]) Model() List { return f.list(f.Host.Model()) }

// VersionedModel and ModelAt number the lists with the host's versions.
func (f focused[Model, Msg]) VersionedModel() (List, uint64) {
	m, v := f.Host.VersionedModel()
	return f.list(m), v
}

func (f focused[Model, Msg]) ModelAt(v uint64) (List, bool) {
	m, ok := f.Host.ModelAt(v)
	if !ok {
		return List{}, false
	}
	return f.list(m), true
}

// As returns options under which every call through the bound runtime acts
// as p. A protocol adapter binds one runtime per authenticated session
// with it: identity comes from the transport, never from a tool's
// arguments.
func As(p Principal) *agent.BindOptions[Principal] {
	return &agent.BindOptions[Principal]{
		Principal: func(context.Context, agent.Invocation) (Principal, error) { return p, nil },
	}
}

// Loop is the bare list as a host/loop application: it starts empty, and
// applies each Message with Update, emitting what Update reports after it.
// A program whose only state is the list (an MCP server, a test) runs it
// with loop.New(todo.Loop(), nil); an application with more state calls
// Update from its own update instead.
func Loop() loop.App[List, Msg] {
	return loop.Funcs(
		func() (List, loop.Cmd[Msg]) { return List{}, nil },
		func(l List, msg Msg) (List, loop.Cmd[Msg]) {
			l, reports := Update(l, msg)
			return l, loop.Emit(reports...)
		},
	)
}
