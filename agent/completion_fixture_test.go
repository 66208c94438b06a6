package agent_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/foldagent/foldagent/agent"
)

// Fixtures for the completion, cancellation, audit and tracing tests. Every
// name starts with cmp so they never collide with the other fixtures of
// this package.

type cmpTodo struct {
	ID    string
	Title string
}

type cmpModel struct {
	Todos   []cmpTodo
	Project string
	Noise   int
}

type cmpUser struct {
	ID     string
	Secret string
	Role   string
}

type cmpMsg interface{ cmpMsg() }

// Requests (what capabilities dispatch).
type cmpCreate struct {
	Title     string `json:"title"`
	RequestID string `json:"requestId"`
}
type cmpDelete struct {
	ID string `json:"id"`
}
type cmpRenameProject struct {
	Name string `json:"name"`
}
type cmpNoise struct{}
type cmpPing struct{}

// Facts (what update produces later).
type cmpCreated struct {
	ID        string
	Title     string
	RequestID string
}
type cmpCreateFailed struct{ RequestID string }
type cmpDeleted struct{ ID string }
type cmpDeleteFailed struct{ ID string }
type cmpUnrelated struct{ N int }

func (cmpCreate) cmpMsg()        {}
func (cmpDelete) cmpMsg()        {}
func (cmpRenameProject) cmpMsg() {}
func (cmpNoise) cmpMsg()         {}
func (cmpPing) cmpMsg()          {}
func (cmpCreated) cmpMsg()       {}
func (cmpCreateFailed) cmpMsg()  {}
func (cmpDeleted) cmpMsg()       {}
func (cmpDeleteFailed) cmpMsg()  {}
func (cmpUnrelated) cmpMsg()     {}

// cmpCreateInput is what an agent sends to create a todo: the title only;
// ToMessage adds the invocation id.
type cmpCreateInput struct {
	Title string `json:"title"`
}

type cmpCall = agent.Call[cmpModel, cmpUser]

// cmpUpdate is the application's update: it applies msg and returns the
// facts its Commands would produce.
func cmpUpdate(m cmpModel, msg cmpMsg) (cmpModel, []cmpMsg) {
	switch msg := msg.(type) {
	case cmpCreate:
		if msg.Title == "" {
			return m, []cmpMsg{cmpCreateFailed{RequestID: msg.RequestID}}
		}
		id := fmt.Sprintf("t%d", len(m.Todos)+1)
		m.Todos = append(append([]cmpTodo(nil), m.Todos...), cmpTodo{ID: id, Title: msg.Title})
		return m, []cmpMsg{cmpCreated{ID: id, Title: msg.Title, RequestID: msg.RequestID}}
	case cmpDelete:
		for i, t := range m.Todos {
			if t.ID == msg.ID {
				m.Todos = append(append([]cmpTodo(nil), m.Todos[:i]...), m.Todos[i+1:]...)
				return m, []cmpMsg{cmpDeleted(msg)}
			}
		}
		return m, []cmpMsg{cmpDeleteFailed(msg)}
	case cmpRenameProject:
		m.Project = msg.Name
	case cmpNoise:
		m.Noise++
	}
	return m, nil
}

// cmpHost is a small Elm-architecture host with Subscribe and Observe.
// In the default mode Dispatch applies the Message (and the facts it
// produces) before it returns, so completion happens synchronously, inside
// the host's Dispatch. With async set, Dispatch queues the Message and a
// loop goroutine (see start) applies it. With manual set, Dispatch only
// records the Message: the test produces facts with emit.
type cmpHost struct {
	mu      sync.Mutex
	model   cmpModel
	subs    map[int]func()
	obs     map[int]func(cmpMsg)
	next    int
	sent    []cmpMsg
	applyMu sync.Mutex // one update at a time, as in a real loop

	async  bool
	manual bool
	queue  chan cmpMsg

	// dispatchFn, when set, runs first in Dispatch; an error is returned.
	dispatchFn func(ctx context.Context, msg cmpMsg) error

	modelReads   atomic.Int64
	observeCalls atomic.Int64 // how many times Observe was called
}

