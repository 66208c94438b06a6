package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// A small shop whose add-to-cart is built from shared state: the product
// that is open. Two agents share one shop.

type shopModel struct {
	Open    string
	Cart    []string
	Address string
}

type shopMsg interface{ isShopMsg() }

type OpenProduct struct {
	SKU string `json:"sku"`
}
type AddToCart struct{ SKU string }
type CheckOut struct{}
type Nudge struct{} // changes nothing an agent watches

func (OpenProduct) isShopMsg() {}
func (AddToCart) isShopMsg()   {}
func (CheckOut) isShopMsg()    {}
func (Nudge) isShopMsg()       {}

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

var catalog = []string{"dress-red", "dress-blue", "hat"}

var openProduct = agent.Watching("openProduct", func(m shopModel) string { return m.Open })

func shopContract(policy agent.Freshness) *agent.Contract[shopModel, agent.NoPrincipal] {
	return agent.Make(agent.Definition[shopModel, agent.NoPrincipal]{
		Context: agent.Project(func(m shopModel) shopModel { return m }),
		Capabilities: []agent.Capability[shopModel, agent.NoPrincipal]{
			agent.Expose(agent.Variant[OpenProduct, shopModel, agent.NoPrincipal]{
				Description: "Open a product.",
				Exists: func(in OpenProduct, _ shopModel) (string, bool) {
					return "/sku", slices.Contains(catalog, in.SKU)
				},
				Missing: "No product has that SKU; the catalog lists them.",
			}),
			agent.ExposeMapped(agent.Mapped[agent.NoInput, AddToCart, shopModel, agent.NoPrincipal]{
				Description: "Add the open product to the cart.",
				Available:   func(m shopModel) bool { return m.Open != "" },
				ToMessage: func(_ agent.NoInput, c agent.Call[shopModel, agent.NoPrincipal]) AddToCart {
					return AddToCart{SKU: c.Model.Open}
				},
				Watches:   []agent.Watch[shopModel]{openProduct},
				Freshness: policy,
			}),
			agent.ExposeMapped(agent.Mapped[agent.NoInput, CheckOut, shopModel, agent.NoPrincipal]{
				Description: "Place the order.",
				Requires: []agent.Requirement[shopModel]{
					{Holds: func(m shopModel) bool { return len(m.Cart) > 0 }, Says: "Add something to the cart first."},
					{Holds: func(m shopModel) bool { return m.Address != "" }, Says: "The person gives the delivery address first."},
				},
				ToMessage: func(agent.NoInput, agent.Call[shopModel, agent.NoPrincipal]) CheckOut { return CheckOut{} },
			}),
			agent.Expose(agent.Variant[Nudge, shopModel, agent.NoPrincipal]{Description: "Nudge."}),
		},
	})
}

type shopRig struct {
	rt   *agent.Runtime[shopModel, shopMsg, agent.NoPrincipal]
	prog *loop.Program[shopModel, shopMsg]
}

