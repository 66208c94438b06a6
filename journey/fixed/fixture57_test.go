package fixed

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"unicode/utf16"

	"github.com/foldagent/foldagent/internal/journeytest"
	"github.com/foldagent/foldagent/internal/journeytest/fixture"
	"github.com/foldagent/foldagent/journey"
)

// The fixture of the published byte measurements (hcifootprint notes §4)
// is internal/fixture's app, the one every journey test and benchmark
// uses (journeytest.BigApp builds the same graph for outside tests): graph
// bigapp; 60 pages; 57 journeys; journey 56 has the one failing
// precondition, vip eq true with vip:false; every handler registered; the
// cursor on page-0.
const (
	fixture57Pages    = fixture.Pages
	fixture57Journeys = fixture.Journeys
)

// The reference system's figures on the same fixture (UTF-16 code units).
const (
	fixture57RefPerJourney = 79117
	fixture57RefSingle     = 4962
	fixture57RefList       = 310
)

// fixture57Def is the fixture's graph with the given number of journeys.
func fixture57Def(journeys int) journey.GraphDef {
	return journeytest.BigAppWith(fixture57Pages, journeys)
}

func fixture57Session(tb testing.TB, journeys int) *journey.Session {
	tb.Helper()
	g, err := journey.NewGraph("bigapp", fixture57Def(journeys))
	if err != nil {
		tb.Fatal(err)
	}
	s := g.MustNewSession(journey.Options{State: map[string]any{"vip": false}})
	noop := func(context.Context, any) (any, error) { return nil, nil }
	for n := range fixture57Pages {
		id := strconv.Itoa(n)
		if _, err := s.RegisterActions("page-"+id, journey.Registration{Handlers: map[string]journey.Handler{"step-a-" + id: noop, "go-next-" + id: noop}}); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

func utf16Len(b []byte) int { return len(utf16.Encode([]rune(string(b)))) }

func TestFixture57CursorFacts(t *testing.T) {
	s := fixture57Session(t, fixture57Journeys)
	passed, entry, does := 0, 0, 0
	for _, j := range s.View().AvailableJourneys() {
		if j.PreconditionPassed {
			passed++
		}
		if j.EntryAvailable {
			entry++
		}
		does += len(j.Description)
	}
	if passed != 56 || entry != 2 || s.View().Position().YouAreOn != "page-0" {
		t.Fatalf("preconditions %d/57, entry %d/57, on %s", passed, entry, s.View().Position().YouAreOn)
	}
	if does != 4208 {
		t.Fatalf("the 57 does strings total %d characters", does)
	}
}

// TestPortByteEconomy prints what a model reads on the fixture and holds
// every figure at or below the reference system's, with every field the
// seed names still present.
func TestPortByteEconomy(t *testing.T) {
	s := fixture57Session(t, fixture57Journeys)
	per := Serve(s, Options{})
	single := Serve(s, Options{JourneyTools: Single})
	perB, singleB := per.ToolsJSON(), single.ToolsJSON()
	wh := per.Call(context.Background(), "bigapp.whats_here", nil)
	whB := wh.JSON()
	list, _ := wh.Get("journeys")
	listB, _ := marshal(list)

	t.Logf("fixture: 60 pages, 57 journeys, cursor page-0 (reference figures are UTF-16 code units)")
	t.Logf("%-28s %8s %8s %10s", "", "UTF-8", "UTF-16", "reference")
	t.Logf("%-28s %8d %8d %10d", "tools, per-journey (61)", len(perB), utf16Len(perB), fixture57RefPerJourney)
	t.Logf("%-28s %8d %8d %10d", "tools, single (5)", len(singleB), utf16Len(singleB), fixture57RefSingle)
	t.Logf("%-28s %8d %8d %10s", "whats_here result", len(whB), utf16Len(whB), "-")
	t.Logf("%-28s %8d %8d %10d", "whats_here journey list", len(listB), utf16Len(listB), fixture57RefList)
	for _, c := range []struct {
		what   string
		b      []byte
		target int
	}{{"per-journey tools", perB, fixture57RefPerJourney}, {"single tools", singleB, fixture57RefSingle}, {"journey list", listB, fixture57RefList}} {
		if len(c.b) > c.target || utf16Len(c.b) > c.target {
			t.Errorf("%s: %d bytes / %d units, above the reference %d", c.what, len(c.b), utf16Len(c.b), c.target)
		}
	}
	if n := len(per.Tools()); n != 61 {
		t.Fatalf("%d per-journey tools, want 61", n)
	}

	// Nothing the seed names was dropped to get there.
	var tools []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		InputSchema struct {
			Properties map[string]any `json:"properties"`
		} `json:"inputSchema"`
	}
	if err := json.Unmarshal(perB, &tools); err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools[:57] {
		for _, k := range []string{"step", "input", "confirm", "decline", "instance"} {
			if _, ok := tool.InputSchema.Properties[k]; !ok {
				t.Fatalf("%s lacks %s", tool.Name, k)
			}
		}
	}
	var m map[string]any
	if err := json.Unmarshal(whB, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ok", "judgment", "youAreOn", "version", "actions", "journeys", "journeysElsewhere", "journeysElsewhereMeans", "facts"} {
		if _, ok := m[k]; !ok {
			t.Fatalf("whats_here lacks %s", k)
		}
	}
	rows := rowsOf(m["journeys"])
	if len(rows) != 2 || m["journeysElsewhere"] != 55.0 {
		t.Fatalf("scoped list: %d rows, %v elsewhere", len(rows), m["journeysElsewhere"])
	}
	for _, r := range rows {
		for _, k := range []string{"journey", "does", "standing"} {
			if _, ok := r[k]; !ok {
				t.Fatalf("journey row lacks %s: %v", k, r)
			}
		}
	}
	if rows[1]["feasible"] != false {
		t.Fatalf("the failing precondition must show: %v", rows[1])
	}
}

// TestPortToolBytesPerJourney pins the invariants behind the figures: in
// single mode the tool bytes do not depend on how many journeys the graph
// declares (3 or 57); per journey, each journey adds one constant plus
// its name and its does.
func TestPortToolBytesPerJourney(t *testing.T) {
	three := Serve(fixture57Session(t, 3), Options{JourneyTools: Single}).ToolsJSON()
	full := Serve(fixture57Session(t, fixture57Journeys), Options{JourneyTools: Single}).ToolsJSON()
	if string(three) != string(full) {
		t.Fatalf("single-mode tools differ: %d bytes at 3 journeys, %d at 57", len(three), len(full))
	}
	zero := len(Serve(fixture57Session(t, 0), Options{}).ToolsJSON())
	one := len(Serve(fixture57Session(t, 1), Options{}).ToolsJSON())
	def := fixture57Def(fixture57Journeys)
	constant := one - zero - len("bigapp.journey.journey-number-0") - len(def.Journeys[0].Does)
	want := zero
	for _, j := range def.Journeys {
		want += constant + len("bigapp.journey."+j.ID) + len(j.Does)
	}
	if got := len(Serve(fixture57Session(t, fixture57Journeys), Options{}).ToolsJSON()); got != want {
		t.Fatalf("per-journey tools: %d bytes, want %d (constant %d per journey)", got, want, constant)
	}
	t.Logf("per-journey marginal cost: %d bytes + name + does", constant)
}

// BenchmarkWhatsHere measures a model's whats_here on the fixture against
// the session's own snapshot (Here) in the same run: the difference is
// the port's rendering (rows, journey list, facts, JSON).
func BenchmarkWhatsHere(b *testing.B) {
	s := fixture57Session(b, fixture57Journeys)
	p := Serve(s, Options{})
	b.Run("baseline=Here", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = s.View().Here()
		}
	})
	b.Run("WhatsHere", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = p.Call(context.Background(), "bigapp.whats_here", nil)
		}
	})
	b.Run("WhatsHere+JSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = p.Call(context.Background(), "bigapp.whats_here", nil).JSON()
		}
	})
}
