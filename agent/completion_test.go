package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
)

func cmpDispatch(t *testing.T, rt *agent.Runtime[cmpModel, cmpMsg, cmpUser], ctx context.Context, name, payload string, inv agent.Invocation) (agent.Result, error) {
	t.Helper()
	return rt.DispatchUnknown(ctx, name, json.RawMessage(payload), inv)
}

// cmpUntil waits until cond holds, woken by each change of a test
// double's state (cmpChanged), for goroutines that must not fail the
// test; it reports whether cond came to hold within two seconds (the test
// itself notices if it never does).
func cmpUntil(cond func() bool) bool {
	timeout := time.After(2 * time.Second)
	for {
		changed := cmpChanged.wait() // before reading: no change is missed
		if cond() {
			return true
		}
		select {
		case <-changed:
		case <-timeout:
			return false
		}
	}
}

// cmpWaitFor is cmpUntil failing t when cond does not come to hold.
func cmpWaitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !cmpUntil(cond) {
		t.Fatalf("timed out waiting for %s", what)
	}
}

func TestCompletionSynchronousMessageNotMissed(t *testing.T) {
	// The host applies the Message and produces the fact inside its own
	// Dispatch call, before Dispatch returns: a waiter registered after
	// dispatch would miss it.
	h := newCmpHost()
	rt := cmpBind(cmpContract(), h, nil)
	res, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"Milk"}`, agent.Invocation{ID: "inv-1"})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Completion
	if c == nil || c.Status != agent.Completed || c.Tag != "cmpCreated" {
		t.Fatalf("completion = %+v", c)
	}
	got, ok := c.Message.(cmpCreated)
	if !ok || got.RequestID != "inv-1" || got.Title != "Milk" || got.ID != "t1" {
		t.Fatalf("completion message = %#v", c.Message)
	}
	if ok, text := agent.Summarize(res); !ok || text != "Completed: cmpCreated" {
		t.Fatalf("Summarize = %v %q", ok, text)
	}
	if subs, obs := h.listeners(); subs != 0 || obs != 0 {
		t.Fatalf("listeners left behind: %d subscribe, %d observe", subs, obs)
	}
}

func TestCompletionAsynchronousHost(t *testing.T) {
	h := newCmpHost()
	defer h.start()()
	rt := cmpBind(cmpContract(), h, nil)
	res, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"Bread"}`, agent.Invocation{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := res.Completion.Message.(cmpCreated)
	if res.Completion.Status != agent.Completed || got.RequestID != res.Invocation.ID || got.Title != "Bread" {
		t.Fatalf("result = %+v", res)
	}
}

func TestCompletionFailureMessage(t *testing.T) {
	h := newCmpHost()
	rt := cmpBind(cmpContract(), h, nil)
	res, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":""}`, agent.Invocation{ID: "inv-f"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Completion == nil || res.Completion.Status != agent.Failed || res.Completion.Tag != "cmpCreateFailed" {
		t.Fatalf("completion = %+v", res.Completion)
	}
	if got := res.Completion.Message.(cmpCreateFailed); got.RequestID != "inv-f" {
		t.Fatalf("failure message = %#v", got)
	}
	if ok, text := agent.Summarize(res); ok || text != "Failed: cmpCreateFailed" {
		t.Fatalf("Summarize = %v %q", ok, text)
	}
}

func TestWithoutContractTheCompletionIsAbsent(t *testing.T) {
	h := newCmpHost()
	rt := cmpBind(cmpContract(), h, nil)
	res, err := cmpDispatch(t, rt, context.Background(), "noise", `{}`, agent.Invocation{})
	if err != nil || res.Completion != nil {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if ok, text := agent.Summarize(res); !ok || text != "Dispatched cmpNoise" {
		t.Fatalf("Summarize = %v %q", ok, text)
	}
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), "completion") {
		t.Fatalf("a result without a contract must not carry a completion field: %s", b)
	}
	if h.observeCalls.Load() != 0 {
		t.Fatal("a capability without a completion contract observed Messages")
	}
}

