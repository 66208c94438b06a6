package webmcp

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
)

func TestRegisterPublishesAvailableCapabilities(t *testing.T) {
	rt, _ := bindTodo(t)
	mc := newFakeContext()
	reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: mc})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatalf("Refresh: %v", err)
	}
	want := []string{"create_todo", "select_todo", "explode_todo"}
	if got := reg.Registered(); !equalSets(got, want) {
		t.Fatalf("Registered() = %v, want %v", got, want)
	}
	mc.waitNames(t, want...)
	for _, d := range rt.Contract().Describe().Capabilities {
		tool, ok := mc.tool(d.Name)
		if d.Name == "delete_selected_todo" {
			if ok {
				t.Fatalf("%s is registered while nothing is selected", d.Name)
			}
			continue
		}
		if tool.Description != d.Description || !bytes.Equal(tool.InputSchema, d.InputSchema) || tool.Execute == nil {
			t.Errorf("tool %s = %+v, want the descriptor's description %q and schema %s", d.Name, tool, d.Description, d.InputSchema)
		}
	}
}

func TestToolsFollowTheModel(t *testing.T) {
	rt, host := bindTodo(t)
	mc := newFakeContext()
	reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: mc})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	mc.waitNames(t, "create_todo", "select_todo", "explode_todo")

	host.set(todoModel{Todos: []string{"milk"}, Selected: 0})
	mc.waitNames(t, "create_todo", "select_todo", "explode_todo", "delete_selected_todo")
	mc.mu.Lock()
	deleteReg := mc.tools["delete_selected_todo"]
	mc.mu.Unlock()

	host.set(todoModel{Todos: []string{"milk"}, Selected: -1})
	mc.waitNames(t, "create_todo", "select_todo", "explode_todo")
	mc.mu.Lock()
	aborted := deleteReg.aborted
	mc.mu.Unlock()
	if !aborted {
		t.Fatal("the registration of a capability that left was not aborted")
	}
	if n := mc.callCount("create_todo"); n != 1 {
		t.Fatalf("create_todo was registered %d times; a capability that stays must not be registered again", n)
	}
}

func TestWithoutFollowingModelWaitsForRefresh(t *testing.T) {
	rt, host := bindTodo(t)
	mc := newFakeContext()
	reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: mc, WithoutFollowingModel: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if host.subscribers() != 0 {
		t.Fatal("WithoutFollowingModel still subscribed to the Model")
	}
	host.set(todoModel{Todos: []string{"milk"}, Selected: 0})
	// Not a wait for something to happen: nothing may happen here, and no
	// event marks an absence. The pause gives a wrongly started
	// registration the chance to show itself; the check after it can
	// only fail for a defect, never pass because of timing.
	time.Sleep(20 * time.Millisecond)
	if slices.Contains(mc.names(), "delete_selected_todo") {
		t.Fatal("a Model change reconciled although WithoutFollowingModel is set")
	}
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(mc.names(), "delete_selected_todo") {
		t.Fatal("Refresh did not register the newly available capability")
	}
}

