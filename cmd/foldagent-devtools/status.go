package main

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// statusTool is the command's own tool, always listed.
var statusTool = &mcp.Tool{
	Name:        "attached_app",
	Description: "Which running application of this project the other tools reach: its process id, name, working directory, devtools address and start time; or, as an error, why none is reached (none running, its token refused, the registry refused).",
	InputSchema: map[string]any{"type": "object", "additionalProperties": false},
	Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)},
}

// attached is what attached_app answers, the entry without its token.
type attached struct {
	PID     int       `json:"pid"`
	App     string    `json:"app"`
	Dir     string    `json:"dir"`
	URL     string    `json:"url"`
	Started time.Time `json:"started"`
}

func (a *attacher) status(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a.mu.Lock()
	up, why := a.cur, a.why
	a.mu.Unlock()
	if up == nil {
		return toolError(why), nil
	}
	e := up.entry
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: "attached to " + e.String()}},
		StructuredContent: attached{PID: e.PID, App: e.App, Dir: e.Dir, URL: e.URL, Started: e.Started},
	}, nil
}

// toolError answers a call with err as a tool error.
func toolError(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
}
