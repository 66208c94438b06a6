package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/foldagent/foldagent/agent"
)

// trackedContract exposes four capabilities: create_todo offered always,
// rename_todo while a todo is selected (declaring that it reads only the
// selection), delete_todo while there are todos (declaring nothing), and
// clear_completed while the selection is "boom", when its hook panics.
// The counters count each hook's runs.
// trackOn binds trackedContract to h and returns the runtime and an
// OfferTracker of it.
func trackOn(t *testing.T, h agent.Host[Model, Msg], renames, deletes *atomic.Int32) (*agent.Runtime[Model, Msg, User], agent.OfferTracker) {
	t.Helper()
	rt, err := agent.Bind(trackedContract(renames, deletes), h, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rt, rt.TrackOffer()
}

func trackedContract(renames, deletes *atomic.Int32) *agent.Contract[Model, User] {
	selected := agent.Watching("selected", func(m Model) string { return m.Selected })
	return agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[CreateTodo]{Description: "Create a todo."}),
		agent.Expose(capability[RenameTodo]{
			Description:    "Rename the selected todo.",
			Available:      func(m Model) bool { renames.Add(1); return m.Selected != "" },
			AvailableReads: []agent.Watch[Model]{selected},
		}),
		agent.Expose(capability[DeleteTodo]{
			Description: "Delete a todo.",
			Available:   func(m Model) bool { deletes.Add(1); return len(m.Todos) > 0 },
		}),
		agent.Expose(capability[ClearCompleted]{
			Description: "Clear the completed todos.",
			Available: func(m Model) bool {
				if m.Selected == "boom" {
					panic("boom")
				}
				return false
			},
			AvailableReads: []agent.Watch[Model]{selected},
		}),
	}})
}

// An OfferTracker re-checks a capability that declares its reads only
// when what it reads moved, one that declares nothing after every change,
// and says what Available says each time.
func TestOfferTrackerChecksOnlyWhatMoved(t *testing.T) {
	var renames, deletes atomic.Int32
	h := &host{}
	rt, tr := trackOn(t, h, &renames, &deletes)
	step := func(m Model, wantChanged bool, want ...bool) {
		t.Helper()
		h.set(m)
		set, changed, err := tr.Next()
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if changed != wantChanged || !slices.Equal(set, want) {
			t.Fatalf("Next = %v, changed %v; want %v, changed %v", set, changed, want, wantChanged)
		}
		fresh, _ := rt.AvailableSet(nil)
		if !slices.Equal(set, fresh) {
			t.Fatalf("Next = %v, AvailableSet = %v", set, fresh)
		}
		renames.Add(-1) // AvailableSet ran each hook once
		deletes.Add(-1)
	}
	step(Model{}, true, true, false, false, false)
	if renames.Load() != 1 || deletes.Load() != 1 {
		t.Fatalf("first Next ran rename's hook %d times and delete's %d, want 1 and 1", renames.Load(), deletes.Load())
	}
	renames.Store(0)
	deletes.Store(0)

	// A todo appears: the selection did not move.
	step(Model{Todos: []Todo{{ID: "t1"}}}, true, true, false, true, false)
	step(Model{Todos: []Todo{{ID: "t1"}, {ID: "t2"}}}, false, true, false, true, false)
	if renames.Load() != 0 || deletes.Load() != 2 {
		t.Fatalf("rename's hook ran %d times (want 0), delete's %d (want 2)", renames.Load(), deletes.Load())
	}

	// The selection moves: rename is re-checked, once.
	step(Model{Todos: []Todo{{ID: "t1"}}, Selected: "t1"}, true, true, true, true, false)
	if renames.Load() != 1 {
		t.Fatalf("rename's hook ran %d times after the selection moved, want 1", renames.Load())
	}
}