func TestFailedRegistrationIsRetriedAndNotRecorded(t *testing.T) {
	rt, _ := bindTodo(t)
	mc := newFakeContext()
	mc.fail["select_todo"] = 1
	var bg []error
	var mu sync.Mutex
	reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: mc, WithoutFollowingModel: true, OnError: func(err error) {
		mu.Lock()
		bg = append(bg, err)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	// The first (background) pass meets the refusal; Refresh may share it
	// or run after it. Either way select_todo must not be recorded.
	err = reg.Refresh(context.Background())
	mu.Lock()
	refusals := len(bg)
	mu.Unlock()
	if err == nil && refusals == 0 {
		t.Fatal("the refused registration was reported neither by Refresh nor to OnError")
	}
	if err != nil {
		if !strings.Contains(err.Error(), `"select_todo"`) {
			t.Fatalf("Refresh error %q does not name the refused tool", err)
		}
		if slices.Contains(reg.Registered(), "select_todo") {
			t.Fatal("a refused registration was recorded as live")
		}
		if !slices.Contains(reg.Registered(), "explode_todo") {
			t.Fatal("a refusal stopped the tools after it from being registered")
		}
		if err := reg.Refresh(context.Background()); err != nil {
			t.Fatalf("retry: %v", err)
		}
	}
	if !slices.Contains(reg.Registered(), "select_todo") {
		t.Fatal("the refused registration was not retried on the next reconcile")
	}
	if n := mc.callCount("select_todo"); n != 2 {
		t.Fatalf("select_todo registered %d times, want 2 (one refusal, one retry)", n)
	}
}

func TestBackgroundFailureGoesToOnError(t *testing.T) {
	rt, _ := bindTodo(t)
	mc := newFakeContext()
	mc.fail["create_todo"] = 1
	got := make(chan error, 4)
	reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: mc, OnError: func(err error) { got <- err }})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	select {
	case err := <-got:
		if !strings.Contains(err.Error(), `"create_todo"`) {
			t.Fatalf("OnError got %q, which does not name the tool", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the background failure never reached OnError")
	}
}

func TestReconcileIsSerialized(t *testing.T) {
	rt, host := bindTodo(t)
	mc := newFakeContext()
	mc.gate = make(chan struct{})
	mc.entered = make(chan string, 64)
	reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: mc})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	<-mc.entered // the first registration is in flight
	// A burst of overlapping Model changes and Refresh calls while it is.
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			host.set(todoModel{Todos: []string{"a", "b"}, Selected: i % 2})
			errs <- reg.Refresh(context.Background())
		})
	}
	go func() {
		for range mc.entered {
			mc.gate <- struct{}{}
		}
	}()
	mc.gate <- struct{}{}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("Refresh: %v", err)
		}
	}
	close(mc.entered)
	mc.mu.Lock()
	dups, maxInFlight := slices.Clone(mc.duplicates), mc.maxInFlight
	mc.mu.Unlock()
	if len(dups) > 0 {
		t.Fatalf("capabilities registered while already registered or in flight: %v", dups)
	}
	if maxInFlight != 1 {
		t.Fatalf("%d registrations were in flight at once; reconciliation must be serialized", maxInFlight)
	}
	for _, name := range []string{"create_todo", "select_todo", "explode_todo", "delete_selected_todo"} {
		if n := mc.callCount(name); n != 1 {
			t.Errorf("%s was registered %d times, want 1", name, n)
		}
	}
}

func TestUnregisterAbortsInFlightRegistration(t *testing.T) {
	rt, host := bindTodo(t)
	mc := newFakeContext()
	mc.gate = make(chan struct{})
	mc.entered = make(chan string, 1)
	log := &errLog{}
	reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: mc, OnError: log.add})
	if err != nil {
		t.Fatal(err)
	}
	first := <-mc.entered
	reg.Unregister()
	mc.gate <- struct{}{} // the browser accepts it after Unregister landed
	mc.waitNames(t)       // …and it is withdrawn at once
	mc.mu.Lock()
	calls := mc.calls[first]
	mc.mu.Unlock()
	if calls != 1 {
		t.Fatalf("%s registered %d times", first, calls)
	}
	if got := reg.Registered(); len(got) != 0 {
		t.Fatalf("Registered() after Unregister = %v", got)
	}
	// Nothing is registered afterwards: not by a Model change, not by Refresh.
	mc.mu.Lock()
	mc.gate = nil
	mc.entered = nil
	mc.mu.Unlock()
	host.set(todoModel{Todos: []string{"a"}, Selected: 0})
	if err := reg.Refresh(context.Background()); !errors.Is(err, ErrUnregistered) {
		t.Fatalf("Refresh after Unregister = %v, want ErrUnregistered", err)
	}
	// Not a wait for something to happen: nothing may happen here, and no
	// event marks an absence. The pause gives a wrongly started
	// registration the chance to show itself; the check after it can
	// only fail for a defect, never pass because of timing.
	time.Sleep(20 * time.Millisecond)
	mc.mu.Lock()
	total := 0
	for _, n := range mc.calls {
		total += n
	}
	mc.mu.Unlock()
	if total != 1 || len(mc.names()) != 0 {
		t.Fatalf("after Unregister: %d RegisterTool calls, live %v; want 1 call and none live", total, mc.names())
	}
	if host.subscribers() != 0 {
		t.Fatal("Unregister did not stop following the Model")
	}
	if errs := log.all(); len(errs) != 0 {
		t.Fatalf("Unregister was reported as a failure: %v", errs)
	}
	reg.Unregister() // twice is harmless
}