// Two invocations with equal inputs ("two todos titled Milk") are in
// flight at once; the facts arrive in the opposite order. Each invocation
// must get the fact that carries its own invocation id.
func TestCompletionOverlappingInvocationsCorrelated(t *testing.T) {
	h := newCmpHost()
	h.manual = true
	rt := cmpBind(cmpContract(), h, nil)

	type outcome struct {
		res agent.Result
		err error
	}
	results := map[string]chan outcome{"inv-a": make(chan outcome, 1), "inv-b": make(chan outcome, 1)}
	for id, ch := range results {
		go func() {
			res, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"Milk"}`, agent.Invocation{ID: id})
			ch <- outcome{res, err}
		}()
	}
	cmpWaitFor(t, "both Messages to reach the host", func() bool { return len(h.sentMessages()) == 2 })
	// Unrelated and uncorrelated facts first: nobody may take them.
	h.emit(cmpCreated{ID: "x", Title: "Milk", RequestID: "someone-else"})
	h.emit(cmpUnrelated{N: 1})
	h.emit(cmpCreated{ID: "t2", Title: "Milk", RequestID: "inv-b"})
	h.emit(cmpCreated{ID: "t1", Title: "Milk", RequestID: "inv-a"})
	want := map[string]string{"inv-a": "t1", "inv-b": "t2"}
	for id, ch := range results {
		select {
		case o := <-ch:
			if o.err != nil {
				t.Fatalf("%s: %v", id, o.err)
			}
			got := o.res.Completion.Message.(cmpCreated)
			if got.RequestID != id || got.ID != want[id] {
				t.Fatalf("%s completed with %#v", id, got)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%s never completed", id)
		}
	}
	if _, obs := h.listeners(); obs != 0 {
		t.Fatalf("%d observe listeners left behind", obs)
	}
}

// Without correlate, the first Message of a success type wins, whichever
// invocation caused it.
func TestCompletionWithoutCorrelateFirstMatchWins(t *testing.T) {
	h := newCmpHost()
	h.manual = true
	rt := cmpBind(cmpContract(), h, nil)
	done := make(chan agent.Result, 1)
	go func() {
		res, err := cmpDispatch(t, rt, context.Background(), "delete_todo", `{"id":"t1"}`, agent.Invocation{})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	cmpWaitFor(t, "the Message to reach the host", func() bool { return len(h.sentMessages()) == 1 })
	h.emit(cmpDeleted{ID: "t9"}) // caused by someone else
	h.emit(cmpDeleteFailed{ID: "t1"})
	res := <-done
	if res.Completion.Status != agent.Completed || res.Completion.Message.(cmpDeleted).ID != "t9" {
		t.Fatalf("completion = %+v", res.Completion)
	}
}

func TestCompletionTimeout(t *testing.T) {
	h := newCmpHost()
	h.manual = true // accepts, never produces the fact
	c := cmpContract(cmpCreateCap(agent.CompleteOn(
		agent.OnType[cmpCreateInput, cmpCreated](),
	).Within(80 * time.Millisecond)))
	rt := cmpBind(c, h, nil)
	start := time.Now()
	_, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"Milk"}`, agent.Invocation{ID: "inv-t"})
	var te *agent.CompletionTimeoutError
	if !errors.As(err, &te) || te.Invocation != "inv-t" || te.Capability != "create_todo" || te.Timeout != 80*time.Millisecond || te.DeliveryUnknown {
		t.Fatalf("err = %#v", err)
	}
	if !strings.Contains(err.Error(), "still reached update") {
		t.Fatalf("a timeout must say the Message reached update: %q", err)
	}
	if elapsed := time.Since(start); elapsed < 80*time.Millisecond {
		t.Fatalf("returned after %s, before the deadline", elapsed)
	}
	if len(h.sentMessages()) != 1 {
		t.Fatal("the Message was not handed to the host")
	}
	if _, obs := h.listeners(); obs != 0 {
		t.Fatal("the waiter was not released after the timeout")
	}
}

