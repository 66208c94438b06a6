package devtools

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool names the devtools server serves.
const (
	ToolModel    = "devtools_model"
	ToolHistory  = "devtools_history"
	ToolCounts   = "devtools_counts"
	ToolDiff     = "devtools_diff"
	ToolReplay   = "devtools_replay"
	ToolTypes    = "devtools_message_types"
	ToolAudit    = "devtools_agent_audit"
	ToolDispatch = "devtools_dispatch"
)

type modelIn struct {
	Version uint64 `json:"version,omitempty" jsonschema:"The version to read; 0 or absent reads the current Model."`
	Path    string `json:"path,omitempty" jsonschema:"A JSON Pointer into the Model; absent reads the whole Model."`
}

type historyIn struct {
	Type string `json:"type,omitempty" jsonschema:"Keep the Messages of this type name."`
	Path string `json:"path,omitempty" jsonschema:"Keep the Messages that changed this JSON Pointer or below it."`
	Kind string `json:"kind,omitempty" jsonschema:"Keep the Messages of this provenance kind: person, agent, app, developer."`
	Last int    `json:"last,omitempty" jsonschema:"Keep only the last this many."`
}

type diffIn struct {
	From uint64 `json:"from" jsonschema:"The earlier version."`
	To   uint64 `json:"to,omitempty" jsonschema:"The later version; 0 or absent is the current Model."`
	Path string `json:"path,omitempty" jsonschema:"Only changes at or below this JSON Pointer."`
}

type replayIn struct {
	Version uint64 `json:"version" jsonschema:"The version to rebuild."`
}

type auditIn struct {
	Last int `json:"last,omitempty" jsonschema:"Only the last this many audit entries."`
}

type dispatchIn struct {
	Messages []Outgoing `json:"messages" jsonschema:"The Messages to dispatch, in order: all are validated before any is sent."`
}

// Server returns the MCP server of the devtools tools. Handler serves it
// over streamable HTTP; an application may serve it on a transport of its
// own.
func (d *Devtools[Model, Msg]) Server() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "foldagent-devtools", Version: "0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: ToolModel, Description: "Read the application's Model, now or at a past version, whole or at a JSON Pointer. Large values are summarised with their size; redacted places read [redacted]."},
		func(_ context.Context, _ *mcp.CallToolRequest, in modelIn) (*mcp.CallToolResult, any, error) {
			return answer(d.Model(in.Version, in.Path))
		})
	mcp.AddTool(s, &mcp.Tool{Name: ToolHistory, Description: "List the applied Messages, oldest first: version, time, type, the Message as JSON, the Model paths it changed and who caused it (the person, an agent by name, the app's own command, the developer)."},
		func(_ context.Context, _ *mcp.CallToolRequest, in historyIn) (*mcp.CallToolResult, any, error) {
			entries, dropped := d.History(Filter(in))
			return answer(map[string]any{"entries": entries, "dropped": dropped}, nil)
		})
	mcp.AddTool(s, &mcp.Tool{Name: ToolCounts, Description: "Count the kept Messages by type."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return answer(map[string]any{"counts": d.Counts()}, nil)
		})
	mcp.AddTool(s, &mcp.Tool{Name: ToolDiff, Description: "List the places the Model changed between two versions, with the values before and after."},
		func(_ context.Context, _ *mcp.CallToolRequest, in diffIn) (*mcp.CallToolResult, any, error) {
			c, err := d.Diff(in.From, in.To, in.Path)
			return answer(map[string]any{"changes": c}, err)
		})
	mcp.AddTool(s, &mcp.Tool{Name: ToolReplay, Description: "Rebuild the Model at a past version by folding the recorded Messages from a keyframe through update in a sandbox, never touching the running application, and say whether it equals the recorded Model."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in replayIn) (*mcp.CallToolResult, any, error) {
			r, _, err := d.Replay(ctx, in.Version)
			return answer(r, err)
		})
	mcp.AddTool(s, &mcp.Tool{Name: ToolTypes, Description: "List the application's Message types with their JSON Schema."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return answer(map[string]any{"types": d.Types()}, nil)
		})
	mcp.AddTool(s, &mcp.Tool{Name: ToolAudit, Description: "List the agent audit (refusals, stale views, approvals and who answered) joined to the version each dispatched Message made."},
		func(_ context.Context, _ *mcp.CallToolRequest, in auditIn) (*mcp.CallToolResult, any, error) {
			return answer(map[string]any{"audit": d.Audit(in.Last)}, nil)
		})
	mcp.AddTool(s, &mcp.Tool{Name: ToolDispatch, Description: "Dispatch up to 100 Messages to the running application, all validated before any is sent. Off unless the application enabled it."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in dispatchIn) (*mcp.CallToolResult, any, error) {
			n, err := d.Dispatch(ctx, "devtools", in.Messages)
			return answer(map[string]any{"sent": n}, err)
		})
	return s
}

// tagged is an error with a stable name.
type tagged interface{ Tag() string }

// answer turns a result or an error into a tool result: an error is a
// tool error whose structured content names it ("error") and carries its
// fields.
func answer(v any, err error) (*mcp.CallToolResult, any, error) {
	if err != nil {
		return failure(err), nil, nil
	}
	b, merr := json.Marshal(v)
	if merr != nil {
		return failure(merr), nil, nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil, nil
}

func failure(err error) *mcp.CallToolResult {
	body := map[string]any{"error": errorTag(err), "message": err.Error()}
	var be *BatchError
	var re *ReplayError
	switch {
	case errors.As(err, &be):
		body["problems"] = be.Problems
	case errors.As(err, &re):
		body["reason"], body["at"], body["differs"] = re.Reason, re.At, re.Differs
	}
	b, _ := json.Marshal(body)
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}
}

func errorTag(err error) string {
	var t tagged
	if errors.As(err, &t) {
		return t.Tag()
	}
	var ve *VersionError
	var pe *PathError
	var re *ReplayError
	switch {
	case errors.As(err, &ve):
		return "DevtoolsVersionNotKept"
	case errors.As(err, &pe):
		return "DevtoolsBadPath"
	case errors.As(err, &re):
		return "DevtoolsReplayImpossible"
	}
	return "DevtoolsError"
}
