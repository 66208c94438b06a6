package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/shop/shop"
	"github.com/foldagent/foldagent/host/approvals"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/internal/httpguard"
	"github.com/foldagent/foldagent/journey/bind/bindmcp"
	"github.com/foldagent/foldagent/journey/fixed"
	"github.com/foldagent/foldagent/journey/journeymcp"
	"github.com/foldagent/foldagent/mcpagent"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "shop:", err)
		os.Exit(1)
	}
}

type flags struct {
	mode, addr, tools, auditFile, token, keys string
	single, sessionless                       bool
	payDelay, settle, approvalTimeout         time.Duration
	patience                                  time.Duration
	devtools                                  devtoolsFlags
}

func run() error {
	f, err := parseFlags()
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	var sinks []agent.AuditSink
	if f.auditFile != "" {
		fs, err := agent.OpenJSONLinesSink(f.auditFile, agent.JSONLinesOptions{})
		if err != nil {
			return err
		}
		defer fs.Close()
		sinks = append(sinks, fs)
	}
	p, err := assemble(f, sinks, logger)
	if err != nil {
		return err
	}
	defer p.closeDev()
	if f.mode == "" {
		return runTUI(ctx, p.th, p.newServer, f.addr, bearerToken(f.token), logger)
	}
	return runHeadless(ctx, f, p, logger)
}

// parseFlags reads the command line, refusing a bad one before a token
// is made or printed, or anything served.
func parseFlags() (flags, error) {
	var f flags
	flag.StringVar(&f.mode, "mcp", "", `serve MCP headless: "stdio" or "http" (default: the TUI, serving both tool sets over HTTP beside it)`)
	flag.StringVar(&f.addr, "addr", "127.0.0.1:0", "the loopback address of the HTTP endpoint")
	flag.StringVar(&f.tools, "tools", string(bindmcp.Fixed), `the tool set served headless: "fixed" (journey tools) or "dynamic" (one tool per capability)`)
	flag.BoolVar(&f.single, "single", false, "serve one journey tool taking the journey id, instead of one per journey")
	flag.DurationVar(&f.payDelay, "pay-delay", 600*time.Millisecond, "how long the payment server takes to answer")
	flag.DurationVar(&f.settle, "settle-within", journeymcp.DefaultSettleWithin, "how long a fixed-tool call that fired waits for it to come to rest")
	flag.DurationVar(&f.approvalTimeout, "approval-timeout", 2*time.Minute, "how long an agent's payment waits for the person to approve it in the app (y approves, n declines; -keys when headless)")
	flag.StringVar(&f.auditFile, "audit", "", "append every audit entry to this JSON Lines file")
	flag.StringVar(&f.keys, "keys", "", "headless: read the person's key presses from this file or named pipe, as if typed into the TUI (a script acting as the person)")
	flag.DurationVar(&f.patience, "patience", mcpagent.DefaultPatience, "dynamic tools: when a call still waiting (for the person, for the payment server) answers a client that asked for no task: held, nothing done yet; the same call again learns the outcome")
	flag.BoolVar(&f.sessionless, "sessionless", false, "headless HTTP with -tools dynamic: serve through mcpagent.Handler, which also serves the sessionless 2026-07-28 revision (every client with the token is one identity)")
	flag.StringVar(&f.token, "token", "", "the bearer token HTTP clients must send (default: one generated per run and printed)")
	flag.BoolVar(&f.devtools.on, "devtools", false, "record the store's history and serve it to foldagent-devtools run in this directory (published in the per-user registry, $FOLDAGENT_DEVTOOLS_DIR if set)")
	flag.BoolVar(&f.devtools.dispatch, "devtools-dispatch", false, "with -devtools, let foldagent-devtools dispatch Messages (validated batches, recorded as the developer's; default: refused)")
	flag.Parse()
	if err := f.devtools.check(); err != nil {
		return f, err
	}
	if f.patience <= 0 {
		return f, fmt.Errorf("-patience %s: give a positive duration, such as 50s", f.patience)
	}
	if f.sessionless && (f.mode != "http" || f.tools != string(bindmcp.Dynamic)) {
		return f, errors.New("-sessionless serves the dynamic tools over HTTP: use it with -mcp http -tools dynamic")
	}
	if f.approvalTimeout <= 0 {
		return f, fmt.Errorf("-approval-timeout %s: give a positive duration, such as 2m", f.approvalTimeout)
	}
	if f.tools != string(bindmcp.Fixed) && f.tools != string(bindmcp.Dynamic) {
		return f, fmt.Errorf("-tools %q: use fixed or dynamic", f.tools)
	}
	if f.mode != "" && f.mode != "stdio" && f.mode != "http" {
		return f, fmt.Errorf("-mcp %q: use stdio or http", f.mode)
	}
	if err := loopback(f.addr); err != nil {
		return f, err
	}
	return f, nil
}

