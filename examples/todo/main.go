package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/approvals"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teaserve"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/foldagent/foldagent/nativeagent"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "todo:", err)
		os.Exit(1)
	}
}

// flags are the command line.
type flags struct {
	data, mode, addr, tokens, origins, role, audit, a2a, native string
	demo, auditRefuse, devtools, devtoolsDispatch               bool
	approvalTimeout                                             time.Duration
}

func parseFlags() (flags, error) {
	var f flags
	flag.StringVar(&f.data, "data", "", "the JSON file the list is kept in (default: under the user's config directory)")
	flag.BoolVar(&f.demo, "demo", false, "run a short scripted agent in-process while the TUI is up, on a throwaway list unless -data is given")
	flag.StringVar(&f.mode, "mcp", "", `serve MCP headless: "stdio" or "http" (default: the TUI, with MCP over HTTP beside it)`)
	flag.StringVar(&f.addr, "addr", "127.0.0.1:0", "loopback address of the MCP HTTP endpoint")
	flag.StringVar(&f.tokens, "tokens", "", "JSON file mapping bearer tokens to principals (see below; default: one generated owner token)")
	flag.StringVar(&f.origins, "origins", "", "comma-separated browser Origins allowed to call the HTTP endpoint")
	flag.StringVar(&f.role, "role", todo.Owner, `the role of the MCP client over stdio: "owner" or "viewer"`)
	flag.StringVar(&f.audit, "audit", "", "append every audit entry to this JSON Lines file")
	flag.BoolVar(&f.auditRefuse, "audit-refuse", false, "refuse agents' calls while the -audit file cannot be written, rather than run them unaudited (default: report and go on)")
	flag.StringVar(&f.a2a, "a2a", "", `serve A2A (and MCP) over HTTP headless: "http" (default: the TUI, with both beside it)`)
	flag.DurationVar(&f.approvalTimeout, "approval-timeout", 2*time.Minute, "how long an agent's clear_completed waits for you to approve it in the terminal app (y approves, n declines)")
	flag.BoolVar(&f.devtools, "devtools", false, "record the app's history and serve it to foldagent-devtools run in this directory (published in the per-user registry, $FOLDAGENT_DEVTOOLS_DIR if set)")
	flag.BoolVar(&f.devtoolsDispatch, "devtools-dispatch", false, "with -devtools, let foldagent-devtools dispatch Messages (validated batches, recorded as the developer's; default: refused)")
	flag.StringVar(&f.native, "native", "", `serve the Agent Native actions (and MCP, A2A) over HTTP headless: "http"`)
	flag.Usage = usage
	flag.Parse()
	if f.mode != "" && f.mode != "stdio" && f.mode != "http" {
		return f, fmt.Errorf("-mcp %q: use stdio or http", f.mode)
	}
	if f.role != todo.Owner && f.role != todo.Viewer {
		return f, fmt.Errorf("-role %q: use %s or %s", f.role, todo.Owner, todo.Viewer)
	}
	if f.a2a != "" && f.a2a != "http" {
		return f, fmt.Errorf("-a2a %q: use http", f.a2a)
	}
	if f.a2a == "http" && f.mode == "stdio" {
		return f, errors.New("-a2a http serves over HTTP; it cannot be combined with -mcp stdio")
	}
	if f.native != "" && f.native != "http" {
		return f, fmt.Errorf("-native %q: use http", f.native)
	}
	if f.native == "http" && f.mode == "stdio" {
		return f, errors.New("-native http serves over HTTP; it cannot be combined with -mcp stdio")
	}
	if f.devtoolsDispatch && !f.devtools {
		return f, errors.New("-devtools-dispatch enables dispatch in -devtools; give -devtools too")
	}
	if f.approvalTimeout <= 0 {
		return f, fmt.Errorf("-approval-timeout %s: give a positive duration, such as 2m", f.approvalTimeout)
	}
	if f.demo && (f.mode != "" || f.a2a != "" || f.native != "") {
		return f, errors.New("-demo shows a scripted agent in the terminal app; it cannot be combined with -mcp, -a2a or -native, which run without one")
	}
	return f, nil
}

func usage() {
	w := flag.CommandLine.Output()
	fmt.Fprint(w, `todo: a terminal todo list that you use and an AI agent drives, through the same Messages.

  todo                 the TUI, serving MCP over HTTP on 127.0.0.1 beside it (URL and token printed)
  todo -demo           the TUI with a scripted agent acting, on a throwaway list
  todo -mcp stdio      MCP over stdin/stdout, what an MCP client launches: attaches to the
                       running app when there is one, so the agent works on the list you see
  todo -mcp http       headless, MCP over streamable HTTP (and A2A, Agent Native actions)
  todo -a2a http       the same, named for A2A callers
  todo -native http    the same, named for Agent Native applications

Flags:
`)
	flag.PrintDefaults()
	fmt.Fprint(w, `
The tokens file (-tokens FILE) says who each HTTP client is: a JSON object mapping each
bearer token to the principal it stands for, a name (shown in the activity panel) and a
role, "owner" (may do everything) or "viewer" (may not clear completed todos):

  {"3f9c…": {"name": "ada", "role": "owner"}, "77ab…": {"name": "ci-bot", "role": "viewer"}}

Each token is given once: a file that gives one token to two entries is refused at start.
A client sends its token as "Authorization: Bearer <token>". Without -tokens the app makes
one owner token per run and prints it.

An audit entry the -audit file cannot keep (a full disk, say) is never lost silently: it is
logged (beside the list, todos.json.log), counted, shown in the terminal app, and read with
GET /health (with a token). With -audit-refuse, agents' calls are refused meanwhile.

One process owns a list (a lock beside it, todos.json.lock); another one on the same list
attaches to it (-mcp stdio) or refuses, naming the owner.
`)
}

