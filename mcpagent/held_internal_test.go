package mcpagent

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A caller that left while asking again for a held call's outcome has not
// read it: the outcome stays for its next ask. (Both the outcome and the
// caller's leaving are ready when the ask is weighed; either may be
// chosen, so the ask is tried many times.)
func TestAHeldOutcomeIsKeptForACallerThatLeft(t *testing.T) {
	s := &Server{held: newHeldBook(Options{})}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range 64 {
		h := s.held.newHeld("owner", "refund", `{"order":"7"}`, noTask, func() {})
		if err := s.held.Admit(h); err != nil {
			t.Fatal(err)
		}
		s.held.finish(h, &mcp.CallToolResult{}, nil, false, true)
		_, _ = s.awaitHeld(ctx, &mcp.CallToolRequest{}, h)
		if s.held.Rejoin("owner", "refund", `{"order":"7"}`) != h {
			t.Fatalf("ask %d: the outcome was forgotten for a caller that had left", i)
		}
		s.held.deliver(h)
	}
}
