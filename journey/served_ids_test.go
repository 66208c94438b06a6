package journey

import (
	"reflect"
	"slices"
	"testing"
)

// ServedIDs and Served answer what Available does, without building every
// row: the same ids in the same order, and for each id the same row; off
// the served set, nothing. Checked on the cart, on checkout before and
// after the person's address, and with a guard's key missing.
func TestServedAgreesWithAvailable(t *testing.T) {
	s := storeSession(t, Options{})
	check := func(when string) {
		t.Helper()
		rows := s.View().Available()
		ids := make([]string, len(rows))
		for i, r := range rows {
			ids[i] = r.Action
		}
		if len(ids) == 0 {
			t.Fatalf("%s: nothing served to compare", when)
		}
		if got := s.View().ServedIDs(); !slices.Equal(got, ids) {
			t.Fatalf("%s: ServedIDs %v, Available %v", when, got, ids)
		}
		for _, r := range rows {
			got, ok := s.View().Served(r.Action)
			if !ok || !reflect.DeepEqual(got, r) {
				t.Fatalf("%s: Served(%s) = %+v, %v; Available gave %+v", when, r.Action, got, ok, r)
			}
		}
		for _, a := range s.Graph().Actions() {
			if !slices.Contains(ids, a.ID) {
				if _, ok := s.View().Served(a.ID); ok {
					t.Fatalf("%s: Served(%s) answered a row Available does not serve", when, a.ID)
				}
			}
		}
		if _, ok := s.View().Served("no.such-action"); ok {
			t.Fatalf("%s: Served answered an id the graph lacks", when)
		}
	}
	check("on the cart")
	mustFire(t, s, "cart.go-checkout", FireOptions{})
	waitFor(t, s, "go-checkout at rest", func() bool { return len(s.View().AwaitingSettlement()) == 0 })
	check("on checkout")
	s.ReportState(map[string]any{"addressConfirmed": true}, ReportOptions{})
	check("after the address")
	s.ReportState(map[string]any{"addressConfirmed": nil}, ReportOptions{})
	check("with a guard's key gone")
}
