//go:build unix

package main

import (
	"os"
	"regexp"
	"testing"

	"github.com/foldagent/foldagent/internal/testbin"
	"github.com/foldagent/foldagent/internal/tmuxtest"
)

// The audit file on a full disk (/dev/full): the agent's call is
// answered, and the person sees that its audit entry was not kept, with
// the file's own error, in the activity panel.
func TestAuditOnAFullDiskIsOnScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal")
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	bin := testbin.Build(t, "examples/shop")
	term := tmuxtest.Start(t, "shop", bin+" -token s3cret -audit /dev/full", 140, 45)
	screen := term.Wait("the endpoint", tmuxtest.Has("MCP: http://", "(fixed journey tools)"))
	url := regexp.MustCompile(`MCP: (http://\S+/mcp)`).FindStringSubmatch(screen)[1] + "/dynamic"
	a := connectAgent(t, url, "s3cret")
	a.must("open_product", map[string]any{"sku": "dress-red"})
	term.Wait("the lost entry", tmuxtest.Has("open_product", "audit", "entry not kept", "no space left on device"))
}
