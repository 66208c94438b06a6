package journey_test

import (
	"context"
	"github.com/foldagent/foldagent/journey/fixed"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/foldagent/foldagent/internal/journeytest"
	"github.com/foldagent/foldagent/journey"
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
	for _, j := range s.View().AvailableJourneys() {
		if j.PreconditionPassed {
			passed++
		}
		if j.EntryAvailable {
			entry++
		}
	}
	h := s.View().Here()
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
				h = s.View().Here()
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
		allocs[pages] = testing.AllocsPerRun(200, func() { _ = s.View().Here() })
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
		_ = small.View().Here()
		t1 := time.Now()
		_ = large.View().Here()
		t2 := time.Now()
		tSmall += t1.Sub(t0)
		tLarge += t2.Sub(t1)
		n++
	}
	b.ReportMetric(float64(tSmall.Nanoseconds())/float64(n), "ns/op-60pages")
	b.ReportMetric(float64(tLarge.Nanoseconds())/float64(n), "ns/op-600pages")
	b.ReportMetric(float64(tLarge)/float64(tSmall), "ratio-600/60")
}

// historySession is one page with an action that comes to rest the moment
// it fires (no writes, fired as the user) and one guarded shut, with
// `fires` fires of history behind it, one in ten refused.
func historySession(tb testing.TB, fires int) (*journey.Session, *fixed.Port) {
	tb.Helper()
	g, err := journey.NewGraph("hist", journey.GraphDef{Pages: []journey.Page{{ID: "home", Actions: []journey.Action{
		{Name: "tick", Does: "Tick once."},
		{Name: "save", Does: "Save the draft.", Writes: []string{"draft"}},
		{Name: "shut", Does: "Never offered.", When: journey.Guard{journey.Eq("open", true)}},
	}}}})
	if err != nil {
		tb.Fatal(err)
	}
	s := g.MustNewSession(journey.Options{State: map[string]any{"open": false}})
	ctx := context.Background()
	for i := range fires {
		if i%10 == 9 {
			s.Fire(ctx, "home.shut", journey.FireOptions{Source: journey.ActorUser})
			continue
		}
		if r := s.Fire(ctx, "home.tick", journey.FireOptions{Source: journey.ActorUser}); !r.OK {
			tb.Fatalf("%+v", r)
		}
	}
	return s, fixed.Serve(s, fixed.Options{})
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkTurnCost is the claim that a turn costs the same however long
// the conversation has been and however large the app is, measured as
// ratios in one run so both sides see the same machine load: whats_here
// and UpdateState (attributed by queue order, no id) after 10 and after
// 1,000,000 fires of history; whats_here on the 60-page and a 6,000-page
// build of the fixture; and the heap the 1,000,000-fire session holds
// under the default retention.
func BenchmarkTurnCost(b *testing.B) {
	before := heapInUse()
	bigS, bigP := historySession(b, 1_000_000)
	heap := heapInUse() - before
	smallS, smallP := historySession(b, 10)
	midS, midP := historySession(b, 1000)
	page60, err := journeytest.BigAppSession(60)
	if err != nil {
		b.Fatal(err)
	}
	page6000, err := journeytest.BigAppSession(6000)
	if err != nil {
		b.Fatal(err)
	}
	p60 := fixed.Serve(page60, fixed.Options{})
	p6000 := fixed.Serve(page6000, fixed.Options{})
	ctx := context.Background()
	delta := map[string]any{"other": 1}
	// Each loop times a batch of each call back to back; the ratios
	// reported are medians over the loops, so a preempted batch on a
	// shared machine does not decide the figure.
	const batch = 16
	timed := func(f func()) float64 {
		t0 := time.Now()
		for range batch {
			f()
		}
		return float64(time.Since(t0).Nanoseconds()) / batch
	}
	// Every history session gets the same UpdateState in each loop, so
	// the three whats_here calls render the same kind of recent rows: a
	// session left out would answer with cheaper lines (fires only) and
	// make the ratio measure the rows, not the history behind them.
	var whSmall, whMid, whBig, usSmall, usMid, usBig, wh60, wh6000 []float64
	for b.Loop() {
		whSmall = append(whSmall, timed(func() { smallP.Call(ctx, "hist.whats_here", nil) }))
		whMid = append(whMid, timed(func() { midP.Call(ctx, "hist.whats_here", nil) }))
		whBig = append(whBig, timed(func() { bigP.Call(ctx, "hist.whats_here", nil) }))
		usSmall = append(usSmall, timed(func() { smallS.UpdateState(delta, "") }))
		usMid = append(usMid, timed(func() { midS.UpdateState(delta, "") }))
		usBig = append(usBig, timed(func() { bigS.UpdateState(delta, "") }))
		wh60 = append(wh60, timed(func() { p60.Call(ctx, "bigapp.whats_here", nil) }))
		wh6000 = append(wh6000, timed(func() { p6000.Call(ctx, "bigapp.whats_here", nil) }))
	}
	median := func(xs []float64) float64 {
		xs = slices.Clone(xs)
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	ratio := func(num, den []float64) float64 {
		rs := make([]float64, len(num))
		for i := range num {
			rs[i] = num[i] / den[i]
		}
		return median(rs)
	}
	b.ReportMetric(median(whSmall), "ns/whats_here-10fires")
	b.ReportMetric(median(whBig), "ns/whats_here-1Mfires")
	b.ReportMetric(median(usSmall), "ns/UpdateState-10fires")
	b.ReportMetric(median(usBig), "ns/UpdateState-1Mfires")
	b.ReportMetric(median(wh60), "ns/whats_here-60pages")
	b.ReportMetric(median(wh6000), "ns/whats_here-6000pages")
	b.ReportMetric(ratio(whBig, whSmall), "ratio-whats_here-1M/10")
	// 1,000 fires already fill the facts block's 20 lines, as 1,000,000
	// do: this ratio is history alone, with the same lines served.
	b.ReportMetric(ratio(whBig, whMid), "ratio-whats_here-1M/1000")
	b.ReportMetric(ratio(usBig, usSmall), "ratio-UpdateState-1M/10")
	b.ReportMetric(ratio(usBig, usMid), "ratio-UpdateState-1M/1000")
	b.ReportMetric(ratio(wh6000, wh60), "ratio-whats_here-6000/60pages")
	b.ReportMetric(float64(heap)/(1<<20), "MB-heap-1Mfires")
	runtime.KeepAlive(bigS)
}

// TestWhatsHereAllocationsIgnoreHistory is the deterministic half of
// BenchmarkTurnCost: once the facts block is full, a whats_here and an
// UpdateState allocate exactly as much after 100,000 fires as after
// 5,000 (both past the retention), and the session holds the same number of rows.
func TestWhatsHereAllocationsIgnoreHistory(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not deterministic under -race (sync.Pool drops entries at random); run without -race")
	}
	ctx := context.Background()
	delta := map[string]any{"other": 1}
	allocs := map[int][2]float64{}
	rows := map[int]int{}
	for _, n := range []int{5000, 100_000} {
		s, p := historySession(t, n)
		wh := testing.AllocsPerRun(50, func() { p.Call(ctx, "hist.whats_here", nil) })
		us := testing.AllocsPerRun(50, func() { s.UpdateState(delta, "") })
		allocs[n] = [2]float64{wh, us}
		rows[n] = len(s.View().Transitions())
		r := p.Call(ctx, "hist.whats_here", nil)
		if r.Reason() != "" || r.TransitionID() != "" || !r.OK() {
			t.Fatalf("typed access on a whats_here result: %s", r.JSON())
		}
	}
	if allocs[5000] != allocs[100_000] {
		t.Fatalf("whats_here/UpdateState allocate %v after 5,000 fires and %v after 100,000", allocs[5000], allocs[100_000])
	}
	if rows[100_000] > journey.DefaultRetainTransitions+3 {
		t.Fatalf("%d rows held after 100,000 fires", rows[100_000])
	}
}

// BenchmarkFire is a fire's cost, as ratios in one run so both sides see
// the same machine load: a fire (the user's, of an action that comes to
// rest at once) after 10 and after 1,000,000 fires of history, against
// the session's own Here on the same session as the baseline. Medians
// over the loops, each timing a batch of each call back to back.
func BenchmarkFire(b *testing.B) {
	bigS, _ := historySession(b, 1_000_000)
	smallS, _ := historySession(b, 10)
	ctx := context.Background()
	const batch = 16
	timed := func(f func()) float64 {
		t0 := time.Now()
		for range batch {
			f()
		}
		return float64(time.Since(t0).Nanoseconds()) / batch
	}
	fire := func(s *journey.Session) func() {
		return func() {
			if r := s.Fire(ctx, "home.tick", journey.FireOptions{Source: journey.ActorUser}); !r.OK {
				b.Fatalf("%+v", r)
			}
		}
	}
	var here, small, big []float64
	for b.Loop() {
		here = append(here, timed(func() { _ = smallS.View().Here() }))
		small = append(small, timed(fire(smallS)))
		big = append(big, timed(fire(bigS)))
	}
	median := func(xs []float64) float64 {
		xs = slices.Clone(xs)
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	ratio := func(num, den []float64) float64 {
		rs := make([]float64, len(num))
		for i := range num {
			rs[i] = num[i] / den[i]
		}
		return median(rs)
	}
	b.ReportMetric(median(small), "ns/fire-10fires")
	b.ReportMetric(median(big), "ns/fire-1Mfires")
	b.ReportMetric(ratio(small, here), "ratio-fire/Here")
	b.ReportMetric(ratio(big, small), "ratio-fire-1M/10")
}
