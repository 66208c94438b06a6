package journey

import (
	"io"
	"log/slog"
	"testing"
	"time"
)

// TestObserversPart exercises the observers part alone: a delivery is
// queued, not made, until the outbox is taken; an observer removed gets
// nothing; a panicking observer is a Defect and the next one still gets
// the value; defects stay bounded.
func TestObserversPart(t *testing.T) {
	o := &observers{now: time.Now, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	var got []int64
	stop := o.OnState(func(c StateChange) { got = append(got, c.Version) })
	o.OnState(func(StateChange) { panic("observer broke") })
	var after []int64
	o.OnState(func(c StateChange) { after = append(after, c.Version) })
	emit(o, &o.onState, "state observer", StateChange{Version: 1})
	if len(got) != 0 {
		t.Fatal("delivered before the outbox was taken")
	}
	for _, f := range o.takeOutbox() {
		f()
	}
	if len(got) != 1 || len(after) != 1 || len(o.Defects()) != 1 || o.Defects()[0].Where != "state observer" {
		t.Fatalf("got %v, after %v, defects %v", got, after, o.Defects())
	}
	stop()
	emit(o, &o.onState, "state observer", StateChange{Version: 2})
	for _, f := range o.takeOutbox() {
		f()
	}
	if len(got) != 1 || len(after) != 2 {
		t.Fatalf("a removed observer was called: %v, %v", got, after)
	}
	if len(o.takeOutbox()) != 0 {
		t.Fatal("the outbox is emptied when taken")
	}
	for range 3 * maxDefects {
		o.defect("x", "y")
	}
	if n := len(o.Defects()); n > 2*maxDefects || n < maxDefects {
		t.Fatalf("%d defects held", n)
	}
}
