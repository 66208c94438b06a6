package mcpagent_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/mcpagent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPeerRevisionsOnOneEndpoint drives the todo example's one HTTP
// endpoint (examples/todo -mcp http) with a client of each revision: the
// Go SDK's client, which negotiates the sessionless 2026-07-28 revision
// through server/discover, and the official TypeScript client, which
// speaks 2025-11-25 with a session. Each lists the tools and completes
// create_todo, and each todo is then found in the list.
func TestPeerRevisionsOnOneEndpoint(t *testing.T) {
	dir := requirePeers(t)
	url := startHTTPServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// The Go SDK client, sessionless.
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "go-revision-test", Version: "0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   url,
		HTTPClient: &http.Client{Transport: bearer{"owner-tok", http.DefaultTransport}},
		MaxRetries: -1,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != mcpagent.SessionlessRevision {
		t.Fatalf("the Go SDK client negotiated %q, want %q", v, mcpagent.SessionlessRevision)
	}
	if id := cs.ID(); id != "" {
		t.Fatalf("the sessionless client holds session %q", id)
	}
	tools := toolNames(t, cs)
	if !slices.Contains(tools, "create_todo") {
		t.Fatalf("Go SDK client, tools/list = %v", tools)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_todo", Arguments: map[string]any{"title": "from go"}})
	if err != nil || res.IsError || completionStatus(res.StructuredContent) != "completed" {
		t.Fatalf("Go SDK client, create_todo: %v %+v", err, res)
	}
	t.Logf("go-sdk client: revision %s, no session, tools %v, create_todo %q", cs.InitializeResult().ProtocolVersion, tools, text(res))

	// The TypeScript client, with a session.
	cmd := exec.Command("node", "revision.mjs", url, "owner-tok", "from typescript")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := runWithTimeout(cmd, time.Minute)
	if err != nil {
		t.Fatalf("revision.mjs: %v\n%s", err, out)
	}
	var ts struct {
		ProtocolVersion string   `json:"protocolVersion"`
		SessionID       string   `json:"sessionId"`
		Tools           []string `json:"tools"`
		Result          struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(out, &ts); err != nil {
		t.Fatalf("revision.mjs printed %q: %v", out, err)
	}
	if ts.ProtocolVersion != "2025-11-25" || ts.SessionID == "" {
		t.Fatalf("the TypeScript client negotiated %q with session %q, want 2025-11-25 with a session", ts.ProtocolVersion, ts.SessionID)
	}
	if !slices.Contains(ts.Tools, "create_todo") || ts.Result.IsError || completionStatus(ts.Result.StructuredContent) != "completed" {
		t.Fatalf("TypeScript client: tools %v, create_todo %s", ts.Tools, out)
	}
	t.Logf("typescript client: revision %s, session, tools %v", ts.ProtocolVersion, ts.Tools)

	// Both todos are in the one list, each with its id.
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "app://todos"})
	if err != nil || len(read.Contents) != 1 {
		t.Fatalf("reading app://todos: %v", err)
	}
	var todos []struct{ ID, Title string }
	if err := json.Unmarshal([]byte(read.Contents[0].Text), &todos); err != nil {
		t.Fatalf("app://todos = %s: %v", read.Contents[0].Text, err)
	}
	var titles []string
	for _, td := range todos {
		if td.ID == "" {
			t.Fatalf("a todo without an id: %s", read.Contents[0].Text)
		}
		titles = append(titles, td.Title)
	}
	if !slices.Equal(titles, []string{"from go", "from typescript"}) {
		t.Fatalf("todos = %s", read.Contents[0].Text)
	}
}

// completionStatus reads structuredContent.completion.status.
func completionStatus(sc any) string {
	b, _ := json.Marshal(sc)
	var v struct {
		Completion struct{ Status string } `json:"completion"`
	}
	_ = json.Unmarshal(b, &v)
	return strings.ToLower(v.Completion.Status)
}
