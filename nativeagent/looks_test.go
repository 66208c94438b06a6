package nativeagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
	"github.com/foldagent/foldagent/nativeagent"
)

// A small shop whose add_to_cart is built from shared state: the product
// that is open. Two principals (two Agent Native identities) share it;
// each is a caller with its own last look.

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

type shopApp struct{}

func (shopApp) Init() (shopModel, loop.Cmd[shopMsg]) { return shopModel{}, nil }
func (shopApp) Update(m shopModel, msg shopMsg) (shopModel, loop.Cmd[shopMsg]) {
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
	Context: agent.Project(func(m shopModel) shopModel { return m }),
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

type shop struct {
	srv  *httptest.Server
	prog *loop.Program[shopModel, shopMsg]
}

// newShop serves one shop to two identities, alice and bob, each with
// its own runtime bound to the one Program.
func newShop(t *testing.T) *shop {
	t.Helper()
	prog := loop.New[shopModel, shopMsg](shopApp{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	handler, err := nativeagent.NewHandler(nativeagent.Options{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			if name, ok := strings.CutSuffix(token, "-tok"); ok {
				return &auth.TokenInfo{UserID: name}, nil
			}
			return nil, auth.ErrInvalidToken
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (nativeagent.Runtime, error) {
			return agent.Bind(shopContract, prog, nil)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return &shop{srv: srv, prog: prog}
}

// answer is one response, decoded.
type answer struct {
	status  int
	version uint64 // the Foldagent-Version header, 0 when absent
	body    map[string]any
}

func (s *shop) send(t *testing.T, method, path, token, body string, header map[string]string) answer {
	t.Helper()
	req, err := http.NewRequest(method, s.srv.URL+"/_agent-native/"+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode}
	if h := resp.Header.Get(nativeagent.VersionHeader); h != "" {
		if a.version, err = strconv.ParseUint(h, 10, 64); err != nil {
			t.Fatalf("%s %s: %s %q", method, path, nativeagent.VersionHeader, h)
		}
	}
	if err := json.Unmarshal(raw, &a.body); err != nil {
		t.Fatalf("%s %s: %s", method, path, raw)
	}
	// The body's version, where it has one, is the header's.
	if v, ok := a.body["version"]; ok && uint64(v.(float64)) != a.version {
		t.Fatalf("%s %s: body version %v, header %d", method, path, v, a.version)
	}
	return a
}

func (a answer) data() map[string]any {
	d, _ := a.body["data"].(map[string]any)
	return d
}

// staleScenario runs the whole task and returns what the callers were
// told, with versions relative to the first one seen.
func staleScenario(t *testing.T) []string {
	s := newShop(t)
	var log []string
	var base uint64
	rel := func(v uint64) string {
		if v == 0 {
			return "unversioned"
		}
		if base == 0 {
			base = v
		}
		return fmt.Sprintf("v%+d", int64(v)-int64(base))
	}
	note := func(who, what string, a answer) answer {
		body := map[string]any{}
		for k, v := range a.body {
			body[k] = v
		}
		if d := a.data(); d != nil {
			d = maps(d)
			delete(d, "invocation") // its id is new on every call
			for _, k := range []string{"version", "seenVersion"} {
				if v, ok := d[k].(float64); ok {
					d[k] = rel(uint64(v))
				}
			}
			body["data"] = d
		}
		delete(body, "version")
		b, _ := json.Marshal(body)
		log = append(log, fmt.Sprintf("%s %s → %d %s %s", who, what, a.status, rel(a.version), b))
		return a
	}
	post := func(who, name, body string, header map[string]string) answer {
		return note(who, "POST "+name, s.send(t, "POST", "actions/"+name, who+"-tok", body, header))
	}
	get := func(who, path string) answer {
		return note(who, "GET "+path, s.send(t, "GET", path, who+"-tok", "", nil))
	}

	post("alice", "open_product", `{"sku":"dress-red"}`, nil)
	seen := get("bob", "context") // bob sees the red dress open
	if v, _ := seen.body["value"].(map[string]any); v["open"] != "dress-red" || seen.version == 0 {
		t.Fatalf("bob's read: %v at %d", seen.body, seen.version)
	}
	post("alice", "open_product", `{"sku":"dress-blue"}`, nil)

	// Bob's add was planned on the red dress: refused, 409, nothing added.
	stale := post("bob", "add_to_cart", `{}`, nil)
	d := stale.data()
	if stale.status != http.StatusConflict || stale.body["refusal"] != agent.TagStaleView || d["_tag"] != agent.TagStaleView || !slices.Equal(strs(d["moved"]), []string{"openProduct"}) || d["retrySafe"] != true {
		t.Fatalf("bob's stale add: %d %v", stale.status, stale.body)
	}
	if _, now := s.prog.VersionedModel(); stale.version != now || uint64(d["version"].(float64)) != now || stale.version <= seen.version {
		t.Fatalf("the refusal is at %d (data %v); the shop is at %d, bob saw %d", stale.version, d["version"], now, seen.version)
	}
	if len(s.prog.Model().Cart) != 0 {
		t.Fatalf("a stale add reached the cart: %v", s.prog.Model().Cart)
	}
	// A citation that is not a version is the caller's mistake: 400.
	bad := post("bob", "add_to_cart", `{}`, map[string]string{nativeagent.SeenVersionHeader: "yesterday"})
	if bad.status != http.StatusBadRequest || bad.body["ok"] != false || bad.data()["header"] != nativeagent.SeenVersionHeader || len(s.prog.Model().Cart) != 0 {
		t.Fatalf("a citation that is not a number: %d %v", bad.status, bad.body)
	}

	// Bob reads again; his add applies to what he read.
	again := get("bob", "context")
	done := post("bob", "add_to_cart", `{}`, nil)
	if done.status != 200 || done.body["ok"] != true || done.version != again.version+1 {
		t.Fatalf("bob's add after reading: %d %v (read at %d)", done.status, done.body, again.version)
	}
	if got := s.prog.Model().Cart; !slices.Equal(got, []string{"dress-blue"}) {
		t.Fatalf("cart = %v", got)
	}

	// Bob cites the version at which the blue dress was open, now that
	// alice opened the hat and bob has read it: the citation wins.
	post("alice", "open_product", `{"sku":"hat"}`, nil)
	get("bob", "actions") // the catalogue is a look too
	cited := post("bob", "add_to_cart", `{}`, map[string]string{nativeagent.SeenVersionHeader: strconv.FormatUint(done.version, 10)})
	if cited.status != http.StatusConflict || uint64(cited.data()["seenVersion"].(float64)) != done.version {
		t.Fatalf("a cited old version: %d %v", cited.status, cited.body)
	}
	if got := s.prog.Model().Cart; len(got) != 1 {
		t.Fatalf("a refused citation reached the cart: %v", got)
	}

	// What the input names does not exist: 404, the path in the data.
	missing := post("alice", "open_product", `{"sku":"gloves"}`, nil)
	if missing.status != http.StatusNotFound || missing.body["refusal"] != agent.TagNotFound || missing.data()["path"] != "/sku" || strings.Contains(fmt.Sprint(missing.body), "gloves") {
		t.Fatalf("an unknown product: %d %v", missing.status, missing.body)
	}
	// Not offered now: the authored reason is served.
	unavailable := post("alice", "check_out", `{}`, nil)
	if unavailable.status != 200 || unavailable.body["ok"] != false || unavailable.data()["reason"] != "The person gives the delivery address first." || !strings.Contains(unavailable.body["message"].(string), "The person gives the delivery address first.") {
		t.Fatalf("check_out without an address: %d %v", unavailable.status, unavailable.body)
	}
	return log
}

func maps(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestStaleViewRefusedBetweenTwoIdentities(t *testing.T) {
	first := staleScenario(t)
	second := staleScenario(t)
	if !slices.Equal(first, second) {
		t.Fatalf("two runs told the callers different things:\n%s\n---\n%s", strings.Join(first, "\n"), strings.Join(second, "\n"))
	}
	t.Logf("transcript:\n%s", strings.Join(first, "\n"))
}

// A call by an identity that never read is refused: it cannot have seen
// what it acts on.
func TestCallerWhoNeverReadIsAskedToRead(t *testing.T) {
	s := newShop(t)
	s.send(t, "POST", "actions/open_product", "alice-tok", `{"sku":"hat"}`, nil)
	a := s.send(t, "POST", "actions/add_to_cart", "bob-tok", `{}`, nil)
	if a.status != http.StatusConflict || a.data()["unseen"] != true || len(s.prog.Model().Cart) != 0 {
		t.Fatalf("%d %v", a.status, a.body)
	}
	// An unknown resource is 404, typed.
	if r := s.send(t, "GET", "resources/nope", "alice-tok", "", nil); r.status != http.StatusNotFound || r.body["refusal"] != agent.TagResource {
		t.Fatalf("unknown resource: %d %v", r.status, r.body)
	}
	// The catalogue marks no capability of this shop as needing more than
	// the caller's authentication: none declares Authorize.
	req, _ := http.NewRequest("GET", s.srv.URL+"/_agent-native/actions", nil)
	req.Header.Set("Authorization", "Bearer alice-tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get(nativeagent.VersionHeader) == "" {
		t.Fatal("the catalogue carries no version")
	}
}
