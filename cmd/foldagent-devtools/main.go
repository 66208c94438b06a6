package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	project := flag.String("project", "", "the project whose applications to attach to (default: the working directory)")
	reg := flag.String("registry", "", "the registry directory (default: $FOLDAGENT_DEVTOOLS_DIR, else $XDG_RUNTIME_DIR/foldagent-devtools, else the user cache directory's foldagent/devtools)")
	flag.Parse()
	logger := log.New(os.Stderr, "foldagent-devtools: ", 0)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *project, *reg, logger); err != nil {
		logger.Print(err)
		os.Exit(1)
	}
}

// run serves MCP over stdin and stdout until the client leaves or ctx
// ends.
func run(ctx context.Context, project, reg string, logger *log.Logger) error {
	if project == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("the working directory: %w", err)
		}
		project = wd
	}
	a := newAttacher(project, reg, logger)
	defer a.close()
	server := mcp.NewServer(&mcp.Implementation{Name: "foldagent-devtools", Version: version}, &mcp.ServerOptions{
		Instructions: "The tools of the newest running foldagent application of the project this server was started in, passed through to that application's devtools; attached_app tells which application that is.",
	})
	a.serve(server)
	return server.Run(ctx, &mcp.StdioTransport{})
}

// version is the command's version as its MCP server reports it.
const version = "0.1.0"
