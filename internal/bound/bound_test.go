package bound_test

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/bound"
)

func TestResolve(t *testing.T) {
	for _, c := range []struct{ v, def, want int }{
		{0, 32, 32}, {5, 32, 5}, {-1, 32, 0}, {1, 0, 1},
	} {
		if got := bound.Resolve(c.v, c.def); got != c.want {
			t.Errorf("Resolve(%d, %d) = %d, want %d", c.v, c.def, got, c.want)
		}
	}
}

func TestCounterRefusesBeyondEachBoundAndOnlyThere(t *testing.T) {
	per := bound.Limit{Name: "MaxPer", Max: 2}
	all := bound.Limit{Name: "MaxAll", Max: 3}
	type step struct {
		key         string
		give        bool
		wantBound   string // "" when taken
		perIdentity bool
	}
	for _, c := range []struct {
		name  string
		per   bound.Limit
		all   bound.Limit
		steps []step
	}{
		{"per identity first", per, all, []step{
			{key: "a"}, {key: "a"}, {key: "a", wantBound: "MaxPer", perIdentity: true},
			{key: "b"}, // a at its bound does not affect b
			{key: "b", wantBound: "MaxAll"},
			{key: "a", give: true}, {key: "b"},
		}},
		{"unbounded", bound.Limit{}, bound.Limit{Name: "MaxAll"}, []step{
			{key: "a"}, {key: "a"}, {key: "a"}, {key: "a"},
		}},
		{"a given place is taken again", bound.Limit{Name: "MaxPer", Max: 1}, bound.Limit{}, []step{
			{key: "a"}, {key: "a", wantBound: "MaxPer", perIdentity: true},
			{key: "a", give: true}, {key: "a"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctr := bound.NewCounter(c.per, c.all, 0)
			for i, s := range c.steps {
				if s.give {
					ctr.Give(s.key)
					continue
				}
				before := ctr.Total()
				check := ctr.Check(s.key)
				err := ctr.Take(s.key)
				if (check == nil) != (err == nil) {
					t.Fatalf("step %d: Check %v, Take %v", i, check, err)
				}
				if s.wantBound == "" {
					if err != nil {
						t.Fatalf("step %d: %s refused: %v", i, s.key, err)
					}
					continue
				}
				r, ok := bound.As(err)
				if !ok || !errors.Is(err, bound.ErrRetryLater) {
					t.Fatalf("step %d: %v, want a *Refusal", i, err)
				}
				if r.Bound != s.wantBound || r.PerIdentity != s.perIdentity || r.RetryAfter != bound.DefaultRetryAfter {
					t.Fatalf("step %d: refusal %+v, want bound %s per-identity %v", i, r, s.wantBound, s.perIdentity)
				}
				if ctr.Total() != before {
					t.Fatalf("step %d: a refusal changed the count: %d -> %d", i, before, ctr.Total())
				}
			}
		})
	}
}

func TestRefusalAnswers(t *testing.T) {
	r := &bound.Refusal{Bound: "MaxHeldApprovalsPerCaller", Limit: 64, PerIdentity: true, RetryAfter: 1500 * time.Millisecond}
	if r.RetryAfterSeconds() != 2 {
		t.Fatalf("RetryAfterSeconds = %d, want 2 (rounded up)", r.RetryAfterSeconds())
	}
	if (&bound.Refusal{}).RetryAfterSeconds() != 1 {
		t.Fatal("a zero hint must still ask for a positive wait")
	}
	h := http.Header{}
	r.SetHeaders(h)
	if h.Get("Retry-After") != "2" || bound.StatusCode != 429 {
		t.Fatalf("Retry-After %q status %d", h.Get("Retry-After"), bound.StatusCode)
	}
	d := r.Data()
	if d["bound"] != "MaxHeldApprovalsPerCaller" || d["limit"] != 64 || d["perIdentity"] != true || d["retryAfterSeconds"] != 2 {
		t.Fatalf("data %v", d)
	}
	if _, ok := bound.As(fmt.Errorf("wrapped: %w", r)); !ok {
		t.Fatal("As does not find a wrapped refusal")
	}
}

func TestGiveWithoutTakeIsADefect(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("giving back a place never taken did not panic")
		}
	}()
	bound.NewCounter(bound.Limit{Name: "X", Max: 1}, bound.Limit{}, 0).Give("a")
}

// Many identities taking and giving at once never pass either bound, and
// every place comes back.
func TestCounterUnderRace(t *testing.T) {
	ctr := bound.NewCounter(bound.Limit{Name: "per", Max: 3}, bound.Limit{Name: "all", Max: 10}, 0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	peak := map[string]int{}
	peakAll := 0
	for k := range 8 {
		key := fmt.Sprintf("id-%d", k)
		for range 6 {
			wg.Go(func() {
				for range 200 {
					h, err := ctr.Acquire(key)
					if err != nil {
						continue
					}
					mu.Lock()
					peak[key] = max(peak[key], ctr.Held(key))
					peakAll = max(peakAll, ctr.Total())
					mu.Unlock()
					h.Release()
					h.Release() // once only
				}
			})
		}
	}
	wg.Wait()
	for k, p := range peak {
		if p > 3 {
			t.Errorf("%s held %d at once, bound 3", k, p)
		}
	}
	if peakAll > 10 || ctr.Total() != 0 {
		t.Fatalf("peak %d (bound 10), %d held after every release", peakAll, ctr.Total())
	}
}

func ExampleCounter() {
	sessions := bound.NewCounter(
		bound.Limit{Name: "MaxSessionsPerPrincipal", Max: 2},
		bound.Limit{Name: "MaxSessions", Max: 100}, 0)
	for range 3 {
		if err := sessions.Take("alice"); err != nil {
			r, _ := bound.As(err)
			fmt.Println("alice refused:", r.Bound, r.Limit, "retry after", r.RetryAfterSeconds(), "s")
		}
	}
	fmt.Println("bob:", sessions.Take("bob"))
	// Output:
	// alice refused: MaxSessionsPerPrincipal 2 retry after 1 s
	// bob: <nil>
}