// A hook that panics leaves its capability out and is reported as a
// defect, as Available reports it; the tracker goes on.
func TestOfferTrackerReportsADefect(t *testing.T) {
	var renames, deletes atomic.Int32
	h := &host{}
	_, tr := trackOn(t, h, &renames, &deletes)
	if _, _, err := tr.Next(); err != nil {
		t.Fatal(err)
	}
	h.set(Model{Selected: "boom"})
	set, changed, err := tr.Next()
	var defect *agent.DefectError
	if !errors.As(err, &defect) || defect.Capability != "clear_completed" || defect.Stage != "available" {
		t.Fatalf("Next error = %v, want clear_completed's available defect", err)
	}
	if want := []bool{true, true, false, false}; !slices.Equal(set, want) || !changed {
		t.Fatalf("Next = %v, changed %v; want %v, changed", set, changed, want)
	}
	h.set(Model{})
	set, changed, err = tr.Next()
	if err != nil || !changed || !slices.Equal(set, []bool{true, false, false, false}) {
		t.Fatalf("Next after the defect = %v, changed %v, %v", set, changed, err)
	}
}

func TestAvailableReadsMustBeWellFormed(t *testing.T) {
	w := agent.Watching("selected", func(m Model) string { return m.Selected })
	avail := func(Model) bool { return true }
	for name, expose := range map[string]func(){
		"no hook": func() {
			agent.Expose(capability[CreateTodo]{Description: "x", AvailableReads: []agent.Watch[Model]{w}})
		},
		"zero watch": func() {
			agent.Expose(capability[CreateTodo]{Description: "x", Available: avail, AvailableReads: []agent.Watch[Model]{{}}})
		},
		"twice": func() {
			agent.Expose(capability[CreateTodo]{Description: "x", Available: avail, AvailableReads: []agent.Watch[Model]{w, w}})
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Expose did not refuse the declaration", name)
				}
			}()
			expose()
		}()
	}
}

// A hook that declares no reads and panics leaves its capability out and
// is reported; the capabilities after it are still checked.
func TestOfferTrackerGoesOnPastAPanickingHook(t *testing.T) {
	c := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[DeleteTodo]{
			Description: "Delete a todo.",
			Available: func(m Model) bool {
				if m.Selected == "boom" {
					panic("boom")
				}
				return true
			},
		}),
		agent.Expose(capability[SetQuantity]{
			Description: "Set the quantity.",
			Available:   func(m Model) bool { return m.Selected != "" },
		}),
	}})
	h := &host{}
	rt, err := agent.Bind(c, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := rt.TrackOffer()
	if set, _, err := tr.Next(); err != nil || !slices.Equal(set, []bool{true, false}) {
		t.Fatalf("first Next = %v, %v", set, err)
	}
	h.set(Model{Selected: "boom"})
	set, changed, err := tr.Next()
	var defect *agent.DefectError
	if !errors.As(err, &defect) || defect.Capability != "delete_todo" {
		t.Fatalf("Next error = %v, want delete_todo's defect", err)
	}
	if !changed || !slices.Equal(set, []bool{false, true}) {
		t.Fatalf("Next = %v, changed %v; want [false true], changed", set, changed)
	}
	h.set(Model{Selected: "t1"})
	if set, changed, err := tr.Next(); err != nil || !changed || !slices.Equal(set, []bool{true, true}) {
		t.Fatalf("Next after the panic = %v, changed %v, %v", set, changed, err)
	}
}

