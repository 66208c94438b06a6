package webmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// A small shop whose add_to_cart is built from shared state: the product
// that is open. Two pages publish the one runtime's tools (two tabs of one
// application, say); each page is a caller with its own last look.

type shopModel struct {
	Open string
	Cart []string
}

type shopMsg interface{ isShopMsg() }

type OpenProduct struct {
	SKU string `json:"sku"`
}
type AddToCart struct{ SKU string }

func (OpenProduct) isShopMsg() {}
func (AddToCart) isShopMsg()   {}

func shopUpdate(m shopModel, msg shopMsg) (shopModel, loop.Cmd[shopMsg]) {
	switch msg := msg.(type) {
	case OpenProduct:
		m.Open = msg.SKU
	case AddToCart:
		m.Cart = append(slices.Clone(m.Cart), msg.SKU)
	}
	return m, nil
}

var shopContract = agent.Make(agent.Definition[shopModel, agent.NoPrincipal]{
	Capabilities: []agent.Capability[shopModel, agent.NoPrincipal]{
		agent.Expose(agent.Variant[OpenProduct, shopModel, agent.NoPrincipal]{
			Description: "Open a product.",
			Exists: func(in OpenProduct, _ shopModel) (string, bool) {
				return "/sku", slices.Contains([]string{"dress-red", "dress-blue", "hat"}, in.SKU)
			},
			Missing: "No product has that SKU.",
		}),
		agent.ExposeMapped(agent.Mapped[agent.NoInput, AddToCart, shopModel, agent.NoPrincipal]{
			Description: "Add the open product to the cart.",
			Available:   func(m shopModel) bool { return m.Open != "" },
			ToMessage: func(_ agent.NoInput, c agent.Call[shopModel, agent.NoPrincipal]) AddToCart {
				return AddToCart{SKU: c.Model.Open}
			},
			Watches: []agent.Watch[shopModel]{agent.Watching("openProduct", func(m shopModel) string { return m.Open })},
		}),
	},
})

type shopPages struct {
	prog *loop.Program[shopModel, shopMsg]
	a, b *fakeContext
	regB *Registration
}

