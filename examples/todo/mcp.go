package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/internal/tokensfile"
	"github.com/foldagent/foldagent/mcpagent"
	"github.com/foldagent/foldagent/nativeagent"
)

// tokens maps bearer tokens to the principals they stand for.
type tokens map[string]todo.Principal

// loadTokens reads a -tokens file, {"<token>": {"name": ..., "role": ...}},
// or, with no file, makes one owner token for the person at the terminal.
// A file that names no token, gives one token twice, or names a role the
// app does not know, is refused (naming the file and the entries, never a
// token): a typo must not serve a principal no rule was written for.
func loadTokens(path string) (tokens, string, error) {
	if path == "" {
		tok := rand.Text()
		return tokens{tok: {Name: "owner", Role: todo.Owner}}, tok, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("-tokens: %w", err)
	}
	t, err := tokensfile.Decode(b, func(p todo.Principal) string { return p.Name })
	var repeated *tokensfile.RepeatedError
	if errors.As(err, &repeated) {
		return nil, "", fmt.Errorf("-tokens %s: %w", path, err)
	}
	if err != nil {
		return nil, "", fmt.Errorf("-tokens %s: want {\"<token>\": {\"name\": ..., \"role\": ...}}: %w", path, err)
	}
	if len(t) == 0 {
		return nil, "", fmt.Errorf("-tokens %s: the file names no token", path)
	}
	for tok, p := range t {
		if tok == "" || p.Name == "" {
			return nil, "", fmt.Errorf("-tokens %s: every token needs a non-empty token and name", path)
		}
		if p.Role != todo.Owner && p.Role != todo.Viewer {
			return nil, "", fmt.Errorf("-tokens %s: the principal %q has the role %q: use %s or %s", path, p.Name, p.Role, todo.Owner, todo.Viewer)
		}
	}
	return t, "", nil
}

// mcpHandler serves the todo contract over streamable HTTP (see
// mcpOptions).
func mcpHandler(b *Bound, t tokens, origins []string, logger *slog.Logger) (*mcpagent.Handler, error) {
	return mcpagent.NewHandler(*mcpOptions(b, t, origins, logger))
}

// mcpOptions serve the todo contract over streamable HTTP: each session
// gets a runtime bound to the principal its bearer token stands for.
func mcpOptions(b *Bound, t tokens, origins []string, logger *slog.Logger) *mcpagent.HTTPOptions {
	return &mcpagent.HTTPOptions{
		Verifier: t.verify,
		NewRuntime: func(_ context.Context, info *auth.TokenInfo) (mcpagent.Runtime, error) {
			return runtimeFor(b, info)
		},
		AllowedOrigins: origins,
		// Every session follows the Model through the App's one Feed.
		Server: serverOptions(logger, b.Feed()),
		Logger: logger,
	}
}

// healthHandler answers GET /health, for a bearer token the tokens file
// gives, with the app's Health as JSON: a health read shows an audit that
// lost entries (and whether calls are refused for it).
func healthHandler(b *Bound, t tokens) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if _, known := t[token]; !ok || !known {
			w.Header().Set("WWW-Authenticate", "Bearer")
			http.Error(w, "a bearer token from the tokens file is needed", http.StatusUnauthorized)
			return
		}
		if r.Method != http.MethodGet {
			w.Header().Set("Allow", http.MethodGet)
			http.Error(w, "GET only", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(b.Health())
	})
}

// verify is the one bearer-token check every HTTP endpoint of the app
// (MCP, A2A, Agent Native actions) uses: the token stands for the
// principal the tokens file gives it.
func (t tokens) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	p, ok := t[token]
	if !ok {
		return nil, auth.ErrInvalidToken
	}
	return mcpagent.TokenFor(p.Name, p), nil
}

// runtimeFor binds the runtime of the principal verify put into info, and
// refuses a TokenInfo that carries none rather than serve it as nobody.
func runtimeFor(b *Bound, info *auth.TokenInfo) (*Session, error) {
	p, ok := mcpagent.PrincipalOf[todo.Principal](info)
	if !ok {
		return nil, errors.New("todo: the verified token carries no principal")
	}
	return b.RuntimeFor(p)
}

// serverOptions names the todo application to MCP clients (serverInfo),
// over stdio and HTTP alike; feed, when set, is the App's one Feed that
// every session follows the Model through.
func serverOptions(logger *slog.Logger, feed *mcpagent.Feed) *mcpagent.Options {
	return &mcpagent.Options{
		Implementation: &mcp.Implementation{Name: "foldagent-todo", Title: "Todo list", Version: "0.1.0"},
		Logger:         logger,
		Feed:           feed,
	}
}

// mounts are the HTTP endpoints served beside MCP (teaserve serves MCP at
// /mcp): A2A at /a2a, A2A 0.3 at /a2a/v0.3 (a2a03Path), the Agent Native
// actions under /_agent-native, and /health.
func mounts(e endpoints) map[string]http.Handler {
	m := map[string]http.Handler{"/health": e.health}
	// The A2A handlers serve paths below their mount point (the card, the
	// HTTP+JSON binding), and JSON-RPC at the mount point itself.
	a2aRoot := http.StripPrefix("/a2a", e.a2a)
	m["/a2a"], m["/a2a/"] = a2aRoot, a2aRoot
	m[nativeagent.DefaultPrefix+"/"] = e.native
	// Where an Agent Native application's own A2A endpoint is, and so where
	// that framework's A2A client (which speaks 0.3) looks first.
	m[nativeagent.DefaultPrefix+"/a2a"] = http.StripPrefix(nativeagent.DefaultPrefix+"/a2a", e.a2a03)
	v03 := http.StripPrefix("/a2a"+a2a03Path, e.a2a03)
	m["/a2a"+a2a03Path], m["/a2a"+a2a03Path+"/"] = v03, v03
	return m
}

func splitOrigins(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// endpoints are the HTTP handlers the app serves agents with.
type endpoints struct{ a2a, a2a03, native, health http.Handler }

// printEndpoint tells the person how to reach the app from the server's
// base URL: the MCP URL, the A2A base URL (its agent card is at
// <A2A URL>/.well-known/agent-card.json), the A2A 0.3 endpoint's URL (its
// 0.3 card below it likewise), the Agent Native actions' base
// URL (each action at <NATIVE URL>/actions/<capability>), the generated
// token (if the app made one), and a command that registers the MCP
// endpoint with an MCP client (Claude Code's, as a typical one).
func printEndpoint(w io.Writer, base, token, tokensFile string) {
	url := base + "/mcp"
	fmt.Fprintf(w, "MCP %s\n", url)
	fmt.Fprintf(w, "A2A %s\n", base+"/a2a")
	fmt.Fprintf(w, "A2A-0.3 %s\n", base+"/a2a"+a2a03Path)
	fmt.Fprintf(w, "NATIVE %s\n", base+nativeagent.DefaultPrefix)
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

// nativeHandler serves the todo contract as Agent Native actions under the
// same bearer tokens, one runtime per principal.
func nativeHandler(b *Bound, t tokens, origins []string, logger *slog.Logger) (*nativeagent.Handler, error) {
	return nativeagent.NewHandler(nativeagent.Options{
		Verifier: t.verify,
		NewRuntime: func(_ context.Context, info *auth.TokenInfo) (nativeagent.Runtime, error) {
			return runtimeFor(b, info)
		},
		AllowedOrigins: origins,
		Logger:         logger,
	})
}
