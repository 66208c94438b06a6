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
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

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

	// The TUI owns the terminal: diagnostics (a contained panic, a model
	// mutated in place) go to a log file beside the data instead.
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	logFile, err := os.OpenFile(path+".log", os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	logger := slog.New(slog.NewTextHandler(logFile, nil))

	host := teahost.New[todo.App, tea.Msg](todo.New(store, list), &teahost.Options{Logger: logger})
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