// startShopPages binds one shop and publishes it on two pages, each
// reading its tool list only when it refreshes (so the test decides when
// a page looks).
func startShopPages(t *testing.T) *shopPages {
	t.Helper()
	prog := loop.New[shopModel, shopMsg](loop.Funcs(func() (shopModel, loop.Cmd[shopMsg]) { return shopModel{}, nil }, shopUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	rt, err := agent.Bind(shopContract, prog, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &shopPages{prog: prog, a: newFakeContext(), b: newFakeContext()}
	var regs []*Registration
	for _, mc := range []*fakeContext{s.a, s.b} {
		reg, err := Register(ctx, Options{Runtime: rt, ModelContext: mc, WithoutFollowingModel: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := reg.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		regs = append(regs, reg)
	}
	s.regB = regs[1]
	return s
}

// call runs a tool the page holds.
func (s *shopPages) call(t *testing.T, page *fakeContext, name, input string) ToolResult {
	t.Helper()
	tool, ok := page.tool(name)
	if !ok {
		t.Fatalf("the page holds no tool %q: %v", name, page.names())
	}
	return tool.Execute(context.Background(), json.RawMessage(input))
}

func resultVersion(t *testing.T, r ToolResult) uint64 {
	t.Helper()
	v, _ := r.Meta[MetaVersion].(uint64)
	return v
}

func webmcpStaleScenario(t *testing.T) []string {
	s := startShopPages(t)
	var log []string
	var base uint64
	rel := func(v uint64) string {
		if v == 0 {
			return "-"
		}
		if base == 0 {
			base = v
		}
		return fmt.Sprintf("v%+d", int64(v)-int64(base))
	}
	note := func(who, what string, r ToolResult) ToolResult {
		var data map[string]any
		_ = json.Unmarshal(r.StructuredContent, &data)
		for _, k := range []string{"version", "seenVersion"} {
			if v, ok := data[k].(float64); ok {
				if uint64(v) != resultVersion(t, r) && k == "version" {
					t.Fatalf("%s %s: structured version %v, _meta %v", who, what, v, r.Meta)
				}
				data[k] = rel(uint64(v))
			}
		}
		delete(data, "invocation") // its id is new on every call
		d, _ := json.Marshal(data)
		log = append(log, fmt.Sprintf("%s %s → error=%v %s %q %s", who, what, r.IsError, rel(resultVersion(t, r)), r.Text(), d))
		return r
	}
	ctx := context.Background()

	note("A", "open_product dress-red", s.call(t, s.a, "open_product", `{"sku":"dress-red"}`))
	// Page B looks: its tool list now has add_to_cart, for the red dress.
	if err := s.regB.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	note("A", "open_product dress-blue", s.call(t, s.a, "open_product", `{"sku":"dress-blue"}`))

	// B's add was planned on the red dress: a tool error, nothing added.
	stale := note("B", "add_to_cart (planned on dress-red)", s.call(t, s.b, "add_to_cart", `{}`))
	var data map[string]any
	_ = json.Unmarshal(stale.StructuredContent, &data)
	moved, _ := data["moved"].([]any)
	if !stale.IsError || data["_tag"] != agent.TagStaleView || len(moved) != 1 || moved[0] != "openProduct" || data["retrySafe"] != true {
		t.Fatalf("B's stale add: %v %s", stale.IsError, stale.StructuredContent)
	}
	if _, now := s.prog.VersionedModel(); resultVersion(t, stale) != now {
		t.Fatalf("the refusal is at %v; the shop is at %d", stale.Meta, now)
	}
	if got := s.prog.Model().Cart; len(got) != 0 {
		t.Fatalf("a stale add reached the cart: %v", got)
	}

	// B reads its tool list again; its add applies to what it read.
	if err := s.regB.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	done := note("B", "add_to_cart (after reading)", s.call(t, s.b, "add_to_cart", `{}`))
	if done.IsError || resultVersion(t, done) != resultVersion(t, stale)+1 {
		t.Fatalf("B's add after reading: %q %v", done.Text(), done.Meta)
	}
	if got := s.prog.Model().Cart; !slices.Equal(got, []string{"dress-blue"}) {
		t.Fatalf("cart = %v", got)
	}
	// B's own result is its look: a second add needs no read.
	note("B", "add_to_cart again", s.call(t, s.b, "add_to_cart", `{}`))
	if got := s.prog.Model().Cart; len(got) != 2 {
		t.Fatalf("cart = %v", got)
	}

	// What the input names does not exist: a tool error with the path.
	missing := note("A", "open_product gloves", s.call(t, s.a, "open_product", `{"sku":"gloves"}`))
	_ = json.Unmarshal(missing.StructuredContent, &data)
	if !missing.IsError || data["_tag"] != agent.TagNotFound || data["path"] != "/sku" || strings.Contains(string(missing.StructuredContent), "gloves") || missing.Meta != nil {
		t.Fatalf("an unknown product: %q %s %v", missing.Text(), missing.StructuredContent, missing.Meta)
	}
	return log
}

func TestStaleViewRefusedBetweenTwoPages(t *testing.T) {
	first := webmcpStaleScenario(t)
	second := webmcpStaleScenario(t)
	if !slices.Equal(first, second) {
		t.Fatalf("two runs told the pages different things:\n%s\n---\n%s", strings.Join(first, "\n"), strings.Join(second, "\n"))
	}
	t.Logf("transcript:\n%s", strings.Join(first, "\n"))
}

// A page that follows the Model looks at each state its tool list is
// reconciled against: once the pass after a change is done, its call acts
// on that state.
func TestFollowingPageLooksAtEachReconciledState(t *testing.T) {
	prog := loop.New[shopModel, shopMsg](loop.Funcs(func() (shopModel, loop.Cmd[shopMsg]) { return shopModel{}, nil }, shopUpdate), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	rt := agent.MustBind(shopContract, prog, nil)
	a, b := newFakeContext(), newFakeContext()
	regA, err := Register(ctx, Options{Runtime: rt, ModelContext: a})
	if err != nil {
		t.Fatal(err)
	}
	regB, err := Register(ctx, Options{Runtime: rt, ModelContext: b})
	if err != nil {
		t.Fatal(err)
	}
	_ = regA.Refresh(ctx)
	tool, _ := a.tool("open_product")
	tool.Execute(ctx, json.RawMessage(`{"sku":"hat"}`))
	if err := regB.Refresh(ctx); err != nil { // the pass after the change
		t.Fatal(err)
	}
	add, ok := b.tool("add_to_cart")
	if !ok {
		t.Fatalf("page B's tools: %v", b.names())
	}
	if r := add.Execute(ctx, json.RawMessage(`{}`)); r.IsError {
		t.Fatalf("page B's add after its list followed the Model: %q %s", r.Text(), r.StructuredContent)
	}
	if got := prog.Model().Cart; !slices.Equal(got, []string{"hat"}) {
		t.Fatalf("cart = %v", got)
	}
}
