package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
)

// Delivery truth: what the agent is told, and what the audit records,
// follows what became of the Message. A Message update never saw is never
// reported dispatched or as having reached update; a host's "not
// delivered" is a typed refusal audited as refused; a delivery nobody can
// know is reported unknown.

var errFull = errors.New("queue full")

// hostRefusal is a host error that reports non-delivery, as host/loop's
// and host/teahost's do, without importing agent.
type hostRefusal struct{ cause error }

func (e hostRefusal) Error() string      { return "host refused: " + e.cause.Error() }
func (e hostRefusal) Unwrap() error      { return e.cause }
func (e hostRefusal) NotDelivered() bool { return true }

// trkHost is a cmpHost that tracks delivery: DispatchTracked is track.
type trkHost struct {
	*cmpHost
	track func(ctx context.Context, msg cmpMsg, delivered func(error)) error
}

func (h trkHost) DispatchTracked(ctx context.Context, msg cmpMsg, delivered func(error)) error {
	return h.track(ctx, msg, delivered)
}

func deliveryRuntime(t *testing.T, h agent.Host[cmpModel, cmpMsg], caps ...agent.Capability[cmpModel, cmpUser]) (*agent.Runtime[cmpModel, cmpMsg, cmpUser], *agent.AuditLog[cmpUser]) {
	t.Helper()
	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{})
	return agent.MustBind(cmpContract(caps...), h, &agent.BindOptions[cmpUser]{Audit: audit}), audit
}

func lastDecision(t *testing.T, audit *agent.AuditLog[cmpUser]) (agent.AuditDecision, string) {
	t.Helper()
	e := audit.Entries()
	if len(e) == 0 {
		t.Fatal("no audit entry")
	}
	return e[len(e)-1].Decision, e[len(e)-1].Outcome
}

// payloadFor is a valid input for the capabilities these tests call.
func payloadFor(name string) string {
	if name == "noise" {
		return `{}`
	}
	return `{"title":"a"}`
}

// claimsDelivery reports whether what the agent is told says the Message
// reached update.
func claimsDelivery(err error) bool {
	var c *agent.CancelledError
	if errors.As(err, &c) && c.Dispatched {
		return true
	}
	var to *agent.CompletionTimeoutError
	if errors.As(err, &to) && !to.DeliveryUnknown {
		return true
	}
	return err != nil && strings.Contains(err.Error(), "reached update")
}

func TestNotDeliveredIsATypedRefusal(t *testing.T) {
	for _, name := range []string{"noise", "create_todo"} {
		t.Run(name, func(t *testing.T) {
			h := newCmpHost()
			h.dispatchFn = func(context.Context, cmpMsg) error { return hostRefusal{errFull} }
			rt, audit := deliveryRuntime(t, h, cmpNoiseCap(), cmpCreateCap(nil))
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := cmpDispatch(t, rt, ctx, name, payloadFor(name), agent.Invocation{})
			var nd *agent.NotDeliveredError
			if !errors.As(err, &nd) || nd.Tag() != agent.TagNotDelivered || !nd.RetrySafe || nd.Capability != name {
				t.Fatalf("err = %#v, want a *NotDeliveredError for %q that is safe to retry", err, name)
			}
			if !errors.Is(err, errFull) {
				t.Fatal("the host's error is not on the refusal's chain")
			}
			if d, o := lastDecision(t, audit); d != agent.DecisionRefused || o != agent.TagNotDelivered {
				t.Fatalf("audit = %s/%s, want refused/%s", d, o, agent.TagNotDelivered)
			}
			reply := agent.ReplyTo(name, agent.Result{}, err)
			if reply.OK || reply.Defect || reply.Tag != agent.TagNotDelivered || reply.Text != err.Error() {
				t.Fatalf("reply = %+v, want a refusal tagged %s with the authored text", reply, agent.TagNotDelivered)
			}
			var data map[string]any
			if err := json.Unmarshal(reply.Data, &data); err != nil || data["retrySafe"] != true || data["_tag"] != agent.TagNotDelivered {
				t.Fatalf("reply data = %s", reply.Data)
			}
			if strings.Contains(string(reply.Data), "queue full") {
				t.Fatal("the host's error crossed into the agent's data")
			}
			if _, obs := h.listeners(); obs != 0 {
				t.Fatalf("%d observe listeners left behind", obs)
			}
		})
	}
}

