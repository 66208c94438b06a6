package a2aagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/a2aagent"
	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/examples/todo/todo"
	"github.com/foldagent/foldagent/host/loop"
)

// A small shop whose add_to_cart is built from shared state: the product
// that is open. Two A2A identities share it; each is a caller with its
// own last look.

type shopModel struct {
	Open    string   `json:"open"`
	Cart    []string `json:"cart"`
	Address string   `json:"address"`
}

type shopMsg interface{ isShopMsg() }

type OpenProduct struct {
	SKU string `json:"sku"`
}
type AddToCart struct{ SKU string }
type CheckOut struct{}

func (OpenProduct) isShopMsg() {}
func (AddToCart) isShopMsg()   {}
func (CheckOut) isShopMsg()    {}

func shopUpdate(m shopModel, msg shopMsg) (shopModel, loop.Cmd[shopMsg]) {
	switch msg := msg.(type) {
	case OpenProduct:
		m.Open = msg.SKU
	case AddToCart:
		m.Cart = append(slices.Clone(m.Cart), msg.SKU)
	}
	return m, nil
}

type shopCall = agent.Call[shopModel, agent.NoPrincipal]

var shopContract = agent.Make(agent.Definition[shopModel, agent.NoPrincipal]{
	Context:   agent.Project(func(m shopModel) shopModel { return m }),
	Resources: []agent.Resource[shopModel]{agent.NewResource("cart", "What is in the cart.", func(m shopModel) []string { return m.Cart })},
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
			ToMessage:   func(_ agent.NoInput, c shopCall) AddToCart { return AddToCart{SKU: c.Model.Open} },
			Watches:     []agent.Watch[shopModel]{agent.Watching("openProduct", func(m shopModel) string { return m.Open })},
		}),
		agent.ExposeMapped(agent.Mapped[agent.NoInput, CheckOut, shopModel, agent.NoPrincipal]{
			Description: "Place the order.",
			Requires: []agent.Requirement[shopModel]{
				{Holds: func(m shopModel) bool { return len(m.Cart) > 0 }, Says: "Add something to the cart first."},
				{Holds: func(m shopModel) bool { return m.Address != "" }, Says: "The person gives the delivery address first."},
			},
			ToMessage: func(agent.NoInput, shopCall) CheckOut { return CheckOut{} },
		}),
	},
})

type shopFixture struct {
	prog *loop.Program[shopModel, shopMsg]
	srv  *httptest.Server
	h    *a2aagent.Handler
}

