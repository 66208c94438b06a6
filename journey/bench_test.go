package journey_test

import (
	"strconv"
	"testing"

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
