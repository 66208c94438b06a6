package journeytest_test

import (
	"fmt"

	"github.com/foldagent/foldagent/internal/journeytest"
)

// The published fixture at its cursor: on page-0, two actions are served
// and two of the 57 journeys start here; the other 55 start elsewhere.
func ExampleBigAppSession() {
	s, err := journeytest.BigAppSession(60)
	if err != nil {
		panic(err)
	}
	h := s.View().Here()
	fmt.Println(h.YouAreOn, len(h.Actions), len(h.Journeys), h.JourneysElsewhere)
	// Output: page-0 2 2 55
}