func TestUnregisterAbortsLiveTools(t *testing.T) {
	rt, _ := bindTodo(t)
	mc := newFakeContext()
	reg, err := Register(context.Background(), Options{Runtime: rt, ModelContext: mc})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	mc.mu.Lock()
	var regs []*fakeReg
	for _, r := range mc.tools {
		regs = append(regs, r)
	}
	mc.mu.Unlock()
	reg.Unregister()
	// Synchronously: a page that unregisters on pagehide may not get
	// another turn.
	mc.mu.Lock()
	defer mc.mu.Unlock()
	for _, r := range regs {
		if !r.aborted {
			t.Fatal("a live tool's registration was not aborted by the time Unregister returned")
		}
	}
	if len(mc.tools) != 0 || len(mc.duplicates) != 0 {
		t.Fatalf("after Unregister: live %d, anomalies %v", len(mc.tools), mc.duplicates)
	}
}

func TestContextEndUnregisters(t *testing.T) {
	rt, _ := bindTodo(t)
	mc := newFakeContext()
	ctx, cancel := context.WithCancel(context.Background())
	reg, err := Register(ctx, Options{Runtime: rt, ModelContext: mc})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel()
	mc.waitNames(t)
	if err := reg.Refresh(context.Background()); !errors.Is(err, ErrUnregistered) {
		t.Fatalf("Refresh after the context ended = %v, want ErrUnregistered", err)
	}

	done, cancelNow := context.WithCancel(context.Background())
	cancelNow()
	mc2 := newFakeContext()
	if _, err := Register(done, Options{Runtime: rt, ModelContext: mc2}); err != nil {
		t.Fatal(err)
	}
	// Not a wait for something to happen: nothing may happen here, and no
	// event marks an absence. The pause gives a wrongly started
	// registration the chance to show itself; the check after it can
	// only fail for a defect, never pass because of timing.
	time.Sleep(20 * time.Millisecond)
	if n := len(mc2.calls); n != 0 {
		t.Fatalf("a registration whose context was already done registered %d tools", n)
	}
}

func TestRegisterRefusesBadOptions(t *testing.T) {
	rt, _ := bindTodo(t)
	if _, err := Register(context.Background(), Options{Runtime: rt}); !errors.Is(err, ErrNoModelContext) {
		t.Fatalf("Register without a model context outside a browser = %v, want ErrNoModelContext", err)
	}
	if _, err := Register(context.Background(), Options{ModelContext: newFakeContext()}); err == nil || !strings.Contains(err.Error(), "Options.Runtime") {
		t.Fatalf("Register without a Runtime = %v", err)
	}
	form := MustFormTool(rt.Contract(), "create_todo", nil)
	mc := newFakeContext()
	if _, err := Register(context.Background(), Options{Runtime: rt, ModelContext: mc, Forms: []*Form{form}}); err == nil || !strings.Contains(err.Error(), "FormContext") {
		t.Fatalf("Register with Forms on a context without forms = %v", err)
	}
	if _, err := Register(context.Background(), Options{Runtime: rt, ModelContext: formFake{mc}, Forms: []*Form{form, form}}); err == nil || !strings.Contains(err.Error(), `"create_todo"`) {
		t.Fatalf("Register with one capability drawn twice = %v", err)
	}
	// Not a wait for something to happen: nothing may happen here, and no
	// event marks an absence. The pause gives a wrongly started
	// registration the chance to show itself; the check after it can
	// only fail for a defect, never pass because of timing.
	time.Sleep(10 * time.Millisecond)
	if len(mc.names()) != 0 {
		t.Fatal("a refused Register registered tools")
	}
}

// panickyAgent is an Agent whose Available panics on demand.
type flakyAgent struct {
	Runtime
	mu   sync.Mutex
	fail error
}

func (a *flakyAgent) Offered(ctx context.Context) (agent.Offer, error) {
	a.mu.Lock()
	fail := a.fail
	a.mu.Unlock()
	if fail != nil {
		return agent.Offer{}, fail
	}
	return a.Runtime.Offered(ctx)
}

func TestUnreadableModelKeepsTools(t *testing.T) {
	rt, _ := bindTodo(t)
	a := &flakyAgent{Runtime: rt}
	mc := newFakeContext()
	reg, err := Register(context.Background(), Options{Runtime: a, ModelContext: mc, WithoutFollowingModel: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	if err := reg.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	before := mc.names()
	a.mu.Lock()
	a.fail = &agent.DefectError{Capability: "", Stage: "model", Cause: errors.New("boom")}
	a.mu.Unlock()
	if err := reg.Refresh(context.Background()); err == nil {
		t.Fatal("Refresh hid a Model that could not be read")
	}
	if got := mc.names(); !slices.Equal(got, before) {
		t.Fatalf("a failed Model read changed the tools from %v to %v", before, got)
	}
}

func equalSets(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