// shopParts is the program assembled: the terminal host, the runtime
// bound to it, and how to build the MCP server of either tool set.
type shopParts struct {
	th        *teahost.Host[App, tea.Msg]
	served    reporting
	newServer func(bindmcp.Tools) (bindmcp.Server, error)
	closeDev  func()
}

// assemble builds the program: the app under the terminal host, the
// audit, the runtime bound to the shop's contract, devtools when asked,
// and the server builder.
func assemble(f flags, sinks []agent.AuditSink, logger *slog.Logger) (*shopParts, error) {
	// Headless, nothing is drawn: the App's View is not asked for.
	// The library draws the person's approval card over the app and reads
	// their y and n (host/approvals), headless too (-keys); the app draws
	// none.
	model := NewApp(f.payDelay)
	th := teahost.New[App, tea.Msg](model, &teahost.Options{WithoutView: f.mode != "",
		Approvals: &teahost.ApprovalOptions{Options: approvals.Options{Agents: model.Agents()}}})
	audit := agent.NewAuditLog(agent.AuditOptions[agent.NoPrincipal]{
		Sinks: sinks,
		// An entry the audit file does not keep is never silent: logged,
		// counted (audit.Health), and a line in the activity panel with
		// the sink's own error. The host never blocks a Dispatch.
		OnError: func(err error) {
			logger.Error("shop: audit entry not kept", "err", err)
			shown := err
			if cause := errors.Unwrap(err); cause != nil {
				shown = cause
			}
			_ = th.Dispatch(context.Background(), Activity{At: time.Now(), Capability: "audit", Outcome: "entry not kept", Reason: shown.Error()})
		},
	})
	h := host{th}
	// One token, one identity: every session that holds it counts
	// against one bound of calls held for the person (a session each
	// would let one token put a card per session in front of them).
	oneIdentity := agent.NewHeldBound(0, 0, func(context.Context, agent.NoPrincipal) string { return "token" })
	rt, err := agent.Bind(shop.Contract(), h, &agent.BindOptions[agent.NoPrincipal]{Audit: audit, ApprovalTimeout: f.approvalTimeout, HeldBound: oneIdentity})
	if err != nil {
		return nil, err
	}
	served := reporting{Runtime: rt, panel: th}
	impl := &mcp.Implementation{Name: "foldagent-shop", Title: "Shop", Version: "0.1.0"}
	closeDev, err := attachDevtools(f.devtools, th, audit, model.Agents(), logger)
	if err != nil {
		return nil, err
	}
	newServer := func(tools bindmcp.Tools) (bindmcp.Server, error) {
		if tools == bindmcp.Dynamic {
			// Every tool listed once, whatever the page: what the page
			// does not offer is refused with the reason, and the model
			// need not list again after each call.
			return mcpagent.NewServer(served, &mcpagent.Options{
				Implementation: impl, Logger: logger, Patience: f.patience, ListAll: true,
			})
		}
		mode := fixed.PerJourney
		if f.single {
			mode = fixed.Single
		}
		s, _, err := bindmcp.NewServer("shop", served, h.Model, shop.Journey, &bindmcp.Options{
			Tools: tools, Logger: logger, SettleWithin: f.settle, Patience: f.patience,
			Implementation: impl,
			Port:           fixed.Options{JourneyTools: mode, Observe: served.journeyRefusals},
		})
		return s, err
	}

	return &shopParts{th: th, served: served, newServer: newServer, closeDev: closeDev}, nil
}

