package journey

import (
	"slices"
	"strconv"
	"testing"
)

// TestLedgersOnceRule exercises the once-only rule on the ledgers alone:
// which fire counts as done (at rest, not refused, materialized), what
// a served row still offers (onceHeld), and when the person acting since
// makes a new fire a repeat (personSince).
func TestLedgersOnceRule(t *testing.T) {
	g := MustNewGraph("o", GraphDef{Pages: []Page{{ID: "p", Actions: []Action{
		{Name: "pay", Does: "Pay.", Concurrency: Concurrency{Once: true}},
		{Name: "pay-each", Does: "Pay one.", Concurrency: Concurrency{Once: true, PerInstance: true}},
	}}}})
	pay, each := g.actionIndex["p.pay"], g.actionIndex["p.pay-each"]
	type fire struct {
		an       *actionNode
		instance string
		settled  bool
		refused  bool
		tour     bool
	}
	for _, c := range []struct {
		name      string
		fires     []fire
		an        *actionNode
		keys      []string
		left      []string
		prior     bool // onceHeld names a settled fire
		doneFor   string
		doneFound bool
	}{
		{name: "nothing fired", an: pay, keys: nil, left: nil},
		{name: "a fire not at rest is not done", fires: []fire{{an: pay}}, an: pay},
		{name: "a settled fire is done", fires: []fire{{an: pay, settled: true}}, an: pay, prior: true, doneFound: true},
		{name: "a refused fire is not done", fires: []fire{{an: pay, settled: true, refused: true}}, an: pay},
		{name: "a tour is not done", fires: []fire{{an: pay, settled: true, tour: true}}, an: pay},
		{name: "per instance: the paid one drops", fires: []fire{{an: each, instance: "a", settled: true}}, an: each,
			keys: []string{"a", "b"}, left: []string{"b"}, doneFor: "a", doneFound: true},
		{name: "per instance: all paid names the newest", fires: []fire{{an: each, instance: "a", settled: true}, {an: each, instance: "b", settled: true}}, an: each,
			keys: []string{"a", "b"}, prior: true, doneFor: "b", doneFound: true},
		{name: "per instance: another instance is not this one", fires: []fire{{an: each, instance: "a", settled: true}}, an: each,
			keys: []string{"b"}, left: []string{"b"}, doneFor: "b"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := newLedgers(g, Retention{})
			for i, f := range c.fires {
				seq := int64(i + 1)
				r := &record{an: f.an, seq: seq, fired: true, done: make(chan struct{})}
				r.t = Transition{ID: f.an.id + "#" + strconv.FormatInt(seq, 10), Instance: f.instance, Outcome: OutcomeCommitted, Version: seq}
				if f.tour {
					r.t.Materialized = falsePtr()
				}
				l.add(r, nil)
				if f.settled {
					r.settled = true
					r.receipt = Settlement{EffectStatus: EffectPerformed, Version: seq}
					if f.refused {
						r.receipt.EffectStatus = EffectRefused
					}
					l.rest(r)
				}
			}
			left, prior := l.onceHeld(c.an, c.keys)
			if !slices.Equal(left, c.left) || (prior != "") != c.prior {
				t.Fatalf("onceHeld: left %v, prior %q; want %v, prior %v", left, prior, c.left, c.prior)
			}
			if got := l.onceDone(c.an, c.doneFor); (got != nil) != c.doneFound {
				t.Fatalf("onceDone(%q) = %v, want found %v", c.doneFor, got, c.doneFound)
			}
		})
	}
	// The person acting after the receipt makes a new fire a repeat.
	l := newLedgers(g, Retention{})
	r := &record{an: pay, seq: 1, fired: true, settled: true, receipt: Settlement{EffectStatus: EffectPerformed, Version: 2}, done: make(chan struct{})}
	r.t = Transition{ID: "p.pay#1", Version: 1}
	l.add(r, nil)
	if l.personSince(r) {
		t.Fatal("nobody acted since")
	}
	l.add(&record{seq: 2, t: Transition{ID: "stimulus:state#2", Actor: ActorUser, Version: 3}}, nil)
	if !l.personSince(r) {
		t.Fatal("the person acted after the receipt")
	}
}
