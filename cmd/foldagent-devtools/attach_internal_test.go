package main

import (
	"context"
	"io"
	"log"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestToolsTheSDKCannotServeAreLeftOutWithoutAPanic(t *testing.T) {
	a := newAttacher(t.TempDir(), t.TempDir(), log.New(io.Discard, "", 0))
	a.serve(mcp.NewServer(&mcp.Implementation{Name: "x", Version: "1"}, nil))
	obj := map[string]any{"type": "object"}
	a.sync([]*mcp.Tool{
		{Name: "fine", InputSchema: obj},
		{Name: "no_schema"},
		{Name: "not_object", InputSchema: map[string]any{"type": "string"}},
		{Name: statusTool.Name, InputSchema: obj},
	})
	if len(a.tools) != 1 || a.tools["fine"] == "" {
		t.Fatalf("served %v, want only fine", a.tools)
	}

	// The status tool is still the command's own.
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := a.server.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == statusTool.Name && tool.Description != statusTool.Description {
			t.Errorf("the app's %s replaced the command's own", statusTool.Name)
		}
	}
	if len(res.Tools) != 2 {
		t.Errorf("listed %d tools, want attached_app and fine", len(res.Tools))
	}
}
