package mcpshell

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/internal/stdio"
)

// Discard is the logger an adapter gives the SDK: the adapters report
// their own diagnostics to the application's logger, never the SDK's
// activity.
var Discard = slog.New(slog.NewTextHandler(io.Discard, nil))

// Implementation returns a copy of impl (the caller's value is left alone)
// with an empty Name or Version taken from def.
func Implementation(impl *mcp.Implementation, def mcp.Implementation) *mcp.Implementation {
	var c mcp.Implementation
	if impl != nil {
		c = *impl
	}
	if c.Name == "" {
		c.Name = def.Name
	}
	if c.Version == "" {
		c.Version = def.Version
	}
	return &c
}

// Logger returns l, or slog.Default when l is nil: standard error, never
// standard output.
func Logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.Default()
	}
	return l
}

// Stdio returns the transport over standard input and output both
// adapters serve a local client with: one message a line, a bad line
// answered and the next one served (internal/stdio). log hears of each
// line answered with an error; nil logs nothing.
func Stdio(log *slog.Logger) *stdio.Transport {
	return &stdio.Transport{In: os.Stdin, Out: os.Stdout, Logger: log}
}

// Shell is an adapter's SDK server and whether it is closed. The zero
// value is not usable; call Init.
type Shell struct {
	srv    *mcp.Server
	closed error // the error Connect returns once closed
	shut   atomic.Bool
	once   sync.Once
}

// Init sets the SDK server; name prefixes the shell's errors (the
// adapter's package name).
func (s *Shell) Init(srv *mcp.Server, name string) {
	s.srv = srv
	s.closed = errors.New(name + ": the server is closed")
}

// MCP returns the SDK server.
func (s *Shell) MCP() *mcp.Server { return s.srv }

// Closed reports whether Close has begun.
func (s *Shell) Closed() bool { return s.shut.Load() }

// ErrClosed is the error a closed shell's adapter answers with.
func (s *Shell) ErrClosed() error { return s.closed }

// Connect connects the server to one client over t, as mcp.Server.Connect
// does, unless the shell is closed.
func (s *Shell) Connect(ctx context.Context, t mcp.Transport, opts *mcp.ServerSessionOptions) (*mcp.ServerSession, error) {
	if s.shut.Load() {
		return nil, s.closed
	}
	return s.srv.Connect(ctx, t, opts)
}

// Run serves one session over t until the client disconnects or ctx is
// done, then calls closeAll (the adapter's Close).
func (s *Shell) Run(ctx context.Context, t mcp.Transport, closeAll func() error) error {
	defer closeAll()
	return s.srv.Run(ctx, t)
}

// Close closes the shell once: it marks it closed (holding guard, when
// given, so that work done under guard either ends before or sees Closed
// true), runs before (the adapter's own shutdown), closes every session,
// and runs after. Either function may be nil. Later calls do nothing.
func (s *Shell) Close(guard sync.Locker, before, after func()) {
	s.once.Do(func() {
		if guard != nil {
			guard.Lock()
		}
		s.shut.Store(true)
		if guard != nil {
			guard.Unlock()
		}
		if before != nil {
			before()
		}
		for ss := range s.srv.Sessions() {
			_ = ss.Close()
		}
		if after != nil {
			after()
		}
	})
}
