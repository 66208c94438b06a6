package teaserve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/foldagent/foldagent/internal/stdio"
	"github.com/foldagent/foldagent/mcpagent"
)

// The local socket. A running program listens on a unix socket in a
// directory only its user can enter ($XDG_RUNTIME_DIR/foldagent, else
// foldagent-<uid> under the temporary directory), made owner-only
// (0700) and checked to be so; the socket itself is 0600. A directory or
// socket owned by someone else, or open to anyone else, is refused by both
// the program and a client, and on Linux the program also refuses a
// connection whose peer is another user. Each connection is one MCP
// session: a first line of JSON (the Hello) says who the client acts as,
// then MCP messages follow, one per line each way, as over stdio.

// Hello is the first line a client sends on the socket. Its meaning is
// the application's: As is handed to the function that builds the
// session's server (a role, say). The zero value asks for the default.
type Hello struct {
	As string `json:"as,omitempty"`
}

var validName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// SocketPath returns where the program called name listens, creating and
// checking the per-user directory. name must match [a-zA-Z0-9_-]{1,64}.
func SocketPath(name string) (string, error) {
	if !validName.MatchString(name) {
		return "", fmt.Errorf("teaserve: %q is not a program name; use 1-64 characters of [a-zA-Z0-9_-]", name)
	}
	dir, err := userDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name+".sock"), nil
}

func userDir() (string, error) {
	base := os.Getenv("XDG_RUNTIME_DIR")
	dir := filepath.Join(base, "foldagent")
	if base == "" {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("foldagent-%d", os.Getuid()))
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("teaserve: %w", err)
	}
	if err := ownerOnly(dir, true); err != nil {
		return "", err
	}
	return dir, nil
}

// Socket is a listening local socket. Close it (or end Serve's context) to
// stop listening; the socket file is removed.
type Socket struct {
	ln   net.Listener
	path string
}

// Listen opens the socket of the program called name. It fails when
// another program of that name is already listening; a socket file left
// by one that was killed is removed first.
func Listen(name string) (*Socket, error) {
	path, err := SocketPath(name)
	if err != nil {
		return nil, err
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return nil, fmt.Errorf("teaserve: %s is already running (its socket %s answers)", name, path)
	}
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("teaserve: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("teaserve: %w", err)
	}
	return &Socket{ln: ln, path: path}, nil
}

// Path returns the socket's file.
func (s *Socket) Path() string { return s.path }

// Close stops listening and removes the socket file.
func (s *Socket) Close() error { return s.ln.Close() }

// Serve serves each connection as one MCP session, with the server
// newServer builds for the connection's Hello, until ctx ends; it then
// closes the socket and returns once every session has stopped. A
// connection from another user, or without a Hello line within ten
// seconds, is closed unserved, and so is one newServer refuses.
func (s *Socket) Serve(ctx context.Context, newServer func(Hello) (*mcpagent.Server, error)) {
	var wg sync.WaitGroup
	stop := context.AfterFunc(ctx, func() { s.ln.Close() })
	defer stop()
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			break
		}
		wg.Go(func() { serveConn(ctx, conn, newServer) })
	}
	s.ln.Close()
	wg.Wait()
}

func serveConn(ctx context.Context, conn net.Conn, newServer func(Hello) (*mcpagent.Server, error)) {
	defer conn.Close()
	if !samePeer(conn) {
		return
	}
	r := bufio.NewReaderSize(conn, 4096)
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := r.ReadSlice('\n')
	if err != nil {
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	var h Hello
	if json.Unmarshal(line, &h) != nil {
		return
	}
	srv, err := newServer(h)
	if err != nil {
		return
	}
	in := struct {
		io.Reader
		io.Closer
	}{r, conn}
	_ = srv.Run(ctx, &stdio.Transport{In: in, Out: conn})
}

// Dial connects to the running program called name and says hello. It
// refuses a socket that is not the user's own and owner-only.
func Dial(name string, h Hello) (net.Conn, error) {
	path, err := SocketPath(name)
	if err != nil {
		return nil, err
	}
	if err := ownerOnly(path, false); err != nil {
		return nil, err
	}
	conn, err := net.DialTimeout("unix", path, 2*time.Second)
	if err != nil {
		return nil, fmt.Errorf("teaserve: %s is not running (%w)", name, err)
	}
	b, _ := json.Marshal(h)
	if _, err := conn.Write(append(b, '\n')); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// Attach connects in and out (a client's standard input and output) to a
// session of the running program called name, and returns when either
// side ends: what `prog -mcp stdio` runs.
func Attach(name string, h Hello, in io.Reader, out io.Writer) error {
	conn, err := Dial(name, h)
	if err != nil {
		return err
	}
	return Relay(conn, in, out)
}

// Relay passes in to conn and conn to out until the program ends the
// session (the client closed in, or the program quit), then closes conn:
// Attach's second half, for a caller that dials itself (to try again
// while the program starts, say).
func Relay(conn net.Conn, in io.Reader, out io.Writer) error {
	defer conn.Close()
	go func() {
		_, _ = io.Copy(conn, in)
		if cw, ok := conn.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite() // the client ended: let the program end the session
		}
	}()
	_, err := io.Copy(out, conn)
	return err
}
