package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/foldagent/foldagent/journey/fixed"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/foldagent/foldagent/examples/shop/shop"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/journeymcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "shop:", err)
		os.Exit(1)
	}
}

func run() error {
	transport := flag.String("mcp", "stdio", "the MCP transport: stdio or http")
	addr := flag.String("addr", "127.0.0.1:8080", "the address to listen on with -mcp http")
	single := flag.Bool("single", false, "serve one journey tool taking the journey id, instead of one per journey")
	payDelay := flag.Duration("pay-delay", 600*time.Millisecond, "how long the payment server takes to answer")
	settle := flag.Duration("settle-within", journeymcp.DefaultSettleWithin, "how long a call that fired waits for it to come to rest")
	approval := flag.Bool("require-approval", false, "require a person's approval (in the app) for placing an order")
	flag.Parse()

	store, err := shop.New(shop.Options{PayDelay: *payDelay, Session: journey.Options{RequireHumanApproval: *approval}})
	if err != nil {
		return err
	}
	mode := fixed.PerJourney
	if *single {
		mode = fixed.Single
	}
	port := fixed.Serve(store.Session, fixed.Options{JourneyTools: mode})
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := journeymcp.NewServer(port, &journeymcp.Options{SettleWithin: *settle, Logger: logger})
	if err != nil {
		return err
	}
	defer srv.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch *transport {
	case "stdio":
		// stdout is the protocol channel; logs go to stderr.
		return srv.Run(ctx, journeymcp.StdioTransport())
	case "http":
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			return err
		}
		logger.Warn("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String())
		hs := &http.Server{Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.MCP() }, nil), ReadHeaderTimeout: 10 * time.Second}
		go func() {
			<-ctx.Done()
			hs.Close()
		}()
		if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
	return fmt.Errorf("unknown -mcp %q: use stdio or http", *transport)
}
