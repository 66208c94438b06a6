package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/mcpagent"
)

// tokens maps bearer tokens to the principals they stand for.
type tokens map[string]todo.Principal

// loadTokens reads a -tokens file, {"<token>": {"name": ..., "role": ...}},
// or, with no file, makes one owner token for the person at the terminal.
func loadTokens(path string) (tokens, string, error) {
	if path == "" {
		tok := rand.Text()
		return tokens{tok: {Name: "owner", Role: todo.Owner}}, tok, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	var t tokens
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, "", fmt.Errorf("%s: want {\"<token>\": {\"name\": ..., \"role\": ...}}: %w", path, err)
	}
	for tok, p := range t {
		if tok == "" || p.Name == "" {
			return nil, "", fmt.Errorf("%s: every token needs a non-empty token and name", path)
		}
	}
	return t, "", nil
}

// mcpHandler serves the todo contract over streamable HTTP: each session
// gets a runtime bound to the principal its bearer token stands for.
func mcpHandler(b *todo.Bound, t tokens, origins []string, logger *slog.Logger) (*mcpagent.Handler, error) {
	return mcpagent.NewHandler(mcpagent.HTTPOptions{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			p, ok := t[token]
			if !ok {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{UserID: p.Name, Extra: map[string]any{"principal": p}}, nil
		},
		NewRuntime: func(_ context.Context, info *auth.TokenInfo) (mcpagent.Runtime, error) {
			return b.RuntimeFor(info.Extra["principal"].(todo.Principal))
		},
		AllowedOrigins: origins,
		Server:         serverOptions(logger),
		Logger:         logger,
	})
}

// serverOptions names the todo application to MCP clients (serverInfo),
// over stdio and HTTP alike.
func serverOptions(logger *slog.Logger) *mcpagent.Options {
	return &mcpagent.Options{
		Implementation: &mcp.Implementation{Name: "foldagent-todo", Title: "Todo list", Version: "0.1.0"},
		Logger:         logger,
	}
}

// listen starts the HTTP endpoint on a loopback address and returns its
// URL; the server stops when ctx ends.
func listen(ctx context.Context, addr string, h http.Handler) (string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", fmt.Errorf("-addr %s: the todo example listens on loopback only", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "todo: http:", err)
		}
	}()
	return "http://" + ln.Addr().String() + "/mcp", nil
}

func splitOrigins(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// printEndpoint tells the person how to reach the app over MCP.
func printEndpoint(w io.Writer, url, token string) {
	fmt.Fprintf(w, "MCP %s\n", url)
	if token != "" {
		fmt.Fprintf(w, "TOKEN %s\n", token)
	}
}
