package teaserve

import (
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
)

// Main is a program's whole main function: it serves contract c of the
// program h runs, under name (New), and handles the process's arguments
// as Server.Main does. On an error, from either, it prints the error to
// standard error after the name and exits with status 1.
//
//	func main() {
//		h := teahost.New[app, tea.Msg](newApp(), nil)
//		teaserve.Main("app", h, appContract, nil)
//	}
func Main[M tea.Model, P any](name string, h *teahost.Host[M, tea.Msg], c *agent.Contract[M, P], opts *Options[P]) {
	if err := serveMain(name, h, c, opts, os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

func serveMain[M tea.Model, P any](name string, h *teahost.Host[M, tea.Msg], c *agent.Contract[M, P], opts *Options[P], args []string, stdin io.Reader, stdout io.Writer) error {
	s, err := New(name, h, c, opts)
	if err != nil {
		return err
	}
	return s.Main(args, stdin, stdout)
}
