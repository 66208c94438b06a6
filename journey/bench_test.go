package journey_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/journeytest"
)

// TestBigAppFixtureFacts pins the cursor facts the published figures were
// measured at: 56 of 57 preconditions pass, 2 journeys start on page-0.
func TestBigAppFixtureFacts(t *testing.T) {
	s, err := journeytest.BigAppSession(60)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Graph().Actions()); n != 120 {
		t.Fatalf("%d actions, want 120", n)
	}
	passed, entry := 0, 0
	for _, j := range s.AvailableJourneys() {
		if j.PreconditionPassed {
			passed++
		}
		if j.EntryAvailable {
			entry++
		}
	}
	h := s.Here()
	if passed != 56 || entry != 2 || len(h.Journeys) != 2 || h.JourneysElsewhere != 55 || len(h.Actions) != 2 {
		t.Fatalf("preconditions %d/57, entry %d, here %d journeys (+%d elsewhere), %d actions", passed, entry, len(h.Journeys), h.JourneysElsewhere, len(h.Actions))
	}
}

// BenchmarkAvailableActions measures what a model's "where am I" costs at
// the cursor: the served actions plus the journeys startable here (Here).
// The 600-page graph has ten times the pages that are not current; the
// per-op figures must match the 60-page ones, because both are indexed
// per page when the graph is built.
func BenchmarkAvailableActions(b *testing.B) {
	for _, pages := range []int{60, 600} {
		b.Run("pages="+strconv.Itoa(pages), func(b *testing.B) {
			s, err := journeytest.BigAppSession(pages)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var h journey.Here
			for b.Loop() {
				h = s.Here()
			}
			if len(h.Actions) != 2 || len(h.Journeys) != 2 {
				b.Fatalf("unexpected snapshot: %d actions, %d journeys", len(h.Actions), len(h.Journeys))
			}
		})
	}
}

// TestHereAllocationsIgnoreOtherPages is the deterministic half of the
// benchmark: serving the cursor allocates exactly as much on a graph with
// ten times the pages that are not current.
func TestHereAllocationsIgnoreOtherPages(t *testing.T) {
	allocs := map[int]float64{}
	for _, pages := range []int{60, 600} {
		s, err := journeytest.BigAppSession(pages)
		if err != nil {
			t.Fatal(err)
		}
		allocs[pages] = testing.AllocsPerRun(200, func() { _ = s.Here() })
	}
	if allocs[60] != allocs[600] || allocs[60] == 0 {
		t.Fatalf("Here allocates %v per call at 60 pages and %v at 600", allocs[60], allocs[600])
	}
}

// BenchmarkAvailableActionsRatio interleaves the 60- and 600-page graphs in
// one loop, so both see the same machine load, and reports the ratio of
// their per-call costs: the baseline is the 60-page graph measured in the
// same run. A ratio near 1 is the claim; a cost growing with pages that
// are not current would show as a ratio near 10.
func BenchmarkAvailableActionsRatio(b *testing.B) {
	small, err := journeytest.BigAppSession(60)
	if err != nil {
		b.Fatal(err)
	}
	large, err := journeytest.BigAppSession(600)
	if err != nil {
		b.Fatal(err)
	}
	var tSmall, tLarge time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		_ = small.Here()
		t1 := time.Now()
		_ = large.Here()
		t2 := time.Now()
		tSmall += t1.Sub(t0)
		tLarge += t2.Sub(t1)
		n++
	}
	b.ReportMetric(float64(tSmall.Nanoseconds())/float64(n), "ns/op-60pages")
	b.ReportMetric(float64(tLarge.Nanoseconds())/float64(n), "ns/op-600pages")
	b.ReportMetric(float64(tLarge)/float64(tSmall), "ratio-600/60")
}
