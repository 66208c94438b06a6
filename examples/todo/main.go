// Command todo is a terminal todo list that a person uses and an AI agent
// drives at the same time, through the same Messages.
//
//	go run ./examples/todo              # the TUI; -demo adds a scripted in-process agent
//	go run ./examples/todo -data FILE   # keep the list somewhere else
//
// Every agent action and refusal appears in the activity panel as it
// happens, fed by the contract's audit log.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/teahost"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "todo:", err)
		os.Exit(1)
	}
}

func run() error {
	dataPath := flag.String("data", "", "the JSON file the list is kept in (default: under the user's config directory)")
	demo := flag.Bool("demo", false, "run a short scripted agent in-process while the TUI is up")
	flag.Parse()

	path := *dataPath
	if path == "" {
		p, err := todo.DefaultPath()
		if err != nil {
			return fmt.Errorf("no config directory; pass -data: %w", err)
		}
		path = p
	}
	store := todo.NewStore(path)
	list, err := store.Load()
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	host := teahost.New[todo.App, tea.Msg](todo.New(store, list), nil)
	app, err := todo.Bind(host)
	if err != nil {
		return err
	}
	if *demo {
		go todo.RunDemo(ctx, app)
	}
	_, err = host.Run(ctx)
	return err
}

var _ = agent.InApp
