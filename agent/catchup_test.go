package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// laggingHost reports a Message delivered the moment it queues it, as a
// host does when update is about to take it, and applies it only when the
// test says: the window in which a caller has its result and update has
// not yet returned.
type laggingHost struct {
	mu      sync.Mutex
	models  []shopModel // by version - 1
	queued  []shopMsg
	applied chan struct{}
	reads   int // VersionedModel calls
}

func newLaggingHost() *laggingHost {
	return &laggingHost{models: []shopModel{{}}, applied: make(chan struct{}, 16)}
}

func (h *laggingHost) Model() shopModel { m, _ := h.VersionedModel(); return m }

func (h *laggingHost) VersionedModel() (shopModel, uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.reads++
	return h.models[len(h.models)-1], uint64(len(h.models))
}

func (h *laggingHost) ModelAt(v uint64) (shopModel, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if v == 0 || v > uint64(len(h.models)) {
		return shopModel{}, false
	}
	return h.models[v-1], true
}

func (h *laggingHost) Dispatch(ctx context.Context, msg shopMsg) error {
	return h.DispatchTracked(ctx, msg, func(error) {})
}

func (h *laggingHost) DispatchTracked(_ context.Context, msg shopMsg, delivered func(error)) error {
	h.mu.Lock()
	h.queued = append(h.queued, msg)
	h.mu.Unlock()
	delivered(nil)
	return nil
}

func (h *laggingHost) DispatchNeverBlocks() bool { return true }

// apply runs update on the oldest queued Message.
func (h *laggingHost) apply() {
	h.mu.Lock()
	msg := h.queued[0]
	h.queued = h.queued[1:]
	m := h.models[len(h.models)-1]
	switch msg := msg.(type) {
	case OpenProduct:
		m.Open = msg.SKU
	case AddToCart:
		m.Cart = append(append([]string(nil), m.Cart...), msg.SKU)
	}
	h.models = append(h.models, m)
	h.mu.Unlock()
	h.applied <- struct{}{}
}

// stillWaiting starts call and returns its outcome's channel once the call
// has read the Model again and again without running: it has nothing
// newer to run on. A call that ends before that ran on an older Model.
func (h *laggingHost) stillWaiting(t *testing.T, call func() error) <-chan error {
	t.Helper()
	h.mu.Lock()
	before := h.reads
	h.mu.Unlock()
	done := make(chan error, 1)
	go func() { done <- call() }()
	for {
		select {
		case err := <-done:
			t.Fatalf("the call ran on a Model older than a result already returned: %v", err)
		default:
		}
		h.mu.Lock()
		n := h.reads - before
		h.mu.Unlock()
		if n >= 8 {
			return done
		}
		runtime.Gosched()
	}
}

// A caller's next call waits for the version its last result named: run
// on the Model from before its own open_product was applied, its
// add_to_cart would not be offered at all.
func TestNextCallReadsTheVersionItsCallerWasToldOf(t *testing.T) {
	h := newLaggingHost()
	rt, err := agent.Bind(shopContract(""), agent.Host[shopModel, shopMsg](h), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := agent.WithCaller(context.Background(), "A")
	if _, err := rt.Offered(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := rt.DispatchUnknown(ctx, "open_product", json.RawMessage(`{"sku":"hat"}`), agent.Invocation{})
	if err != nil {
		t.Fatal(err)
	}
	if _, v := h.VersionedModel(); res.Version != v+1 {
		t.Fatalf("result version %d, host at %d: the test needs update not yet run", res.Version, v)
	}
	done := h.stillWaiting(t, func() error {
		_, err := rt.DispatchUnknown(ctx, "add_to_cart", json.RawMessage(`{}`), agent.Invocation{})
		return err
	})
	h.apply() // update takes open_product
	var un *agent.UnavailableError
	if err := <-done; err != nil {
		if errors.As(err, &un) {
			t.Fatalf("add_to_cart was judged on the Model before the caller's own open_product: %v", err)
		}
		t.Fatal(err)
	}
	h.apply()
	if m := h.Model(); len(m.Cart) != 1 || m.Cart[0] != "hat" {
		t.Fatalf("cart = %v", m.Cart)
	}
}

// A caller that gives up while the host has not caught up is cancelled,
// nothing dispatched.
func TestCatchUpEndsWithTheCallersContext(t *testing.T) {
	h := newLaggingHost()
	rt, err := agent.Bind(shopContract(""), agent.Host[shopModel, shopMsg](h), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(agent.WithCaller(context.Background(), "A"))
	if _, err := rt.Offered(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.DispatchUnknown(ctx, "open_product", json.RawMessage(`{"sku":"hat"}`), agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := rt.DispatchUnknown(ctx, "add_to_cart", json.RawMessage(`{}`), agent.Invocation{})
		done <- err
	}()
	cancel()
	var c *agent.CancelledError
	if err := <-done; !errors.As(err, &c) {
		t.Fatalf("err = %v", err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.queued) != 1 {
		t.Fatalf("queued %v: a cancelled call was dispatched", h.queued)
	}
}

// A call reads at least every version a result has named to any caller:
// B, who looked before A opened a product, calls add_to_cart after A was
// told its open_product went through. Run on the Model before A's
// Message, B would be told add_to_cart is not offered; it waits, and is
// told what is true of the shop A was told about: B's view is stale.
func TestACallReadsWhatAnotherCallerWasToldOf(t *testing.T) {
	h := newLaggingHost()
	rt, err := agent.Bind(shopContract(""), agent.Host[shopModel, shopMsg](h), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := agent.WithCaller(context.Background(), "A")
	b := agent.WithCaller(context.Background(), "B")
	for _, ctx := range []context.Context{a, b} {
		if _, err := rt.Offered(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := rt.DispatchUnknown(a, "open_product", json.RawMessage(`{"sku":"hat"}`), agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	done := h.stillWaiting(t, func() error {
		_, err := rt.DispatchUnknown(b, "add_to_cart", json.RawMessage(`{}`), agent.Invocation{})
		return err
	})
	h.apply()
	var stale *agent.StaleViewError
	if err := <-done; !errors.As(err, &stale) {
		t.Fatalf("B's add_to_cart: %v, want a stale view (B never saw the hat open)", err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.queued) != 0 {
		t.Fatalf("queued %v: B's refused call was dispatched", h.queued)
	}
}

// An adapter's read after CatchUp (a tool list) never shows a Model
// older than one a result already named: CatchUp waits for the host to
// publish it.
func TestCatchUpWaitsForTheModelAResultNamed(t *testing.T) {
	h := newLaggingHost()
	rt, err := agent.Bind(shopContract(""), agent.Host[shopModel, shopMsg](h), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := agent.WithCaller(context.Background(), "A")
	if _, err := rt.Offered(a); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.DispatchUnknown(a, "open_product", json.RawMessage(`{"sku":"hat"}`), agent.Invocation{}); err != nil {
		t.Fatal(err)
	}
	done := h.stillWaiting(t, func() error { return rt.CatchUp(context.Background()) })
	h.apply()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	avail, err := rt.Available()
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(avail))
	for i, d := range avail {
		names[i] = d.Name
	}
	if !slices.Contains(names, "add_to_cart") {
		t.Fatalf("offered after CatchUp %v: the Model from before open_product", names)
	}
}