// runHeadless runs the program without a terminal and serves MCP over
// stdio or HTTP until it ends.
func runHeadless(ctx context.Context, f flags, p *shopParts, logger *slog.Logger) error {
	// Headless: the program runs without a terminal. The person's q (or
	// an interrupt) ends it, and the process with it: the calls held for
	// the person are answered at once as the person having left
	// (agent.PersonLeftError), and then the server stops.
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var input io.Reader // no keyboard
	if f.keys != "" {
		input = &keys{path: f.keys}
	}
	quit := make(chan struct{})
	var runErr error
	go func() {
		defer close(quit)
		_, runErr = p.th.Run(runCtx, tea.WithInput(input), tea.WithOutput(io.Discard), tea.WithoutRenderer(), tea.WithoutSignalHandler())
	}()
	if f.sessionless {
		return serveSessionless(ctx, f, p.served, logger)
	}
	srv, err := p.newServer(bindmcp.Tools(f.tools))
	if err != nil {
		return err
	}
	defer srv.Close()
	serveCtx, stopServing := context.WithCancel(ctx)
	defer stopServing()
	switch f.mode {
	case "stdio":
		// stdout is the protocol channel; logs go to stderr. When the
		// program ends, the session is closed once every call has been
		// answered (closing drops the answers still in flight). A
		// 2025-11-25 client's task-augmented call reaches the dynamic
		// tools as one (mcpagent.TaskTransport).
		t := newAnswering(mcpagent.TaskTransport(journeymcp.StdioTransport()))
		go func() {
			<-quit
			select {
			case <-t.idle(): // every call read has been answered
			case <-time.After(5 * time.Second):
			}
			srv.Close()
		}()
		err = srv.Run(ctx, t)
	case "http":
		ln, lerr := net.Listen("tcp", f.addr)
		if lerr != nil {
			return lerr
		}
		token := bearerToken(f.token)
		fmt.Printf("MCP http://%s/mcp\nTOKEN %s\n", ln.Addr(), token)
		go func() {
			<-quit
			stopServing() // serveHTTP closes the sessions, then the server
		}()
		err = serveHTTP(serveCtx, ln, srv, nil, token)
	default:
		return fmt.Errorf("unknown -mcp %q: use stdio or http", f.mode)
	}
	select {
	case <-quit:
		return quitError(runErr)
	default:
		return err
	}
}

// quitError is how the program's end ends the process: the person's q
// and an interrupt are no error.
func quitError(err error) error {
	if errors.Is(err, tea.ErrProgramKilled) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// loopback checks that addr (-addr) names a loopback host: the shop
// serves nobody beyond this machine.
func loopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %s: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("-addr %s: the shop example listens on loopback only", addr)
	}
	return nil
}

// sessionIdle is how long an HTTP MCP session may stay silent before it
// is ended (and, with the fixed tools, its journey released).
const sessionIdle = 30 * time.Minute

// serveHTTP serves the fixed tools at /mcp and, when given, the dynamic
// tools at /mcp/dynamic, on a loopback listener, until ctx ends. Every
// request must carry the bearer token, and a browser page of another
// origin or a DNS-rebinding request is refused, as the todo example's
// endpoints do (internal/httpguard).
func serveHTTP(ctx context.Context, ln net.Listener, fixedOrOnly, dynamic bindmcp.Server, token string) error {
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		return fmt.Errorf("%s: the shop example listens on loopback only", ln.Addr())
	}
	mux := http.NewServeMux()
	// Each MCP session of the fixed tools is a conversation with a
	// journey of its own, released when the session ends: a client that
	// leaves without ending it is ended after an idle while, and the
	// sessions one token may hold are bounded (journeymcp.HTTPHandler:
	// beyond the bound a new session is refused with a retry hint), so
	// the journeys held are bounded by the clients still talking. A
	// session's DELETE ends its calls first: a payment held for the
	// person is withdrawn, and the DELETE answered at once.
	opts := &journeymcp.HTTPOptions{SessionTimeout: sessionIdle}
	mux.Handle("/mcp", journeymcp.NewHTTPHandler(func(*http.Request) *mcp.Server { return fixedOrOnly.MCP() }, opts))
	if dynamic != nil {
		mux.Handle("/mcp/dynamic", journeymcp.NewHTTPHandler(func(*http.Request) *mcp.Server { return dynamic.MCP() }, opts))
	}
	hs := &http.Server{Handler: guarded(mux, token), ReadHeaderTimeout: 10 * time.Second}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		// The requests in flight finish first (a call held for the
		// person is answered as soon as the app stops; an open stream
		// is cut after a while), then the MCP sessions close: closing
		// one drops the answers still in flight.
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shutdown)
		fixedOrOnly.Close()
		if dynamic != nil {
			dynamic.Close()
		}
		hs.Close()
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	<-stopped
	return nil
}

