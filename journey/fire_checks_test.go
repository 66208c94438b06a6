package journey

import (
	"slices"
	"testing"
)

// TestFireChecksOrder pins the fire path: the checks run in the order
// Fire documents (capability before authority), each named by the reason
// code it refuses with, none twice.
func TestFireChecksOrder(t *testing.T) {
	want := []Reason{ReasonStaleCursor, ReasonNotOnNode, ReasonNotAllowed, ReasonNodeNotVisible,
		ReasonBlockedByOverlay, ReasonInstanceRequired, ReasonStillMounting, ReasonGuardFailed,
		ReasonPayloadInvalid, ReasonToolDisabled, ReasonNotMaterialized, ReasonPriorFirePending,
		ReasonDuplicate, ReasonApprovalRequired}
	if !slices.Equal(fireChecks[:], want) {
		t.Fatalf("fire path %v, want %v", fireChecks, want)
	}
	// Every check in the path runs (none falls through to the panic): a
	// user fire of an action that passes them all is recorded.
	g := MustNewGraph("c", GraphDef{Pages: []Page{{ID: "a", Actions: []Action{{Name: "go", Does: "Go."}}}}})
	s := g.MustNewSession(Options{})
	if r := s.Fire(t.Context(), "a.go", FireOptions{Source: ActorUser}); !r.OK {
		t.Fatalf("%+v", r)
	}
}

// TestFireChecksFirstStopWins: an agent fire that fails several checks
// at once is refused by the earliest, and a refusal moves no version.
func TestFireChecksFirstStopWins(t *testing.T) {
	g := MustNewGraph("c", GraphDef{Pages: []Page{
		{ID: "a", Actions: []Action{{Name: "go", Does: "Go.", When: Guard{Eq("open", true)}}}},
		{ID: "b"},
	}})
	for _, c := range []struct {
		name    string
		page    string
		version *int64
		want    Reason
	}{
		{"stale cursor before the page", "b", ptr(int64(7)), ReasonStaleCursor},
		{"the page before the guard", "b", nil, ReasonNotOnNode},
		{"the guard before materialized", "a", nil, ReasonGuardFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := g.MustNewSession(Options{Page: c.page, State: map[string]any{"open": false}})
			v := s.View().Version()
			r := s.Fire(t.Context(), "a.go", FireOptions{ExpectedVersion: c.version})
			if r.OK || r.Reason != c.want || s.View().Version() != v || len(s.View().Gaps()) != 1 {
				t.Fatalf("%+v (version %d→%d, %d gaps), want %s", r, v, s.View().Version(), len(s.View().Gaps()), c.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
