package teahost_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/host/teahost"
)

// mutator is the classic violation: a pointer model changed in place.
type mutator struct {
	N     int
	Items []string
}

func (m *mutator) Init() tea.Cmd { return nil }
func (m *mutator) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if b, ok := msg.(bump); ok {
		m.N += b.N // changes the snapshot already handed out
	}
	return m, nil // other Messages: same pointer, unchanged — allowed
}
func (m *mutator) View() tea.View { return tea.NewView(fmt.Sprint("n: ", m.N)) }

// copier is a pointer model done right: copy, change the copy, return it.
type copier struct{ N int }

func (m *copier) Init() tea.Cmd { return nil }
func (m *copier) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if b, ok := msg.(bump); ok {
		c := *m
		c.N += b.N
		return &c, nil
	}
	return m, nil
}
func (m *copier) View() tea.View { return tea.NewView(fmt.Sprint("n: ", m.N)) }

// sharer is a value model that changes a slice element it shares with the
// previous model: invisible to the shallow check, caught by DeepCheck.
type sharer struct{ Counts []int }

func (m sharer) Init() tea.Cmd { return nil }
func (m sharer) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if b, ok := msg.(bump); ok {
		m.Counts[0] += b.N
	}
	if _, ok := msg.(setTitle); ok { // the right way: a new slice
		m.Counts = append([]int(nil), m.Counts...)
		m.Counts[0]++
	}
	return m, nil
}
func (m sharer) View() tea.View { return tea.NewView(fmt.Sprint("counts: ", m.Counts)) }

// violations collects what OnViolation reports.
type violations struct {
	mu   sync.Mutex
	list []*teahost.Violation
}

func (v *violations) add(x *teahost.Violation) {
	v.mu.Lock()
	v.list = append(v.list, x)
	v.mu.Unlock()
}

// byMsg counts reported violations by kind and Message type.
func (v *violations) byMsg() map[string]int {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := map[string]int{}
	for _, x := range v.list {
		out[fmt.Sprintf("%s/%T", x.Kind, x.Msg)]++
	}
	return out
}

// drive dispatches msgs through a running Host and waits until they have all
// been observed.
func drive[M tea.Model](t *testing.T, h *teahost.Host[M, agentMsg], msgs ...agentMsg) {
	t.Helper()
	wait := waitObserved(t, h)
	runHeadless(t, h, nil)
	for _, m := range msgs {
		if err := h.Dispatch(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	wait(len(msgs))
}

func TestPointerMutationDetected(t *testing.T) {
	var v violations
	h := teahost.New[*mutator, agentMsg](&mutator{}, &teahost.Options{ShareModel: true, OnViolation: v.add})
	drive(t, h, bump{N: 1}, setTitle{}, bump{N: 2})
	got := v.byMsg()
	if got["mutated in place/teahost_test.bump"] != 2 || len(got) != 1 {
		t.Fatalf("violations = %v, want exactly the two bumps reported as mutated in place", got)
	}
	if e := v.list[0].Error(); e != "teahost: Update for teahost_test.bump: mutated in place at (*mutator).N (returned *teahost_test.mutator)" {
		t.Fatalf("Error() = %q", e)
	}
}

func TestPointerCopyNotReported(t *testing.T) {
	var v violations
	h := teahost.New[*copier, agentMsg](&copier{}, &teahost.Options{ShareModel: true, OnViolation: v.add})
	first := h.Model()
	drive(t, h, bump{N: 1}, setTitle{}, bump{N: 2})
	if got := v.byMsg(); len(got) != 0 {
		t.Fatalf("violations = %v for a model that copies, want none", got)
	}
	if first.N != 0 || h.Model().N != 3 {
		t.Fatalf("first snapshot N = %d (want 0), latest N = %d (want 3)", first.N, h.Model().N)
	}
}

func TestNoCheckSilencesShallowCheck(t *testing.T) {
	var v violations
	h := teahost.New[*mutator, agentMsg](&mutator{}, &teahost.Options{ShareModel: true, OnViolation: v.add, NoCheck: true})
	drive(t, h, bump{N: 1})
	if got := v.byMsg(); len(got) != 0 {
		t.Fatalf("violations = %v with NoCheck, want none", got)
	}
}

func TestDeepCheckCatchesSharedSlice(t *testing.T) {
	for _, deep := range []bool{false, true} {
		t.Run(fmt.Sprint("deep=", deep), func(t *testing.T) {
			var v violations
			h := teahost.New[sharer, agentMsg](sharer{Counts: []int{0}}, &teahost.Options{ShareModel: true, OnViolation: v.add, DeepCheck: deep})
			drive(t, h, bump{N: 1}, setTitle{}, bump{N: 1})
			got := v.byMsg()
			want := 0
			if deep {
				want = 2 // the shallow check cannot see into a value model's slice
			}
			if got["mutated in place/teahost_test.bump"] != want || len(got) > 1 {
				t.Fatalf("violations = %v, want %d for bump and none for the copying setTitle", got, want)
			}
			if deep && v.list[0].Path != ".Counts[0]" {
				t.Fatalf("Path = %q, want .Counts[0]", v.list[0].Path)
			}
		})
	}
}

func TestDeepCheckCatchesPointerMutation(t *testing.T) {
	var v violations
	h := teahost.New[*mutator, agentMsg](&mutator{Items: []string{"a"}}, &teahost.Options{ShareModel: true, OnViolation: v.add, DeepCheck: true})
	drive(t, h, bump{N: 1}, setTitle{})
	if got := v.byMsg(); got["mutated in place/teahost_test.bump"] != 1 || len(got) != 1 {
		t.Fatalf("violations = %v, want the bump alone", got)
	}
}

// By default the Host publishes copies, so a pointer model that changes in
// place (the usual Bubble Tea idiom) cannot change a snapshot an agent
// holds, and there is nothing to report.
func TestSnapshotsAreCopies(t *testing.T) {
	var v violations
	h := teahost.New[*mutator, agentMsg](&mutator{Items: []string{"a"}}, &teahost.Options{OnViolation: v.add})
	first := h.Model()
	drive(t, h, bump{N: 1}, setTitle{}, bump{N: 2})
	if first.N != 0 || h.Model().N != 3 {
		t.Fatalf("first snapshot N = %d (want 0), latest N = %d (want 3)", first.N, h.Model().N)
	}
	if got := v.byMsg(); len(got) != 0 {
		t.Fatalf("violations = %v, want none: snapshots are copies", got)
	}
	// Each kept version still holds what it held: 0, then 1 after the
	// first bump, then 3.
	var seen []int
	_, last := h.VersionedModel()
	for v := uint64(1); v <= last; v++ {
		if at, ok := h.ModelAt(v); ok && (len(seen) == 0 || seen[len(seen)-1] != at.N) {
			seen = append(seen, at.N)
		}
	}
	if fmt.Sprint(seen) != "[0 1 3]" {
		t.Fatalf("kept versions hold N = %v, want [0 1 3]", seen)
	}
}