func run() error {
	f, err := parseFlags()
	if err != nil {
		return err
	}
	path, cleanup, err := dataPath(f)
	if err != nil {
		return err
	}
	defer cleanup()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	lock, attached, err := own(path, f)
	if err != nil {
		return err
	}
	if attached != nil {
		// Another process owns the list: be its MCP client's pipe.
		return teaserve.Relay(attached, os.Stdin, os.Stdout)
	}
	defer lock.Release()
	return serve(ctx, lock, path, f)
}

// dataPath is the list's file: -data, a throwaway one for -demo, or the
// default under the user's config directory. cleanup removes a throwaway
// list.
func dataPath(f flags) (string, func(), error) {
	switch {
	case f.data != "":
		// Absolute, so that the socket the owner publishes beside the list
		// is found by a process started in another directory.
		p, err := filepath.Abs(f.data)
		return p, func() {}, err
	case f.demo:
		dir, err := os.MkdirTemp("", "foldagent-todo-demo-")
		if err != nil {
			return "", nil, err
		}
		return filepath.Join(dir, "todos.json"), func() { os.RemoveAll(dir) }, nil
	}
	p, err := DefaultPath()
	if err != nil {
		return "", nil, fmt.Errorf("no config directory; pass -data: %w", err)
	}
	return p, func() {}, nil
}

// own takes the list's lock. When another process holds it, an MCP
// client over stdio attaches to that process's socket instead (the
// returned connection); any other mode refuses, naming the owner. An
// owner that is starting has not yet opened its socket, and one that has
// just quit has released the lock: both settle within moments, so own
// looks again for a few seconds before giving up.
func own(path string, f flags) (*Lock, net.Conn, error) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		lock, err := AcquireLock(path)
		var held *HeldError
		if !errors.As(err, &held) {
			return lock, nil, err
		}
		if f.mode != "stdio" {
			return nil, nil, err
		}
		if held.Holder.Socket != "" {
			if conn, derr := teaserve.Dial(programName(path), teaserve.Hello{As: f.role}); derr == nil {
				return nil, conn, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, nil, err
		}
		// Not a wait for an event this process could hear of: the owner
		// is another process, whose lock and socket are polled.
		time.Sleep(50 * time.Millisecond)
	}
}

// localName is the principal name of a client attached through the
// socket, as shown in the activity panel.
const localName = "mcp-client"

// programName is the name the list at data is served under
// (host/teaserve): one per list, so that two lists are two programs, and
// a client naming the list (-data) finds the process that owns it.
func programName(data string) string {
	sum := sha256.Sum256([]byte(data))
	return "todo-" + hex.EncodeToString(sum[:8])
}

// headless runs the program with no terminal, no renderer, and no Bubble
// Tea signal handler: the process's own context (SIGINT, SIGTERM) stops
// it.
var headless = []tea.ProgramOption{tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutRenderer(), tea.WithoutSignalHandler()}

