package teaserve

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/mcpagent"
)

// Options configures a Server. The zero value, and a nil *Options, are
// valid.
type Options[P any] struct {
	// Addr is the loopback address the MCP HTTP endpoint listens on. Empty
	// means "127.0.0.1:0" (a free port); "off" serves no HTTP endpoint.
	Addr string
	// Token is the bearer token HTTP clients present. Empty means a random
	// one, made when Run starts.
	Token string
	// Bind configures the runtime (principal, audit, approval timeout).
	// Nil uses agent.Bind's defaults.
	Bind *agent.BindOptions[P]
	// Server configures the MCP servers. Nil uses mcpagent's defaults.
	Server *mcpagent.Options
	// Logger receives what goes wrong while serving. Nil discards it: the
	// terminal belongs to the program.
	Logger *slog.Logger

	// Local returns the runtime a session on the socket is served by, from
	// the client's Hello (its As, a role say); an error closes the
	// connection unserved. Nil serves every socket session with the
	// Server's runtime.
	Local func(Hello) (mcpagent.Runtime, error)
	// HTTP, if set, says who an HTTP client is and which runtime serves
	// it: its Verifier, NewRuntime, AllowedOrigins and bounds are used as
	// they are, in place of the one bearer token (Token is then unused and
	// Endpoint.Token empty). Its Server and Logger, when nil, are the
	// Server's.
	HTTP *mcpagent.HTTPOptions
	// Handle mounts more handlers on the HTTP endpoint's server beside
	// /mcp, by http.ServeMux pattern ("/health", "/a2a/"): another
	// protocol served from the same port. Each does its own
	// authentication. Nothing is mounted with Addr "off".
	Handle map[string]http.Handler
	// Ready, if set, is called by Run once the socket and the HTTP endpoint
	// are open and before the program starts, with where the endpoint is
	// (zero with Addr "off"): the place to print it, or to record it
	// where another process looks.
	Ready func(Endpoint)
}

// Server serves the contract of a Bubble Tea program run on a teahost.Host:
// over MCP HTTP on loopback, and over the program's local socket, to which
// `prog -mcp stdio` attaches a stdio client (see Attach).
type Server[M tea.Model, P any] struct {
	name   string
	host   *teahost.Host[M, tea.Msg]
	rt     *agent.Runtime[M, tea.Msg, P] // nil for NewBound's
	served mcpagent.Runtime              // what sessions are served by
	opts   Options[P]
	logger *slog.Logger
}

// New binds c to h and returns the Server for the program called name (the
// socket's name, [a-zA-Z0-9_-]{1,64}). A contract that cannot bind to the
// host fails here, with agent.Bind's error, before anything is served.
func New[M tea.Model, P any](name string, h *teahost.Host[M, tea.Msg], c *agent.Contract[M, P], opts *Options[P]) (*Server[M, P], error) {
	s, err := newServer(name, h, opts)
	if err != nil {
		return nil, err
	}
	rt, err := agent.Bind(c, h, s.opts.Bind)
	if err != nil {
		return nil, err
	}
	s.rt, s.served = rt, rt
	return s, nil
}

// NewBound returns the Server for a program that binds its contract
// itself, to h: a contract over a part of the model (agent.Focus), or
// one runtime per principal (Options.Local and Options.HTTP then choose
// the runtime of each session). rt serves every session those options
// do not, and is the one the tool lists follow unless Options.Server
// names a Feed. Options.Bind is not used.
func NewBound[M tea.Model, P any](name string, h *teahost.Host[M, tea.Msg], rt mcpagent.Runtime, opts *Options[P]) (*Server[M, P], error) {
	if rt == nil {
		return nil, errors.New("teaserve: NewBound needs a runtime")
	}
	s, err := newServer(name, h, opts)
	if err != nil {
		return nil, err
	}
	s.served = rt
	return s, nil
}

func newServer[M tea.Model, P any](name string, h *teahost.Host[M, tea.Msg], opts *Options[P]) (*Server[M, P], error) {
	if !validName.MatchString(name) {
		return nil, fmt.Errorf("teaserve: %q is not a program name; use 1-64 characters of [a-zA-Z0-9_-]", name)
	}
	if h == nil {
		return nil, errors.New("teaserve: no teahost.Host to serve")
	}
	s := &Server[M, P]{name: name, host: h}
	if opts != nil {
		s.opts = *opts
	}
	s.logger = s.opts.Logger
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	return s, nil
}

// Runtime returns the runtime New bound, which serves every session; nil
// for a Server made by NewBound.
func (s *Server[M, P]) Runtime() *agent.Runtime[M, tea.Msg, P] { return s.rt }

// Endpoint is where a running program serves MCP over HTTP, as Run records
// it in a file only the user can read (see ReadEndpoint).
type Endpoint struct {
	URL   string `json:"url"`
	Token string `json:"token"`
}

