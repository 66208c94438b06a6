package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/internal/stdio"
	"github.com/foldagent/foldagent/mcpagent"
)

// The owner of a list publishes a local endpoint beside it: a unix socket
// (todos.json.sock for todos.json), readable only by the user, on which
// each connection is one MCP session over the live app. `todo -mcp stdio`
// started while the app runs connects to it and passes its standard input
// and output through, so the agent drives the very list the person is
// looking at, instead of a second copy that would overwrite it.
//
// A connection starts with one line of JSON, a Hello, saying who the
// client acts as; then MCP messages follow, one per line each way, as
// over stdio. Anyone who can open the socket is the user who owns it, so
// the client's word for its role is taken as -role is over stdio.

// Hello is the first line an attaching client sends.
type Hello struct {
	// Role is the principal's role (todo.Owner or todo.Viewer).
	Role string `json:"role"`
}

// localName is the principal name of a client attached through the local
// endpoint, as shown in the activity panel.
const localName = "mcp-client"

// maxSocketPath is the longest unix socket path every system accepts.
const maxSocketPath = 100

// ServeLocal listens on the socket beside the list at data and serves each
// connection as an MCP session of b until ctx ends; it returns the
// socket's path. The caller must own the list: a socket file left by a
// killed owner is removed first. The returned wait blocks until the
// listener and every session have stopped, after ctx ended.
func ServeLocal(ctx context.Context, data string, b *Bound, logger *slog.Logger) (string, func(), error) {
	path := socketPath(data)
	if len(path) > maxSocketPath {
		return "", nil, fmt.Errorf("the socket path %s is too long for a unix socket; keep the list in a shorter path", path)
	}
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return "", nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return "", nil, err
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		<-ctx.Done()
		ln.Close() // also removes the socket file
	})
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { serveLocalConn(ctx, conn, b, logger) })
		}
	})
	return path, wg.Wait, nil
}

func serveLocalConn(ctx context.Context, conn net.Conn, b *Bound, logger *slog.Logger) {
	defer conn.Close()
	r := bufio.NewReaderSize(conn, 4096)
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := r.ReadSlice('\n')
	if err != nil {
		logger.Warn("local endpoint: no hello", "err", err)
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	var h Hello
	if err := json.Unmarshal(line, &h); err != nil || (h.Role != todo.Owner && h.Role != todo.Viewer) {
		logger.Warn("local endpoint: bad hello", "err", err)
		return
	}
	rt, err := b.RuntimeFor(todo.Principal{Name: localName, Role: h.Role})
	if err != nil {
		logger.Error("local endpoint: bind", "err", err)
		return
	}
	s, err := mcpagent.NewServer(rt, serverOptions(logger, b.Feed()))
	if err != nil {
		logger.Error("local endpoint: server", "err", err)
		return
	}
	in := struct {
		io.Reader
		io.Closer
	}{r, conn}
	if err := s.Run(ctx, &stdio.Transport{In: in, Out: conn, Logger: logger}); err != nil && !errors.Is(err, context.Canceled) {
		logger.Info("local endpoint: session ended", "err", err)
	}
}

// dialLocal connects to an owner's local endpoint and says hello.
func dialLocal(socket string, h Hello) (net.Conn, error) {
	conn, err := net.DialTimeout("unix", socket, 2*time.Second)
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(h)
	if _, err := conn.Write(append(b, '\n')); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// relay passes in to conn and conn to out until the owner ends the
// session (it closed the connection: the client ended, or the app quit).
func relay(conn net.Conn, in io.Reader, out io.Writer) error {
	defer conn.Close()
	go func() {
		_, _ = io.Copy(conn, in)
		// The client closed its end: let the owner end the session.
		if cw, ok := conn.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
	}()
	_, err := io.Copy(out, conn)
	return err
}