// A capability whose Available reads more than it declares (here the
// todos, while it declares only the selection) may be listed late: the
// tracker keeps the offer it last checked. A call is still checked
// against the hook itself: it is refused as not offered, and nothing
// reaches the application.
func TestABrokenReadsPromiseNeverLetsACallThrough(t *testing.T) {
	selected := agent.Watching("selected", func(m Model) string { return m.Selected })
	c := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[DeleteTodo]{
			Description:    "Delete a todo.",
			Available:      func(m Model) bool { return len(m.Todos) > 0 },
			AvailableReads: []agent.Watch[Model]{selected}, // the broken promise
		}),
	}})
	h := &host{}
	h.set(Model{Todos: []Todo{{ID: "t1"}}})
	rt, err := agent.Bind(c, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := rt.TrackOffer()
	if set, _, err := tr.Next(); err != nil || !slices.Equal(set, []bool{true}) {
		t.Fatalf("first Next = %v, %v; want delete_todo offered", set, err)
	}
	h.set(Model{})
	set, changed, err := tr.Next()
	if err != nil || changed || !slices.Equal(set, []bool{true}) {
		t.Fatalf("Next after an undeclared move = %v, changed %v, %v; the tracker was promised nothing moved", set, changed, err)
	}
	_, err = rt.DispatchUnknown(context.Background(), "delete_todo", json.RawMessage(`{"id":"t1"}`), agent.Invocation{Transport: agent.MCP})
	var un *agent.UnavailableError
	if !errors.As(err, &un) || un.Capability != "delete_todo" {
		t.Fatalf("a call the Model does not offer was answered %T %v, want *UnavailableError", err, err)
	}
	if sent := h.sent(); len(sent) != 0 {
		t.Fatalf("the refused call reached the application: %v", sent)
	}
}

// TrackSet follows a runtime that knows its offer only as a set: the
// first Next is a change, a set read again unchanged is not, a set that
// moved is, and a read that fails leaves the previous offer standing.
func TestTrackSetComparesWholeSets(t *testing.T) {
	boom := errors.New("model gone")
	steps := []struct {
		set     []bool
		err     error
		want    []bool
		changed bool
	}{
		{set: []bool{true, false}, want: []bool{true, false}, changed: true},
		{set: []bool{true, false}, want: []bool{true, false}, changed: false},
		{set: []bool{true, true}, want: []bool{true, true}, changed: true},
		{set: nil, err: boom, want: nil, changed: false},
		{set: []bool{true, true}, want: []bool{true, true}, changed: false},
		{set: []bool{false, true}, err: boom, want: []bool{false, true}, changed: true},
	}
	k := 0
	tr := agent.TrackSet(func(dst []bool) ([]bool, error) {
		s := steps[k]
		if s.set == nil {
			return nil, s.err
		}
		return append(dst[:0], s.set...), s.err
	})
	for ; k < len(steps); k++ {
		got, changed, err := tr.Next()
		if !slices.Equal(got, steps[k].want) || changed != steps[k].changed || !errors.Is(err, steps[k].err) {
			t.Fatalf("step %d: Next = %v, %v, %v; want %v, %v, %v", k, got, changed, err, steps[k].want, steps[k].changed, steps[k].err)
		}
	}
}

// Capabilities that declare no reads and share one Available hook (the
// same function value) are checked with one call of it per change, and
// their flags follow its verdict together; a hook made from the same
// function literal over another variable is its own closure and is
// checked on its own.
func TestOfferTrackerCallsASharedHookOnce(t *testing.T) {
	var calls atomic.Int32
	hasTodos := func(m Model) bool { calls.Add(1); return len(m.Todos) > 0 }
	over := func(n int) func(Model) bool {
		return func(m Model) bool { return len(m.Todos) > n }
	}
	c := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[DeleteTodo]{Description: "Delete a todo.", Available: hasTodos}),
		agent.Expose(capability[ClearCompleted]{Description: "Clear the completed todos.", Available: hasTodos}),
		agent.Expose(capability[SetQuantity]{Description: "Set the quantity.", Available: hasTodos}),
		agent.Expose(capability[RenameTodo]{Description: "Rename a todo.", Available: over(1)}),
		agent.Expose(capability[CreateTodo]{Description: "Create a todo.", Available: over(2)}),
	}})
	h := &host{}
	rt, err := agent.Bind(c, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := rt.TrackOffer()
	if _, _, err := tr.Next(); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		todos int
		want  []bool
	}{
		{0, []bool{false, false, false, false, false}},
		{1, []bool{true, true, true, false, false}},
		{2, []bool{true, true, true, true, false}},
		{3, []bool{true, true, true, true, true}},
		{0, []bool{false, false, false, false, false}},
	} {
		h.set(Model{Todos: make([]Todo, step.todos)})
		calls.Store(0)
		set, _, err := tr.Next()
		if err != nil || !slices.Equal(set, step.want) {
			t.Fatalf("%d todos: Next = %v, %v; want %v", step.todos, set, err, step.want)
		}
		if calls.Load() != 1 {
			t.Fatalf("%d todos: the shared hook ran %d times for one change, want 1", step.todos, calls.Load())
		}
	}
}