// Run opens the socket and the HTTP endpoint, then runs the program in the
// terminal with progOpts until it quits or ctx ends, serving both
// meanwhile. Every listener is opened before the program takes the
// terminal, so a port in use or a second copy of the program fails here
// with the error, not at the first client.
func (s *Server[M, P]) Run(ctx context.Context, progOpts ...tea.ProgramOption) error {
	sock, err := Listen(s.name)
	if err != nil {
		return err
	}
	defer sock.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srvOpts := mcpagent.Options{}
	if s.opts.Server != nil {
		srvOpts = *s.opts.Server
	}
	if srvOpts.Feed == nil {
		feed, err := mcpagent.NewFeed(s.served, nil)
		if err != nil {
			return err
		}
		defer feed.Close()
		srvOpts.Feed = feed
	}
	if srvOpts.Logger == nil {
		srvOpts.Logger = s.logger
	}
	ep, stopHTTP, err := s.serveHTTP(ctx, &srvOpts)
	if err != nil {
		return err
	}
	defer stopHTTP()
	if err := writeEndpoint(s.name, ep); err != nil {
		return err
	}
	defer removeEndpoint(s.name)
	if s.opts.Ready != nil {
		s.opts.Ready(ep)
	}
	served := make(chan struct{})
	go func() {
		defer close(served)
		sock.Serve(ctx, func(h Hello) (*mcpagent.Server, error) {
			rt := s.served
			if s.opts.Local != nil {
				var err error
				if rt, err = s.opts.Local(h); err != nil {
					s.logger.Warn("teaserve: a socket session refused", "err", err)
					return nil, err
				}
			}
			return mcpagent.NewServer(rt, &srvOpts)
		})
	}()
	_, err = s.host.Run(ctx, progOpts...)
	cancel()
	<-served
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}

func (s *Server[M, P]) serveHTTP(ctx context.Context, srvOpts *mcpagent.Options) (Endpoint, func(), error) {
	addr := s.opts.Addr
	if addr == "off" {
		return Endpoint{}, func() {}, nil
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || (host != "localhost" && (ip == nil || !ip.IsLoopback())) {
		return Endpoint{}, nil, fmt.Errorf("teaserve: %q is not a loopback address; the endpoint listens on loopback only", addr)
	}
	hopts, token := s.httpOptions(srvOpts)
	h, err := mcpagent.NewHandler(hopts)
	if err != nil {
		return Endpoint{}, nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		h.Close()
		return Endpoint{}, nil, fmt.Errorf("teaserve: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	for pattern, handler := range s.opts.Handle {
		mux.Handle(pattern, handler)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	stop := func() {
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
		h.Close()
	}
	return Endpoint{URL: "http://" + ln.Addr().String() + "/mcp", Token: token}, stop, nil
}

// httpOptions are the MCP handler's options: Options.HTTP's, or one
// bearer token (Options.Token, else a random one), which is returned.
func (s *Server[M, P]) httpOptions(srvOpts *mcpagent.Options) (mcpagent.HTTPOptions, string) {
	if s.opts.HTTP != nil {
		o := *s.opts.HTTP
		if o.Server == nil {
			o.Server = srvOpts
		}
		if o.Logger == nil {
			o.Logger = s.logger
		}
		return o, ""
	}
	token := s.opts.Token
	if token == "" {
		token = rand.Text()
	}
	return mcpagent.HTTPOptions{
		Verifier: func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
			if subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{UserID: "http"}, nil
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (mcpagent.Runtime, error) { return s.served, nil },
		Server:     srvOpts,
		Logger:     s.logger,
	}, token
}

func endpointPath(name string) (string, error) {
	sock, err := SocketPath(name)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(sock, ".sock") + ".json", nil
}

func writeEndpoint(name string, ep Endpoint) error {
	path, err := endpointPath(name)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(ep)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("teaserve: %w", err)
	}
	return os.Rename(tmp, path)
}

func removeEndpoint(name string) {
	if path, err := endpointPath(name); err == nil {
		_ = os.Remove(path)
	}
}

// ReadEndpoint returns the HTTP endpoint of the running program called
// name, from the owner-only file Run keeps beside its socket.
func ReadEndpoint(name string) (Endpoint, error) {
	path, err := endpointPath(name)
	if err != nil {
		return Endpoint{}, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return Endpoint{}, fmt.Errorf("teaserve: %s is not running (%w)", name, err)
	}
	var ep Endpoint
	if err := json.Unmarshal(b, &ep); err != nil {
		return Endpoint{}, fmt.Errorf("teaserve: %s: %w", filepath.Base(path), err)
	}
	return ep, nil
}

// Main is a whole main function for the program: with no arguments it runs
// the program in the terminal and serves it (Run); with "-mcp stdio" it
// attaches standard input and output to the running program as one MCP
// session (Attach); with "-mcp endpoint" it prints the running program's
// HTTP endpoint and token. Interrupts end the program.
func (s *Server[M, P]) Main(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet(s.name, flag.ContinueOnError)
	mode := fs.String("mcp", "", `"stdio": attach a stdio MCP client to the running program; "endpoint": print its HTTP endpoint`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch *mode {
	case "stdio":
		return Attach(s.name, Hello{}, stdin, stdout)
	case "endpoint":
		ep, err := ReadEndpoint(s.name)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "MCP %s\nTOKEN %s\n", ep.URL, ep.Token)
		return err
	case "":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return s.Run(ctx)
	}
	return fmt.Errorf("-mcp %q: use stdio or endpoint", *mode)
}
