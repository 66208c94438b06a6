package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/internal/testbin"
	"github.com/foldagent/foldagent/internal/tmuxtest"
)

// TestPanelShowsJourneyRefusalsAndWhoCalled drives the real binary in a
// terminal with two agents: one on the fixed journey tools, one on the
// dynamic tools. The person's activity panel names each agent, shows a
// refusal the journey made itself (it never reaches the contract) with
// its code and our sentence, and scrolls back through what it keeps.
func TestPanelShowsJourneyRefusalsAndWhoCalled(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal")
	}
	bin := testbin.Build(t, "examples/shop")
	term := tmuxtest.Start(t, "shop", bin+" -token s3cret -pay-delay 20ms", 160, 45)
	screen := term.Wait("the endpoint", tmuxtest.Has("MCP: http://", "(fixed journey tools)"))
	url := regexp.MustCompile(`MCP: (http://\S+/mcp)`).FindStringSubmatch(screen)[1]
	journeyAgent := connectAgent(t, url, "s3cret")
	dynamicAgent := connectAgent(t, url+"/dynamic", "s3cret")

	refused := journeyAgent.call("shop.journey.purchase", map[string]any{"step": "pay"})
	if refused.isError {
		t.Fatalf("a journey refusal is an answer, not a protocol error: %+v", refused)
	}
	if refused.data == nil {
		_ = json.Unmarshal([]byte(refused.text), &refused.data)
	}
	code, _ := refused.data["reason"].(string)
	if refused.data["ok"] != false || code == "" {
		t.Fatalf("paying first must be refused with a code: %+v", refused.data)
	}
	term.Wait("the journey's refusal, its code and who made the call", tmuxtest.Has(`agent 1: shop.journey.purchase {"step":"pay"} → refused (`+code+": "))

	if r := journeyAgent.must("shop.journey.purchase", map[string]any{"step": "open-product", "input": map[string]any{"sku": "dress-blue"}}); !strings.Contains(r.text, `"ok":true`) {
		t.Fatalf("open-product: %s", r.text)
	}
	term.Wait("the first agent's step, through the contract", tmuxtest.Has(`agent 1: open_product {"sku":"dress-blue"} → done`))
	dynamicAgent.must("go_to_catalog", nil)
	dynamicAgent.must("open_product", map[string]any{"sku": "dress-red"})
	term.Wait("the second agent", tmuxtest.Has(`agent 2: open_product {"sku":"dress-red"} → done`))

	// More lines than the panel shows; the person scrolls back to the
	// first and returns to the newest.
	for range 4 {
		dynamicAgent.must("go_to_catalog", nil)
		dynamicAgent.must("open_product", map[string]any{"sku": "dress-red"})
	}
	term.Wait("a full panel", tmuxtest.Has("lines 5–12 of 12"))
	term.Keys("Up", "Up", "Up", "Up")
	term.Wait("the first line again", tmuxtest.Has("lines 1–8 of 12", "scrolled back", `shop.journey.purchase {"step":"pay"}`))
	term.Keys("End")
	term.Wait("the newest again", func(s string) bool {
		return tmuxtest.Has("lines 5–12 of 12")(s) && tmuxtest.Lacks("scrolled back")(s) && tmuxtest.Lacks(`{"step":"pay"}`)(s)
	})
}
