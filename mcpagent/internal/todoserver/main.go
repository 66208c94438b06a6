// Command todoserver serves the todo application of package
// mcpagent/internal/todo over MCP, for the black-box peer tests: headless
// over stdio (what an MCP client launches), or over streamable HTTP on
// loopback.
//
//	todoserver -mcp stdio
//	todoserver -mcp http -addr 127.0.0.1:0 -tokens tokens.json
//
// Over HTTP it prints "MCP <url>" on standard output once it listens, and,
// when no -tokens file is given, "TOKEN <token>" for a generated owner
// token. A tokens file maps bearer tokens to principals:
// {"<token>": {"name": "olivia", "role": "owner"}}.
package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/foldagent/foldagent/mcpagent"
	"github.com/foldagent/foldagent/mcpagent/internal/todo"
	"github.com/modelcontextprotocol/go-sdk/auth"
)

func main() {
	mode := flag.String("mcp", "http", "transport: stdio or http")
	addr := flag.String("addr", "127.0.0.1:0", "HTTP listen address (loopback)")
	tokensFile := flag.String("tokens", "", "JSON file mapping bearer tokens to {name, role}")
	origins := flag.String("origins", "", "comma-separated Origins browsers may call from")
	role := flag.String("role", todo.Owner, "principal role over stdio")
	flag.Parse()

	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	slog.SetDefault(log)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	prog := todo.New()
	go prog.Run(ctx)

	var err error
	switch *mode {
	case "stdio":
		err = serveStdio(ctx, prog, todo.User{Name: "local", Role: *role})
	case "http":
		err = serveHTTP(ctx, prog, *addr, *tokensFile, *origins)
	default:
		err = fmt.Errorf("unknown -mcp %q: use stdio or http", *mode)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "todoserver:", err)
		os.Exit(1)
	}
}

func serveStdio(ctx context.Context, prog *todo.Program, u todo.User) error {
	rt, err := todo.Bind(prog, u)
	if err != nil {
		return err
	}
	return mcpagent.ServeStdio(ctx, rt, nil)
}

func serveHTTP(ctx context.Context, prog *todo.Program, addr, tokensFile, origins string) error {
	users := map[string]todo.User{}
	if tokensFile != "" {
		b, err := os.ReadFile(tokensFile)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &users); err != nil {
			return fmt.Errorf("%s: %w", tokensFile, err)
		}
	} else {
		tok := rand.Text()
		users[tok] = todo.User{Name: "owner", Role: todo.Owner}
		fmt.Println("TOKEN", tok)
	}
	var allowed []string
	if origins != "" {
		allowed = strings.Split(origins, ",")
	}
	h, err := mcpagent.NewHandler(mcpagent.HTTPOptions{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			u, ok := users[token]
			if !ok {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{UserID: u.Name, Extra: map[string]any{"user": u}}, nil
		},
		NewRuntime: func(_ context.Context, p *auth.TokenInfo) (mcpagent.Runtime, error) {
			return todo.Bind(prog, p.Extra["user"].(todo.User))
		},
		AllowedOrigins: allowed,
	})
	if err != nil {
		return err
	}
	defer h.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("MCP http://%s/mcp\n", ln.Addr())
	go func() { <-ctx.Done(); srv.Close() }()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