func newShop(t testing.TB, policy agent.Freshness) *shopRig {
	t.Helper()
	prog := loop.New[shopModel, shopMsg](shopApp{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = prog.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	rt, err := agent.Bind(shopContract(policy), prog, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &shopRig{rt: rt, prog: prog}
}

func (s *shopRig) call(caller, name, payload string, inv agent.Invocation) (agent.Result, error) {
	ctx := agent.WithCaller(context.Background(), caller)
	return s.rt.DispatchUnknown(ctx, name, json.RawMessage(payload), inv)
}

func (s *shopRig) cart() []string { return s.prog.Model().Cart }

func staleErr(t *testing.T, err error) *agent.StaleViewError {
	t.Helper()
	var stale *agent.StaleViewError
	if !errors.As(err, &stale) {
		t.Fatalf("got %v (%T), want a *StaleViewError", err, err)
	}
	return stale
}

func TestStaleViewRefusesACallBuiltFromAnotherCallersState(t *testing.T) {
	s := newShop(t, "")
	if _, err := s.call("A", "open_product", `{"sku":"dress-red"}`, agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.call("B", "open_product", `{"sku":"dress-blue"}`, agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	_, err := s.call("A", "add_to_cart", `{}`, agent.Invocation{})
	stale := staleErr(t, err)
	if !slices.Equal(stale.Moved, []string{"openProduct"}) || stale.Unseen {
		t.Errorf("moved = %v, unseen = %v; want [openProduct], false", stale.Moved, stale.Unseen)
	}
	if _, v := s.prog.VersionedModel(); stale.Version != v {
		t.Errorf("version = %d, want the current %d", stale.Version, v)
	}
	if got := s.cart(); len(got) != 0 {
		t.Fatalf("a stale call reached the cart: %v", got)
	}
	data, _ := json.Marshal(stale)
	if !strings.Contains(string(data), `"_tag":"AgentStaleViewError"`) || !strings.Contains(string(data), `"retrySafe":true`) || strings.Contains(stale.Error(), "dress") {
		t.Errorf("encoding = %s", data)
	}

	// B's own add is fine: what it saw is what is open.
	res, err := s.call("B", "add_to_cart", `{}`, agent.Invocation{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Version == 0 {
		t.Error("a result carries no version")
	}
	// A reads again, and now acts on what it read.
	read, err := s.rt.ContextRead(agent.WithCaller(context.Background(), "A"))
	if err != nil || read.Version == 0 {
		t.Fatalf("read = %+v, %v", read, err)
	}
	if _, err := s.call("A", "add_to_cart", `{}`, agent.Invocation{}); err != nil {
		t.Fatalf("after reading again: %v", err)
	}
	if got := s.cart(); !slices.Equal(got, []string{"dress-blue", "dress-blue"}) {
		t.Errorf("cart = %v", got)
	}
}

func TestStaleViewIgnoresChangesOutsideTheWatch(t *testing.T) {
	s := newShop(t, "")
	if _, err := s.call("A", "open_product", `{"sku":"hat"}`, agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := s.call("B", "nudge", `{}`, agent.Invocation{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.call("A", "add_to_cart", `{}`, agent.Invocation{}); err != nil {
		t.Fatalf("a change A's call does not depend on refused it: %v", err)
	}
}

func TestStaleViewRefusesACallerThatHasNotLooked(t *testing.T) {
	s := newShop(t, "")
	if _, err := s.call("A", "open_product", `{"sku":"hat"}`, agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	_, err := s.call("C", "add_to_cart", `{}`, agent.Invocation{})
	if stale := staleErr(t, err); !stale.Unseen || !slices.Equal(stale.Moved, []string{"openProduct"}) {
		t.Errorf("stale = %+v", stale)
	}
	// The offered list is a look too.
	offer, err := s.rt.Offered(agent.WithCaller(context.Background(), "C"))
	if err != nil || offer.Version == 0 {
		t.Fatalf("offer = %+v, %v", offer, err)
	}
	if _, err := s.call("C", "add_to_cart", `{}`, agent.Invocation{}); err != nil {
		t.Fatalf("after listing: %v", err)
	}
	// The application's own code is not judged.
	if _, err := s.rt.DispatchUnknown(context.Background(), "add_to_cart", json.RawMessage(`{}`), agent.Invocation{}); err != nil {
		t.Fatalf("in-process call: %v", err)
	}
}

func TestStaleViewCitedVersionWins(t *testing.T) {
	for _, tc := range []struct {
		policy agent.Freshness
		wantOK bool
	}{{agent.StaleRefuse, false}, {agent.StaleRequireAck, true}, {agent.StaleDisclose, true}} {
		t.Run(string(tc.policy), func(t *testing.T) {
			s := newShop(t, tc.policy)
			res, err := s.call("A", "open_product", `{"sku":"hat"}`, agent.Invocation{})
			if err != nil {
				t.Fatal(err)
			}
			planned := res.Version
			if _, err := s.call("B", "open_product", `{"sku":"dress-red"}`, agent.Invocation{}); err != nil {
				t.Fatal(err)
			}
			// Before reading again, every policy but disclose refuses.
			_, err = s.call("A", "add_to_cart", `{}`, agent.Invocation{SeenVersion: planned})
			if tc.policy == agent.StaleDisclose {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				staleErr(t, err)
			}
			if _, err := s.rt.ContextRead(agent.WithCaller(context.Background(), "A")); err != nil {
				t.Fatal(err)
			}
			res, err = s.call("A", "add_to_cart", `{}`, agent.Invocation{SeenVersion: planned})
			if !tc.wantOK {
				if stale := staleErr(t, err); stale.Seen != planned {
					t.Errorf("judged against %d, want the cited %d", stale.Seen, planned)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Moved, []string{"openProduct"}) {
				t.Errorf("moved = %v", res.Moved)
			}
		})
	}
}

func TestStaleViewUnknownCitation(t *testing.T) {
	s := newShop(t, "")
	if _, err := s.rt.ContextRead(agent.WithCaller(context.Background(), "A")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.call("A", "open_product", `{"sku":"hat"}`, agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	_, err := s.call("A", "add_to_cart", `{}`, agent.Invocation{SeenVersion: 1 << 40})
	if stale := staleErr(t, err); !stale.Unseen {
		t.Errorf("a version never served was judged: %+v", stale)
	}
}

func TestRequirementSaysWhyACapabilityIsNotOffered(t *testing.T) {
	s := newShop(t, "")
	_, err := s.call("A", "check_out", `{}`, agent.Invocation{})
	var un *agent.UnavailableError
	if !errors.As(err, &un) || un.Reason != "Add something to the cart first." || !strings.HasSuffix(un.Error(), un.Reason) {
		t.Fatalf("got %v", err)
	}
	if _, err := s.rt.DispatchUnknown(context.Background(), "open_product", json.RawMessage(`{"sku":"hat"}`), agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.rt.DispatchUnknown(context.Background(), "add_to_cart", json.RawMessage(`{}`), agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	_, err = s.call("A", "check_out", `{}`, agent.Invocation{})
	if !errors.As(err, &un) || un.Reason != "The person gives the delivery address first." {
		t.Fatalf("got %v", err)
	}
	data, _ := json.Marshal(un)
	if !strings.Contains(string(data), `"reason":"The person gives the delivery address first."`) {
		t.Errorf("encoding = %s", data)
	}
	offer, _ := s.rt.Offered(context.Background())
	for _, d := range offer.Capabilities {
		if d.Name == "check_out" {
			t.Error("check_out is offered while a requirement fails")
		}
	}
}

func TestNotFoundIsNotAnAuthorizationRefusal(t *testing.T) {
	s := newShop(t, "")
	_, err := s.call("A", "open_product", `{"sku":"gloves"}`, agent.Invocation{})
	var nf *agent.NotFoundError
	if !errors.As(err, &nf) || nf.Path != "/sku" || nf.Tag() != agent.TagNotFound {
		t.Fatalf("got %v", err)
	}
	if strings.Contains(nf.Error(), "gloves") {
		t.Errorf("the message repeats the input: %q", nf.Error())
	}
	if nf.Reason != "No product has that SKU; the catalog lists them." || nf.Error() != nf.Reason {
		t.Errorf("the authored sentence is not what the caller is told: reason %q, message %q", nf.Reason, nf.Error())
	}
	if data, _ := json.Marshal(nf); !strings.Contains(string(data), `"message":"No product has that SKU; the catalog lists them."`) || !strings.Contains(string(data), `"path":"/sku"`) {
		t.Errorf("encoding = %s", data)
	}
	if s.prog.Model().Open != "" {
		t.Error("a refused open reached update")
	}
	for _, d := range s.rt.Describe().Capabilities {
		if d.Name == "open_product" && d.RequiresAuthorization {
			t.Error("a capability that only checks existence is marked as requiring authorization")
		}
		if d.Name == "add_to_cart" && (!slices.Equal(d.Watches, []string{"openProduct"}) || d.Freshness != agent.StaleRefuse) {
			t.Errorf("descriptor = %+v", d)
		}
	}
}

func TestMissingWithoutExistsFailsAtExpose(t *testing.T) {
	defer func() {
		v := recover()
		if msg, _ := v.(string); !strings.Contains(msg, "OpenProduct") || !strings.Contains(msg, "Missing") {
			t.Fatalf("panic = %v, want one naming the Message type and Missing", v)
		}
	}()
	agent.Expose(agent.Variant[OpenProduct, shopModel, agent.NoPrincipal]{
		Description: "Open a product.",
		Missing:     "No product has that SKU.",
	})
}

// unversioned is a host with no versions.
type unversioned struct{ m shopModel }

func (u *unversioned) Model() shopModel                        { return u.m }
func (u *unversioned) Dispatch(context.Context, shopMsg) error { return nil }
func (u *unversioned) Subscribe(func()) func()                 { return func() {} }
func (u *unversioned) Observe(func(shopMsg)) func()            { return func() {} }

func TestBindRefusesWatchesOnAnUnversionedHost(t *testing.T) {
	_, err := agent.Bind(shopContract(""), agent.Host[shopModel, shopMsg](&unversioned{}), nil)
	if err == nil || !strings.Contains(err.Error(), `"add_to_cart"`) || !strings.Contains(err.Error(), "VersionedModel") {
		t.Fatalf("got %v", err)
	}
}

func TestWatchDeclarationMistakesFailAtConstruction(t *testing.T) {
	mustPanic := func(name, want string, f func()) {
		t.Helper()
		defer func() {
			r := recover()
			if r == nil || !strings.Contains(fmt.Sprint(r), want) {
				t.Errorf("%s: panic %v, want one naming %q", name, r, want)
			}
		}()
		f()
	}
	mustPanic("policy without watch", "watches nothing", func() {
		agent.Expose(agent.Variant[Nudge, shopModel, agent.NoPrincipal]{Description: "x", Freshness: agent.StaleDisclose})
	})
	mustPanic("unknown policy", "not a freshness policy", func() {
		agent.Expose(agent.Variant[Nudge, shopModel, agent.NoPrincipal]{Description: "x", Watches: []agent.Watch[shopModel]{openProduct}, Freshness: "later"})
	})
	mustPanic("requirement without sentence", "Requires[0]", func() {
		agent.Expose(agent.Variant[Nudge, shopModel, agent.NoPrincipal]{Description: "x", Requires: []agent.Requirement[shopModel]{{Holds: func(shopModel) bool { return true }}}})
	})
	other := agent.Watching("openProduct", func(m shopModel) int { return len(m.Open) })
	mustPanic("two watches one name", `"openProduct"`, func() {
		agent.Make(agent.Definition[shopModel, agent.NoPrincipal]{Capabilities: []agent.Capability[shopModel, agent.NoPrincipal]{
			agent.Expose(agent.Variant[Nudge, shopModel, agent.NoPrincipal]{Description: "x", Watches: []agent.Watch[shopModel]{openProduct}}),
			agent.Expose(agent.Variant[OpenProduct, shopModel, agent.NoPrincipal]{Description: "x", Watches: []agent.Watch[shopModel]{other}}),
		}})
	})
	mustPanic("bad name", "watch", func() { agent.Watching("open product", func(m shopModel) string { return m.Open }) })
}

// Two agents interleave open and add on one shop: nothing is ever added
// that its caller did not open, and every refusal names the open product.
func TestStaleViewTwoAgentsInterleaving(t *testing.T) {
	s := newShop(t, "")
	var (
		mu     sync.Mutex
		added  = map[string]int{}
		stales int
	)
	var wg sync.WaitGroup
	for i, sku := range []string{"dress-red", "dress-blue"} {
		caller := fmt.Sprintf("agent-%d", i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				if _, err := s.call(caller, "open_product", `{"sku":"`+sku+`"}`, agent.Invocation{}); err != nil {
					t.Error(err)
					return
				}
				res, err := s.call(caller, "add_to_cart", `{}`, agent.Invocation{})
				mu.Lock()
				if err != nil {
					var stale *agent.StaleViewError
					if !errors.As(err, &stale) || !slices.Equal(stale.Moved, []string{"openProduct"}) {
						t.Errorf("refusal %v", err)
					}
					stales++
				} else if got := res.Message.(AddToCart).SKU; got != sku {
					t.Errorf("%s added %s, having opened %s", caller, got, sku)
				} else {
					added[sku]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	cart := s.cart()
	if len(cart) != added["dress-red"]+added["dress-blue"] {
		t.Errorf("cart holds %d, %d adds succeeded", len(cart), added["dress-red"]+added["dress-blue"])
	}
	t.Logf("adds %v, stale refusals %d", added, stales)
}

// BenchmarkDispatchWatch compares a call that declares a watch with the
// same call declaring none, both from a known caller on host/loop,
// alternating call by call in one run; "watched/unwatched" is the ratio of
// their times per call (the target is at most 1.1).
func BenchmarkDispatchWatch(b *testing.B) {
	type add = agent.Mapped[agent.NoInput, AddToCart, shopModel, agent.NoPrincipal]
	toMsg := func(_ agent.NoInput, c agent.Call[shopModel, agent.NoPrincipal]) AddToCart {
		return AddToCart{SKU: c.Model.Open}
	}
	bind := func(watches []agent.Watch[shopModel]) *agent.Runtime[shopModel, shopMsg, agent.NoPrincipal] {
		prog := loop.New[shopModel, shopMsg](benchShop{}, nil)
		ctx, cancel := context.WithCancel(context.Background())
		b.Cleanup(cancel)
		go prog.Run(ctx)
		c := agent.Make(agent.Definition[shopModel, agent.NoPrincipal]{Capabilities: []agent.Capability[shopModel, agent.NoPrincipal]{
			agent.ExposeMapped(add{Description: "Add the open product.", ToMessage: toMsg, Watches: watches}),
		}})
		return agent.MustBind(c, prog, nil)
	}
	watched, unwatched := bind([]agent.Watch[shopModel]{openProduct}), bind(nil)
	ctx, cancel := context.WithCancel(agent.WithCaller(context.Background(), "bench"))
	defer cancel()
	if _, err := watched.Offered(ctx); err != nil {
		b.Fatal(err)
	}
	call := func(rt *agent.Runtime[shopModel, shopMsg, agent.NoPrincipal]) {
		if _, err := rt.DispatchUnknown(ctx, "add_to_cart", json.RawMessage(`{}`), agent.Invocation{Transport: agent.MCP}); err != nil {
			b.Fatal(err)
		}
	}
	// The two calls alternate one by one, so that both see the same
	// machine: on a busy machine the load moves faster than a round of
	// hundreds of calls, and rounds would measure the load, not the watch.
	// Which goes first alternates too, so that neither always runs on
	// caches the other warmed.
	var tw, tu time.Duration
	first, second, tf, ts := watched, unwatched, &tw, &tu
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		call(first)
		t1 := time.Now()
		call(second)
		*tf += t1.Sub(t0)
		*ts += time.Since(t1)
		first, second, tf, ts = second, first, ts, tf
	}
	b.ReportMetric(float64(tw)/float64(tu), "watched/unwatched")
	b.ReportMetric(float64(tw.Nanoseconds())/float64(b.N), "ns/watched-call")
}

// benchShop keeps the Model's size constant: the cart is not grown.
type benchShop struct{}

func (benchShop) Init() (shopModel, loop.Cmd[shopMsg]) { return shopModel{Open: "hat"}, nil }
func (benchShop) Update(m shopModel, _ shopMsg) (shopModel, loop.Cmd[shopMsg]) {
	return m, nil
}

// ReplyTo says which version an answer was taken at, once for every
// adapter: a dispatched call's, a stale view's current one, none for
// other refusals.
func TestReplyCarriesTheAnswersVersion(t *testing.T) {
	if v := agent.ReplyTo("x", agent.Result{Version: 7}, nil).Version; v != 7 {
		t.Errorf("dispatched: %d", v)
	}
	if v := agent.ReplyTo("x", agent.Result{}, &agent.StaleViewError{Capability: "x", Version: 9, Moved: []string{"w"}}).Version; v != 9 {
		t.Errorf("stale: %d", v)
	}
	if v := agent.ReplyTo("x", agent.Result{Version: 7}, &agent.UnavailableError{Capability: "x"}).Version; v != 0 {
		t.Errorf("unavailable: %d", v)
	}
}

// A result is a look only at what it showed. A opens the red dress; B
// opens the blue one; A's Nudge answers at a version whose Model has the
// blue dress open, which the Nudge's result never showed A, so A's add is
// still judged against the red dress it saw, and refused. A's own Message
// is what A knows: after A opens a product itself, its add goes through
// without a read, and a caller that never looked learns nothing from a
// result about what its Message did not set.
func TestAResultIsALookOnlyAtWhatItShowed(t *testing.T) {
	s := newShop(t, "")
	must := func(caller, name, payload string) {
		t.Helper()
		if _, err := s.call(caller, name, payload, agent.Invocation{}); err != nil {
			t.Fatalf("%s %s: %v", caller, name, err)
		}
	}
	must("A", "open_product", `{"sku":"dress-red"}`)
	must("B", "open_product", `{"sku":"dress-blue"}`)
	must("A", "nudge", `{}`)
	_, err := s.call("A", "add_to_cart", `{}`, agent.Invocation{})
	if stale := staleErr(t, err); !slices.Equal(stale.Moved, []string{"openProduct"}) {
		t.Errorf("moved = %v", stale.Moved)
	}
	// Nudged again: still not a look at the blue dress.
	must("A", "nudge", `{}`)
	staleErr(t, func() error { _, err := s.call("A", "add_to_cart", `{}`, agent.Invocation{}); return err }())
	if got := s.cart(); len(got) != 0 {
		t.Fatalf("a call on a value no result showed reached the cart: %v", got)
	}
	// A's own open: its result shows what A's Message set.
	must("A", "open_product", `{"sku":"hat"}`)
	must("A", "nudge", `{}`)
	must("A", "add_to_cart", `{}`)
	// C never looked: its Nudge shows it nothing of the open product.
	must("C", "nudge", `{}`)
	staleErr(t, func() error { _, err := s.call("C", "add_to_cart", `{}`, agent.Invocation{}); return err }())
	if got := s.cart(); !slices.Equal(got, []string{"hat"}) {
		t.Errorf("cart = %v", got)
	}
}

// A caller shown a version whole (journey/bind's answers show the state
// view at the version they cite) is judged against that version's Model,
// even when its last Result is at the same version and showed less: the
// shop's pay, cited right after open-review's answer, was refused as
// stale for an address the person gave and the answer showed.
func TestACitedVersionShownWholeIsNotNarrowedByAResult(t *testing.T) {
	s := newShop(t, "")
	if _, err := s.call("A", "open_product", `{"sku":"dress-red"}`, agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.call("B", "open_product", `{"sku":"dress-blue"}`, agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	res, err := s.call("A", "nudge", `{}`, agent.Invocation{})
	if err != nil {
		t.Fatal(err)
	}
	// Cited as a Result's version, the version is judged by what the
	// Result showed: B's open is not in it.
	_, err = s.call("A", "add_to_cart", `{}`, agent.Invocation{SeenVersion: res.Version})
	if stale := staleErr(t, err); !slices.Equal(stale.Moved, []string{"openProduct"}) {
		t.Errorf("moved = %v", stale.Moved)
	}
	if got := s.cart(); len(got) != 0 {
		t.Fatalf("cart = %v", got)
	}
	// Cited as shown whole, the same version is a look at B's open.
	if _, err := s.call("A", "add_to_cart", `{}`, agent.Invocation{SeenVersion: res.Version, SeenWhole: true}); err != nil {
		t.Fatalf("a call on a version shown whole: %v", err)
	}
	if got := s.cart(); !slices.Equal(got, []string{"dress-blue"}) {
		t.Errorf("cart = %v", got)
	}
}
