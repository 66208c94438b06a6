package main

import (
	"fmt"
	"log/slog"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/devtools"
	"github.com/foldagent/foldagent/devtools/teadevtools"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/teahost"
)

// devtoolsWiring is -devtools: the app's history recorded at the host's
// door (teadevtools), each agent session's calls named by its principal
// as the audit names it (the runtime hands it to the host with the
// invocation, agent.InvocationFrom: no wrapper), served on loopback behind a random token and
// published in the per-user registry ($FOLDAGENT_DEVTOOLS_DIR, else the
// registry's default), where foldagent-devtools started in this
// directory, or one above it, finds it. A nil *devtoolsWiring is -devtools
// off: it names nothing and attaches nothing. The developer's dispatch is
// refused unless -devtools-dispatch enables it.
type devtoolsWiring struct {
	dispatch bool
}

func devtoolsFor(on, dispatch bool) *devtoolsWiring {
	if !on {
		return nil
	}
	return &devtoolsWiring{dispatch: dispatch}
}

// attach records host, joins b's audit, listens and publishes. The
// returned close unpublishes and stops serving.
func (w *devtoolsWiring) attach(host *teahost.Host[App, tea.Msg], b *Bound, logger *slog.Logger) (func(), error) {
	if w == nil {
		return func() {}, nil
	}
	d, l, err := teadevtools.Serve(host, devtools.Options{
		App:      "todo",
		Messages: todoMessages(),
		Audit:    b.Audit.Entries,
		Publish:  devtools.Registry(""),
		Dispatch: w.dispatch,
	})
	if err != nil {
		return nil, fmt.Errorf("-devtools: %w", err)
	}
	// Never the token: the registry holds it, owner-only.
	fmt.Fprintf(os.Stderr, "todo: devtools at %s, published for foldagent-devtools run in %s\n", l.URL, l.Dir)
	return func() {
		if err := d.Close(); err != nil {
			logger.Warn("todo: devtools did not close cleanly", "err", err)
		}
	}, nil
}

// todoMessages are the list's Message types, for the devtools' schema
// tool and (when enabled) their dispatch.
func todoMessages() []devtools.MessageType {
	return []devtools.MessageType{
		devtools.Message[todo.CreateTodo](), devtools.Message[todo.CreatedTodo](),
		devtools.Message[todo.RenameTodo](), devtools.Message[todo.SelectTodo](),
		devtools.Message[todo.ToggleTodo](), devtools.Message[todo.DeleteTodo](),
		devtools.Message[todo.ClearCompleted](), devtools.Message[todo.ChangeKept](),
	}
}