func newCmpHost() *cmpHost {
	return &cmpHost{subs: map[int]func(){}, obs: map[int]func(cmpMsg){}}
}

// start runs the async loop until the returned stop is called.
func (h *cmpHost) start() (stop func()) {
	h.async = true
	h.queue = make(chan cmpMsg, 4096)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case msg := <-h.queue:
				h.apply(msg)
			case <-quit:
				return
			}
		}
	}()
	return func() { close(quit); wg.Wait() }
}

func (h *cmpHost) Model() cmpModel {
	h.modelReads.Add(1)
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.model
}

func (h *cmpHost) Dispatch(ctx context.Context, msg cmpMsg) error {
	if h.dispatchFn != nil {
		if err := h.dispatchFn(ctx, msg); err != nil {
			return err
		}
	}
	h.mu.Lock()
	h.sent = append(h.sent, msg)
	h.mu.Unlock()
	cmpChanged.ring()
	switch {
	case h.manual:
	case h.async:
		h.queue <- msg
	default:
		h.apply(msg)
	}
	return nil
}

// apply runs update, then notifies Subscribe listeners and Observe
// listeners, then applies the facts update produced.
func (h *cmpHost) apply(msg cmpMsg) {
	h.applyMu.Lock()
	h.mu.Lock()
	var follow []cmpMsg
	h.model, follow = cmpUpdate(h.model, msg)
	h.mu.Unlock()
	h.notify(msg)
	h.applyMu.Unlock()
	for _, f := range follow { // a Command that finishes at once
		h.apply(f)
	}
}

// notify calls the listeners as a host does after update applied msg.
func (h *cmpHost) notify(msg cmpMsg) {
	h.mu.Lock()
	subs := make([]func(), 0, len(h.subs))
	for _, s := range h.subs {
		subs = append(subs, s)
	}
	obs := make([]func(cmpMsg), 0, len(h.obs))
	for _, o := range h.obs {
		obs = append(obs, o)
	}
	h.mu.Unlock()
	for _, s := range subs {
		s()
	}
	for _, o := range obs {
		o(msg)
	}
}

// emit makes msg look processed: Observe listeners see it (used in manual
// mode, where the test plays update).
func (h *cmpHost) emit(msg cmpMsg) { h.notify(msg) }

// setModel replaces the Model and notifies Subscribe listeners.
func (h *cmpHost) setModel(f func(m cmpModel) cmpModel) {
	h.mu.Lock()
	h.model = f(h.model)
	h.mu.Unlock()
	h.mu.Lock()
	subs := make([]func(), 0, len(h.subs))
	for _, s := range h.subs {
		subs = append(subs, s)
	}
	h.mu.Unlock()
	for _, s := range subs {
		s()
	}
}

func (h *cmpHost) Subscribe(listener func()) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	id := h.next
	h.next++
	h.subs[id] = listener
	return func() {
		h.mu.Lock()
		delete(h.subs, id)
		h.mu.Unlock()
	}
}

func (h *cmpHost) Observe(listener func(cmpMsg)) func() {
	h.observeCalls.Add(1)
	h.mu.Lock()
	defer h.mu.Unlock()
	id := h.next
	h.next++
	h.obs[id] = listener
	return func() {
		h.mu.Lock()
		delete(h.obs, id)
		h.mu.Unlock()
	}
}

// listeners reports how many Subscribe and Observe listeners are active.
func (h *cmpHost) listeners() (subs, obs int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs), len(h.obs)
}

func (h *cmpHost) sentMessages() []cmpMsg {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]cmpMsg(nil), h.sent...)
}

