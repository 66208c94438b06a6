package webmcp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// A tool's result says what the call changed of the context: its paths
// and new values, and the versions before and after (agent.Change).
func TestAToolResultSaysWhatTheCallChanged(t *testing.T) {
	contract := agent.Make(agent.Definition[shopModel, agent.NoPrincipal]{
		Context: agent.Project(func(m shopModel) shopModel { return m }),
		Capabilities: []agent.Capability[shopModel, agent.NoPrincipal]{
			agent.Expose(agent.Variant[OpenProduct, shopModel, agent.NoPrincipal]{Description: "Open a product."}),
		},
	})
	prog := loop.New[shopModel, shopMsg](loop.Funcs(func() (shopModel, loop.Cmd[shopMsg]) { return shopModel{}, nil }, shopUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	page := newFakeContext()
	reg, err := Register(ctx, Options{Runtime: agent.MustBind(contract, prog, nil), ModelContext: page, WithoutFollowingModel: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	tool, ok := page.tool("open_product")
	if !ok {
		t.Fatalf("no open_product: %v", page.names())
	}
	r := tool.Execute(ctx, json.RawMessage(`{"sku":"hat"}`))
	var data struct {
		Version uint64        `json:"version"`
		Changed *agent.Change `json:"changed"`
	}
	if err := json.Unmarshal(r.StructuredContent, &data); err != nil || data.Changed == nil {
		t.Fatalf("structured content %s (%v)", r.StructuredContent, err)
	}
	paths, _ := json.Marshal(data.Changed.Paths)
	if string(paths) != `[{"path":"/Open","value":"hat"}]` || data.Changed.To != data.Version || data.Changed.From >= data.Changed.To {
		t.Fatalf("structured content %s", r.StructuredContent)
	}
}
