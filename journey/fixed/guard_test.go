package fixed

import (
	"context"
	"testing"

	"github.com/foldagent/foldagent/journey"
)

// A defect reached inside a call is answered, not thrown: the call
// returns the DEFECT refusal, the session records where it happened, and
// the next call is served as usual. The defect here is the port's own
// (its look book taken away), the one kind of panic a test can cause on
// purpose below the guard.
func TestCallDefectIsAnswered(t *testing.T) {
	app := newPortShop(t, journey.Options{}, "hostile")
	p := Serve(app.s, Options{})
	looks := p.looks
	p.looks = nil
	r := p.Call(context.Background(), "shop.whats_here", nil)
	if r.OK() || r.Judgment() != "error" || r.Reason() != "DEFECT" || r.String("defect") == "" {
		t.Fatalf("a defect answered %s", r.JSON())
	}
	defects := app.s.Defects()
	if len(defects) != 1 || defects[0].Where != "port call shop.whats_here" {
		t.Fatalf("defects recorded %+v", defects)
	}
	p.looks = looks
	if r := p.Call(context.Background(), "shop.whats_here", nil); !r.OK() {
		t.Fatalf("after the defect: %s", r.JSON())
	}
}
