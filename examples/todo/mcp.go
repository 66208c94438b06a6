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
func mcpHandler(b *Bound, t tokens, origins []string, logger *slog.Logger) (*mcpagent.Handler, error) {
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
		// Every session follows the Model through the App's one Feed.
		Server: &mcpagent.Options{Logger: logger, Feed: b.Feed()},
		Logger: logger,
	})
}

// listen starts the HTTP endpoints on a loopback address (MCP at /mcp,
// A2A at /a2a, A2A 0.3 at /a2a/v0.3) and returns the server's base URL;
// the server stops when ctx ends.
func listen(ctx context.Context, addr string, h, a2a, a2a03 http.Handler) (string, error) {
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
	// The A2A handlers serve paths below their mount point (the card, the
	// HTTP+JSON binding), and JSON-RPC at the mount point itself.
	a2aRoot := http.StripPrefix("/a2a", a2a)
	mux.Handle("/a2a", a2aRoot)
	mux.Handle("/a2a/", a2aRoot)
	v03 := http.StripPrefix("/a2a/v0.3", a2a03)
	mux.Handle("/a2a/v0.3", v03)
	mux.Handle("/a2a/v0.3/", v03)
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
	return "http://" + ln.Addr().String(), nil
}

func splitOrigins(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// printEndpoint tells the person how to reach the app: the MCP URL, the
// A2A base URL (its agent card is at <A2A URL>/.well-known/agent-card.json),
// the generated token (if the app made one), and a command that registers
// the MCP endpoint with an MCP client (Claude Code's, as a typical one).
func printEndpoint(w io.Writer, url, a2aURL, token, tokensFile string) {
	fmt.Fprintf(w, "MCP %s\n", url)
	fmt.Fprintf(w, "A2A %s\n", a2aURL)
	bearer := token
	if token != "" {
		fmt.Fprintf(w, "TOKEN %s\n", token)
	} else {
		bearer = "<a token from " + tokensFile + ">"
	}
	fmt.Fprintf(w, "register it with an MCP client, for example:\n  %s\n", registerCommand(url, bearer))
}

// registerCommand is the command that adds the endpoint to Claude Code.
func registerCommand(url, bearer string) string {
	return fmt.Sprintf(`claude mcp add --transport http todo %s --header "Authorization: Bearer %s"`, url, bearer)
}
