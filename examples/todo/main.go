package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/mcpagent"
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
	mode := flag.String("mcp", "", `serve MCP headless: "stdio" or "http" (default: the TUI, with MCP over HTTP beside it)`)
	addr := flag.String("addr", "127.0.0.1:0", "loopback address of the MCP HTTP endpoint")
	tokensFile := flag.String("tokens", "", "JSON file mapping bearer tokens to {name, role} (default: one generated owner token)")
	origins := flag.String("origins", "", "comma-separated browser Origins allowed to call the HTTP endpoint")
	role := flag.String("role", todo.Owner, "the role of the MCP client over stdio")
	flag.Parse()
	if *mode != "" && *mode != "stdio" && *mode != "http" {
		return fmt.Errorf("-mcp %q: use stdio or http", *mode)
	}

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
	defer store.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
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

	host := teahost.New[todo.App, tea.Msg](todo.New(store, list), &teahost.Options{Logger: logger, MaxQueue: 4096})
	app, err := todo.Bind(host)
	if err != nil {
		return err
	}

	if *mode == "stdio" {
		// Headless: stdout carries nothing but the protocol.
		done := runHeadless(ctx, host)
		rt, err := app.RuntimeFor(todo.Principal{Name: "mcp-client", Role: *role})
		if err != nil {
			return err
		}
		err = mcpagent.ServeStdio(ctx, rt, serverOptions(logger))
		stop()
		return errors.Join(err, (<-done).Flush())
	}

	toks, generated, err := loadTokens(*tokensFile)
	if err != nil {
		return err
	}
	handler, err := mcpHandler(app, toks, splitOrigins(*origins), logger)
	if err != nil {
		return err
	}
	defer handler.Close()
	url, err := listen(ctx, *addr, handler)
	if err != nil {
		return err
	}
	printEndpoint(os.Stdout, url, generated)

	if *mode == "http" {
		return (<-runHeadless(ctx, host)).Flush()
	}
	host.Dispatch(ctx, todo.Endpoint{URL: url})
	if *demo {
		go todo.RunDemo(ctx, app)
	}
	final, err := host.Run(ctx)
	return errors.Join(err, final.Flush())
}

// runHeadless runs the app with no terminal until ctx ends, and then
// delivers its final model.
func runHeadless(ctx context.Context, host *teahost.Host[todo.App, tea.Msg]) <-chan todo.App {
	done := make(chan todo.App, 1)
	go func() {
		// No terminal, no renderer, and no Bubble Tea signal handler: the
		// process's own context (SIGINT, SIGTERM) stops it.
		final, _ := host.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutRenderer(), tea.WithoutSignalHandler())
		done <- final
	}()
	return done
}