// A host whose Dispatch never returns is bounded by the completion
// deadline, even with a context that never ends.
func TestCompletionTimeoutBoundsHostThatNeverReturns(t *testing.T) {
	h := newCmpHost()
	block := make(chan struct{})
	defer close(block)
	h.dispatchFn = func(context.Context, cmpMsg) error { <-block; return nil }
	audit := agent.NewAuditLog(agent.AuditOptions[cmpUser]{})
	c := cmpContract(cmpCreateCap(agent.CompleteOn(
		agent.OnType[cmpCreateInput, cmpCreated](),
	).Within(40 * time.Millisecond)))
	rt := cmpBind(c, h, &agent.BindOptions[cmpUser]{Audit: audit})
	errc := make(chan error, 1)
	go func() {
		_, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"Milk"}`, agent.Invocation{})
		errc <- err
	}()
	var err error
	select {
	case err = <-errc:
	case <-time.After(2 * time.Second):
		t.Fatal("the deadline did not bound a host that never returns")
	}
	var te *agent.CompletionTimeoutError
	if !errors.As(err, &te) || !te.DeliveryUnknown {
		t.Fatalf("err = %#v", err)
	}
	if !strings.Contains(err.Error(), "unknown") {
		t.Fatalf("the message must say delivery is unknown: %q", err)
	}
	e := audit.Entries()
	if len(e) != 1 || e[0].Decision != agent.DecisionUnknown || e[0].Outcome != agent.OutcomeTimeout {
		t.Fatalf("audit = %+v", e)
	}
	if _, obs := h.listeners(); obs != 0 {
		t.Fatal("the waiter was not released")
	}
}

// The waiter is released on every exit path, and only once the host has
// been called; a refused invocation never subscribes.
func TestCompletionWaiterReleasedOnEveryPath(t *testing.T) {
	hostErr := errors.New("queue full")
	cases := []struct {
		name    string
		setup   func(h *cmpHost)
		ctx     func(h *cmpHost) (context.Context, context.CancelFunc)
		payload string
		cap     agent.CompletionContract[cmpCreateInput]
		wantTag string // "" for success
	}{
		{name: "success", payload: `{"title":"a"}`},
		{name: "failure", payload: `{"title":""}`},
		{name: "timeout", setup: func(h *cmpHost) { h.manual = true }, payload: `{"title":"a"}`,
			cap: agent.CompleteOn(
				agent.OnType[cmpCreateInput, cmpCreated](),
			).Within(10 * time.Millisecond), wantTag: agent.TagCompletionTimeout},
		{name: "host error", setup: func(h *cmpHost) {
			h.dispatchFn = func(context.Context, cmpMsg) error { return hostErr }
		}, payload: `{"title":"a"}`, wantTag: agent.TagDefect},
		{name: "host panic", setup: func(h *cmpHost) {
			h.dispatchFn = func(context.Context, cmpMsg) error { panic("host fell over") }
		}, payload: `{"title":"a"}`, wantTag: agent.TagDefect},
		{name: "cancel while waiting", setup: func(h *cmpHost) { h.manual = true }, payload: `{"title":"a"}`,
			// Cancelled once the host has been called, so the waiter is
			// certainly registered (it is armed before the host's
			// Dispatch), however slowly the machine runs.
			ctx: func(h *cmpHost) (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				called := make(chan struct{})
				h.dispatchFn = func(context.Context, cmpMsg) error { close(called); return nil }
				go func() { <-called; cancel() }()
				return ctx, cancel
			},
			wantTag: agent.TagCancelled},
		{name: "correlate panic", payload: `{"title":"a"}`, cap: agent.CompleteOn(
			agent.On(func(cmpCreateInput, cmpCreated, agent.Invocation) bool { panic("correlate exploded") }),
		), wantTag: agent.TagDefect},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newCmpHost()
			if tc.setup != nil {
				tc.setup(h)
			}
			rt := cmpBind(cmpContract(cmpCreateCap(tc.cap)), h, nil)
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if tc.ctx != nil {
				ctx, cancel = tc.ctx(h)
			}
			defer cancel()
			_, err := cmpDispatch(t, rt, ctx, "create_todo", tc.payload, agent.Invocation{})
			if tc.wantTag == "" && err != nil || tc.wantTag != "" && tagOf(err) != tc.wantTag {
				t.Fatalf("err = %v, want %q", err, tc.wantTag)
			}
			if h.observeCalls.Load() != 1 {
				t.Fatalf("Observe called %d times, want once", h.observeCalls.Load())
			}
			if _, obs := h.listeners(); obs != 0 {
				t.Fatalf("%d observe listeners left behind", obs)
			}
		})
	}
}

func TestRefusedInvocationNeverSubscribes(t *testing.T) {
	h := newCmpHost()
	create := agent.ExposeMapped(agent.Mapped[cmpCreateInput, cmpCreate, cmpModel, cmpUser]{
		Description: "Create.",
		Available:   func(m cmpModel) bool { return m.Project != "closed" },
		Authorize: func(_ context.Context, in cmpCreateInput, _ agent.Call[cmpModel, cmpUser]) (agent.Decision, error) {
			if in.Title == "forbidden" {
				return agent.Refuse, nil
			}
			return agent.Allow, nil
		},
		ToMessage: func(in cmpCreateInput, _ cmpCall) cmpCreate {
			if in.Title == "panic" {
				panic("toMessage exploded")
			}
			return cmpCreate{Title: in.Title}
		},
		Completion: agent.CompleteOn(
			agent.OnType[cmpCreateInput, cmpCreated](),
		),
	})
	rt := cmpBind(cmpContract(create, cmpRenameCap(nil)), h, nil)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name, payload, tag string
		ctx                context.Context
	}{
		{"cmp_create", `{"title":"forbidden"}`, agent.TagAuthorization, context.Background()},
		{"cmp_create", `{"title":7}`, agent.TagInvalidInput, context.Background()},
		{"cmp_create", `{"title":"panic"}`, agent.TagDefect, context.Background()},
		{"cmp_create", `{"title":"a"}`, agent.TagCancelled, cancelled},
		{"rename_project", `{"name":"a"}`, agent.TagCancelled, cancelled},
		{"no_such_thing", `{}`, agent.TagUnknownCapability, context.Background()},
	} {
		if _, err := cmpDispatch(t, rt, tc.ctx, tc.name, tc.payload, agent.Invocation{}); tagOf(err) != tc.tag {
			t.Fatalf("%s %s: err = %v, want %s", tc.name, tc.payload, err, tc.tag)
		}
	}
	h.setModel(func(m cmpModel) cmpModel { m.Project = "closed"; return m })
	if _, err := cmpDispatch(t, rt, context.Background(), "cmp_create", `{"title":"a"}`, agent.Invocation{}); tagOf(err) != agent.TagUnavailable {
		t.Fatalf("err = %v", err)
	}
	if n := h.observeCalls.Load(); n != 0 {
		t.Fatalf("refused invocations subscribed %d times", n)
	}
	if subs, obs := h.listeners(); subs != 0 || obs != 0 {
		t.Fatalf("listeners: %d subscribe, %d observe", subs, obs)
	}
	if len(h.sentMessages()) != 0 {
		t.Fatal("a refused invocation reached the host")
	}
}

// A correlate that panics fails its own invocation as a defect; another
// invocation waiting on the same Message type is unaffected, and so is the
// host that observed the Message.
func TestCorrelatePanicFailsOnlyItsInvocation(t *testing.T) {
	h := newCmpHost()
	h.manual = true
	create := cmpCreateCap(agent.CompleteOn(
		agent.On(func(in cmpCreateInput, got cmpCreated, inv agent.Invocation) bool {
			if in.Title == "boom" {
				panic("correlate exploded")
			}
			return got.RequestID == inv.ID
		}),
	))
	rt := cmpBind(cmpContract(create), h, nil)
	errs := make(map[string]chan error)
	for _, title := range []string{"boom", "fine"} {
		ch := make(chan error, 1)
		errs[title] = ch
		go func() {
			_, err := cmpDispatch(t, rt, context.Background(), "create_todo", `{"title":"`+title+`"}`, agent.Invocation{ID: title})
			ch <- err
		}()
	}
	cmpWaitFor(t, "both Messages", func() bool { return len(h.sentMessages()) == 2 })
	h.emit(cmpCreated{ID: "t1", RequestID: "fine"}) // returns normally: the panic stays inside agent
	var de *agent.DefectError
	if err := <-errs["boom"]; !errors.As(err, &de) || de.Stage != "completion" || de.Capability != "create_todo" {
		t.Fatalf("boom: err = %#v", err)
	}
	if err := <-errs["fine"]; err != nil {
		t.Fatalf("fine: err = %v", err)
	}
}

func TestCompletionDeclarationErrors(t *testing.T) {
	on := func() agent.Match[cmpCreateInput] {
		return agent.On(func(cmpCreateInput, cmpCreated, agent.Invocation) bool { return true })
	}
	mapped := func(cc agent.CompletionContract[cmpCreateInput]) func() {
		return func() {
			agent.ExposeMapped(agent.Mapped[cmpCreateInput, cmpCreate, cmpModel, cmpUser]{
				Name: "make_todo", Description: "Create.", ToMessage: func(cmpCreateInput, cmpCall) cmpCreate { return cmpCreate{} }, Completion: cc,
			})
		}
	}
	// An input or call type that does not match the capability no longer
	// reaches Expose: the compiler refuses it (TestCompletionMismatchDoesNotCompile).
	cases := []struct {
		name string
		f    func()
		want string
	}{
		{"no success", mapped(agent.OnMessages[cmpCreateInput]{}.FailOn(agent.OnType[cmpCreateInput, cmpCreateFailed]())), `"make_todo": its completion contract names no success Message`},
		{"both", mapped(agent.CompleteOn(on()).FailOn(agent.OnType[cmpCreateInput, cmpCreated]())), `"make_todo": "cmpCreated" is both a success and a failure Message`},
		{"twice", mapped(agent.CompleteOn(on(), agent.OnType[cmpCreateInput, cmpCreated]())), `"make_todo": "cmpCreated" is named twice`},
		{"negative timeout", mapped(agent.CompleteOn(on()).Within(-time.Second)), `"make_todo": its completion timeout -1s is negative`},
		{"zero match", mapped(agent.CompleteOn(agent.Match[cmpCreateInput]{})), `"make_todo": completed Match 0 is the zero Match`},
		{"zero state", mapped(agent.OnState[cmpCreateInput]{}), `"make_todo": its completion contract is a zero OnState`},
		{"state model mismatch", mapped(agent.When(func(m Model) string { return m.Selected }, func(string, cmpCreateInput) bool { return true })),
			`"make_todo": its completion projection reads Model agent_test.Model`},
		{"state negative timeout", mapped(agent.When(func(m cmpModel) string { return m.Project }, func(string, cmpCreateInput) bool { return true }).Within(-1)),
			`"make_todo": its completion timeout -1ns is negative`},
		{"On nil", func() { agent.On[cmpCreateInput, cmpCreated](nil) }, "On[cmpCreated] needs a correlate function"},
		{"OnType interface", func() { agent.OnType[cmpCreateInput, cmpMsg]() }, "must be a concrete type"},
		{"OnType unnamed", func() { agent.OnType[cmpCreateInput, struct{ A int }]() }, "must be a named type"},
		{"When nil", func() { agent.When[cmpModel, string, cmpCreateInput](nil, nil) }, "When needs both"},
		{"WhenSource nil", func() { agent.WhenSource(agent.Source[int]{}, func(int, cmpCreateInput) bool { return true }) }, "WhenSource needs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				v := recover()
				msg, _ := v.(string)
				if !strings.Contains(msg, tc.want) {
					t.Fatalf("panic = %v, want it to contain %q", v, tc.want)
				}
			}()
			tc.f()
		})
	}
}

func TestCompletionPointerMessageTypes(t *testing.T) {
	// A fact may travel as a pointer; it is matched by its exact type and
	// reported under its element's name.
	type ptrHostMsg = cmpMsg
	c := cmpContract(agent.Expose(agent.Variant[cmpPing, cmpModel, cmpUser]{
		Description: "Ping.",
		Completion: agent.CompleteOn(
			agent.OnType[cmpPing, *cmpPong](),
		),
	}))
	h := newCmpHost()
	h.dispatchFn = func(_ context.Context, msg ptrHostMsg) error {
		go h.emit(&cmpPong{N: 1})
		return nil
	}
	h.manual = true
	rt := cmpBind(c, h, nil)
	res, err := agent.DispatchMessage(context.Background(), rt, cmpPing{}, agent.Invocation{})
	if err != nil || res.Completion.Tag != "cmpPong" || res.Completion.Message.(*cmpPong).N != 1 {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if d := c.Describe().Capabilities[0].Completion; d == nil || len(d.Success) != 1 || d.Success[0] != "cmpPong" {
		t.Fatalf("descriptor = %+v", d)
	}
}

type cmpPong struct{ N int }

func (*cmpPong) cmpMsg() {}

func TestBindChecksCompletionSeams(t *testing.T) {
	type noSeams struct{ agent.Host[cmpModel, cmpMsg] }
	bare := noSeams{newCmpHost()}
	if _, err := agent.Bind(cmpContract(cmpCreateCap(nil)), bare, nil); err == nil ||
		!strings.Contains(err.Error(), `"create_todo"`) || !strings.Contains(err.Error(), "Observe") {
		t.Fatalf("err = %v", err)
	}
	if _, err := agent.Bind(cmpContract(cmpRenameCap(nil)), bare, nil); err == nil ||
		!strings.Contains(err.Error(), `"rename_project"`) || !strings.Contains(err.Error(), "Subscribe") {
		t.Fatalf("err = %v", err)
	}
	// A source needs neither seam.
	src := agent.WhenSource(agent.Source[int]{Get: func() int { return 1 }, Subscribe: func(func()) func() { return func() {} }},
		func(v int, _ cmpRenameProject) bool { return v == 1 })
	rt, err := agent.Bind(cmpContract(agent.Expose(agent.Variant[cmpRenameProject, cmpModel, cmpUser]{Description: "Rename.", Completion: src})),
		bare, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := agent.DispatchMessage(context.Background(), rt, cmpRenameProject{Name: "x"}, agent.Invocation{}); err != nil || res.Completion.Status != agent.Completed {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	// A completion Message the host's Message type cannot hold.
	type foreign struct{}
	_, err = agent.Bind(cmpContract(agent.Expose(agent.Variant[cmpPing, cmpModel, cmpUser]{
		Description: "Ping.", Completion: agent.CompleteOn(
			agent.OnType[cmpPing, foreign](),
		),
	})), newCmpHost(), nil)
	if err == nil || !strings.Contains(err.Error(), "foreign") {
		t.Fatalf("err = %v", err)
	}
}

func TestCompletionDescriptorAndManifest(t *testing.T) {
	c := cmpContract()
	byName := map[string]agent.Descriptor{}
	for _, d := range c.Describe().Capabilities {
		byName[d.Name] = d
	}
	if d := byName["create_todo"].Completion; d == nil || strings.Join(d.Success, ",") != "cmpCreated" || strings.Join(d.Failure, ",") != "cmpCreateFailed" || d.State {
		t.Fatalf("create_todo completion = %+v", d)
	}
	if d := byName["rename_project"].Completion; d == nil || !d.State || d.Success != nil {
		t.Fatalf("rename_project completion = %+v", d)
	}
	if byName["noise"].Completion != nil {
		t.Fatal("noise declares no completion")
	}
	md := agent.Markdown(c)
	if !strings.Contains(md, "Completes on `cmpCreated`; fails on `cmpCreateFailed`.") {
		t.Fatalf("markdown does not describe the completion:\n%s", md)
	}
}

// ---- Completion on state ----

func TestWhenStateAlreadyHoldsCompletesAtOnce(t *testing.T) {
	h := newCmpHost()
	h.manual = true // nothing will change the Model
	h.model.Project = "Apollo"
	var calls cmpCount
	rt := cmpBind(cmpContract(cmpRenameCap(&calls)), h, nil)
	start := time.Now()
	res, err := cmpDispatch(t, rt, context.Background(), "rename_project", `{"name":"Apollo"}`, agent.Invocation{})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Completion; c == nil || c.Status != agent.Completed || c.Message != nil || c.Tag != "" {
		t.Fatalf("completion = %+v", c)
	}
	if time.Since(start) > time.Second {
		t.Fatal("a condition that already holds must complete at once")
	}
	if ok, text := agent.Summarize(res); !ok || text != "Completed: cmpRenameProject (its condition on state holds)" {
		t.Fatalf("Summarize = %v %q", ok, text)
	}
	if subs, _ := h.listeners(); subs != 0 {
		t.Fatal("the state waiter was not released")
	}
}

func TestWhenSynchronousChangeNotMissed(t *testing.T) {
	// The host applies update inside Dispatch and notifies subscribers
	// before Dispatch returns.
	h := newCmpHost()
	var calls cmpCount
	rt := cmpBind(cmpContract(cmpRenameCap(&calls)), h, nil)
	res, err := cmpDispatch(t, rt, context.Background(), "rename_project", `{"name":"Zeus"}`, agent.Invocation{})
	if err != nil || res.Completion.Status != agent.Completed {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if calls.Load() != 1 {
		t.Fatalf("predicate ran %d times; the unchanged value must not be judged again", calls.Load())
	}
}

func TestWhenAsynchronousChangeAndUnchangedValuesSkipped(t *testing.T) {
	h := newCmpHost()
	h.manual = true
	h.model.Project = "Old"
	var calls cmpCount
	rt := cmpBind(cmpContract(cmpRenameCap(&calls), cmpNoiseCap()), h, nil)
	done := make(chan agent.Result, 1)
	go func() {
		res, err := cmpDispatch(t, rt, context.Background(), "rename_project", `{"name":"New"}`, agent.Invocation{})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	cmpWaitFor(t, "the first check", func() bool { return calls.Load() == 1 })
	for range 5 { // Model changes that leave the project alone
		h.setModel(func(m cmpModel) cmpModel { m.Noise++; return m })
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("predicate ran %d times for unchanged projections", n)
	}
	h.setModel(func(m cmpModel) cmpModel { m.Project = "Other"; return m })
	if n := calls.Load(); n != 2 {
		t.Fatalf("predicate ran %d times, want 2 after a changed projection", n)
	}
	h.setModel(func(m cmpModel) cmpModel { m.Project = "New"; return m })
	res := <-done
	if res.Completion.Status != agent.Completed || calls.Load() != 3 {
		t.Fatalf("res = %+v, calls = %d", res, calls.Load())
	}
}

// A predicate that panics fails that invocation as a defect, never the
// code that changed the Model; another waiting invocation completes.
func TestWhenPanickingPredicateFailsOnlyItsInvocation(t *testing.T) {
	h := newCmpHost()
	h.manual = true
	rt := cmpBind(cmpContract(cmpRenameCap(nil)), h, nil)
	errs := map[string]chan error{"boom": make(chan error, 1), "Fine": make(chan error, 1)}
	for name, ch := range errs {
		go func() {
			_, err := cmpDispatch(t, rt, context.Background(), "rename_project", `{"name":"`+name+`"}`, agent.Invocation{})
			ch <- err
		}()
	}
	// "boom" panics on its very first check, when waiting starts.
	var de *agent.DefectError
	if err := <-errs["boom"]; !errors.As(err, &de) || de.Stage != "completion" || de.Capability != "rename_project" {
		t.Fatalf("boom: err = %#v", err)
	}
	cmpWaitFor(t, "both Messages", func() bool { return len(h.sentMessages()) == 2 })
	h.setModel(func(m cmpModel) cmpModel { m.Project = "Fine"; return m }) // must not panic here
	if err := <-errs["Fine"]; err != nil {
		t.Fatalf("Fine: err = %v", err)
	}
}

func TestWhenPredicatePanicDuringNotificationStaysInside(t *testing.T) {
	h := newCmpHost()
	h.manual = true
	var armed atomic.Bool
	var calls cmpCount
	rename := agent.Expose(agent.Variant[cmpRenameProject, cmpModel, cmpUser]{
		Description: "Rename.",
		Completion: agent.When(func(m cmpModel) int { return m.Noise }, func(n int, _ cmpRenameProject) bool {
			calls.Add(1)
			if armed.Load() {
				panic("predicate exploded on a notification")
			}
			return false
		}),
	})
	rt := cmpBind(cmpContract(rename), h, nil)
	errc := make(chan error, 1)
	go func() {
		_, err := agent.DispatchMessage(context.Background(), rt, cmpRenameProject{Name: "x"}, agent.Invocation{})
		errc <- err
	}()
	cmpWaitFor(t, "the check made when waiting starts", func() bool { return calls.Load() == 1 })
	armed.Store(true)
	h.setModel(func(m cmpModel) cmpModel { m.Noise++; return m }) // the notifier survives
	var de *agent.DefectError
	if err := <-errc; !errors.As(err, &de) || de.Stage != "completion" {
		t.Fatalf("err = %#v", err)
	}
}

func TestWhenSourceReevaluatedOnEveryNotification(t *testing.T) {
	var (
		mu        sync.Mutex
		value     = 0
		listeners = map[int]func(){}
		next      int
		calls     cmpCount
	)
	src := agent.Source[*int]{
		Get: func() *int { mu.Lock(); defer mu.Unlock(); return &value },
		Subscribe: func(l func()) func() {
			mu.Lock()
			defer mu.Unlock()
			id := next
			next++
			listeners[id] = l
			return func() { mu.Lock(); delete(listeners, id); mu.Unlock() }
		},
	}
	notify := func(set int) {
		mu.Lock()
		value = set // the source mutates in place
		ls := make([]func(), 0, len(listeners))
		for _, l := range listeners {
			ls = append(ls, l)
		}
		mu.Unlock()
		for _, l := range ls {
			l()
		}
	}
	rename := agent.Expose(agent.Variant[cmpRenameProject, cmpModel, cmpUser]{
		Description: "Rename.",
		Completion: agent.WhenSource(src, func(v *int, in cmpRenameProject) bool {
			calls.Add(1)
			mu.Lock()
			defer mu.Unlock()
			return *v == len(in.Name)
		}),
	})
	h := newCmpHost()
	h.manual = true
	rt := cmpBind(cmpContract(rename), h, nil)
	done := make(chan error, 1)
	go func() {
		_, err := agent.DispatchMessage(context.Background(), rt, cmpRenameProject{Name: "abc"}, agent.Invocation{})
		done <- err
	}()
	cmpWaitFor(t, "the first check", func() bool { return calls.Load() == 1 })
	notify(1)
	notify(1)
	if n := calls.Load(); n != 3 {
		t.Fatalf("a source must be re-evaluated on every notification; predicate ran %d times", n)
	}
	notify(3)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(listeners) != 0 {
		t.Fatal("the source subscription was not released")
	}
}

func TestWhenTimeoutAndCancellation(t *testing.T) {
	h := newCmpHost()
	h.manual = true
	var calls cmpCount
	rename := agent.Expose(agent.Variant[cmpRenameProject, cmpModel, cmpUser]{
		Description: "Rename.",
		Completion: agent.When(func(m cmpModel) string { return m.Project }, func(p string, in cmpRenameProject) bool {
			calls.Add(1) // the first call is the check made when waiting starts
			return p == in.Name
		}).Within(20 * time.Millisecond),
	})
	rt := cmpBind(cmpContract(rename), h, nil)
	_, err := agent.DispatchMessage(context.Background(), rt, cmpRenameProject{Name: "never"}, agent.Invocation{})
	if tagOf(err) != agent.TagCompletionTimeout {
		t.Fatalf("err = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	before := calls.Load()
	go func() {
		cmpUntil(func() bool { return calls.Load() > before }) // waiting has started
		cancel()
	}()
	_, err = agent.DispatchMessage(ctx, rt, cmpRenameProject{Name: "never"}, agent.Invocation{})
	var ce *agent.CancelledError
	if !errors.As(err, &ce) || !ce.Dispatched {
		t.Fatalf("err = %#v", err)
	}
	if subs, _ := h.listeners(); subs != 0 {
		t.Fatal("state waiters were not released")
	}
}

func TestWhenComparesNonComparableValuesDeeply(t *testing.T) {
	h := newCmpHost()
	h.manual = true
	var calls cmpCount
	rename := agent.Expose(agent.Variant[cmpRenameProject, cmpModel, cmpUser]{
		Description: "Rename.",
		Completion: agent.When(func(m cmpModel) []string { return []string{m.Project} }, func(v []string, in cmpRenameProject) bool {
			calls.Add(1)
			return v[0] == in.Name
		}),
	})
	rt := cmpBind(cmpContract(rename), h, nil)
	done := make(chan error, 1)
	go func() {
		_, err := agent.DispatchMessage(context.Background(), rt, cmpRenameProject{Name: "x"}, agent.Invocation{})
		done <- err
	}()
	cmpWaitFor(t, "the first check", func() bool { return calls.Load() == 1 })
	h.setModel(func(m cmpModel) cmpModel { m.Noise++; return m }) // a fresh, equal slice
	if calls.Load() != 1 {
		t.Fatal("an equal slice was judged again")
	}
	h.setModel(func(m cmpModel) cmpModel { m.Project = "x"; return m })
	if err := <-done; err != nil || calls.Load() != 2 {
		t.Fatalf("err = %v, calls = %d", err, calls.Load())
	}
}