func TestHostErrorWithoutNotDeliveredStaysADefect(t *testing.T) {
	h := newCmpHost()
	h.dispatchFn = func(context.Context, cmpMsg) error { return errFull }
	rt, audit := deliveryRuntime(t, h, cmpNoiseCap())
	_, err := cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{})
	if tagOf(err) != agent.TagDefect {
		t.Fatalf("err = %v, want a defect", err)
	}
	if d, _ := lastDecision(t, audit); d != agent.DecisionUnknown {
		t.Fatalf("decision = %s, want unknown: the host did not say what became of the Message", d)
	}
}

// lateCtx is a context cancelled after the runtime's last check, at the
// moment the host looks at it: Err reports the cancellation while Done has
// not fired yet, which is the window a real cancellation can land in.
type lateCtx struct {
	context.Context
	cancelled atomic.Bool
}

func (c *lateCtx) Err() error {
	if c.cancelled.Load() {
		return context.Canceled
	}
	return c.Context.Err()
}

func TestLateCancellationIsReportedTruthfully(t *testing.T) {
	t.Run("the host refuses for the ended context", func(t *testing.T) {
		for _, name := range []string{"noise", "create_todo"} {
			h := newCmpHost()
			base, cancel := context.WithCancel(context.Background())
			defer cancel()
			ctx := &lateCtx{Context: base}
			h.dispatchFn = func(hctx context.Context, _ cmpMsg) error {
				ctx.cancelled.Store(true)      // lands after the runtime's last check
				return hostRefusal{hctx.Err()} // the host reads the caller's context through the runtime's
			}
			rt, audit := deliveryRuntime(t, h, cmpNoiseCap(), cmpCreateCap(nil))
			_, err := cmpDispatch(t, rt, ctx, name, payloadFor(name), agent.Invocation{})
			var c *agent.CancelledError
			if !errors.As(err, &c) || c.Dispatched || c.DeliveryUnknown || !errors.Is(err, context.Canceled) {
				t.Fatalf("%s: err = %#v, want cancelled before delivery", name, err)
			}
			if d, o := lastDecision(t, audit); d != agent.DecisionRefused || o != agent.TagCancelled {
				t.Fatalf("%s: audit = %s/%s, want refused/%s", name, d, o, agent.TagCancelled)
			}
		}
	})
	t.Run("a real cancellation as the host is called", func(t *testing.T) {
		// Whichever the runtime sees first (the host's answer or the
		// context), what it says must agree with what happened and with
		// its audit entry.
		for round := 0; round < 50; round++ {
			h := newCmpHost()
			ctx, cancel := context.WithCancel(context.Background())
			h.dispatchFn = func(ctx context.Context, _ cmpMsg) error {
				cancel()
				return hostRefusal{ctx.Err()}
			}
			rt, audit := deliveryRuntime(t, h, cmpNoiseCap())
			_, err := cmpDispatch(t, rt, ctx, "noise", `{}`, agent.Invocation{})
			var c *agent.CancelledError
			if !errors.As(err, &c) || c.Dispatched {
				t.Fatalf("err = %#v, want a cancellation that does not claim delivery", err)
			}
			want := agent.DecisionRefused
			if c.DeliveryUnknown {
				want = agent.DecisionUnknown
			}
			if d, _ := lastDecision(t, audit); d != want {
				t.Fatalf("decision = %s for %q", d, c.Error())
			}
		}
	})
}