// A shared hook that panics leaves every capability sharing it out, and
// is reported once, naming the first of them; the others are checked.
func TestOfferTrackerLeavesOutEveryCapabilityOfAPanickingSharedHook(t *testing.T) {
	touchy := func(m Model) bool {
		if m.Selected == "boom" {
			panic("boom")
		}
		return true
	}
	c := agent.Make(agent.Definition[Model, User]{Capabilities: []agent.Capability[Model, User]{
		agent.Expose(capability[DeleteTodo]{Description: "Delete a todo.", Available: touchy}),
		agent.Expose(capability[SetQuantity]{Description: "Set the quantity.", Available: func(m Model) bool { return m.Selected != "" }}),
		agent.Expose(capability[ClearCompleted]{Description: "Clear the completed todos.", Available: touchy}),
	}})
	h := &host{}
	rt, err := agent.Bind(c, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := rt.TrackOffer()
	if set, _, err := tr.Next(); err != nil || !slices.Equal(set, []bool{true, false, true}) {
		t.Fatalf("first Next = %v, %v", set, err)
	}
	for range 2 { // the defect is reported at every change it recurs
		h.set(Model{Selected: "boom"})
		set, _, err := tr.Next()
		var defect *agent.DefectError
		if !errors.As(err, &defect) || defect.Capability != "delete_todo" {
			t.Fatalf("Next error = %v, want delete_todo's defect", err)
		}
		if !slices.Equal(set, []bool{false, true, false}) {
			t.Fatalf("Next = %v, want [false true false]", set)
		}
	}
	h.set(Model{})
	if set, changed, err := tr.Next(); err != nil || !changed || !slices.Equal(set, []bool{true, false, true}) {
		t.Fatalf("Next after the panic = %v, changed %v, %v", set, changed, err)
	}
}

// versionedHost is host with a version that moves with every set.
type versionedHost struct {
	host
	version atomic.Uint64
}

func (h *versionedHost) set(m Model) {
	h.host.set(m)
	h.version.Add(1)
}

func (h *versionedHost) VersionedModel() (Model, uint64) {
	v := h.version.Load()
	return h.Model(), v + 1
}

// ModelAt keeps no history.
func (h *versionedHost) ModelAt(uint64) (Model, bool) { return Model{}, false }

// On a versioned host, a Next that finds the version it last checked
// runs no hook and reports no change; a new version is checked again.
func TestOfferTrackerChecksAVersionOnce(t *testing.T) {
	var renames, deletes atomic.Int32
	h := &versionedHost{}
	_, tr := trackOn(t, h, &renames, &deletes)
	if _, _, err := tr.Next(); err != nil {
		t.Fatal(err)
	}
	deletes.Store(0)
	set, changed, err := tr.Next()
	if err != nil || changed || !slices.Equal(set, []bool{true, false, false, false}) {
		t.Fatalf("Next on the same version = %v, changed %v, %v", set, changed, err)
	}
	if deletes.Load() != 0 {
		t.Fatalf("Next on the same version ran delete's hook %d times, want 0", deletes.Load())
	}
	h.set(Model{Todos: []Todo{{ID: "t1"}}})
	set, changed, err = tr.Next()
	if err != nil || !changed || !slices.Equal(set, []bool{true, false, true, false}) || deletes.Load() != 1 {
		t.Fatalf("Next on a new version = %v, changed %v, %v; delete's hook ran %d times", set, changed, err, deletes.Load())
	}
}