// serveSessionless serves the dynamic tools headless over HTTP through
// mcpagent.Handler (-sessionless), on the same loopback, token and
// origin rules as serveHTTP: a client of the session revisions opens a
// session as before, and a client of the sessionless 2026-07-28
// revision is served without one (its tasks extension included). Every
// client presenting the token is one identity, served by the store's one
// runtime.
func serveSessionless(ctx context.Context, f flags, served reporting, logger *slog.Logger) error {
	token := bearerToken(f.token)
	h, err := mcpagent.NewHandler(mcpagent.HTTPOptions{
		Verifier: func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
			if subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{UserID: "shop-client"}, nil
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (mcpagent.Runtime, error) { return served, nil },
		Server: &mcpagent.Options{
			Implementation: &mcp.Implementation{Name: "foldagent-shop", Title: "Shop", Version: "0.1.0"},
			Logger:         logger, Patience: f.patience,
		},
		SessionTimeout: sessionIdle,
		Logger:         logger,
	})
	if err != nil {
		return err
	}
	defer h.Close()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		ln.Close()
		return fmt.Errorf("%s: the shop example listens on loopback only", ln.Addr())
	}
	fmt.Printf("MCP http://%s/mcp\nTOKEN %s\n", ln.Addr(), token)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	hs := &http.Server{Handler: guarded(mux, token), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// runTUI runs the store in the terminal and serves both tool sets over
// HTTP beside it, so a person can watch an agent shop.
func runTUI(ctx context.Context, th *teahost.Host[App, tea.Msg], newServer func(bindmcp.Tools) (bindmcp.Server, error), addr, token string, logger *slog.Logger) error {
	fx, err := newServer(bindmcp.Fixed)
	if err != nil {
		return err
	}
	defer fx.Close()
	dy, err := newServer(bindmcp.Dynamic)
	if err != nil {
		return err
	}
	defer dy.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	httpCtx, stopHTTP := context.WithCancel(ctx)
	defer stopHTTP()
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := serveHTTP(httpCtx, ln, fx, dy, token); err != nil {
			logger.Error("HTTP", "err", err)
		}
	}()
	url := "http://" + ln.Addr().String() + "/mcp"
	fmt.Printf("MCP %s (fixed tools), %s/dynamic (dynamic tools)\nTOKEN %s\n", url, url, token)
	go func() { _ = th.Dispatch(ctx, Endpoint{URL: url}) }()
	_, err = th.Run(ctx)
	// The person quit: the calls held for them are answered (as the
	// person having left) before the server stops and the process ends.
	stopHTTP()
	<-served
	return err
}

// keys is the person's keyboard in headless mode: key presses read from a
// file or a named pipe. It opens the path on the first read, so the
// program starts before a writer opens a pipe; at the end of a pipe it
// opens it again for the next writer, and at the end of a file it waits
// for ever, so the program never reads an end of its input (which a
// Bubble Tea program reports as an error).
type keys struct {
	path string
	f    *os.File
}

func (k *keys) Read(p []byte) (int, error) {
	for {
		if k.f == nil {
			f, err := os.Open(k.path)
			if err != nil {
				return 0, err
			}
			k.f = f
		}
		n, err := k.f.Read(p)
		if n > 0 || (err != nil && !errors.Is(err, io.EOF)) {
			return n, err
		}
		st, serr := k.f.Stat()
		k.f.Close()
		k.f = nil
		if serr != nil || st.Mode()&os.ModeNamedPipe == 0 {
			select {} // a file, read whole: no more keys
		}
	}
}

// bearerToken is the given token, or a fresh random one.
func bearerToken(given string) string {
	if given != "" {
		return given
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// guarded answers a request only from a caller with the token: an Origin
// of another site, a DNS-rebinding Host, and a missing or wrong token are
// refused before the MCP handler sees the request.
func guarded(next http.Handler, token string) http.Handler {
	origins := httpguard.NewOrigins(nil)
	verify := func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		if subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "shop-client"}, nil
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !origins.Allowed(r) || httpguard.Rebinding(r) {
			http.Error(w, "Forbidden: origin not allowed", http.StatusForbidden)
			return
		}
		if _, err := httpguard.Bearer(r.Context(), verify, r); err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="shop"`)
			http.Error(w, "Unauthorized: send the bearer token the shop printed", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
