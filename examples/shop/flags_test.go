package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/testbin"
)

// A non-loopback -addr is refused naming the flag, before a token is made
// or printed and before anything listens.
func TestNonLoopbackAddrIsRefusedBeforeAToken(t *testing.T) {
	bin := testbin.Build(t, "examples/shop")
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"-mcp", "http", "-addr", "0.0.0.0:0"}, "-addr"},
		{[]string{"-mcp", "http", "-addr", "0.0.0.0:0", "-token", "s3cret"}, "-addr"},
		{[]string{"-addr", "192.0.2.1:0"}, "-addr"},
		{[]string{"-mcp", "ftp"}, "-mcp"},
		{[]string{"-mcp", "http", "-patience", "0s"}, "-patience"},
		{[]string{"-mcp", "stdio", "-tools", "dynamic", "-sessionless"}, "-sessionless"},
	} {
		args, flag := c.args, c.flag
		// A command that ignored the mistake would serve until killed.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
		cancel()
		if err == nil || !strings.Contains(string(out), "shop: "+flag+" ") {
			t.Errorf("%v: err %v, output %q; want a refusal naming %s", args, err, out, flag)
		}
		if strings.Contains(string(out), "TOKEN") || strings.Contains(string(out), "s3cret") || strings.Contains(string(out), "MCP ") {
			t.Errorf("%v: printed an endpoint or a token before refusing: %q", args, out)
		}
	}
}