// serve runs the app as the list's owner: it cleans what a killed owner
// left, loads the list, and serves it with host/teaserve: in the terminal,
// or headless over HTTP or stdio.
func serve(ctx context.Context, lock *Lock, path string, f flags) error {
	store := NewStore(path)
	if err := store.RemoveLeftovers(); err != nil {
		return err
	}
	list, err := store.Load()
	if err != nil {
		return err
	}
	defer store.Close()

	// The TUI owns the terminal: diagnostics (a contained panic, a model
	// mutated in place) go to a log file beside the data instead.
	logFile, err := os.OpenFile(path+".log", os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	logger := slog.New(slog.NewTextHandler(logFile, nil))

	// At the terminal, the person answers an agent's requests for
	// approval; headless, nobody would, and nothing is drawn.
	tui := f.mode == "" && f.a2a != "http" && f.native != "http"
	model := NewApp(store, list)
	opts := &teahost.Options{Logger: logger, MaxQueue: 4096, WithoutView: !tui}
	if tui {
		// The library draws the owner's approval card over the app and
		// reads their y and n (host/approvals); the app draws none.
		opts.Approvals = &teahost.ApprovalOptions{Options: approvals.Options{By: "owner", Agents: model.Agents()}}
	}
	host := teahost.New[App, tea.Msg](model, opts)
	var sinks []agent.AuditSink
	if f.audit != "" {
		sink, err := agent.OpenJSONLinesSink(f.audit, agent.JSONLinesOptions{})
		if err != nil {
			return err
		}
		defer sink.Close()
		sinks = append(sinks, sink)
	}
	dev := devtoolsFor(f.devtools, f.devtoolsDispatch)
	app, err := BindWith(host, BindConfig{AskOwner: tui, ApprovalTimeout: f.approvalTimeout, RefuseUnaudited: f.auditRefuse, Logger: logger}, sinks...)
	if err != nil {
		return err
	}
	defer app.Close() // after every server using its Feed (deferred later)
	closeDev, err := dev.attach(host, app, logger)
	if err != nil {
		return err
	}
	defer closeDev()

	sopts, closeHandlers, err := serveOptions(ctx, app, host, lock, f, logger)
	if err != nil {
		return err
	}
	defer closeHandlers()
	srv, err := teaserve.NewBound(programName(path), host, app.Runtime, sopts)
	if err != nil {
		return err
	}
	if f.mode == "stdio" {
		err = serveStdio(ctx, srv, app, f.role, logger)
	} else if tui {
		err = srv.Run(ctx)
	} else {
		err = srv.Run(ctx, headless...)
	}
	// The program has returned: its last model is the final one.
	return errors.Join(err, host.Model().Flush())
}

// serveStdio serves one MCP client over standard input and output, as the
// list's owner with no terminal, until the client ends or ctx does; the
// socket is served meanwhile, so that other clients attach to this one.
// stdout carries nothing but the protocol.
func serveStdio(ctx context.Context, srv *teaserve.Server[App, todo.Principal], app *Bound, role string, logger *slog.Logger) error {
	rt, err := app.RuntimeFor(todo.Principal{Name: localName, Role: role})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	client := make(chan error, 1)
	go func() {
		client <- mcpagent.ServeStdio(ctx, rt, serverOptions(logger, nil))
		cancel()
	}()
	err = srv.Run(ctx, headless...)
	cancel()
	return errors.Join(err, <-client)
}

// serveOptions configure the app's teaserve.Server: the socket serves each
// session as the role its Hello names; over HTTP (but with -mcp stdio,
// which serves none) the tokens file says who each client is, and A2A,
// the Agent Native actions and /health are served beside MCP. Once
// everything listens, the lock records where, the endpoint is printed and
// the App shows it. closeHandlers closes the handlers made here.
func serveOptions(ctx context.Context, app *Bound, host *teahost.Host[App, tea.Msg], lock *Lock, f flags, logger *slog.Logger) (opts *teaserve.Options[todo.Principal], closeHandlers func(), err error) {
	holder := Holder{PID: os.Getpid(), Mode: "terminal"}
	if f.mode != "" {
		holder.Mode = "mcp " + f.mode
	}
	if holder.Socket, err = teaserve.SocketPath(programName(lock.Path())); err != nil {
		return nil, nil, err
	}
	opts = &teaserve.Options[todo.Principal]{
		Addr:   f.addr,
		Server: serverOptions(logger, app.Feed()),
		Logger: logger,
		Local: func(h teaserve.Hello) (mcpagent.Runtime, error) {
			if h.As != todo.Owner && h.As != todo.Viewer {
				return nil, fmt.Errorf("the role %q: use %s or %s", h.As, todo.Owner, todo.Viewer)
			}
			return app.RuntimeFor(todo.Principal{Name: localName, Role: h.As})
		},
	}
	if f.mode == "stdio" {
		opts.Addr = "off"
		opts.Ready = func(teaserve.Endpoint) { _ = lock.Publish(holder) }
		return opts, func() {}, nil
	}
	toks, generated, err := loadTokens(f.tokens)
	if err != nil {
		return nil, nil, err
	}
	opts.HTTP = mcpOptions(app, toks, splitOrigins(f.origins), logger)
	var closers []func()
	closeHandlers = func() {
		for _, c := range closers {
			c()
		}
	}
	a2aHandler, a2a10, a2a03, err := a2aHandlers(app, toks, splitOrigins(f.origins), logger)
	if err != nil {
		return nil, nil, err
	}
	closers = append(closers, func() { _ = a2aHandler.Close() })
	native, err := nativeHandler(app, toks, splitOrigins(f.origins), logger)
	if err != nil {
		closeHandlers()
		return nil, nil, err
	}
	opts.Handle = mounts(endpoints{a2a: a2a10, a2a03: a2a03, native: native, health: healthHandler(app, toks)})
	opts.Ready = func(ep teaserve.Endpoint) {
		base := strings.TrimSuffix(ep.URL, "/mcp")
		holder.MCP = ep.URL
		if err := lock.Publish(holder); err != nil {
			logger.Warn("todo: the lock does not say who owns the list", "err", err)
		}
		printEndpoint(os.Stdout, base, generated, f.tokens)
		_ = host.Dispatch(ctx, Endpoint{URL: ep.URL, A2A: base + "/a2a", Native: base + nativeagent.DefaultPrefix})
		if f.demo {
			go RunDemo(ctx, app)
		}
	}
	return opts, closeHandlers, nil
}