func TestTrackedDelivery(t *testing.T) {
	// later reports delivered (nil) or dropped (an error) from another
	// goroutine after the host has queued the Message, as a host's update
	// loop would.
	later := func(h *cmpHost, verdict error) func(context.Context, cmpMsg, func(error)) error {
		return func(_ context.Context, msg cmpMsg, delivered func(error)) error {
			go func() {
				if verdict == nil {
					delivered(nil)
					h.apply(msg)
					return
				}
				delivered(verdict)
			}()
			return nil
		}
	}
	t.Run("delivered", func(t *testing.T) {
		h := newCmpHost()
		rt, audit := deliveryRuntime(t, trkHost{h, later(h, nil)}, cmpNoiseCap(), cmpCreateCap(nil))
		if _, err := cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{}); err != nil {
			t.Fatal(err)
		}
		res, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"a"}`, agent.Invocation{})
		if err != nil || res.Completion == nil || res.Completion.Status != agent.Completed {
			t.Fatalf("create_todo: %+v %v", res, err)
		}
		for _, e := range audit.Entries() {
			if e.Decision != agent.DecisionDispatched {
				t.Fatalf("entry %+v, want dispatched", e)
			}
		}
	})
	t.Run("dropped after it was queued", func(t *testing.T) {
		for _, name := range []string{"noise", "create_todo"} {
			h := newCmpHost()
			rt, audit := deliveryRuntime(t, trkHost{h, later(h, hostRefusal{errors.New("program stopped")})}, cmpNoiseCap(), cmpCreateCap(nil))
			_, err := cmpDispatch(t, rt, context.Background(), name, payloadFor(name), agent.Invocation{})
			var nd *agent.NotDeliveredError
			if !errors.As(err, &nd) || claimsDelivery(err) {
				t.Fatalf("%s: err = %v, want not delivered", name, err)
			}
			if d, o := lastDecision(t, audit); d != agent.DecisionRefused || o != agent.TagNotDelivered {
				t.Fatalf("%s: audit = %s/%s", name, d, o)
			}
			if _, obs := h.listeners(); obs != 0 {
				t.Fatalf("%s: %d observe listeners left behind", name, obs)
			}
		}
	})
	t.Run("cancelled while queued", func(t *testing.T) {
		for _, name := range []string{"noise", "create_todo"} {
			h := newCmpHost()
			queued := make(chan struct{})
			track := func(context.Context, cmpMsg, func(error)) error { close(queued); return nil } // never taken
			rt, audit := deliveryRuntime(t, trkHost{h, track}, cmpNoiseCap(), cmpCreateCap(nil))
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-queued; cancel() }()
			_, err := cmpDispatch(t, rt, ctx, name, payloadFor(name), agent.Invocation{})
			var c *agent.CancelledError
			if !errors.As(err, &c) || !c.DeliveryUnknown || claimsDelivery(err) {
				t.Fatalf("%s: err = %v, want delivery unknown", name, err)
			}
			if d, _ := lastDecision(t, audit); d != agent.DecisionUnknown {
				t.Fatalf("%s: decision = %s, want unknown", name, d)
			}
		}
	})
	t.Run("timeout before it was taken", func(t *testing.T) {
		h := newCmpHost()
		track := func(context.Context, cmpMsg, func(error)) error { return nil } // queued, never taken
		rt, audit := deliveryRuntime(t, trkHost{h, track},
			cmpCreateCap(agent.CompleteOn(agent.OnType[cmpCreateInput, cmpCreated]()).Within(20*time.Millisecond)))
		_, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"a"}`, agent.Invocation{})
		var to *agent.CompletionTimeoutError
		if !errors.As(err, &to) || !to.DeliveryUnknown || claimsDelivery(err) {
			t.Fatalf("err = %v, want a timeout with delivery unknown", err)
		}
		if d, o := lastDecision(t, audit); d != agent.DecisionUnknown || o != agent.OutcomeTimeout {
			t.Fatalf("audit = %s/%s, want unknown/timeout", d, o)
		}
	})
	t.Run("timeout after it was taken", func(t *testing.T) {
		h := newCmpHost()
		track := func(_ context.Context, _ cmpMsg, delivered func(error)) error { delivered(nil); return nil } // taken, no fact follows
		// A host that never blocks: its report is known when the deadline
		// passes, however the goroutines are scheduled (with one that may
		// block, a loaded machine can let the 20 ms pass first, and the
		// answer is then rightly "not known to have reached update").
		rt, audit := deliveryRuntime(t, nbHost{trkHost{h, track}},
			cmpCreateCap(agent.CompleteOn(agent.OnType[cmpCreateInput, cmpCreated]()).Within(20*time.Millisecond)))
		_, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"a"}`, agent.Invocation{})
		var to *agent.CompletionTimeoutError
		if !errors.As(err, &to) || to.DeliveryUnknown || !strings.Contains(err.Error(), "reached update") {
			t.Fatalf("err = %v, want a timeout saying the Message reached update", err)
		}
		if d, _ := lastDecision(t, audit); d != agent.DecisionDispatched {
			t.Fatalf("decision = %s, want dispatched", d)
		}
	})
	t.Run("a host reporting twice is heard once", func(t *testing.T) {
		h := newCmpHost()
		track := func(_ context.Context, _ cmpMsg, delivered func(error)) error {
			delivered(nil)
			delivered(hostRefusal{errFull}) // a broken host; must neither block nor change the answer
			return nil
		}
		rt, _ := deliveryRuntime(t, trkHost{h, track}, cmpNoiseCap())
		if _, err := cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{}); err != nil {
			t.Fatal(err)
		}
	})
}

// nbHost is a trkHost that declares its Dispatch never blocks
// (agent.NonBlocking), as host/loop and host/teahost do: the runtime then
// calls it on the caller's goroutine even for a cancellable context, and
// must report exactly what it reports for any other host.
type nbHost struct{ trkHost }

func (nbHost) DispatchNeverBlocks() bool { return true }

// plainNB is a cmpHost without delivery tracking that declares NonBlocking.
type plainNB struct{ *cmpHost }

func (plainNB) DispatchNeverBlocks() bool { return true }

func TestNonBlockingHostKeepsDeliveryTruth(t *testing.T) {
	cancellable := func(t *testing.T) context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		return ctx
	}
	t.Run("delivered from the update goroutine", func(t *testing.T) {
		h := newCmpHost()
		track := func(_ context.Context, msg cmpMsg, delivered func(error)) error {
			go func() { delivered(nil); h.apply(msg) }()
			return nil
		}
		rt, audit := deliveryRuntime(t, nbHost{trkHost{h, track}}, cmpNoiseCap())
		if _, err := cmpDispatch(t, rt, cancellable(t), "noise", `{}`, agent.Invocation{}); err != nil {
			t.Fatal(err)
		}
		if d, _ := lastDecision(t, audit); d != agent.DecisionDispatched {
			t.Fatalf("decision = %s, want dispatched", d)
		}
	})
	t.Run("dropped after it was queued", func(t *testing.T) {
		h := newCmpHost()
		track := func(_ context.Context, _ cmpMsg, delivered func(error)) error {
			go delivered(hostRefusal{errors.New("program stopped")})
			return nil
		}
		rt, audit := deliveryRuntime(t, nbHost{trkHost{h, track}}, cmpNoiseCap())
		_, err := cmpDispatch(t, rt, cancellable(t), "noise", `{}`, agent.Invocation{})
		var nd *agent.NotDeliveredError
		if !errors.As(err, &nd) || claimsDelivery(err) {
			t.Fatalf("err = %v, want not delivered", err)
		}
		if d, o := lastDecision(t, audit); d != agent.DecisionRefused || o != agent.TagNotDelivered {
			t.Fatalf("audit = %s/%s, want refused/%s", d, o, agent.TagNotDelivered)
		}
	})
	t.Run("refused when queued", func(t *testing.T) {
		h := newCmpHost()
		called := false
		track := func(_ context.Context, _ cmpMsg, delivered func(error)) error {
			called = true
			return hostRefusal{errFull}
		}
		rt, audit := deliveryRuntime(t, nbHost{trkHost{h, track}}, cmpNoiseCap())
		_, err := cmpDispatch(t, rt, cancellable(t), "noise", `{}`, agent.Invocation{})
		var nd *agent.NotDeliveredError
		if !called || !errors.As(err, &nd) || claimsDelivery(err) {
			t.Fatalf("err = %v, want not delivered", err)
		}
		if d, _ := lastDecision(t, audit); d != agent.DecisionRefused {
			t.Fatalf("decision = %s, want refused", d)
		}
	})
	t.Run("cancelled while queued", func(t *testing.T) {
		h := newCmpHost()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		track := func(context.Context, cmpMsg, func(error)) error { cancel(); return nil } // never taken
		rt, audit := deliveryRuntime(t, nbHost{trkHost{h, track}}, cmpNoiseCap())
		_, err := cmpDispatch(t, rt, ctx, "noise", `{}`, agent.Invocation{})
		var c *agent.CancelledError
		if !errors.As(err, &c) || !c.DeliveryUnknown || claimsDelivery(err) {
			t.Fatalf("err = %v, want delivery unknown", err)
		}
		if d, _ := lastDecision(t, audit); d != agent.DecisionUnknown {
			t.Fatalf("decision = %s, want unknown", d)
		}
	})
	t.Run("taken before the context ended", func(t *testing.T) {
		h := newCmpHost()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		track := func(_ context.Context, _ cmpMsg, delivered func(error)) error {
			delivered(nil)
			cancel()
			return nil
		}
		rt, _ := deliveryRuntime(t, nbHost{trkHost{h, track}}, cmpNoiseCap())
		if _, err := cmpDispatch(t, rt, ctx, "noise", `{}`, agent.Invocation{}); err != nil {
			t.Fatalf("err = %v, want delivered: update took it before the context ended", err)
		}
	})
	t.Run("a host reporting twice is heard once", func(t *testing.T) {
		// Before DispatchTracked returns (host/loop applying on the
		// caller), and racing from two goroutines after it has.
		h := newCmpHost()
		beforeReturn := func(_ context.Context, _ cmpMsg, delivered func(error)) error {
			delivered(nil)
			delivered(hostRefusal{errFull})
			return nil
		}
		rt, _ := deliveryRuntime(t, nbHost{trkHost{h, beforeReturn}}, cmpNoiseCap())
		if _, err := cmpDispatch(t, rt, cancellable(t), "noise", `{}`, agent.Invocation{}); err != nil {
			t.Fatalf("err = %v, want the first report (delivered)", err)
		}
		racing := func(_ context.Context, _ cmpMsg, delivered func(error)) error {
			go delivered(nil)
			go delivered(hostRefusal{errFull})
			return nil
		}
		rt, _ = deliveryRuntime(t, nbHost{trkHost{h, racing}}, cmpNoiseCap())
		for range 50 {
			_, err := cmpDispatch(t, rt, cancellable(t), "noise", `{}`, agent.Invocation{})
			var nd *agent.NotDeliveredError
			if err != nil && !errors.As(err, &nd) {
				t.Fatalf("err = %v, want one of the two reports", err)
			}
		}
	})
	t.Run("reported delivered, then failed", func(t *testing.T) {
		h := newCmpHost()
		track := func(_ context.Context, _ cmpMsg, delivered func(error)) error {
			delivered(nil)
			return hostRefusal{errFull}
		}
		rt, audit := deliveryRuntime(t, nbHost{trkHost{h, track}}, cmpNoiseCap())
		if _, err := cmpDispatch(t, rt, cancellable(t), "noise", `{}`, agent.Invocation{}); err != nil {
			t.Fatalf("err = %v, want delivered: the host reported update took it first", err)
		}
		if d, _ := lastDecision(t, audit); d != agent.DecisionDispatched {
			t.Fatalf("decision = %s, want dispatched", d)
		}
	})
	t.Run("a panicking host is a defect", func(t *testing.T) {
		h := newCmpHost()
		track := func(context.Context, cmpMsg, func(error)) error { panic("host bug") }
		rt, audit := deliveryRuntime(t, nbHost{trkHost{h, track}}, cmpNoiseCap())
		_, err := cmpDispatch(t, rt, cancellable(t), "noise", `{}`, agent.Invocation{})
		var d *agent.DefectError
		if !errors.As(err, &d) || claimsDelivery(err) {
			t.Fatalf("err = %v, want a defect", err)
		}
		if dec, _ := lastDecision(t, audit); dec != agent.DecisionUnknown {
			t.Fatalf("decision = %s, want unknown", dec)
		}
	})
	t.Run("without tracking", func(t *testing.T) {
		h := newCmpHost()
		rt, audit := deliveryRuntime(t, plainNB{h}, cmpNoiseCap())
		if _, err := cmpDispatch(t, rt, cancellable(t), "noise", `{}`, agent.Invocation{}); err != nil {
			t.Fatal(err)
		}
		h.dispatchFn = func(ctx context.Context, _ cmpMsg) error { return hostRefusal{errFull} }
		_, err := cmpDispatch(t, rt, cancellable(t), "noise", `{}`, agent.Invocation{})
		var nd *agent.NotDeliveredError
		if !errors.As(err, &nd) {
			t.Fatalf("err = %v, want not delivered", err)
		}
		if d, _ := lastDecision(t, audit); d != agent.DecisionRefused {
			t.Fatalf("decision = %s, want refused", d)
		}
	})
}