// cmpCreateCap creates a todo and completes on the fact that carries its
// invocation id: the pattern for telling apart two todos titled "Milk".
// A nil contract means that default: success and failure by invocation id.
func cmpCreateCap(opts agent.CompletionContract[cmpCreateInput]) *agent.Exposed[cmpCreateInput, cmpModel, cmpUser] {
	if opts == nil {
		opts = agent.CompleteOn(agent.On(func(_ cmpCreateInput, got cmpCreated, inv agent.Invocation) bool {
			return got.RequestID == inv.ID
		})).FailOn(agent.On(func(_ cmpCreateInput, got cmpCreateFailed, inv agent.Invocation) bool {
			return got.RequestID == inv.ID
		}))
	}
	return agent.ExposeMapped(agent.Mapped[cmpCreateInput, cmpCreate, cmpModel, cmpUser]{
		Name:        "create_todo",
		Description: "Create a todo with a title.",
		ToMessage: func(in cmpCreateInput, call cmpCall) cmpCreate {
			return cmpCreate{Title: in.Title, RequestID: call.Invocation.ID}
		},
		Completion: opts,
	})
}

// cmpDeleteCap deletes a todo and completes on any deletion fact.
func cmpDeleteCap() *agent.Exposed[cmpDelete, cmpModel, cmpUser] {
	return agent.Expose(agent.Variant[cmpDelete, cmpModel, cmpUser]{
		Name:        "delete_todo",
		Description: "Delete a todo.",
		Completion: agent.CompleteOn(
			agent.OnType[cmpDelete, cmpDeleted](),
		).FailOn(
			agent.OnType[cmpDelete, cmpDeleteFailed](),
		),
	})
}

// cmpRenameCap renames the project and completes when the Model shows
// the new name.
func cmpRenameCap(predicateCalls *cmpCount) *agent.Exposed[cmpRenameProject, cmpModel, cmpUser] {
	return agent.Expose(agent.Variant[cmpRenameProject, cmpModel, cmpUser]{
		Name:        "rename_project",
		Description: "Rename the project.",
		Completion: agent.When(
			func(m cmpModel) string { return m.Project },
			func(name string, in cmpRenameProject) bool {
				if predicateCalls != nil {
					predicateCalls.Add(1)
				}
				if in.Name == "boom" {
					panic("predicate exploded")
				}
				return name == in.Name
			},
		),
	})
}

// cmpNoiseCap dispatches a Message that changes the Model but no project.
func cmpNoiseCap() *agent.Exposed[cmpNoise, cmpModel, cmpUser] {
	return agent.Expose(agent.Variant[cmpNoise, cmpModel, cmpUser]{Name: "noise", Description: "Make noise."})
}

// cmpContract exposes the capabilities above.
func cmpContract(caps ...agent.Capability[cmpModel, cmpUser]) *agent.Contract[cmpModel, cmpUser] {
	if caps == nil {
		caps = []agent.Capability[cmpModel, cmpUser]{cmpCreateCap(nil), cmpDeleteCap(), cmpRenameCap(nil), cmpNoiseCap()}
	}
	return agent.Make(agent.Definition[cmpModel, cmpUser]{Capabilities: caps})
}

func cmpBind(c *agent.Contract[cmpModel, cmpUser], h *cmpHost, opts *agent.BindOptions[cmpUser]) *agent.Runtime[cmpModel, cmpMsg, cmpUser] {
	return agent.MustBind(c, h, opts)
}

func cmpPrincipal(context.Context, agent.Invocation) (cmpUser, error) {
	return cmpUser{ID: "u-7", Secret: "hunter2", Role: "owner"}, nil
}

// cmpChanged rings whenever a test double's state a test waits on changes
// (a Message the fake host was sent, a hook's call counted), so that a
// wait (cmpUntil) is woken by the change itself, never by a timer.
var cmpChanged cmpBell

// cmpBell wakes every waiter at each ring.
type cmpBell struct {
	mu sync.Mutex
	ch chan struct{}
}

// wait returns a channel closed at the next ring.
func (b *cmpBell) wait() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch == nil {
		b.ch = make(chan struct{})
	}
	return b.ch
}

func (b *cmpBell) ring() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch != nil {
		close(b.ch)
		b.ch = nil
	}
}

// cmpCount is a count a test double bumps, ringing cmpChanged.
type cmpCount struct{ n atomic.Int64 }

func (c *cmpCount) Add(d int64) int64 {
	v := c.n.Add(d)
	cmpChanged.ring()
	return v
}

func (c *cmpCount) Load() int64 { return c.n.Load() }