// startShop serves one shop over A2A to any "<name>-tok".
func startShop(t *testing.T) *shopFixture {
	t.Helper()
	f := &shopFixture{prog: loop.New[shopModel, shopMsg](loop.Funcs(func() (shopModel, loop.Cmd[shopMsg]) { return shopModel{}, nil }, shopUpdate), nil)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = f.prog.Run(ctx) }()
	h, err := a2aagent.NewHandler(a2aagent.HTTPOptions{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			if name, ok := strings.CutSuffix(token, "-tok"); ok {
				return &auth.TokenInfo{UserID: name}, nil
			}
			return nil, auth.ErrInvalidToken
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (a2aagent.Runtime, error) {
			return agent.Bind(shopContract, f.prog, nil)
		},
		Contract: shopContract.Describe(),
		Logger:   quietLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	f.h = h
	f.srv = httptest.NewServer(h)
	t.Cleanup(func() { f.srv.Close(); h.Close(); cancel(); <-done })
	return f
}

func (f *shopFixture) client(t *testing.T, token string) *a2aclient.Client {
	t.Helper()
	card, err := agentcard.NewResolver(http.DefaultClient).Resolve(context.Background(), f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2aclient.NewFromCard(context.Background(), card, a2aclient.WithJSONRPCTransport(httpClient(token)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Destroy() })
	return c
}

// metaVersion reads the version a message's metadata carries (0 when
// it carries none).
func metaVersion(t testing.TB, m *a2a.Message) uint64 {
	t.Helper()
	if m == nil {
		return 0
	}
	raw, ok := m.Metadata[a2aagent.MetaVersion]
	if !ok {
		return 0
	}
	v, ok := raw.(float64)
	if !ok {
		t.Fatalf("metadata %q = %#v, not a number", a2aagent.MetaVersion, raw)
	}
	return uint64(v)
}

func readMessage(what string) *a2a.SendMessageRequest {
	return &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewDataPart(map[string]any{"read": what}))}
}

// staleScenario runs the whole task and returns what the callers were
// told, with versions relative to the first one seen.
func a2aStaleScenario(t *testing.T) []string {
	f := startShop(t)
	alice, bob := f.client(t, "alice-tok"), f.client(t, "bob-tok")
	ctx := context.Background()
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
	call := func(who string, c *a2aclient.Client, skill string, input any, cite any) *a2a.Task {
		t.Helper()
		req := skillMessage(skill, input)
		if cite != nil {
			req.Message.Metadata = map[string]any{a2aagent.MetaSeenVersion: cite}
		}
		task := sendTask(t, c, req)
		data := statusData(task)
		for _, k := range []string{"version", "seenVersion"} {
			if v, ok := data[k].(float64); ok {
				data[k] = rel(uint64(v))
			}
		}
		delete(data, "invocation") // its id is new on every call
		log = append(log, fmt.Sprintf("%s %s → %s %s %q %s", who, skill, task.Status.State, rel(metaVersion(t, task.Status.Message)), statusText(task), mustJSON(data)))
		return task
	}
	read := func(who string, c *a2aclient.Client) (*a2a.Message, map[string]any) {
		t.Helper()
		res, err := c.SendMessage(ctx, readMessage("context"))
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		m, ok := res.(*a2a.Message)
		if !ok {
			t.Fatalf("a read answered %T, want a message", res)
		}
		var data map[string]any
		for _, p := range m.Parts {
			if d, ok := p.Content.(a2a.Data); ok {
				data, _ = d.Value.(map[string]any)
			}
		}
		if v, _ := data["version"].(float64); uint64(v) != metaVersion(t, m) || v == 0 {
			t.Fatalf("a read's data version %v, metadata %d", data["version"], metaVersion(t, m))
		}
		log = append(log, fmt.Sprintf("%s read context → %s %s", who, rel(metaVersion(t, m)), mustJSON(data["value"])))
		return m, data["value"].(map[string]any)
	}
	tasksBefore := f.h.Tasks()

	call("alice", alice, "open_product", map[string]any{"sku": "dress-red"}, nil)
	seen, value := read("bob", bob)
	if value["open"] != "dress-red" {
		t.Fatalf("bob read %v", value)
	}
	if f.h.Tasks() != tasksBefore+1 {
		t.Fatalf("a read made a task: %d tasks, want %d", f.h.Tasks(), tasksBefore+1)
	}
	call("alice", alice, "open_product", map[string]any{"sku": "dress-blue"}, nil)

	// Bob's add was planned on the red dress: rejected, nothing added.
	stale := call("bob", bob, "add_to_cart", nil, nil)
	d := statusData(stale)
	moved, _ := d["moved"].([]any)
	if stale.Status.State != a2a.TaskStateRejected || d["_tag"] != agent.TagStaleView || len(moved) != 1 || moved[0] != "openProduct" || d["retrySafe"] != true {
		t.Fatalf("bob's stale add: %s %v", stale.Status.State, d)
	}
	if _, now := f.prog.VersionedModel(); metaVersion(t, stale.Status.Message) != now || metaVersion(t, stale.Status.Message) <= metaVersion(t, seen) {
		t.Fatalf("the refusal is at %d; the shop is at %d, bob saw %d", metaVersion(t, stale.Status.Message), now, metaVersion(t, seen))
	}
	if len(f.prog.Model().Cart) != 0 {
		t.Fatalf("a stale add reached the cart: %v", f.prog.Model().Cart)
	}
	// A citation that is not a version is the caller's mistake.
	bad := skillMessage("add_to_cart", nil)
	bad.Message.Metadata = map[string]any{a2aagent.MetaSeenVersion: "yesterday"}
	if _, err := bob.SendMessage(ctx, bad); !errors.Is(err, a2a.ErrInvalidParams) {
		t.Fatalf("a citation that is not a number: %v, want invalid params", err)
	}

	// Bob reads again; his add applies to what he read.
	again, _ := read("bob", bob)
	done := call("bob", bob, "add_to_cart", nil, nil)
	if done.Status.State != a2a.TaskStateCompleted || metaVersion(t, done.Status.Message) != metaVersion(t, again)+1 {
		t.Fatalf("bob's add after reading: %s %v", done.Status.State, statusData(done))
	}
	if got := f.prog.Model().Cart; !slices.Equal(got, []string{"dress-blue"}) {
		t.Fatalf("cart = %v", got)
	}

	// Alice opens the hat and bob reads it, then cites the version at
	// which the blue dress was open: the citation wins.
	call("alice", alice, "open_product", map[string]any{"sku": "hat"}, nil)
	read("bob", bob)
	planned := metaVersion(t, done.Status.Message)
	cited := call("bob", bob, "add_to_cart", nil, planned)
	if d := statusData(cited); cited.Status.State != a2a.TaskStateRejected || d["_tag"] != agent.TagStaleView {
		t.Fatalf("a cited old version: %s %v", cited.Status.State, d)
	}
	if got := f.prog.Model().Cart; len(got) != 1 {
		t.Fatalf("a refused citation reached the cart: %v", got)
	}

	// What the input names does not exist: rejected AgentNotFoundError.
	missing := call("alice", alice, "open_product", map[string]any{"sku": "gloves"}, nil)
	if d := statusData(missing); missing.Status.State != a2a.TaskStateRejected || d["_tag"] != agent.TagNotFound || d["path"] != "/sku" || strings.Contains(mustJSON(d), "gloves") {
		t.Fatalf("an unknown product: %s %v", missing.Status.State, d)
	}
	// Not offered now: the authored reason is served.
	unavailable := call("alice", alice, "check_out", nil, nil)
	if d := statusData(unavailable); unavailable.Status.State != a2a.TaskStateRejected || d["reason"] != "The person gives the delivery address first." || !strings.Contains(statusText(unavailable), "The person gives the delivery address first.") {
		t.Fatalf("check_out without an address: %s %v", unavailable.Status.State, d)
	}
	return log
}

func TestStaleViewRefusedBetweenTwoIdentities(t *testing.T) {
	first := a2aStaleScenario(t)
	second := a2aStaleScenario(t)
	if !slices.Equal(first, second) {
		t.Fatalf("two runs told the callers different things:\n%s\n---\n%s", strings.Join(first, "\n"), strings.Join(second, "\n"))
	}
	t.Logf("transcript:\n%s", strings.Join(first, "\n"))
}

func TestReadsAreRefusedWhenMalformed(t *testing.T) {
	f := startShop(t)
	c := f.client(t, "alice-tok")
	for _, what := range []any{"everything", 3} {
		req := &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewDataPart(map[string]any{"read": what}))}
		if _, err := c.SendMessage(context.Background(), req); !errors.Is(err, a2a.ErrInvalidParams) {
			t.Errorf("read %v: %v, want invalid params", what, err)
		}
	}
	req := &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewDataPart(map[string]any{"read": "resource", "name": "nope"}))}
	if _, err := c.SendMessage(context.Background(), req); !errors.Is(err, a2a.ErrInvalidParams) {
		t.Errorf("an unknown resource: %v, want invalid params", err)
	}
	req = &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewDataPart(map[string]any{"read": "resource", "name": "cart"}))}
	res, err := c.SendMessage(context.Background(), req)
	if m, ok := res.(*a2a.Message); err != nil || !ok || m.Metadata[a2aagent.MetaVersion] == nil {
		t.Fatalf("reading the cart: %#v, %v", res, err)
	}
	if f.h.Tasks() != 0 {
		t.Fatalf("reads made %d tasks", f.h.Tasks())
	}
	// The card tags "authorized" nothing: no capability checks its caller
	// (open_product only checks that the product exists).
	b, _ := json.Marshal(f.h.Card(f.srv.URL).Skills)
	if strings.Contains(string(b), a2aagent.TagAuthorized) {
		t.Fatalf("skills: %s", b)
	}
}

// The todo example's card tags "authorized" only clear_completed: the
// capabilities that refuse an unknown id (rename_todo, select_todo,
// toggle_todo) say it does not exist, which is no check of the caller.
func TestTodoCardTagsOnlyClearCompletedAuthorized(t *testing.T) {
	var authorized []string
	for _, s := range a2aagent.NewCard(todo.Contract().Describe(), "http://127.0.0.1:1", a2aagent.CardOptions{}).Skills {
		if slices.Contains(s.Tags, a2aagent.TagAuthorized) {
			authorized = append(authorized, s.ID)
		}
	}
	if !slices.Equal(authorized, []string{"clear_completed"}) {
		t.Fatalf("skills tagged authorized: %v, want [clear_completed]", authorized)
	}
}
