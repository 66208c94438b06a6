package held

import (
	"errors"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/bound"
)

type entry struct {
	Call
	note string // guarded by the book (Do)
}

// clock is a settable clock for the book.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newBook(o Options) (*Book[*entry], *clock) {
	c := &clock{t: time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)}
	o.Now = c.now
	return NewBook[*entry](o), c
}

func (b *Book[E]) mustAdmit(t *testing.T, e E) E {
	t.Helper()
	if err := b.Admit(e); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestDefaults(t *testing.T) {
	b := NewBook[*entry](Options{KeepOutcome: -1})
	if b.Keep() != DefaultKeepOutcome || b.places.PerIdentity().Max != DefaultMaxHeldPerIdentity || b.places.Overall().Max != DefaultMaxHeld {
		t.Fatalf("keep %v, bounds %d/%d", b.Keep(), b.places.PerIdentity().Max, b.places.Overall().Max)
	}
	if a, c := NewID(), NewID(); len(a) != 32 || a == c {
		t.Fatalf("ids %q, %q", a, c)
	}
}

func TestFind(t *testing.T) {
	b, _ := newBook(Options{})
	e := b.mustAdmit(t, &entry{Call: b.NewCall("ann", "refund", `{}`, true)})
	cases := []struct {
		owner, id string
		found     bool
	}{
		{"ann", e.ID, true},
		{"bob", e.ID, false}, // another identity's id is not found
		{"ann", "nope", false},
	}
	for _, c := range cases {
		if got := b.Find(c.owner, c.id); (got != nil) != c.found || (c.found && got != e) {
			t.Errorf("Find(%q, %q) = %v, want found %v", c.owner, c.id, got, c.found)
		}
	}
}

func TestRejoin(t *testing.T) {
	cases := []struct {
		name       string
		owner      string
		callName   string
		args       string
		rejoinable bool
		delivered  bool
		found      bool
	}{
		{"the same call", "ann", "refund", `{"o":1}`, true, false, true},
		{"another identity", "bob", "refund", `{"o":1}`, true, false, false},
		{"other arguments", "ann", "refund", `{"o":2}`, true, false, false},
		{"another capability", "ann", "cancel", `{"o":1}`, true, false, false},
		{"a task is never rejoined", "ann", "refund", `{"o":1}`, false, false, false},
		{"delivered: the same is a new call", "ann", "refund", `{"o":1}`, true, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, _ := newBook(Options{})
			e := b.mustAdmit(t, &entry{Call: b.NewCall("ann", "refund", `{"o":1}`, c.rejoinable)})
			if c.delivered {
				b.Delivered(e)
				if b.Find("ann", e.ID) != e {
					t.Fatal("a delivered outcome is no longer readable by id")
				}
			}
			if got := b.Rejoin(c.owner, c.callName, c.args); (got != nil) != c.found {
				t.Fatalf("Rejoin = %v, want found %v", got, c.found)
			}
		})
	}
}

func TestRejoinFindsTheOldest(t *testing.T) {
	b, clk := newBook(Options{})
	first := b.mustAdmit(t, &entry{Call: b.NewCall("ann", "refund", `{}`, true)})
	clk.t = clk.t.Add(time.Second)
	b.mustAdmit(t, &entry{Call: b.NewCall("ann", "refund", `{}`, true)})
	if got := b.Rejoin("ann", "refund", `{}`); got != first {
		t.Fatal("Rejoin did not find the oldest call")
	}
}

func TestBoundsAndKeeping(t *testing.T) {
	b, clk := newBook(Options{MaxHeldPerIdentity: 2, MaxHeld: 3, KeepOutcome: time.Minute})
	a1 := b.mustAdmit(t, &entry{Call: b.NewCall("ann", "x", "1", true)})
	b.mustAdmit(t, &entry{Call: b.NewCall("ann", "x", "2", true)})
	err := b.Admit(&entry{Call: b.NewCall("ann", "x", "3", true)})
	if r, ok := bound.As(err); !ok || !r.PerIdentity {
		t.Fatalf("third of ann's calls: %v, want the per-identity refusal", err)
	}
	b.mustAdmit(t, &entry{Call: b.NewCall("bob", "x", "1", true)})
	if r, ok := bound.As(b.Admit(&entry{Call: b.NewCall("cat", "x", "1", true)})); !ok || r.PerIdentity {
		t.Fatal("past the overall bound, cat was not refused by it")
	}
	if b.Count() != 3 {
		t.Fatalf("count %d after refusals, want 3: a refusal keeps nothing", b.Count())
	}
	// An ended call keeps its place until its outcome expires.
	b.Finish(a1, func() { a1.note = "done" })
	select {
	case <-a1.Done:
	default:
		t.Fatal("Finish did not close Done")
	}
	clk.t = clk.t.Add(59 * time.Second)
	if b.Find("ann", a1.ID) == nil {
		t.Fatal("an outcome was forgotten before KeepOutcome")
	}
	clk.t = clk.t.Add(time.Second)
	if b.Find("ann", a1.ID) != nil {
		t.Fatal("an outcome was kept past KeepOutcome")
	}
	b.mustAdmit(t, &entry{Call: b.NewCall("ann", "x", "4", true)}) // its place was given back
}

func TestForgetGivesThePlaceBack(t *testing.T) {
	b, _ := newBook(Options{MaxHeldPerIdentity: 1})
	e := b.mustAdmit(t, &entry{Call: b.NewCall("ann", "x", "1", true)})
	b.Forget(e)
	b.Forget(e) // twice gives back once
	if b.Count() != 0 || b.places.Held("ann") != 0 {
		t.Fatalf("count %d, places %d after Forget", b.Count(), b.places.Held("ann"))
	}
	b.mustAdmit(t, &entry{Call: b.NewCall("ann", "x", "2", true)})
}

func TestListIsOldestFirstAndFiltered(t *testing.T) {
	b, clk := newBook(Options{})
	var want []*entry
	for i := range 4 {
		e := b.mustAdmit(t, &entry{Call: b.NewCall("ann", "x", string(rune('a'+i)), true), note: []string{"keep", "skip"}[i%2]})
		if i%2 == 0 {
			want = append(want, e)
		}
		clk.t = clk.t.Add(time.Millisecond)
	}
	b.mustAdmit(t, &entry{Call: b.NewCall("bob", "x", "a", true), note: "keep"})
	got := b.List("ann", func(e *entry) bool { return e.note == "keep" })
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("List = %v, want %v", got, want)
	}
}

func TestCloseRefusesAndReturnsTheRunning(t *testing.T) {
	b, _ := newBook(Options{})
	running := b.mustAdmit(t, &entry{Call: b.NewCall("ann", "x", "1", true)})
	ended := b.mustAdmit(t, &entry{Call: b.NewCall("ann", "x", "2", true)})
	b.Finish(ended, nil)
	got := b.Close()
	if len(got) != 1 || got[0] != running {
		t.Fatalf("Close returned %v, want only the running call", got)
	}
	if err := b.Admit(&entry{Call: b.NewCall("ann", "x", "3", true)}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Admit after Close: %v", err)
	}
}
